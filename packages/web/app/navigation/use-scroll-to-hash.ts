import { useEffect } from 'react'
import { useLocation } from 'react-router'

const USER_SCROLLS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const

/** How long the target is kept in view while what is above it settles. */
const SETTLE_MS = 2000

/**
 * Brings the element the address's #fragment names into view once `ready`, on a page whose
 * content appears after the browser looked for it (rendered in the browser after the session
 * loads: `/account/home#signed-in-devices`). While the lists above it load and push it down, it is
 * brought back, until the user scrolls, types or taps, or `SETTLE_MS` have passed.
 */
export function useScrollToHash(ready: boolean): void {
  const { hash } = useLocation()
  useEffect(() => {
    if (!ready || hash.length < 2) return
    let id: string
    try {
      id = decodeURIComponent(hash.slice(1))
    } catch {
      return
    }
    const target = document.getElementById(id)
    if (!target) return
    const bring = () => target.scrollIntoView({ block: 'start' })
    bring()
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(bring)
    observer?.observe(document.body)
    const stop = () => {
      observer?.disconnect()
      window.clearTimeout(timer)
      for (const event of USER_SCROLLS) window.removeEventListener(event, stop)
    }
    const timer = window.setTimeout(stop, SETTLE_MS)
    for (const event of USER_SCROLLS) window.addEventListener(event, stop, { passive: true })
    return stop
  }, [ready, hash])
}
