import { RIPPLE_DURATION_MS } from '@cumulus/protocol'
import type { PointerEvent } from 'react'

export type RippleSpeed = keyof typeof RIPPLE_DURATION_MS

/**
 * The press ripple of buttons (spec 9: fast 150 ms, normal 250, slow 500). A span is added at
 * the pointer and removed when its animation ends; users who prefer reduced motion see none.
 */
export function startRipple(event: PointerEvent<HTMLElement>, speed: RippleSpeed = 'normal'): void {
  const host = event.currentTarget
  if (typeof window === 'undefined' || window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return
  const rect = host.getBoundingClientRect()
  const size = Math.max(rect.width, rect.height)
  const ripple = document.createElement('span')
  ripple.setAttribute('aria-hidden', 'true')
  ripple.className = 'pointer-events-none absolute rounded-full bg-current animate-ripple'
  Object.assign(ripple.style, {
    width: `${size}px`,
    height: `${size}px`,
    left: `${event.clientX - rect.left - size / 2}px`,
    top: `${event.clientY - rect.top - size / 2}px`,
    animationDuration: `${RIPPLE_DURATION_MS[speed]}ms`,
  })
  ripple.addEventListener('animationend', () => ripple.remove())
  host.append(ripple)
}
