import { resolveNavigationTarget } from '../navigation/safe-navigation'

/**
 * Sends the browser to a URL a server reply named: a provider's sign-in page, or the redirect URI
 * of the app that asked for consent (a web address or the app's own scheme). Schemes that run
 * code or read local data (`javascript:`, `data:`, ...) are refused: returns false, and nothing
 * happens.
 */
export function leaveTo(url: string): boolean {
  const target = resolveNavigationTarget(url, window.location.origin, { external: true })
  if (target.kind === 'refused') return false
  window.location.assign(target.kind === 'internal' ? target.path : target.url)
  return true
}

/** What to call a redirect URI's destination on the page: its host, or the app scheme (`com.example.app:/cb` → `com.example.app`). */
export function destinationOf(url: string): string {
  try {
    const parsed = new URL(url)
    return parsed.host || parsed.protocol.replace(/:$/, '')
  } catch {
    return url
  }
}
