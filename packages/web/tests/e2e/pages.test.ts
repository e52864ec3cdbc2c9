// Every page of the product (spec 2) loads in a real browser: the right status, the default
// layout (header with the language and theme switchers, main landmark, footer), <html lang>,
// hydration, and no console error or uncaught exception on the way.
import { describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import { htmlLangDir, test, waitForHydration } from './playwright-utils'

/** Each page of the spec with a path to open it by (decompress and share take an id). */
const PAGES = ['/', '/thunder', '/about', '/newbie/guide', '/toapp', '/search/associate', '/decompress/abc', '/account/login', '/account/home', '/account/unregister', '/password/recover', '/auth/callback', '/authorize', '/device', '/s/abc'] as const

describe('every page loads cleanly', () => {
  test.for(PAGES)('%s', async (path, { openPage }) => {
    const { page, errors } = await openPage()
    // A signed-out visitor's page asks without a session (so the server says whether the feature
    // exists): POST /decompress/v1/list answers 401, which the page turns into a sign-in, and
    // Chromium logs every 4xx fetch. Anything else still fails.
    if (path === '/decompress/abc') errors.ignore(/^console\.error: Failed to load resource: the server responded with a status of 401 .*\/decompress\/v1\//)
    const response = await page.goto(path)

    expect(response?.status()).toBe(200)
    expect(response?.headers()['content-type']).toMatch(/^text\/html/)
    expect(await htmlLangDir(page)).toEqual({ lang: 'en-US', dir: 'ltr' })
    await waitForHydration(page)
    expect(await page.getByRole('banner').count()).toBe(1)
    expect(await page.getByRole('main').count()).toBe(1)
    expect(await page.getByRole('contentinfo').count()).toBe(1)
    expect(await page.getByTestId('language-switcher').isVisible()).toBe(true)
    expect(await page.getByTestId('color-mode-switcher').isVisible()).toBe(true)
    expect(await page.getByRole('navigation', { name: en.common.nav.primary }).count()).toBe(1)
    // Errors are asserted by the openPage fixture after the test.
  })
})

// Regression (issue 10): the home, about and guide pages said the drive was coming later, and a
// signed-out visitor's header had no way to the drive.
describe('the drive, as a signed-out visitor meets it', () => {
  test('the home, about and guide pages link to the drive and no longer say it comes later', async ({ openPage }) => {
    const { page } = await openPage()
    const texts = [
      { path: '/', link: en.pages.home.hero.openDrive, said: en.pages.home.hero.today },
      { path: '/about', link: en.pages.about.product.openDrive, said: en.pages.about.product.today },
      { path: '/newbie/guide', link: en.pages.guide.upload.action, said: en.pages.guide.upload.body },
    ]
    for (const { path, link, said } of texts) {
      await page.goto(path)
      await waitForHydration(page)
      expect(await page.getByRole('main').getByRole('link', { name: link, exact: true }).getAttribute('href')).toBe('/drive')
      await page.getByText(said, { exact: true }).waitFor()
    }
    // The guide's upload step and the home's drive card are marked available.
    await page.goto('/newbie/guide')
    expect(await page.locator('#step-upload').getByText(en.pages.status.available, { exact: true }).count()).toBe(1)
  })

  // Regression: with offline downloads working, the guide still said links were only kept
  // "until cloud download arrives", and the guide's link step and the home's download card were
  // marked as coming later.
  test('cloud download is described and marked as available on the guide and the home page', async ({ openPage }) => {
    const { page } = await openPage()
    await page.goto('/newbie/guide')
    const step = page.locator('#step-link')
    await step.getByText(en.pages.guide.link.body, { exact: true }).waitFor()
    expect(await step.getByText(en.pages.status.available, { exact: true }).count()).toBe(1)
    await page.goto('/')
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: en.pages.home.features.download.title, exact: true }) })
    expect(await card.getByText(en.pages.status.available, { exact: true }).count()).toBe(1)
  })

  // Regression: with archives, search and membership working, the home and about pages still
  // said "Archives and search arrive in the coming releases" and marked their cards as later.
  test('archives, search and membership are marked available on the home page and the guide', async ({ openPage }) => {
    const { page } = await openPage()
    await page.goto('/')
    for (const key of ['decompress', 'search', 'vip'] as const) {
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: en.pages.home.features[key].title, exact: true }) })
      expect(await card.getByText(en.pages.status.available, { exact: true }).count(), key).toBe(1)
    }
    expect(await page.getByText(en.pages.status.later, { exact: true }).count()).toBe(0)
    for (const text of [en.pages.home.hero.today, en.pages.about.product.today]) expect(text).not.toMatch(/coming releases/)
    await page.goto('/newbie/guide')
    expect(await page.locator('#step-unpack').getByText(en.pages.status.available, { exact: true }).count()).toBe(1)
  })

  test("the header's Drive link leads a signed-out visitor to sign in, and the neutral header turns into Sign in", async ({ openPage }) => {
    const { page } = await openPage()
    await page.goto('/about')
    await waitForHydration(page)
    await page.getByTestId('header-sign-in').waitFor()
    expect(await page.getByTestId('header-account').count()).toBe(0)
    await page.getByTestId('header-drive').click()
    await page.waitForURL((url) => url.pathname === '/account/login' && url.searchParams.get('redirect') === '/drive')
  })
})
