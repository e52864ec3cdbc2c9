import { sameOriginLocation } from '@cumulus/protocol'

/**
 * Spec 2: navigation to an external URL is refused unless explicitly allowed. Every navigation
 * whose target comes from outside the code (a `?redirect=` parameter, a server reply) goes
 * through here, which also closes the open-redirect hole of "come back after sign-in".
 */

/** Schemes never navigated to, even when external navigation is allowed: they run code or read local data. */
export const UNSAFE_SCHEMES: ReadonlySet<string> = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:', 'filesystem:'])

export type NavigationTarget =
  | { kind: 'internal'; path: string }
  | { kind: 'external'; url: string }
  | { kind: 'refused'; reason: 'external_not_allowed' | 'unsafe_scheme' | 'invalid'; host?: string }

/**
 * Classifies `to` against the page's origin. Same-origin URLs become paths; other origins and
 * app schemes (`cumulus://open`, the /toapp deep link) are allowed only with `external: true`;
 * `javascript:`, `data:` and the like never are.
 */
export function resolveNavigationTarget(to: string, origin: string, options: { external?: boolean } = {}): NavigationTarget {
  if (typeof to !== 'string' || to.trim() === '') return { kind: 'refused', reason: 'invalid' }
  let url: URL
  try {
    url = new URL(to, origin)
  } catch {
    return { kind: 'refused', reason: 'invalid' }
  }
  if (UNSAFE_SCHEMES.has(url.protocol)) return { kind: 'refused', reason: 'unsafe_scheme' }
  if (url.origin === origin && (url.protocol === 'http:' || url.protocol === 'https:')) {
    // A path like `/.//evil.example` normalises to `//evil.example`, which a browser reads as
    // another host; collapse the leading slashes so the path stays on this origin.
    const pathname = url.pathname.replace(/^\/{2,}/, '/')
    return { kind: 'internal', path: `${pathname}${url.search}${url.hash}` }
  }
  if (options.external) return { kind: 'external', url: url.href }
  return { kind: 'refused', reason: 'external_not_allowed', host: url.host || url.protocol }
}

/** A same-origin path from an untrusted `redirect` value, or `fallback` (the server's rule: `sameOriginLocation`). */
export function safeRedirectPath(redirect: string | null | undefined, origin: string, fallback: string): string {
  if (!redirect || redirect.trim() === '') return fallback
  return sameOriginLocation(redirect, origin, fallback)
}
