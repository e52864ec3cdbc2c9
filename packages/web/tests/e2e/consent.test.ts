// Cumulus as an authorization server, in a real browser: a registered public client (a TV app
// with its redirect URI on 127.0.0.1) sends the browser to GET /v1/auth/authorize; the consent
// page signs the visitor in first, shows the app and its scopes, and Allow lands on the redirect
// URI with a code the app exchanges (PKCE) for tokens. An earlier grant is approved at once,
// prompt=consent asks again, Deny returns access_denied, and a request the server refuses stays
// on the page. The device flow (RFC 8628): a code from POST /v1/auth/device/code typed loosely
// on /device, allowed or denied, and the device's token polls. Korean on a phone in the dark
// theme, axe-core on every view.
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { DEVICE_POLL_INTERVAL_SECONDS, messageForReason, SCOPE_DESCRIPTIONS } from '@cumulus/protocol'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import ko from '../../app/locales/ko/index'
import { failedCall, fill, seedUser, submitPasswordSignIn, waitForPath } from './account-utils'
import { e2eTest, expectNoA11yViolations, PHONE, type TestServer, waitForHydration } from './playwright-utils'

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'
const CLIENT_ID = 'tv-app'
const CLIENT_NAME = 'Living Room TV'

/** The app's side: its redirect URI answers a page, so the browser has somewhere to land. */
const app: Server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
  response.end('<!doctype html><title>Living Room TV</title><p>Back in the app</p>')
})
await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
afterAll(() => new Promise<void>((resolve) => app.close(() => resolve())))
const REDIRECT_URI = `http://127.0.0.1:${(app.address() as { port: number }).port}/cb`

const test = e2eTest({
  env: {
    CUMULUS_CLIENTS: JSON.stringify([
      { client_id: CLIENT_ID, name: CLIENT_NAME, type: 'public', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token', DEVICE_GRANT], scopes: ['openid', 'profile', 'pan'] },
    ]),
  },
})

/** A PKCE pair (RFC 7636, S256). */
function pkce() {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

/** The authorization request the app sends the browser with. */
function authorizeUrl(input: { state: string; challenge: string; scope?: string; prompt?: string; redirectUri?: string; uiLocales?: string }): string {
  const query = new URLSearchParams({ client_id: CLIENT_ID, response_type: 'code', redirect_uri: input.redirectUri ?? REDIRECT_URI, scope: input.scope ?? 'openid pan', state: input.state, code_challenge: input.challenge, code_challenge_method: 'S256' })
  if (input.prompt) query.set('prompt', input.prompt)
  if (input.uiLocales) query.set('ui_locales', input.uiLocales)
  return `/v1/auth/authorize?${query}`
}

/** What the app receives on its redirect URI. */
async function landedOnApp(page: Page): Promise<URLSearchParams> {
  await page.waitForURL((url) => url.href.startsWith(`${REDIRECT_URI}?`))
  return new URL(page.url()).searchParams
}

/** The app's side of the token endpoint: form-encoded, as OAuth clients send it. */
async function tokenRequest(server: TestServer, fields: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/v1/auth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: CLIENT_ID, ...fields }) })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

function scopeTexts(locale: 'en-US' | 'ko', scopes: ('openid' | 'pan' | 'profile')[]): string[] {
  return scopes.map((scope) => SCOPE_DESCRIPTIONS[locale][scope])
}

