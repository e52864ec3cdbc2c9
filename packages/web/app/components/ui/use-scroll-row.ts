import { type CSSProperties, type RefObject, useEffect, useState } from 'react'

/** How wide the fade at a scrolling row's cut edge is. */
const FADE = '1.5rem'

/**
 * For a row that scrolls sideways on a narrow screen (the drive's views, the search filters, the
 * phone header's links): the page's current item is scrolled into the row's view when it is
 * shown (the trash tab was off the screen on the trash page), and an edge with more behind it
 * fades out, so the row says it scrolls (a filter entirely past the edge gave no hint at all).
 *
 * `current` is a selector for the item to bring into view; `key` re-runs it (the view changed).
 * Returns the style to put on the row: a mask on the cut edges, none when everything fits.
 */
export function useScrollRow(ref: RefObject<HTMLElement | null>, { current = '[aria-current="page"]', key }: { current?: string; key?: unknown } = {}): CSSProperties {
  const [edges, setEdges] = useState({ start: false, end: false })

  useEffect(() => {
    const row = ref.current
    const item = row?.querySelector<HTMLElement>(current)
    if (!row || !item) return
    const rowBox = row.getBoundingClientRect()
    const itemBox = item.getBoundingClientRect()
    // Only the row moves (scrollIntoView would also scroll the page), and only when the item is cut.
    if (itemBox.left < rowBox.left || itemBox.right > rowBox.right) {
      row.scrollLeft += itemBox.left - rowBox.left - (rowBox.width - itemBox.width) / 2
    }
  }, [ref, current, key])

  useEffect(() => {
    const row = ref.current
    if (!row) return
    const measure = () => {
      // Right to left: scrollLeft runs from 0 down to negative values.
      const start = Math.abs(row.scrollLeft) > 1
      const end = row.scrollWidth - row.clientWidth - Math.abs(row.scrollLeft) > 1
      setEdges((was) => (was.start === start && was.end === end ? was : { start, end }))
    }
    measure()
    row.addEventListener('scroll', measure, { passive: true })
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure)
    resized?.observe(row)
    return () => {
      row.removeEventListener('scroll', measure)
      resized?.disconnect()
    }
  }, [ref])

  if (!edges.start && !edges.end) return {}
  const mask = `linear-gradient(to right, ${edges.start ? 'transparent' : 'black'}, black ${FADE}, black calc(100% - ${FADE}), ${edges.end ? 'transparent' : 'black'})`
  return { maskImage: mask, WebkitMaskImage: mask }
}
