// A real relying party against Cumulus in a real browser: openid-client (a certified OpenID
// Connect client library) discovers the server, sends Chromium through GET /v1/auth/authorize,
// the sign-in and the consent page, and exchanges the code with PKCE, checking the ID token's
// signature, issuer, audience and nonce as it would any provider's; then userinfo, refresh,
// introspection and revocation. The device flow the same way: openid-client starts it, the user
// allows it on /device in Chromium, openid-client's own poll gets the tokens.
import { createServer, type Server } from 'node:http'
import * as oidc from 'openid-client'
import { afterAll, describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import { seedUser, submitPasswordSignIn, waitForPath } from './account-utils'
import { e2eTest, type TestServer } from './playwright-utils'

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'

/** The app's redirect URI: a page to land on. */
const app: Server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
  response.end('<!doctype html><title>Notes app</title><p>Signed in</p>')
})
await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
afterAll(() => new Promise<void>((resolve) => app.close(() => resolve())))
const REDIRECT_URI = `http://127.0.0.1:${(app.address() as { port: number }).port}/callback`

const test = e2eTest({
  env: {
    CUMULUS_CLIENTS: JSON.stringify([
      { client_id: 'notes-app', name: 'Notes app', type: 'public', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], scopes: ['openid', 'profile', 'email', 'pan'] },
      { client_id: 'tv-player', name: 'TV player', type: 'public', grant_types: [DEVICE_GRANT, 'refresh_token'], scopes: ['openid', 'pan'] },
    ]),
  },
})

function relyingParty(server: TestServer, clientId: string) {
  return oidc.discovery(new URL(server.url), clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] })
}

describe('a standard OpenID Connect client library against Cumulus', () => {
  test('code + PKCE through the sign-in and consent pages, then userinfo, refresh, introspection and revocation', async ({ openPage, server }) => {
    const { page } = await openPage()
    const ada = await seedUser(server, { label: 'rp', name: 'Ada Byron' })
    const config = await relyingParty(server, 'notes-app')
    const verifier = oidc.randomPKCECodeVerifier()
    const state = oidc.randomState()
    const nonce = oidc.randomNonce()
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT_URI, scope: 'openid profile email pan', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state, nonce })

    await page.goto(url.href)
    await waitForPath(page, '/account/login')
    await submitPasswordSignIn(page, ada.email, ada.password)
    await waitForPath(page, '/authorize')
    await page.getByRole('button', { name: en.oauth.request.allow, exact: true }).click()
    await page.waitForURL((u) => u.href.startsWith(`${REDIRECT_URI}?`))

    const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true })
    expect(tokens.claims()).toMatchObject({ iss: server.url, sub: ada.id, aud: 'notes-app', nonce, name: 'Ada Byron', email: ada.email, email_verified: true })
    expect(await oidc.fetchUserInfo(config, tokens.access_token, ada.id)).toMatchObject({ sub: ada.id, name: 'Ada Byron', email: ada.email })
    // The app's token opens the drive (pan was granted) and nothing of the account (user was not).
    expect((await fetch(`${server.url}/drive/v1/files`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(200)
    expect((await fetch(`${server.url}/v1/user/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(403)

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!)
    expect(await oidc.tokenIntrospection(config, refreshed.access_token)).toMatchObject({ active: true, sub: ada.id, client_id: 'notes-app', scope: 'openid profile email pan' })
    await oidc.tokenRevocation(config, refreshed.refresh_token!)
    expect((await oidc.tokenIntrospection(config, refreshed.access_token)).active).toBe(false)
    const afterRevoke = await oidc.refreshTokenGrant(config, refreshed.refresh_token!).catch((e: unknown) => e)
    expect((afterRevoke as oidc.ResponseBodyError).error).toBe('invalid_grant')
  })

  test('the device flow: openid-client starts and polls, the user allows it on /device', async ({ openPage, server }) => {
    const { page } = await openPage()
    const tom = await seedUser(server, { label: 'tv', name: 'Tom Watts' })
    const config = await relyingParty(server, 'tv-player')
    const device = await oidc.initiateDeviceAuthorization(config, { scope: 'openid pan' })
    expect(device.verification_uri).toBe(`${server.url}/device`)
    const polling = oidc.pollDeviceAuthorizationGrant(config, device)

    await page.goto(device.verification_uri_complete!)
    await waitForPath(page, '/account/login')
    await submitPasswordSignIn(page, tom.email, tom.password)
    await waitForPath(page, '/device')
    await page.getByRole('button', { name: en.oauth.request.allow, exact: true }).click()
    await page.getByRole('heading', { name: en.oauth.device.approvedHeading }).waitFor()

    const tokens = await polling
    expect(tokens.claims()).toMatchObject({ iss: server.url, sub: tom.id, aud: 'tv-player' })
    expect(tokens.scope).toBe('openid pan')
  })
})