describe('the consent page', () => {
  test('a signed-out user signs in on the way, allows the app, and the app exchanges its code for tokens', async ({ openPage, server }) => {
    const { page } = await openPage()
    const ann = await seedUser(server, { label: 'consent', name: 'Ann Lee' })
    const { verifier, challenge } = pkce()
    await page.goto(authorizeUrl({ state: 'st-1', challenge }))

    // Signed out: the login page, which brings the visitor back to the same request.
    await waitForPath(page, '/account/login')
    const back = new URL(page.url()).searchParams.get('redirect')!
    expect(back.startsWith('/authorize?')).toBe(true)
    expect(new URLSearchParams(back.slice('/authorize?'.length)).get('code_challenge')).toBe(challenge)
    await submitPasswordSignIn(page, ann.email, ann.password)

    await waitForPath(page, '/authorize')
    await page.getByRole('heading', { level: 1, name: fill(en.oauth.request.wantsAccess, { client: CLIENT_NAME }) }).waitFor()
    expect(await page.getByTestId('oauth-account-name').textContent()).toBe('Ann Lee')
    const scopes = page.getByRole('list', { name: fill(en.oauth.request.scopesLabel, { client: CLIENT_NAME }) })
    expect(await scopes.getByRole('listitem').allTextContents()).toEqual(scopeTexts('en-US', ['openid', 'pan']))
    expect(await page.getByTestId('consent-destination').textContent()).toBe(fill(en.oauth.consent.sentTo, { host: new URL(REDIRECT_URI).host }))
    await expectNoA11yViolations(page)

    await page.getByRole('button', { name: en.oauth.request.allow, exact: true }).click()
    const reply = await landedOnApp(page)
    expect(reply.get('state')).toBe('st-1')
    expect(reply.get('iss')).toBe(server.url)
    const code = reply.get('code')!
    expect(code).not.toBe('')

    const tokens = await tokenRequest(server, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier })
    expect(tokens.status).toBe(200)
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', sub: ann.id, scope: 'openid pan' })
    expect(typeof tokens.body.id_token).toBe('string')
  })

  test('an earlier grant is approved at once, prompt=consent asks again, and Deny returns access_denied', async ({ openPage, server }) => {
    const { page, errors } = await openPage()
    // The server answers a denial with access_denied (403), naming the redirect for the app.
    errors.ignore(failedCall('/v1/user/authorize', 403))
    const bob = await seedUser(server, { label: 'again', name: 'Bob Stone' })
    await page.goto('/account/login')
    await submitPasswordSignIn(page, bob.email, bob.password)
    await waitForPath(page, '/account/home')

    await page.goto(authorizeUrl({ state: 'first', challenge: pkce().challenge }))
    await page.getByRole('button', { name: en.oauth.request.allow, exact: true }).click()
    expect((await landedOnApp(page)).get('state')).toBe('first')

    // Granted before: straight back to the app with a code, no question.
    await page.goto(authorizeUrl({ state: 'second', challenge: pkce().challenge }))
    const again = await landedOnApp(page)
    expect({ state: again.get('state'), hasCode: again.has('code') }).toEqual({ state: 'second', hasCode: true })

    await page.goto(authorizeUrl({ state: 'third', challenge: pkce().challenge, prompt: 'consent' }))
    await waitForPath(page, '/authorize')
    await page.getByRole('button', { name: en.oauth.request.deny, exact: true }).click()
    const denied = await landedOnApp(page)
    expect({ error: denied.get('error'), state: denied.get('state'), code: denied.get('code') }).toEqual({ error: 'access_denied', state: 'third', code: null })
  })

  test('a request the server refuses (an unregistered redirect URI) is told on the page and never redirected', async ({ openPage, server }) => {
    const { page, errors } = await openPage()
    errors.ignore(failedCall('/v1/user/authorize/info', 400))
    const cy = await seedUser(server, { label: 'refused', name: 'Cy Young' })
    await page.goto('/account/login')
    await submitPasswordSignIn(page, cy.email, cy.password)
    await waitForPath(page, '/account/home')

    await page.goto(authorizeUrl({ state: 's', challenge: pkce().challenge, redirectUri: 'https://evil.example/cb' }))
    await page.getByRole('heading', { level: 1, name: en.oauth.consent.failedHeading }).waitFor()
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(messageForReason('invalid_request', 'en-US'))
    expect(new URL(page.url()).pathname).toBe('/authorize')
    expect(await page.getByRole('button', { name: en.oauth.request.allow }).count()).toBe(0)
    await expectNoA11yViolations(page)
  })

  test('in Korean on a phone in the dark theme: the page follows the language the app asks for, fits the screen and passes axe', async ({ openPage, server }) => {
    const { page } = await openPage({ locale: 'ko-KR', ...PHONE, colorScheme: 'dark' })
    const dae = await seedUser(server, { label: 'ko', name: '김대한' })
    await page.goto(authorizeUrl({ state: 'ko-1', challenge: pkce().challenge, scope: 'openid profile pan', uiLocales: 'ko' }))
    // /authorize, opened by another app, follows the language the app names (ui_locales).
    await waitForPath(page, '/ko/account/login')
    await submitPasswordSignIn(page, dae.email, dae.password, ko)

    await waitForPath(page, '/ko/authorize')
    await page.getByRole('heading', { level: 1, name: fill(ko.oauth.request.wantsAccess, { client: CLIENT_NAME }) }).waitFor()
    const scopes = page.getByRole('list', { name: fill(ko.oauth.request.scopesLabel, { client: CLIENT_NAME }) })
    expect(await scopes.getByRole('listitem').allTextContents()).toEqual(scopeTexts('ko', ['openid', 'profile', 'pan']))
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await expectNoA11yViolations(page)
    await page.getByRole('button', { name: ko.oauth.request.allow, exact: true }).tap()
    expect((await landedOnApp(page)).get('state')).toBe('ko-1')
  })
})

