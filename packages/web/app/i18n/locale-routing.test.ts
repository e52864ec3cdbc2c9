// @vitest-environment node
// Server-side code: a browser-like environment would strip the Cookie and Set-Cookie headers.
import { LOCALE_COOKIE, LOCALES } from '@cumulus/protocol'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  defaultLocaleRedirect,
  detectLocale,
  documentLocale,
  localeCookie,
  localeDirection,
  localeFromPath,
  localizedRouteName,
  localizePath,
  parseLocalizedRouteName,
  readCookie,
  splitLocalePath,
  switchLocalePath,
} from './locale-routing'
import { hostileFragment, staysOnOrigin } from '../../../../test-support/hostile-urls'
import { loader as defaultLocaleLoader } from '../routes/default-locale-redirect'

const request = (path: string, headers: Record<string, string> = {}) => new Request(`http://localhost${path}`, { headers })

describe('locale paths', () => {
  it('gives every locale but en-US a prefix', () => {
    expect(LOCALES.map((l) => localizePath('/about', l))).toEqual(['/about', '/id/about', '/ko/about', '/ms/about', '/zh-CN/about', '/zh-TW/about'])
    expect(localizePath('/', 'ko')).toBe('/ko')
    expect(localizePath('/', 'en-US')).toBe('/')
  })

  it('reads the locale and the unprefixed path back', () => {
    expect(splitLocalePath('/zh-TW/account/login')).toEqual({ locale: 'zh-TW', path: '/account/login' })
    expect(splitLocalePath('/ko')).toEqual({ locale: 'ko', path: '/' })
    expect(splitLocalePath('/about')).toEqual({ locale: 'en-US', path: '/about' })
    // A segment that only looks like a locale is an ordinary path.
    expect(splitLocalePath('/kor/about')).toEqual({ locale: 'en-US', path: '/kor/about' })
    expect(localeFromPath('/en-US/about')).toBe('en-US')
  })

  it('round-trips any path through every locale', () => {
    fc.assert(
      fc.property(fc.constantFrom(...LOCALES), fc.webPath(), (locale, raw) => {
        const path = raw.startsWith('/') ? raw : `/${raw}`
        // Paths that themselves start with a locale segment are another locale's pages.
        fc.pre(!LOCALES.some((l) => path === `/${l}` || path.startsWith(`/${l}/`)))
        expect(splitLocalePath(localizePath(path, locale))).toEqual({ locale, path })
      }),
    )
  })

  it('switches the same page to another language, keeping the query', () => {
    expect(switchLocalePath('/ko/account/login', '?redirect=%2Fko', 'zh-CN')).toBe('/zh-CN/account/login?redirect=%2Fko')
    expect(switchLocalePath('/ko', '', 'en-US')).toBe('/')
  })

  it('joins route names and locales with three underscores', () => {
    expect(localizedRouteName('account-login', 'zh-TW')).toBe('account-login___zh-TW')
    expect(parseLocalizedRouteName('account-login___zh-TW')).toEqual({ name: 'account-login', locale: 'zh-TW' })
    expect(parseLocalizedRouteName('not-found')).toBeNull()
    expect(parseLocalizedRouteName('about___xx')).toBeNull()
  })

  it('redirects /en-US paths to the unprefixed ones only', () => {
    expect(defaultLocaleRedirect('/en-US/about', '?a=1')).toBe('/about?a=1')
    expect(defaultLocaleRedirect('/en-US', '')).toBe('/')
    expect(defaultLocaleRedirect('/en-USA', '')).toBeNull()
    expect(defaultLocaleRedirect('/ko/about', '')).toBeNull()
  })

  it('writes right to left only for Arabic', () => {
    expect(LOCALES.map(localeDirection)).toEqual(LOCALES.map(() => 'ltr'))
    expect(localeDirection('ar')).toBe('rtl')
    expect(localeDirection('ar-EG')).toBe('rtl')
  })
})

