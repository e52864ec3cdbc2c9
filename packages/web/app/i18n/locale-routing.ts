import { DEFAULT_LOCALE, LOCALES, type Locale, LOCALE_COOKIE, isLocale, matchLocale, negotiateLocale, sameOriginLocation } from '@cumulus/protocol'

/**
 * Locale routing (product spec 2 and 9): the default locale (en-US) has no path prefix, every
 * other locale is the first path segment (`/ko/about`). A route's name and its locale are
 * joined by three underscores (`about___ko`), which is also the route id in routes.ts.
 */

export { DEFAULT_LOCALE, LOCALES, type Locale }

export const ROUTE_LOCALE_SEPARATOR = '___'

/** Languages written right to left. None of the six is; Arabic is the only one the spec names. */
const RTL_LANGUAGES = new Set(['ar'])

export function localeDirection(locale: string): 'ltr' | 'rtl' {
  return RTL_LANGUAGES.has(locale.split('-')[0]!.toLowerCase()) ? 'rtl' : 'ltr'
}

/** `about` + `ko` -> `about___ko`. */
export function localizedRouteName(name: string, locale: Locale): string {
  return `${name}${ROUTE_LOCALE_SEPARATOR}${locale}`
}

/** `about___ko` -> `{ name: 'about', locale: 'ko' }`; null for an id that is not localized. */
export function parseLocalizedRouteName(id: string): { name: string; locale: Locale } | null {
  const at = id.lastIndexOf(ROUTE_LOCALE_SEPARATOR)
  if (at <= 0) return null
  const locale = id.slice(at + ROUTE_LOCALE_SEPARATOR.length)
  return isLocale(locale) ? { name: id.slice(0, at), locale } : null
}

/** The path prefix of a locale: '' for the default, '/ko' otherwise. */
export function localePrefix(locale: Locale): string {
  return locale === DEFAULT_LOCALE ? '' : `/${locale}`
}

/**
 * The locale a path is in, and the path without its prefix. The default locale's own code is
 * not a prefix (`/en-US/about` is redirected, see `defaultLocaleRedirect`).
 */
export function splitLocalePath(pathname: string): { locale: Locale; path: string } {
  const match = /^\/([^/]+)(\/.*)?$/.exec(pathname)
  const first = match?.[1]
  if (first && first !== DEFAULT_LOCALE && isLocale(first)) return { locale: first, path: match?.[2] || '/' }
  return { locale: DEFAULT_LOCALE, path: pathname || '/' }
}

export function localeFromPath(pathname: string): Locale {
  return splitLocalePath(pathname).locale
}

/** `('/about', 'ko')` -> `/ko/about`; `('/', 'ko')` -> `/ko`. `path` is unprefixed. */
export function localizePath(path: string, locale: Locale): string {
  const clean = path.startsWith('/') ? path : `/${path}`
  const prefix = localePrefix(locale)
  if (!prefix) return clean
  return clean === '/' ? prefix : `${prefix}${clean}`
}

/** The same page in another locale: `/ko/about?x=1` -> `/zh-TW/about?x=1`. */
export function switchLocalePath(pathname: string, search: string, to: Locale): string {
  return `${localizePath(splitLocalePath(pathname).path, to)}${search}`
}

/**
 * `/en-US/about?x` -> `/about?x`: the default locale is never a prefix. Null when not such a path.
 * The result is built from the request's path, so `/en-US//evil.example` gives `//evil.example`:
 * never send it as a Location without `sameOriginLocation` (see `documentLocale`).
 */
export function defaultLocaleRedirect(pathname: string, search: string): string | null {
  if (pathname !== `/${DEFAULT_LOCALE}` && !pathname.startsWith(`/${DEFAULT_LOCALE}/`)) return null
  return `${pathname.slice(DEFAULT_LOCALE.length + 1) || '/'}${search}`
}

/** The locale detection result of the spec's section 3. */
export interface LocaleDetection {
  locale: Locale
  /** True when the locale was found (cookie or browser); false when it fell back. */
  stat: boolean
  reason: 'detected' | 'not_root_path' | 'not_first_access' | 'no_match'
  from: 'cookie' | 'navigator_or_header' | 'fallback' | 'path'
}

/**
 * Browser-language detection for a document request (spec 2: only from the root path; the
 * locale cookie is read only on this first, server-rendered access, never on client-side
 * navigation). A valid cookie wins over `Accept-Language`.
 */
export function detectLocale(input: { pathname: string; cookieHeader: string | null; acceptLanguage: string | null }): LocaleDetection {
  if (input.pathname !== '/') return { locale: localeFromPath(input.pathname), stat: false, reason: 'not_root_path', from: 'path' }
  const cookie = readCookie(input.cookieHeader, LOCALE_COOKIE.name)
  if (cookie !== null && isLocale(cookie)) return { locale: cookie, stat: true, reason: 'detected', from: 'cookie' }
  const fromHeader = matchAcceptLanguage(input.acceptLanguage)
  if (fromHeader) return { locale: fromHeader, stat: true, reason: 'detected', from: 'navigator_or_header' }
  return { locale: DEFAULT_LOCALE, stat: false, reason: 'no_match', from: 'fallback' }
}

