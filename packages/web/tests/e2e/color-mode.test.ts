// Colour mode in a real browser (product spec 2, 3 and 4): the preference (light, dark or
// system) is kept in localStorage, applied to <html> before the first paint, follows the
// system's dark preference when it is "system", and a page may force a mode.
import type { Page } from 'playwright-core'
import { describe, expect } from 'vitest'
import { COLOR_MODE_STORAGE_KEY } from '../../app/color-mode/color-mode'
import en from '../../app/locales/en-US/index'
import { chooseFromMenu, htmlClasses, test, waitForHydration } from './playwright-utils'

const { colorMode: labels } = en.common

/** The mode `<html>` shows: 'dark', 'light', or what else its class holds. */
async function shownMode(page: Page): Promise<string> {
  const classes = await htmlClasses(page)
  return classes.includes('dark') ? 'dark' : classes.includes('light') ? 'light' : classes.join(' ')
}

const storedPreference = (page: Page) => page.evaluate((key) => localStorage.getItem(key), COLOR_MODE_STORAGE_KEY)

/**
 * Records `<html>`'s class at three moments of every document load, into `window.__e2eEarly`:
 * when <body> is inserted (nothing of the page can have painted yet), at DOMContentLoaded, and
 * in the first animation frame (just before the first paint). Also whether React had hydrated
 * <body> at each moment.
 */
async function recordEarlyColorMode(page: Page): Promise<void> {
  await page.addInitScript(() => {
    type Snapshot = { className: string; hydrated: boolean }
    const early: Record<string, Snapshot> = {}
    ;(window as unknown as { __e2eEarly: typeof early }).__e2eEarly = early
    const record = (moment: string) => {
      if (early[moment]) return
      const body = document.body as (HTMLElement & Record<string, unknown>) | null
      early[moment] = { className: document.documentElement?.className ?? '', hydrated: !!body && Object.keys(body).some((key) => key.startsWith('__reactProps$')) }
    }
    const observer = new MutationObserver(() => {
      if (document.body) {
        record('bodyInserted')
        observer.disconnect()
      }
    })
    observer.observe(document, { childList: true, subtree: true })
    document.addEventListener('DOMContentLoaded', () => record('domContentLoaded'))
    requestAnimationFrame(() => record('firstFrame'))
  })
}

const earlySnapshots = (page: Page) => page.evaluate(() => (window as unknown as { __e2eEarly: Record<string, { className: string; hydrated: boolean }> }).__e2eEarly)

describe('an explicit choice', () => {
  test('choosing Dark darkens the page at once, is stored, and is applied before the first paint of the next load', async ({ openPage }) => {
    const { page } = await openPage({ colorScheme: 'light' })
    await recordEarlyColorMode(page)
    await page.goto('/about')
    await waitForHydration(page)
    expect(await shownMode(page)).toBe('light')

    await chooseFromMenu(page, 'color-mode-switcher', labels.dark)
    await expect.poll(() => shownMode(page)).toBe('dark')
    expect(await storedPreference(page)).toBe('dark')

    await page.reload()
    const early = await earlySnapshots(page)
    // <body> did not exist yet, so nothing had painted; React had not hydrated.
    expect(early.bodyInserted).toEqual({ className: expect.stringMatching(/\bdark\b/), hydrated: false })
    expect(early.domContentLoaded?.className).toMatch(/\bdark\b/)
    expect(early.firstFrame?.className).toMatch(/\bdark\b/)
    expect(early.bodyInserted?.className).not.toMatch(/\blight\b/)
    await waitForHydration(page)
    expect(await shownMode(page)).toBe('dark')
    expect(await page.evaluate(() => document.documentElement.style.colorScheme)).toBe('dark')
  })

  test('an explicit Light ignores the system preference', async ({ openPage }) => {
    const { page } = await openPage({ colorScheme: 'dark' })
    await page.goto('/about')
    await waitForHydration(page)
    expect(await shownMode(page)).toBe('dark')

    await chooseFromMenu(page, 'color-mode-switcher', labels.light)
    await expect.poll(() => shownMode(page)).toBe('light')
    expect(await storedPreference(page)).toBe('light')
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.reload()
    expect(await shownMode(page)).toBe('light')
  })
})

describe('the system preference', () => {
  test('with no stored choice the page follows the system, live', async ({ openPage }) => {
    const { page } = await openPage()
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.goto('/about')
    expect(await storedPreference(page)).toBeNull()
    expect(await shownMode(page)).toBe('dark')
    await waitForHydration(page)

    await page.emulateMedia({ colorScheme: 'light' })
    await expect.poll(() => shownMode(page)).toBe('light')
    await page.emulateMedia({ colorScheme: 'dark' })
    await expect.poll(() => shownMode(page)).toBe('dark')
  })

  test('choosing System after Dark hands the decision back to the system', async ({ openPage }) => {
    const { page } = await openPage({ colorScheme: 'light' })
    await page.goto('/about')
    await waitForHydration(page)
    await chooseFromMenu(page, 'color-mode-switcher', labels.dark)
    await expect.poll(() => shownMode(page)).toBe('dark')

    await chooseFromMenu(page, 'color-mode-switcher', labels.system)
    await expect.poll(() => shownMode(page)).toBe('light')
    expect(await storedPreference(page)).toBe('system')
    await page.emulateMedia({ colorScheme: 'dark' })
    await expect.poll(() => shownMode(page)).toBe('dark')
  })
})

describe('a page that forces a mode', () => {
  // /thunder declares `handle = { colorMode: 'dark' }` (spec 2: a page may force a colour mode).
  test('/thunder is dark even with a Light preference, before the first paint, and the switcher says so', async ({ openPage }) => {
    const { page } = await openPage({ colorScheme: 'light' })
    await recordEarlyColorMode(page)
    await page.goto('/about')
    await waitForHydration(page)
    await chooseFromMenu(page, 'color-mode-switcher', labels.light)
    expect(await storedPreference(page)).toBe('light')

    await page.goto('/thunder')
    expect((await earlySnapshots(page)).bodyInserted?.className).toMatch(/\bdark\b/)
    await waitForHydration(page)
    expect(await shownMode(page)).toBe('dark')
    const switcher = page.getByTestId('color-mode-switcher')
    expect(await switcher.isDisabled()).toBe(true)
    expect(await switcher.getAttribute('aria-label')).toBe(labels.forced.replace('{{mode}}', labels.dark))
    expect(await storedPreference(page)).toBe('light')

    // Client-side navigation away and back: the forced mode comes and goes with the page.
    await page.getByRole('navigation', { name: en.common.nav.primary }).getByRole('link', { name: en.common.nav.about }).click()
    await page.waitForURL((url) => url.pathname === '/about')
    await expect.poll(() => shownMode(page)).toBe('light')
    await page.getByRole('navigation', { name: en.common.nav.primary }).getByRole('link', { name: en.common.nav.thunder }).click()
    await page.waitForURL((url) => url.pathname === '/thunder')
    await expect.poll(() => shownMode(page)).toBe('dark')
  })
})