describe('locale detection (first access)', () => {
  it('prefers a valid cookie over the browser language', () => {
    expect(detectLocale({ pathname: '/', cookieHeader: 'a=1; i18n_redirected=zh-TW', acceptLanguage: 'ko' })).toEqual({ locale: 'zh-TW', stat: true, reason: 'detected', from: 'cookie' })
  })

  it('falls back to the browser language when the cookie is missing or not a locale', () => {
    expect(detectLocale({ pathname: '/', cookieHeader: 'i18n_redirected=xx', acceptLanguage: 'fr;q=0.9, ms;q=0.8' })).toEqual({ locale: 'ms', stat: true, reason: 'detected', from: 'navigator_or_header' })
  })

  it('falls back to en-US when nothing matches', () => {
    expect(detectLocale({ pathname: '/', cookieHeader: null, acceptLanguage: 'fr, de' })).toEqual({ locale: 'en-US', stat: false, reason: 'no_match', from: 'fallback' })
  })

  it('does not detect on any path but the root', () => {
    expect(detectLocale({ pathname: '/ko/about', cookieHeader: 'i18n_redirected=id', acceptLanguage: 'ms' })).toMatchObject({ locale: 'ko', stat: false, reason: 'not_root_path' })
  })
})

describe('documentLocale', () => {
  it('redirects / to the browser language and remembers it in the cookie', () => {
    const { redirect, setCookie } = documentLocale(request('/?x=1', { 'accept-language': 'ko-KR,ko;q=0.9' }))
    expect(setCookie).toBeNull()
    expect(redirect?.status).toBe(302)
    expect(redirect?.headers.get('location')).toBe('/ko?x=1')
    expect(redirect?.headers.get('set-cookie')).toBe(`i18n_redirected=ko; Max-Age=${365 * 86_400}; Path=/; SameSite=Lax`)
  })

  it('stays on / for an English browser and sets the cookie once', () => {
    expect(documentLocale(request('/', { 'accept-language': 'en-GB' }))).toEqual({ redirect: null, setCookie: localeCookie('en-US') })
    expect(documentLocale(request('/', { 'accept-language': 'en-GB', cookie: 'i18n_redirected=en-US' }))).toEqual({ redirect: null, setCookie: null })
  })

  it('follows the cookie (an earlier choice) over the browser', () => {
    const { redirect } = documentLocale(request('/', { 'accept-language': 'ko', cookie: 'i18n_redirected=zh-CN' }))
    expect(redirect?.headers.get('location')).toBe('/zh-CN')
    expect(redirect?.headers.get('set-cookie')).toBeNull()
  })

  it('leaves every other path alone, whatever the browser and cookie say', () => {
    expect(documentLocale(request('/about', { 'accept-language': 'ko', cookie: 'i18n_redirected=zh-CN' }))).toEqual({ redirect: null, setCookie: null })
    expect(documentLocale(request('/ko', { 'accept-language': 'en' }))).toEqual({ redirect: null, setCookie: null })
  })

  it('sends the consent and device pages, which other apps open, to the language the app asks for, then the visitor\'s earlier choice, never by the browser alone', () => {
    const query = '?client_id=tv&ui_locales=zh-Hant%20en&state=s%201'
    expect(documentLocale(request(`/authorize${query}`, { 'accept-language': 'ko' })).redirect?.headers.get('location')).toBe(`/zh-TW/authorize${query}`)
    const { redirect, setCookie } = documentLocale(request('/device?user_code=WDJB-MJHT', { 'accept-language': 'ko', cookie: 'i18n_redirected=ms' }))
    expect({ status: redirect?.status, location: redirect?.headers.get('location'), cookie: redirect?.headers.get('set-cookie'), setCookie }).toEqual({ status: 302, location: '/ms/device?user_code=WDJB-MJHT', cookie: null, setCookie: null })
    // Spec 2: the browser language redirects only from the root path.
    expect(documentLocale(request('/device', { 'accept-language': 'id-ID' }))).toEqual({ redirect: null, setCookie: null })
  })

  it('opens a share link, which has no language of its own, in the language the visitor chose before', () => {
    const { redirect } = documentLocale(request('/s/AbC123xyz?pwd=1234', { 'accept-language': 'ko', cookie: 'i18n_redirected=zh-TW' }))
    expect({ status: redirect?.status, location: redirect?.headers.get('location') }).toEqual({ status: 302, location: '/zh-TW/s/AbC123xyz?pwd=1234' })
    expect(documentLocale(request('/s/AbC123xyz', { 'accept-language': 'ko' }))).toEqual({ redirect: null, setCookie: null })
    expect(documentLocale(request('/s/AbC123xyz', { cookie: 'i18n_redirected=en-US' }))).toEqual({ redirect: null, setCookie: null })
    expect(documentLocale(request('/ko/s/AbC123xyz', { cookie: 'i18n_redirected=zh-TW' }))).toEqual({ redirect: null, setCookie: null })
    // Only the share page itself: nothing deeper, and no look-alike path.
    expect(documentLocale(request('/s/AbC123xyz/extra', { cookie: 'i18n_redirected=ko' }))).toEqual({ redirect: null, setCookie: null })
    expect(documentLocale(request('/s//evil.example', { cookie: 'i18n_redirected=ko' }))).toEqual({ redirect: null, setCookie: null })
  })

  it('leaves the consent and device pages alone in English, or already in a language', () => {
    expect(documentLocale(request('/authorize?client_id=tv', { 'accept-language': 'en-GB,ko;q=0.5' }))).toEqual({ redirect: null, setCookie: null })
    expect(documentLocale(request('/device', { 'accept-language': 'ko', cookie: 'i18n_redirected=en-US' }))).toEqual({ redirect: null, setCookie: null })
    expect(documentLocale(request('/ko/authorize?ui_locales=zh-CN', { 'accept-language': 'ko' }))).toEqual({ redirect: null, setCookie: null })
    expect(documentLocale(request('/authorize?ui_locales=fr%20en', { 'accept-language': 'ko' }))).toEqual({ redirect: null, setCookie: null })
  })

  it('sends /en-US/... permanently to the unprefixed path', () => {
    const { redirect } = documentLocale(request('/en-US/account/login?redirect=%2F'))
    expect(redirect?.status).toBe(301)
    expect(redirect?.headers.get('location')).toBe('/account/login?redirect=%2F')
  })
})