/** The best of the six locales for an Accept-Language header, or null when none of its tags fits. */
function matchAcceptLanguage(header: string | null): Locale | null {
  // negotiateLocale always answers; two different fallbacks tell a match from a fallback.
  const withDefault = negotiateLocale(header, DEFAULT_LOCALE)
  return withDefault === negotiateLocale(header, 'zh-CN') ? withDefault : null
}

/**
 * Pages other apps send the browser to: the consent page (from GET /v1/auth/authorize) and the
 * device page (a TV's "open <site>/device"). The product's rule stands (spec 2: the browser
 * language redirects only from the root path), so Accept-Language is not read here; but the app
 * may name the language (OpenID Connect's `ui_locales`), and the visitor's own earlier choice
 * (the cookie) is kept. Neither writes the cookie: nobody chose on this visit.
 */
export const ENTRY_PATHS: ReadonlySet<string> = new Set(['/authorize', '/device'])

/**
 * Whether a path is an entry page: one of `ENTRY_PATHS`, or a share link (`/s/{id}`, the address
 * the drive hands out without a language, since the sharer cannot know the recipient's). A
 * recipient who chose a language here before reads the share in it.
 */
export function isEntryPath(pathname: string): boolean {
  return ENTRY_PATHS.has(pathname) || /^\/s\/[^/]+\/?$/.test(pathname)
}

/** The first of OpenID Connect's `ui_locales` (space-separated tags, preferred first) that is one of the six, or null. */
export function uiLocale(uiLocales: string | null): Locale | null {
  for (const tag of (uiLocales ?? '').slice(0, 256).split(' ')) {
    const locale = matchLocale(tag)
    if (locale) return locale
  }
  return null
}

/** What a document request needs before it is rendered (see `documentLocale`). */
export interface DocumentLocale {
  /** A redirect to send instead of the page: `/en-US/...` to the unprefixed path, or `/` to the detected locale's root. */
  redirect: Response | null
  /** A Set-Cookie value remembering the detected locale, when the cookie does not hold it yet. */
  setCookie: string | null
}

/**
 * Locale handling of a server-rendered (first) access. Only the root path redirects by browser
 * language; every other path keeps the locale its prefix names.
 */
export function documentLocale(request: Request): DocumentLocale {
  const url = new URL(request.url)
  const toDefault = defaultLocaleRedirect(url.pathname, url.search)
  // The target comes from the request's path: `sameOriginLocation` keeps it on this origin.
  if (toDefault !== null) return { redirect: new Response(null, { status: 301, headers: { location: sameOriginLocation(toDefault, url.origin) } }), setCookie: null }
  if (isEntryPath(url.pathname)) return { redirect: entryPageRedirect(request, url), setCookie: null }
  if (url.pathname !== '/') return { redirect: null, setCookie: null }
  const cookieHeader = request.headers.get('cookie')
  const detection = detectLocale({ pathname: url.pathname, cookieHeader, acceptLanguage: request.headers.get('accept-language') })
  const setCookie = readCookie(cookieHeader, LOCALE_COOKIE.name) === detection.locale ? null : localeCookie(detection.locale)
  if (detection.locale === DEFAULT_LOCALE) return { redirect: null, setCookie }
  const headers = new Headers({ location: sameOriginLocation(`${localizePath('/', detection.locale)}${url.search}`, url.origin), vary: 'cookie, accept-language' })
  if (setCookie) headers.append('set-cookie', setCookie)
  return { redirect: new Response(null, { status: 302, headers }), setCookie: null }
}

/** An entry page (`isEntryPath`) in the visitor's language, or null when that is the default. */
function entryPageRedirect(request: Request, url: URL): Response | null {
  const locale = uiLocale(url.searchParams.get('ui_locales')) ?? matchLocale(readCookie(request.headers.get('cookie'), LOCALE_COOKIE.name)) ?? DEFAULT_LOCALE
  if (locale === DEFAULT_LOCALE) return null
  return new Response(null, {
    status: 302,
    headers: { location: sameOriginLocation(`${localizePath(url.pathname, locale)}${url.search}`, url.origin), vary: 'cookie' },
  })
}

/** The `i18n_redirected` cookie: the plain locale code, 365 days, path /, SameSite=Lax. */
export function localeCookie(locale: Locale): string {
  const maxAge = LOCALE_COOKIE.maxAgeDays * 86_400
  return `${LOCALE_COOKIE.name}=${locale}; Max-Age=${maxAge}; Path=${LOCALE_COOKIE.path}; SameSite=Lax`
}

/** Sets the locale cookie from the browser (the language switcher). */
export function writeLocaleCookie(locale: Locale): void {
  document.cookie = localeCookie(locale)
}

/** Reads one cookie's value from a Cookie header; null when absent. */
export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq === -1) continue
    if (part.slice(0, eq).trim() !== name) continue
    const raw = part.slice(eq + 1).trim()
    try {
      return decodeURIComponent(raw)
    } catch {
      return raw
    }
  }
  return null
}
