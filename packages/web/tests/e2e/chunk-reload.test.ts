// Chunk-load recovery (product spec 2 and 4): when a route's code fails to load during a
// client-side navigation (a deploy replaced the hashed chunks), the app reloads the TARGET path;
// a mark in sessionStorage ('cumulus:reload') kept for 10 seconds stops a chunk that keeps
// failing from reloading in a loop. app/navigation/reload-guard.ts, root.tsx's ErrorBoundary
// and entry.client.tsx (vite:preloadError) implement it.
import type { Page, Route } from 'playwright-core'
import { describe, expect } from 'vitest'
import { RELOAD_GUARD_KEY, RELOAD_GUARD_MS } from '../../app/navigation/reload-guard'
import en from '../../app/locales/en-US/index'
import { recordDocumentRequests, test, waitForHydration, type PageErrors } from './playwright-utils'

/** What Chromium and React Router print when a chunk fails to load: expected in these tests. */
function ignoreChunkErrors(errors: PageErrors) {
  errors.ignore(/^console\.error: Failed to load resource: net::ERR_FAILED/)
  errors.ignore(/Error loading route module/)
  errors.ignore(/Failed to fetch dynamically imported module/)
}

/** Aborts requests for a chunk: every one, or only the first `times`. Returns how many were aborted. */
async function failChunk(page: Page, glob: string, times = Number.POSITIVE_INFINITY): Promise<{ aborted: number }> {
  const counter = { aborted: 0 }
  await page.route(glob, (route: Route) => {
    if (counter.aborted >= times) return route.continue()
    counter.aborted++
    return route.abort('failed')
  })
  return counter
}

const headerLink = (page: Page, name: string) => page.getByRole('navigation', { name: en.common.nav.primary }).getByRole('link', { name })

const readMark = (page: Page) => page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? 'null') as { path: string; expiresAt: number } | null, RELOAD_GUARD_KEY)

/** Clicks and returns the path of the next document the page requests (a reload or a load). */
async function clickAndCatchDocument(page: Page, click: () => Promise<void>): Promise<string> {
  const [request] = await Promise.all([page.waitForRequest((r) => r.isNavigationRequest() && r.frame() === page.mainFrame()), click()])
  const path = new URL(request.url()).pathname
  // Wait for that document to commit and load; the old one may still report 'load' meanwhile.
  await page.waitForURL((url) => url.pathname === path, { waitUntil: 'load' })
  return path
}

describe('a route chunk that fails during navigation', () => {
  test('reloads the target path once and leaves the 10-second mark', async ({ openPage }) => {
    const { page, errors } = await openPage()
    ignoreChunkErrors(errors)
    const about = await failChunk(page, '**/assets/about-*.js')
    const documents = recordDocumentRequests(page)
    await page.goto('/')
    await waitForHydration(page)

    const startedAt = Date.now()
    const reloaded = await clickAndCatchDocument(page, () => headerLink(page, en.common.nav.about).click())

    expect(about.aborted).toBeGreaterThan(0)
    expect(reloaded, 'the document reloaded after the failed chunk (the target is /about, not the page the click came from)').toBe('/about')
    expect(new URL(page.url()).pathname).toBe('/about')
    expect(documents).toEqual(['/', '/about'])
    const mark = await readMark(page)
    expect(mark?.path).toBe('/about')
    expect(mark!.expiresAt).toBeGreaterThanOrEqual(startedAt + RELOAD_GUARD_MS)
    expect(mark!.expiresAt).toBeLessThanOrEqual(Date.now() + RELOAD_GUARD_MS)
  })

  test('a second failure within 10 s does not reload again: the error page shows instead', async ({ openPage }) => {
    const { page, errors } = await openPage()
    ignoreChunkErrors(errors)
    // The first failure is a deploy: after the reload the new chunk loads. Thunder's chunk stays broken.
    await failChunk(page, '**/assets/about-*.js', 1)
    const thunder = await failChunk(page, '**/assets/thunder-*.js')
    const documents = recordDocumentRequests(page)
    await page.goto('/')
    await waitForHydration(page)
    expect(await clickAndCatchDocument(page, () => headerLink(page, en.common.nav.about).click())).toBe('/about')
    await waitForHydration(page)

    await headerLink(page, en.common.nav.thunder).click()

    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(en.common.errorPage.internalTitle)
    expect(thunder.aborted).toBeGreaterThan(0)
    expect(documents).toEqual(['/', '/about'])
  })

  test('a mark older than 10 s does not stop the reload', async ({ openPage }) => {
    const { page, errors } = await openPage()
    ignoreChunkErrors(errors)
    await failChunk(page, '**/assets/about-*.js')
    await page.goto('/')
    await waitForHydration(page)
    await page.evaluate(([key, expiresAt]) => sessionStorage.setItem(key as string, JSON.stringify({ path: '/about', expiresAt })), [RELOAD_GUARD_KEY, Date.now() - 1] as const)

    expect(await clickAndCatchDocument(page, () => headerLink(page, en.common.nav.about).click())).toBe('/about')
    expect((await readMark(page))!.expiresAt).toBeGreaterThan(Date.now())
  })
})

describe('a lazily loaded chunk that keeps failing (vite:preloadError)', () => {
  test('reloads once, and the mark stops the second failure from reloading again', async ({ openPage }) => {
    const { page, errors } = await openPage()
    ignoreChunkErrors(errors)
    // Numbers each document of this tab, and records in it the preload errors the app has
    // handled and the navigations it started (the Navigation API's `navigate` event fires
    // synchronously inside location.assign/reload).
    await page.addInitScript(() => {
      const w = window as unknown as { __e2eDoc: number; __e2ePreloadErrors: number; __e2eNavigations: string[]; navigation?: EventTarget }
      w.__e2eDoc = Number(sessionStorage.getItem('e2e-doc') ?? '0') + 1
      sessionStorage.setItem('e2e-doc', String(w.__e2eDoc))
      w.__e2ePreloadErrors = 0
      w.__e2eNavigations = []
      w.navigation?.addEventListener('navigate', (event) => w.__e2eNavigations.push((event as unknown as { destination: { url: string } }).destination.url))
      // Registered before the app's listener, so this timeout runs after the app has handled the event.
      window.addEventListener('vite:preloadError', () => setTimeout(() => w.__e2ePreloadErrors++))
    })
    // The page's message tables (app/i18n/messages.ts) load through Vite's preload helper.
    const chunk = await failChunk(page, '**/assets/en-US-*.js')
    const documents = recordDocumentRequests(page)
    await page.goto('/about')

    await page.waitForFunction(() => {
      const w = window as unknown as { __e2eDoc: number; __e2ePreloadErrors: number }
      return w.__e2eDoc === 2 && w.__e2ePreloadErrors >= 1
    })
    expect(chunk.aborted).toBeGreaterThanOrEqual(2)
    expect(documents).toEqual(['/about', '/about'])
    expect(await page.evaluate(() => (window as unknown as { __e2eNavigations: string[] }).__e2eNavigations)).toEqual([])
    expect((await readMark(page))?.path).toBe('/about')
  })
})
