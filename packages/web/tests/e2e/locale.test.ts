// Locale routing in a real browser (product spec 2 and 9): the browser-language redirect from
// the root path only, the i18n_redirected cookie, prefixes, <html lang/dir>, and the client-side
// language switch loading only the new locale's message chunk.
import { LOCALE_COOKIE, LOCALES } from '@cumulus/protocol'
import type { Page } from 'playwright-core'
import { describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import ko from '../../app/locales/ko/index'
import { chooseFromMenu, htmlLangDir, PHONE, recordDocumentRequests, recordScripts, test, waitForHydration } from './playwright-utils'

const DAY_SECONDS = 86_400
/** A locale's message chunks: `/assets/ko-<hash>.js` (the app's tables, and the API error texts). */
const LOCALE_CHUNK = new RegExp(`/assets/(${LOCALES.join('|')})-[^/]*\\.js$`)

/** The locales whose message chunks are among `urls`, each once. */
function chunkLocales(urls: readonly string[]): string[] {
  return [...new Set(urls.map((url) => LOCALE_CHUNK.exec(new URL(url).pathname)?.[1]).filter((l): l is string => l !== undefined))].sort()
}

async function localeCookie(page: Page) {
  return (await page.context().cookies()).find((c) => c.name === LOCALE_COOKIE.name)
}

function path(page: Page): string {
  const url = new URL(page.url())
  return url.pathname + url.search
}

describe('first access to the root path', () => {
  test('a Korean browser is redirected from / to /ko and the choice is remembered for 365 days', async ({ openPage }) => {
    const { page } = await openPage({ locale: 'ko-KR' })
    const documents = recordDocumentRequests(page)
    const response = await page.goto('/')

    expect(path(page)).toBe('/ko')
    expect(documents).toEqual(['/', '/ko'])
    expect(response?.request().redirectedFrom()?.url()).toMatch(/\/$/)
    expect(await htmlLangDir(page)).toEqual({ lang: 'ko', dir: 'ltr' })
    const cookie = await localeCookie(page)
    expect(cookie).toMatchObject({ value: 'ko', path: '/', sameSite: 'Lax', httpOnly: false })
    const expectedExpiry = Date.now() / 1000 + LOCALE_COOKIE.maxAgeDays * DAY_SECONDS
    expect(Math.abs(cookie!.expires - expectedExpiry)).toBeLessThan(60)
  })

  test('a locale cookie set earlier wins over the browser language', async ({ openPage, server }) => {
    const { page, context } = await openPage({ locale: 'ko-KR' })
    await context.addCookies([{ name: LOCALE_COOKIE.name, value: 'zh-TW', url: server.url }])
    await page.goto('/')

    expect(path(page)).toBe('/zh-TW')
    expect(await htmlLangDir(page)).toEqual({ lang: 'zh-TW', dir: 'ltr' })
    expect((await localeCookie(page))?.value).toBe('zh-TW')
  })

  test('an English browser stays on / and gets the cookie for en-US', async ({ openPage }) => {
    const { page } = await openPage({ locale: 'en-US' })
    const documents = recordDocumentRequests(page)
    const response = await page.goto('/')

    expect(response?.status()).toBe(200)
    expect(documents).toEqual(['/'])
    expect(await htmlLangDir(page)).toEqual({ lang: 'en-US', dir: 'ltr' })
    expect((await localeCookie(page))?.value).toBe('en-US')
  })
})

describe('other paths', () => {
  test('only the root path redirects: /about in a Korean browser stays English and sets no cookie', async ({ openPage }) => {
    const { page } = await openPage({ locale: 'ko-KR' })
    const documents = recordDocumentRequests(page)
    const response = await page.goto('/about')

    expect(response?.status()).toBe(200)
    expect(documents).toEqual(['/about'])
    expect(await htmlLangDir(page)).toEqual({ lang: 'en-US', dir: 'ltr' })
    expect(await localeCookie(page)).toBeUndefined()
  })

  test('the default locale is never a prefix: /en-US/about redirects to /about', async ({ openPage }) => {
    const { page } = await openPage()
    const response = await page.goto('/en-US/about?x=1')

    expect(path(page)).toBe('/about?x=1')
    const redirect = response?.request().redirectedFrom()
    expect(redirect && new URL(redirect.url()).pathname).toBe('/en-US/about')
    expect((await redirect?.response())?.status()).toBe(301)
    expect(await htmlLangDir(page)).toEqual({ lang: 'en-US', dir: 'ltr' })
  })

  test('/ko/about renders in Korean, left to right', async ({ openPage }) => {
    const { page } = await openPage()
    await page.goto('/ko/about')

    expect(await htmlLangDir(page)).toEqual({ lang: 'ko', dir: 'ltr' })
    await expect.poll(() => page.getByRole('navigation', { name: ko.common.nav.primary }).getByRole('link', { name: ko.common.nav.about }).count()).toBe(1)
    // The switcher's accessible name is Korean too.
    await expect.poll(() => page.getByRole('button', { name: ko.common.language.changeTo.trim() }).getAttribute('data-testid')).toBe('language-switcher')
    // Lines break between Korean words, not inside them.
    expect(await page.evaluate(() => getComputedStyle(document.body).wordBreak)).toBe('keep-all')
    await page.goto('/about')
    expect(await page.evaluate(() => getComputedStyle(document.body).wordBreak)).toBe('normal')
  })
})

describe('the language switcher', () => {
  test('switches to Korean on the client: /ko prefix, Korean text, the cookie, and only the Korean chunk', async ({ openPage }) => {
    const { page } = await openPage({ locale: 'en-US' })
    const scripts = recordScripts(page)
    const documents = recordDocumentRequests(page)
    await page.goto('/about')
    await waitForHydration(page)

    // First load: no other locale's tables reach the browser.
    expect(chunkLocales(scripts).every((l) => l === 'en-US')).toBe(true)
    const nav = page.getByRole('navigation', { name: en.common.nav.primary })
    await expect.poll(() => nav.getByRole('link', { name: en.common.nav.about }).count()).toBe(1)

    const beforeSwitch = scripts.length
    await chooseFromMenu(page, 'language-switcher', '한국어')

    await page.waitForURL((url) => url.pathname === '/ko/about')
    const koNav = page.getByRole('navigation', { name: ko.common.nav.primary })
    await expect.poll(() => koNav.getByRole('link', { name: ko.common.nav.about }).textContent()).toBe(ko.common.nav.about)
    await expect.poll(() => htmlLangDir(page)).toEqual({ lang: 'ko', dir: 'ltr' })
    expect((await localeCookie(page))?.value).toBe('ko')
    // A client-side navigation: the document was requested once, on the first load.
    expect(documents).toEqual(['/about'])
    // The switch downloaded Korean tables and nothing for the four other locales.
    expect(chunkLocales(scripts.slice(beforeSwitch))).toEqual(['ko'])
  })

  test('a Korean first load downloads only Korean message chunks', async ({ openPage }) => {
    const { page } = await openPage({ locale: 'ko-KR' })
    const scripts = recordScripts(page)
    await page.goto('/ko/about')
    await waitForHydration(page)

    expect(chunkLocales(scripts)).toEqual(['ko'])
  })
})

describe('the phone header', () => {
  test('keeps each link of the row under the bar on one line in every language (the row scrolls instead)', async ({ openPage }) => {
    const { page } = await openPage({ ...PHONE })
    for (const locale of LOCALES) {
      await page.goto(locale === 'en-US' ? '/about' : `/${locale}/about`)
      const links = page.getByTestId('header-drive-phone').locator('xpath=..').getByRole('link')
      const heights = await links.evaluateAll((elements) => elements.map((element) => [element.textContent, Math.round(element.getBoundingClientRect().height)] as const))
      expect(heights.length, locale).toBeGreaterThanOrEqual(3)
      // One line of text at 14 px plus the padding: 36 px; a wrapped label doubles its line.
      for (const [label, height] of heights) expect([locale, label, height]).toEqual([locale, label, 36])
    }
  })
})
