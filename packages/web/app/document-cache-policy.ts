import { detectPlatform } from './components/platform/detect-platform'
import { documentLocale, splitLocalePath } from './i18n/locale-routing'

/**
 * Pages whose URLs are made for one visitor, once: a provider's code and state, an OAuth request's
 * state and PKCE challenge, a device's user code. Caching them would only fill the cache with
 * entries nobody asks for again, and keep those values in memory.
 */
const ONE_TIME_PAGES: ReadonlySet<string> = new Set(['/auth/callback', '/authorize', '/device'])

/**
 * How the server may cache a document request's HTML (packages/web/src/web-plugin.ts), or null
 * when the page must be rendered afresh. `key` names everything the HTML depends on: the URL and
 * the visitor's platform (the platform cards' order). `setCookies` are the per-visitor cookies
 * this request gets on top of the shared HTML (the locale cookie of a first visit to `/`); the
 * server adds them to a cached page and leaves them out of what it stores. A visitor the root
 * path redirects is never served from the cache.
 */
export function documentCachePolicy(request: Request): { key: string; setCookies: string[] } | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null
  const detected = documentLocale(request)
  if (detected.redirect) return null
  const url = new URL(request.url)
  if (ONE_TIME_PAGES.has(splitLocalePath(url.pathname).path)) return null
  return { key: `${url.origin}${url.pathname}${url.search}|${detectPlatform(request.headers.get('user-agent'))}`, setCookies: detected.setCookie ? [detected.setCookie] : [] }
}
