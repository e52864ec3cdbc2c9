// The 404 page (product spec 2): an unknown path answers HTTP 404 with "Page Not Found" and
// names the path, in the path's locale; an unknown API path answers the contract's JSON
// `not_found` error instead of HTML.
import { GenericErrors } from '@cumulus/protocol'
import { describe, expect } from 'vitest'
import ko from '../../app/locales/ko/index'
import { htmlLangDir, recordDocumentRequests, test, waitForHydration } from './playwright-utils'

/** Chromium reports the 404 document itself as a failed resource; that one is expected here. */
const DOCUMENT_404 = /^console\.error: Failed to load resource: the server responded with a status of 404/

describe('an unknown page', () => {
  test('answers 404 with "Page Not Found" naming the path, inside the layout', async ({ openPage }) => {
    const { page, errors } = await openPage()
    errors.ignore(DOCUMENT_404)
    const response = await page.goto('/no/such/page')

    expect(response?.status()).toBe(404)
    expect(response?.headers()['content-type']).toMatch(/^text\/html/)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Page Not Found')
    expect(await page.getByTestId('error-message').textContent()).toBe('Page not found: /no/such/page')
    expect(await htmlLangDir(page)).toEqual({ lang: 'en-US', dir: 'ltr' })
    // The default layout is still there: header with both switchers.
    expect(await page.getByTestId('language-switcher').count()).toBe(1)
    expect(await page.getByTestId('color-mode-switcher').count()).toBe(1)
    expect(await page.title()).toMatch(/404/)
    await waitForHydration(page)
    // Hydration keeps the server's text (no mismatch re-render into something else).
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Page Not Found')
  })

  test('under a locale prefix, answers in that language', async ({ openPage }) => {
    const { page, errors } = await openPage({ locale: 'ko-KR' })
    errors.ignore(DOCUMENT_404)
    const response = await page.goto('/ko/nope')

    expect(response?.status()).toBe(404)
    expect(await htmlLangDir(page)).toEqual({ lang: 'ko', dir: 'ltr' })
    const { errorPage } = ko.common
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(errorPage.notFoundTitle)
    expect(await page.getByTestId('error-message').textContent()).toBe(errorPage.notFoundMessage.replace('{{path}}', '/ko/nope'))
    await waitForHydration(page)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(errorPage.notFoundTitle)
  })

  test('reached by a client-side navigation, renders the same page without a reload', async ({ openPage }) => {
    const { page, errors } = await openPage()
    // The route's data request (/no/such/page.data) answers 404 too; Chromium logs it.
    errors.ignore(DOCUMENT_404)
    const documents = recordDocumentRequests(page)
    await page.goto('/about')
    await waitForHydration(page)
    // As a link rendered by the app would: through React Router's own router.
    await page.evaluate(() => (window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }).__reactRouterDataRouter.navigate('/no/such/page'))

    await page.waitForURL((url) => url.pathname === '/no/such/page')
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Page Not Found')
    expect(await page.getByTestId('error-message').textContent()).toBe('Page not found: /no/such/page')
    expect(documents).toEqual(['/about'])
  })
})

describe('an unknown API path', () => {
  test('answers the JSON not_found error, not the HTML page', async ({ server }) => {
    const response = await fetch(`${server.url}/v1/nope`, { headers: { accept: 'text/html,application/xhtml+xml' } })

    expect(response.status).toBe(GenericErrors.not_found.status)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await response.json()).toMatchObject({ error: GenericErrors.not_found.reason, error_code: GenericErrors.not_found.code })
  })
})
