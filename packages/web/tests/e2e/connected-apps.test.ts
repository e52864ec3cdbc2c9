// The account page's Connected apps against the real server: a registered public client (a photo
// frame with its redirect URI and logo on a local node:http server) is allowed on the consent
// page and exchanges its code (PKCE) for tokens; the app then shows under Connected apps on
// /account/home with its logo, the day it was allowed and the server's words for its scopes.
// Disconnect (behind a confirmation) drops it, and at once the app's refresh token is refused
// (invalid_grant) and its access token no longer opens the drive; its next request asks again.
// Simplified Chinese on a phone in the dark theme: the section, the scopes and the dialog in
// Chinese, nothing past the screen's edge, axe-core clean.
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { SCOPE_DESCRIPTIONS } from '@cumulus/protocol'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import zhCN from '../../app/locales/zh-CN/index'
import { fill, prefixOf, seedUser, submitPasswordSignIn, type Texts, waitForPath, welcomeHeading } from './account-utils'
import { e2eTest, expectNoA11yViolations, PHONE, type TestServer, waitForHydration } from './playwright-utils'

const CLIENT_ID = 'photo-frame'
const CLIENT_NAME = 'Photo Frame'
const LOGO_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0e7490"/></svg>'

/** The app's side: its redirect URI answers a page, and it serves its logo. */
const app: Server = createServer((request, response) => {
  if (request.url === '/logo.svg') {
    response.writeHead(200, { 'content-type': 'image/svg+xml' })
    response.end(LOGO_SVG)
    return
  }
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
  response.end('<!doctype html><title>Photo Frame</title><p>Back in the app</p>')
})
await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
afterAll(() => new Promise<void>((resolve) => app.close(() => resolve())))
const APP_ORIGIN = `http://127.0.0.1:${(app.address() as { port: number }).port}`
const REDIRECT_URI = `${APP_ORIGIN}/cb`
const LOGO_URL = `${APP_ORIGIN}/logo.svg`

const test = e2eTest({
  env: {
    CUMULUS_CLIENTS: JSON.stringify([
      { client_id: CLIENT_ID, name: CLIENT_NAME, logo: LOGO_URL, type: 'public', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], scopes: ['openid', 'profile', 'pan'] },
    ]),
  },
})

/** The app's token endpoint calls: form-encoded, as OAuth clients send them. */
async function tokenRequest(server: TestServer, fields: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/v1/auth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: CLIENT_ID, ...fields }) })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/**
 * The app sends the browser to GET /v1/auth/authorize (PKCE, S256); the signed-in user allows it
 * on the consent page; the app exchanges the code. Returns the app's tokens.
 */
async function allowApp(page: Page, server: TestServer, scope: string, t: Texts, locale = 'en-US'): Promise<{ access_token: string; refresh_token: string }> {
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  const query = new URLSearchParams({ client_id: CLIENT_ID, response_type: 'code', redirect_uri: REDIRECT_URI, scope, state: 'st', code_challenge: challenge, code_challenge_method: 'S256' })
  // The app names the language it runs in (OpenID Connect's ui_locales); the consent page follows it.
  if (locale !== 'en-US') query.set('ui_locales', locale)
  await page.goto(`/v1/auth/authorize?${query}`)
  await waitForPath(page, `${prefixOf(locale)}/authorize`)
  await page.getByRole('heading', { level: 1, name: fill(t.oauth.request.wantsAccess, { client: CLIENT_NAME }) }).waitFor()
  await page.getByRole('button', { name: t.oauth.request.allow, exact: true }).click()
  await page.waitForURL((url) => url.href.startsWith(`${REDIRECT_URI}?`))
  const code = new URL(page.url()).searchParams.get('code')!
  const tokens = await tokenRequest(server, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier })
  expect(tokens.status).toBe(200)
  return tokens.body as { access_token: string; refresh_token: string }
}

async function signIn(page: Page, server: TestServer, name: string, t: Texts = en, locale = 'en-US') {
  const user = await seedUser(server, { label: 'apps', name })
  await page.goto(`${prefixOf(locale)}/account/login`)
  await submitPasswordSignIn(page, user.email, user.password, t)
  await waitForPath(page, `${prefixOf(locale)}/account/home`)
  return user
}

/** Today as the browser writes it in `locale` (the page formats the grant's date the same way). */
function todayIn(page: Page, locale: string): Promise<string> {
  return page.evaluate((l) => new Intl.DateTimeFormat(l, { dateStyle: 'medium' }).format(new Date()), locale)
}

function activeTestId(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)
}

