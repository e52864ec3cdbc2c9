import { act, render, screen } from '@testing-library/react'
import { createRef } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { computeWindow, VirtualList, type VirtualListHandle } from './virtual-list'

describe('computeWindow', () => {
  it('covers the visible rows plus the overscan on each side', () => {
    // Rows of 50 px, 500 px visible from 1000 px down: rows 20..29 visible.
    expect(computeWindow({ visibleTop: 1000, visibleBottom: 1500, rowHeight: 50, count: 1000, overscan: 5 })).toEqual({ start: 15, end: 35 })
  })

  it('is clamped to the list at both ends', () => {
    expect(computeWindow({ visibleTop: 0, visibleBottom: 500, rowHeight: 50, count: 1000, overscan: 5 })).toEqual({ start: 0, end: 15 })
    expect(computeWindow({ visibleTop: 49_800, visibleBottom: 50_300, rowHeight: 50, count: 1000, overscan: 5 })).toEqual({ start: 991, end: 1000 })
    expect(computeWindow({ visibleTop: 0, visibleBottom: 500, rowHeight: 50, count: 0, overscan: 5 })).toEqual({ start: 0, end: 0 })
  })

  it('a list starting below the viewport (negative visible part) renders only the overscan', () => {
    expect(computeWindow({ visibleTop: -800, visibleBottom: -300, rowHeight: 50, count: 100, overscan: 3 })).toEqual({ start: 0, end: 3 })
  })

  it('the window size does not depend on the number of rows', () => {
    const small = computeWindow({ visibleTop: 5000, visibleBottom: 5800, rowHeight: 56, count: 1000, overscan: 8 })
    const huge = computeWindow({ visibleTop: 5000, visibleBottom: 5800, rowHeight: 56, count: 100_000, overscan: 8 })
    expect(huge).toEqual(small)
    expect(huge.end - huge.start).toBeLessThan(40)
  })
})

/** A scroll box of `height` px as the browser would report it (happy-dom does no layout). */
function giveLayout(scroller: HTMLElement, height: number) {
  Object.defineProperty(scroller, 'clientHeight', { configurable: true, get: () => height })
}

function rowsShown(): number[] {
  return screen.queryAllByTestId('row').map((row) => Number(row.dataset.index))
}

describe('VirtualList', () => {
  const renderRow = (index: number, style: React.CSSProperties) => (
    <div key={index} data-testid="row" data-index={index} style={style}>
      Row {index}
    </div>
  )

  it('renders only the rows in view out of 100,000, each at its own offset in a box as tall as all rows', () => {
    const { container } = render(<VirtualList count={100_000} rowHeight={50} overscan={2} scroll="self" height={300} renderRow={renderRow} role="list" />)
    const shown = rowsShown()
    expect(shown[0]).toBe(0)
    expect(shown.length).toBeLessThanOrEqual(10)
    const box = container.querySelector('[role="list"]') as HTMLElement
    expect(box.style.height).toBe('5000000px')
    expect(screen.getByText('Row 3').style.transform).toBe('translateY(150px)')
  })

  it('follows the scroll position, and reports the new range', () => {
    const onRangeChange = vi.fn()
    const { container } = render(<VirtualList count={100_000} rowHeight={50} overscan={2} scroll="self" height={300} renderRow={renderRow} onRangeChange={onRangeChange} />)
    const scroller = container.firstElementChild as HTMLElement
    giveLayout(scroller, 300)
    act(() => {
      scroller.scrollTop = 50 * 70_000
      scroller.dispatchEvent(new Event('scroll'))
    })
    const shown = rowsShown()
    expect(shown[0]).toBe(69_998)
    expect(shown[shown.length - 1]).toBe(70_007)
    expect(onRangeChange).toHaveBeenLastCalledWith({ start: 69_998, end: 70_008 })
  })

  it('keeps the row named by keepIndex rendered when it is scrolled out of view (it holds the focus)', () => {
    const { container } = render(<VirtualList count={1000} rowHeight={50} overscan={0} scroll="self" height={200} keepIndex={2} renderRow={renderRow} />)
    const scroller = container.firstElementChild as HTMLElement
    giveLayout(scroller, 200)
    act(() => {
      scroller.scrollTop = 50 * 500
      scroller.dispatchEvent(new Event('scroll'))
    })
    expect(rowsShown()).toEqual([2, 500, 501, 502, 503])
  })

  it('scrollToIndex scrolls as little as needed to show a row whole', () => {
    const ref = createRef<VirtualListHandle>()
    const { container } = render(<VirtualList ref={ref} count={1000} rowHeight={50} scroll="self" height={200} renderRow={renderRow} />)
    const scroller = container.firstElementChild as HTMLElement
    giveLayout(scroller, 200)
    act(() => ref.current!.scrollToIndex(10))
    // Row 10 spans 500..550; the view ends at its bottom edge.
    expect(scroller.scrollTop).toBe(350)
    act(() => ref.current!.scrollToIndex(9))
    expect(scroller.scrollTop).toBe(350)
    act(() => ref.current!.scrollToIndex(2))
    expect(scroller.scrollTop).toBe(100)
    expect(ref.current!.pageRows()).toBe(3)
  })

  it('in window mode, measures its place in the viewport on scroll', () => {
    const { container } = render(<VirtualList count={100_000} rowHeight={50} overscan={1} scroll="window" renderRow={renderRow} />)
    const box = container.firstElementChild as HTMLElement
    // The list's top has scrolled 10,000 px above the viewport's top; the viewport is 768 px.
    box.getBoundingClientRect = () => ({ top: -10_000, bottom: 0, left: 0, right: 0, width: 0, height: 0, x: 0, y: -10_000, toJSON: () => ({}) })
    act(() => {
      window.dispatchEvent(new Event('scroll'))
    })
    const shown = rowsShown()
    expect(shown[0]).toBe(199)
    expect(shown[shown.length - 1]).toBe(200 + Math.ceil(window.innerHeight / 50))
  })
})