describe('the locale cookie', () => {
  it('is the plain locale code for 365 days on / with SameSite=Lax', () => {
    expect(localeCookie('zh-TW')).toBe(`${LOCALE_COOKIE.name}=zh-TW; Max-Age=31536000; Path=/; SameSite=Lax`)
  })

  it('is read from a Cookie header by exact name', () => {
    expect(readCookie('xi18n_redirected=ko; i18n_redirected=id', 'i18n_redirected')).toBe('id')
    expect(readCookie('i18n_redirected=%E0%A4', 'i18n_redirected')).toBe('%E0%A4')
    expect(readCookie(null, 'i18n_redirected')).toBeNull()
  })
})

describe('locale redirects stay on our origin', () => {
  // Regression: documentLocale (and the /en-US catch-all's loader) answered `/en-US//evil.example`
  // with `Location: //evil.example`, which a browser follows to evil.example.
  const ORIGIN = 'http://localhost'
  const sendable = (fragment: string) => fragment.replace(/[\x00-\x20\x7f]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)

  it('documentLocale sends every hostile /en-US path and root query to a Location on the origin', () => {
    fc.assert(
      fc.property(hostileFragment, fc.constantFrom('/en-US/', '/en-US', '/?'), fc.constantFrom('', 'ko', 'zh-TW'), (fragment, prefix, language) => {
        let req: Request
        try {
          req = request(`${prefix}${sendable(fragment)}`, language ? { 'accept-language': language } : {})
        } catch {
          return // not a URL a browser could send
        }
        const location = documentLocale(req).redirect?.headers.get('location')
        if (location != null) expect(staysOnOrigin(location, ORIGIN), `${prefix}${fragment} -> ${location}`).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })

  it('the /en-US catch-all loader does too', async () => {
    await fc.assert(
      fc.asyncProperty(hostileFragment, async (fragment) => {
        let req: Request
        try {
          req = request(`/en-US/${sendable(fragment)}`)
        } catch {
          return
        }
        const response = (await defaultLocaleLoader({ request: req, params: {}, context: {} } as never)) as Response
        expect(staysOnOrigin(response.headers.get('location')!, ORIGIN), `${fragment} -> ${response.headers.get('location')}`).toBe(true)
      }),
      { numRuns: 500 },
    )
  })
})
