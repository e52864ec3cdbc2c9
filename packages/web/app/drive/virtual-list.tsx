import { type CSSProperties, type HTMLAttributes, type ReactNode, type Ref, useCallback, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState } from 'react'

/** Rows `[start, end)` to render. */
export interface WindowRange {
  start: number
  end: number
}

export interface WindowInput {
  /** The visible part of the list, in pixels from the list's top (may reach past either end). */
  visibleTop: number
  visibleBottom: number
  rowHeight: number
  count: number
  /** Rows rendered beyond each edge, so a fast scroll does not show blank space. */
  overscan: number
}

/**
 * The rows that cover the visible part of a list of fixed-height rows, plus `overscan` rows on
 * each side. Work and DOM size depend on the viewport, never on `count`, which is what keeps a
 * folder of 100,000 files as smooth as one of ten.
 */
export function computeWindow({ visibleTop, visibleBottom, rowHeight, count, overscan }: WindowInput): WindowRange {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0 }
  const top = Math.max(0, visibleTop)
  const bottom = Math.max(top, visibleBottom)
  const first = Math.min(count, Math.floor(top / rowHeight))
  const last = Math.min(count, Math.ceil(bottom / rowHeight))
  return { start: Math.max(0, first - overscan), end: Math.min(count, last + overscan) }
}

/** Rows rendered before the first measurement (the server render, the first client frame). */
const INITIAL_ROWS = 24

export interface VirtualListHandle {
  /** Scrolls as little as needed to show the row at `index` whole. */
  scrollToIndex(index: number): void
  /** Rows that fit in the visible part (PageUp and PageDown move by this). */
  pageRows(): number
}

export interface VirtualListProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  count: number
  rowHeight: number
  overscan?: number
  /**
   * `window`: the page scrolls and the list is as tall as its rows (the drive page);
   * `self`: the list is a scroll box of `height` pixels (lists inside dialogs).
   */
  scroll: 'window' | 'self'
  height?: number
  /** With `scroll: 'window'`: pixels at the top of the viewport covered by sticky bars. */
  coveredTop?: number
  /** A row rendered even when scrolled out of view: the focused row keeps the DOM focus. */
  keepIndex?: number
  renderRow(index: number, style: CSSProperties): ReactNode
  /** Hears the rendered range after it changes (to load the next page near the end). */
  onRangeChange?(range: WindowRange): void
  ref?: Ref<VirtualListHandle>
}

/**
 * A windowed list of fixed-height rows: only the rows in view (and a few around them) are in the
 * DOM, absolutely positioned inside a box as tall as all the rows, so the scrollbar and the
 * scroll position are those of the whole list. The outer element carries the given attributes
 * (a grid's rowgroup, a listbox).
 */
export function VirtualList({ count, rowHeight, overscan = 8, scroll, height = 320, coveredTop = 0, keepIndex, renderRow, onRangeChange, ref, style, ...attributes }: VirtualListProps) {
  const boxRef = useRef<HTMLDivElement>(null)
  const scrollerRef = useRef<HTMLDivElement>(null)
  const [range, setRange] = useState<WindowRange>(() => ({ start: 0, end: Math.min(count, INITIAL_ROWS) }))

  const visible = useCallback((): { top: number; bottom: number } | null => {
    if (scroll === 'self') {
      const scroller = scrollerRef.current
      if (!scroller) return null
      return { top: scroller.scrollTop, bottom: scroller.scrollTop + (scroller.clientHeight || height) }
    }
    const box = boxRef.current
    if (!box) return null
    const top = box.getBoundingClientRect().top
    return { top: coveredTop - top, bottom: window.innerHeight - top }
  }, [scroll, height, coveredTop])

  const measure = useCallback(() => {
    const seen = visible()
    if (!seen) return
    const next = computeWindow({ visibleTop: seen.top, visibleBottom: seen.bottom, rowHeight, count, overscan })
    setRange((current) => (current.start === next.start && current.end === next.end ? current : next))
  }, [visible, rowHeight, count, overscan])

  // Measured before paint whenever the rows change, then on every scroll and resize.
  useLayoutEffect(measure, [measure])
  useEffect(() => {
    const target: HTMLElement | Window | null = scroll === 'self' ? scrollerRef.current : window
    if (!target) return
    target.addEventListener('scroll', measure, { passive: true })
    window.addEventListener('resize', measure)
    return () => {
      target.removeEventListener('scroll', measure)
      window.removeEventListener('resize', measure)
    }
  }, [scroll, measure])

  useEffect(() => {
    onRangeChange?.(range)
    // Reported when the range changes, not when the parent passes a new callback.
  }, [range.start, range.end])

  useImperativeHandle(
    ref,
    () => ({
      scrollToIndex(index: number) {
        if (index < 0 || index >= count) return
        if (scroll === 'self') {
          const scroller = scrollerRef.current
          if (!scroller) return
          const top = index * rowHeight
          const viewport = scroller.clientHeight || height
          if (top < scroller.scrollTop) scroller.scrollTop = top
          else if (top + rowHeight > scroller.scrollTop + viewport) scroller.scrollTop = top + rowHeight - viewport
          return
        }
        const box = boxRef.current
        if (!box) return
        const rowTop = box.getBoundingClientRect().top + index * rowHeight
        if (rowTop < coveredTop) window.scrollBy(0, rowTop - coveredTop)
        else if (rowTop + rowHeight > window.innerHeight) window.scrollBy(0, rowTop + rowHeight - window.innerHeight)
      },
      pageRows() {
        const seen = visible()
        return seen ? Math.max(1, Math.floor((seen.bottom - Math.max(0, seen.top)) / rowHeight) - 1) : 10
      },
    }),
    [count, rowHeight, scroll, height, coveredTop, visible],
  )

  const start = Math.min(range.start, count)
  const end = Math.min(range.end, count)
  const rows: ReactNode[] = []
  const rowStyle = (index: number): CSSProperties => ({ position: 'absolute', top: 0, left: 0, right: 0, height: rowHeight, transform: `translateY(${index * rowHeight}px)` })
  if (keepIndex !== undefined && keepIndex >= 0 && keepIndex < start) rows.push(renderRow(keepIndex, rowStyle(keepIndex)))
  for (let index = start; index < end; index += 1) rows.push(renderRow(index, rowStyle(index)))
  if (keepIndex !== undefined && keepIndex >= end && keepIndex < count) rows.push(renderRow(keepIndex, rowStyle(keepIndex)))

  const box = (
    <div ref={boxRef} {...attributes} style={{ ...style, position: 'relative', height: count * rowHeight }}>
      {rows}
    </div>
  )
  if (scroll === 'window') return box
  return (
    <div ref={scrollerRef} className="overflow-y-auto overscroll-contain" style={{ height }}>
      {box}
    </div>
  )
}