describe('the device page', () => {
  /** A device asks for a code (public client: no secret). */
  async function startDevice(server: TestServer) {
    const response = await fetch(`${server.url}/v1/auth/device/code`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: CLIENT_ID, scope: 'openid pan' }) })
    expect(response.status).toBe(200)
    return (await response.json()) as { device_code: string; user_code: string; verification_uri: string; verification_uri_complete: string; interval: number }
  }

  async function signIn(page: Page, server: TestServer, label: string, prefix = '', t = en) {
    const user = await seedUser(server, { label, name: 'Eve Park' })
    await page.goto(`${prefix}/account/login`)
    await submitPasswordSignIn(page, user.email, user.password, t)
    await waitForPath(page, `${prefix}/account/home`)
    return user
  }

  test('the code typed in lower case without its dash connects the device, whose next poll gets tokens', async ({ openPage, server }) => {
    const { page } = await openPage()
    const eve = await signIn(page, server, 'device')
    const device = await startDevice(server)
    expect(device.verification_uri).toBe(`${server.url}/device`)
    expect(device.interval).toBe(DEVICE_POLL_INTERVAL_SECONDS)
    // Until someone answers, a poll is told to wait. (Another device: each code is polled once
    // here, so no poll comes inside the interval and earns slow_down.)
    const waiting = await tokenRequest(server, { grant_type: DEVICE_GRANT, device_code: (await startDevice(server)).device_code })
    expect(waiting.body.error).toBe('authorization_pending')

    await page.goto('/device')
    await waitForHydration(page)
    await expectNoA11yViolations(page)
    await page.getByLabel(en.oauth.device.codeLabel, { exact: true }).fill(device.user_code.replace('-', '').toLowerCase())
    await page.getByRole('button', { name: en.oauth.device.continue, exact: true }).click()
    await page.getByRole('heading', { level: 1, name: fill(en.oauth.request.wantsAccess, { client: CLIENT_NAME }) }).waitFor()
    expect(await page.getByTestId('device-user-code').textContent()).toBe(device.user_code)
    expect(await page.getByTestId('oauth-scopes').getByRole('listitem').allTextContents()).toEqual(scopeTexts('en-US', ['openid', 'pan']))
    await expectNoA11yViolations(page)
    await page.getByRole('button', { name: en.oauth.request.allow, exact: true }).click()

    await page.getByRole('heading', { level: 1, name: en.oauth.device.approvedHeading }).waitFor()
    await page.getByText(en.oauth.device.approved, { exact: true }).waitFor()
    await expectNoA11yViolations(page)

    const tokens = await tokenRequest(server, { grant_type: DEVICE_GRANT, device_code: device.device_code })
    expect(tokens.status).toBe(200)
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', sub: eve.id, scope: 'openid pan' })
  })

  test('in Korean on a phone in the dark: a wrong code is refused in Korean; the link’s code is denied, and the device hears so', async ({ openPage, server }) => {
    const { page, errors } = await openPage({ locale: 'ko-KR', ...PHONE, colorScheme: 'dark' })
    errors.ignore(failedCall('/v1/user/device/info', 400))
    await signIn(page, server, 'device-ko', '/ko', ko)
    const device = await startDevice(server)

    await page.goto('/ko/device')
    await waitForPath(page, '/ko/device')
    await waitForHydration(page)
    await page.getByLabel(ko.oauth.device.codeLabel, { exact: true }).fill('BCDF-GHJK')
    await page.getByRole('button', { name: ko.oauth.device.continue, exact: true }).tap()
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(messageForReason('invalid_grant', 'ko'))
    await expectNoA11yViolations(page)

    // The link a device may show as a QR code: the code is looked up at once, in the language
    // this visitor chose earlier (the locale cookie; the browser's language alone moves only /).
    await page.context().addCookies([{ name: 'i18n_redirected', value: 'ko', url: server.url }])
    await page.goto(device.verification_uri_complete.replace(server.url, ''))
    await waitForPath(page, '/ko/device')
    await page.getByTestId('device-review').waitFor()
    expect(await page.getByTestId('device-user-code').textContent()).toBe(device.user_code)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await expectNoA11yViolations(page)
    await page.getByRole('button', { name: ko.oauth.request.deny, exact: true }).tap()
    await page.getByRole('heading', { level: 1, name: ko.oauth.device.deniedHeading }).waitFor()

    const refused = await tokenRequest(server, { grant_type: DEVICE_GRANT, device_code: device.device_code })
    expect(refused.body.error).toBe('access_denied')
  })
})
