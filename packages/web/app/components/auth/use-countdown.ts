import { useEffect, useState } from 'react'

/** Whole seconds from now until `deadlineMs` (epoch ms); 0 when passed or null. */
export function secondsUntil(deadlineMs: number | null, nowMs = Date.now()): number {
  return deadlineMs === null ? 0 : Math.max(0, Math.ceil((deadlineMs - nowMs) / 1000))
}

/**
 * The seconds left until `deadlineMs`, ticking once a second. Counted from the clock, not from
 * ticks, so a throttled background tab still shows the right number.
 */
export function useCountdown(deadlineMs: number | null): number {
  const [left, setLeft] = useState(() => secondsUntil(deadlineMs))
  useEffect(() => {
    setLeft(secondsUntil(deadlineMs))
    if (deadlineMs === null) return
    const timer = setInterval(() => {
      const next = secondsUntil(deadlineMs)
      setLeft(next)
      if (next === 0) clearInterval(timer)
    }, 1000)
    return () => clearInterval(timer)
  }, [deadlineMs])
  return left
}
