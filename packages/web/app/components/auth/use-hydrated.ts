import { useSyncExternalStore } from 'react'

const subscribeNothing = () => () => {}

/**
 * False on the server and during hydration, true afterwards (and at once for UI mounted later).
 * For output that differs between server and browser (stored session, the browser's Intl data),
 * so the first client render matches the server's HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  )
}
