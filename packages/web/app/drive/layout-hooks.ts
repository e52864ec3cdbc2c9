import { type RefObject, useEffect, useLayoutEffect, useState } from 'react'

// useLayoutEffect warns during the server render; the measurements only matter in the browser.
const useBrowserLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect

/** The height of an element, kept current as it changes (0 before the first measurement). */
export function useElementHeight(ref: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(0)
  useBrowserLayoutEffect(() => {
    const element = ref.current
    if (!element) return
    const measure = () => setHeight(element.getBoundingClientRect().height)
    measure()
    if (typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [ref])
  return height
}

/**
 * The height of the site's sticky header (the layout's first `<header>`), so the drive's own
 * sticky bars sit right under it at every width (on phones it has a second row of links).
 */
export function useSiteHeaderHeight(): number {
  const [height, setHeight] = useState(64)
  useBrowserLayoutEffect(() => {
    const header = document.querySelector('header')
    if (!header) return
    const measure = () => setHeight(getComputedStyle(header).position === 'sticky' ? header.getBoundingClientRect().height : 0)
    measure()
    if (typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(measure)
    observer.observe(header)
    return () => observer.disconnect()
  }, [])
  return height
}