describe('Connected apps', () => {
  test('an app allowed on the consent page is listed; Disconnect ends its access at once and its refresh token is refused', async ({ openPage, server }) => {
    const { page } = await openPage()
    const ann = await signIn(page, server, 'Ann Lee')
    const section = page.getByRole('region', { name: en.accountHome.connectedApps.title })
    await expect.poll(() => section.getByTestId('connected-apps-empty').textContent()).toBe(en.accountHome.connectedApps.empty)

    const first = await allowApp(page, server, 'openid pan', en)
    // The app's refresh token works before (it rotates: the new one is the app's from here on).
    const refreshed = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: first.refresh_token })
    expect(refreshed.status).toBe(200)
    const tokens = refreshed.body as { access_token: string; refresh_token: string }
    expect((await fetch(`${server.url}/drive/v1/files`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(200)

    await page.goto('/account/home')
    await welcomeHeading(page, ann.name).waitFor()
    const list = section.getByRole('list', { name: en.accountHome.connectedApps.listLabel })
    const row = list.getByTestId('connected-app')
    await row.waitFor()
    expect(await row.getByTestId('connected-app-name').textContent()).toBe(CLIENT_NAME)
    expect(await row.getByTestId('connected-app-granted').textContent()).toBe(fill(en.accountHome.connectedApps.allowedOn, { date: await todayIn(page, 'en-US') }))
    const scopes = row.getByRole('list', { name: fill(en.accountHome.connectedApps.scopesLabel, { app: CLIENT_NAME }) })
    expect(await scopes.getByRole('listitem').allTextContents()).toEqual([SCOPE_DESCRIPTIONS['en-US'].openid, SCOPE_DESCRIPTIONS['en-US'].pan])
    expect(await row.getByTestId('app-logo').getAttribute('src')).toBe(LOGO_URL)
    await expect.poll(() => row.getByTestId('app-logo').evaluate((img) => (img as HTMLImageElement).naturalWidth > 0)).toBe(true)
    await expectNoA11yViolations(page)

    await waitForHydration(page)
    await row.getByRole('button', { name: fill(en.accountHome.connectedApps.disconnectLabel, { app: CLIENT_NAME }), exact: true }).click()
    const dialog = page.getByRole('dialog', { name: fill(en.accountHome.connectedApps.confirmTitle, { app: CLIENT_NAME }) })
    await dialog.getByText(fill(en.accountHome.connectedApps.confirmText, { app: CLIENT_NAME }), { exact: true }).waitFor()
    await expectNoA11yViolations(page)
    await dialog.getByRole('button', { name: en.accountHome.connectedApps.disconnect, exact: true }).click()

    await expect.poll(() => section.getByRole('status').textContent()).toBe(fill(en.accountHome.connectedApps.disconnected, { app: CLIENT_NAME }))
    await dialog.waitFor({ state: 'detached' })
    expect(await section.getByTestId('connected-apps-empty').textContent()).toBe(en.accountHome.connectedApps.empty)
    // The button that opened the dialog is gone: the focus is on what took its place.
    await expect.poll(() => activeTestId(page)).toBe('connected-apps-empty')

    // At once: the app's refresh token is refused and its access token opens nothing.
    const refused = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'invalid_grant' })
    expect((await fetch(`${server.url}/drive/v1/files`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401)

    // The consent was forgotten: the app's next request asks again.
    const query = new URLSearchParams({ client_id: CLIENT_ID, response_type: 'code', redirect_uri: REDIRECT_URI, scope: 'openid pan', state: 'again', code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'), code_challenge_method: 'S256' })
    await page.goto(`/v1/auth/authorize?${query}`)
    await waitForPath(page, '/authorize')
    await page.getByRole('button', { name: en.oauth.request.allow, exact: true }).waitFor()
  })

  test('in Simplified Chinese on a phone in the dark theme: the section, the scopes and the dialog read Chinese and fit the screen', async ({ openPage, server }) => {
    const t = zhCN
    const { page } = await openPage({ locale: 'zh-CN', ...PHONE, colorScheme: 'dark' })
    await signIn(page, server, '李雷', t, 'zh-CN')
    await allowApp(page, server, 'openid profile pan', t, 'zh-CN')

    await page.goto('/zh-CN/account/home')
    const section = page.getByRole('region', { name: t.accountHome.connectedApps.title })
    const row = section.getByRole('list', { name: t.accountHome.connectedApps.listLabel }).getByTestId('connected-app')
    await row.waitFor()
    expect(await row.getByTestId('connected-app-granted').textContent()).toBe(fill(t.accountHome.connectedApps.allowedOn, { date: await todayIn(page, 'zh-CN') }))
    // The server words the scopes in the page's language.
    expect(await row.getByTestId('connected-app-scopes').getByRole('listitem').allTextContents()).toEqual([SCOPE_DESCRIPTIONS['zh-CN'].openid, SCOPE_DESCRIPTIONS['zh-CN'].profile, SCOPE_DESCRIPTIONS['zh-CN'].pan])
    await section.scrollIntoViewIfNeeded()
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await expectNoA11yViolations(page)

    await waitForHydration(page)
    const disconnect = row.getByRole('button', { name: fill(t.accountHome.connectedApps.disconnectLabel, { app: CLIENT_NAME }), exact: true })
    expect(await disconnect.textContent()).toBe(t.accountHome.connectedApps.disconnect)
    await disconnect.tap()
    const dialog = page.getByRole('dialog', { name: fill(t.accountHome.connectedApps.confirmTitle, { app: CLIENT_NAME }) })
    await dialog.getByText(fill(t.accountHome.connectedApps.confirmText, { app: CLIENT_NAME }), { exact: true }).waitFor()
    await expectNoA11yViolations(page)
    // Cancel: nothing changes, and the focus is back on the button that opened the dialog.
    await dialog.getByRole('button', { name: t.common.cancel, exact: true }).tap()
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null)).toBe(fill(t.accountHome.connectedApps.disconnectLabel, { app: CLIENT_NAME }))
    expect(await section.getByTestId('connected-app').count()).toBe(1)
  })
})
