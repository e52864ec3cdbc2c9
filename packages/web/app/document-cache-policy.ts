import { detectPlatform } from './components/platform/detect-platform'
import { documentLocale, splitLocalePath } from './i18n/locale-routing'

/**
 * Pages whose URLs are made for one visitor, once: a provider's code and state, an OAuth request's
 * state and PKCE challenge, a device's user code. Caching them would only fill the cache with
 * entries nobody asks for again, and keep those values in memory.
 */
const ONE_TIME_PAGES: ReadonlySet<string> = new Set(['/auth/callback', '/authorize', '/device'])

/**
 * Share pages (`/s/{share_id}`): their title and preview tags follow the share as it is now (a
 * cancelled or expired share must stop showing its title at once), and their URLs may carry a
 * pass code (`?pwd=`), which must not sit in memory as a cache key.
 */
const SHARE_PAGE_PREFIX = '/s/'

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
  const path = splitLocalePath(url.pathname).path
  if (ONE_TIME_PAGES.has(path) || path.startsWith(SHARE_PAGE_PREFIX)) return null
  return { key: `${url.origin}${url.pathname}${url.search}|${detectPlatform(request.headers.get('user-agent'))}`, setCookies: detected.setCookie ? [detected.setCookie] : [] }
}
