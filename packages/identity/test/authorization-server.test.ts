import { GenericErrors, OAuthErrors } from '@cumulus/protocol'
import type { FastifyInstance } from 'fastify'
import fc from 'fast-check'
import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addClient } from '../src/features/oauth/clients.js'
import { aUser } from './builders.js'
import { call, expectErrorReply, signIn } from './http.js'
import { type TestApp, buildTestApp, testBackend } from './test-app.js'
import { unusedPort } from '../../../test-support/ports.js'

/**
 * Cumulus as an OpenID Connect provider, driven by a real relying party: openid-client discovers
 * it, runs code+PKCE and the device flow over real HTTP on 127.0.0.1, and checks the ID tokens,
 * the userinfo reply, refresh, introspection and revocation the way it checks any provider.
 */

const APP_REDIRECT = 'http://127.0.0.1:9/app/callback'

describe(`Cumulus as an authorization server, driven by openid-client, on ${testBackend()}`, () => {
  let t: TestApp
  let issuer: string
  let userToken: string
  let userId: string

  beforeAll(async () => {
    const port = await unusedPort()
    issuer = `http://127.0.0.1:${port}`
    t = await buildTestApp({ config: { publicUrl: issuer, captcha: { mode: 'off' } } as never })
    await (t.app as FastifyInstance).listen({ port, host: '127.0.0.1' })
    await addClient(t.deps, { clientId: 'third-app', name: 'Third App', type: 'public', redirectUris: [APP_REDIRECT], grantTypes: ['authorization_code', 'refresh_token'], scopes: ['openid', 'profile', 'email', 'pan'] })
    await addClient(t.deps, { clientId: 'tv-app', name: 'TV App', type: 'public', redirectUris: [], grantTypes: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'] })
    const { user, password } = await aUser(t, { name: 'Rita Relying' })
    userId = user.id
    userToken = (await signIn(t, user.email!, password)).json().access_token
  })
  afterAll(() => t.close())

  async function relyingParty(clientId: string, secret?: string) {
    return oidc.discovery(new URL(issuer), clientId, undefined, secret ? oidc.ClientSecretPost(secret) : oidc.None(), { execute: [oidc.allowInsecureRequests] })
  }

  /** The user's part of the code flow: the front-channel entry, then the consent calls the web page makes. */
  async function consent(authorizeUrl: URL, grant = true) {
    const entry = await fetch(authorizeUrl, { redirect: 'manual' })
    expect(entry.status).toBe(302)
    const consentPage = new URL(entry.headers.get('location')!, issuer)
    expect(entry.headers.get('location')).toMatch(/^\/authorize\?/)
    expect(consentPage.pathname).toBe('/authorize')
    const params = Object.fromEntries(consentPage.searchParams)
    const info = await call(t.app, 'GET', '/v1/user/authorize/info', { query: params, headers: { 'accept-language': 'ko' } })
    expect(info.statusCode, info.body).toBe(200)
    return { params, info: info.json(), answer: await call(t.app, 'POST', '/v1/user/authorize', { token: userToken, body: { ...params, consent: grant } }) }
  }

  it('publishes discovery that a standard client accepts', async () => {
    const config = await relyingParty('third-app')
    const metadata = config.serverMetadata()
    expect(metadata).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/v1/auth/authorize`,
      token_endpoint: `${issuer}/v1/auth/token`,
      device_authorization_endpoint: `${issuer}/v1/auth/device/code`,
      userinfo_endpoint: `${issuer}/v1/auth/userinfo`,
      introspection_endpoint: `${issuer}/v1/auth/token/introspect`,
      revocation_endpoint: `${issuer}/v1/auth/revoke`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
    })
  })

  it('runs code+PKCE through consent: ID token, userinfo, refresh, introspect, revoke', async () => {
    const config = await relyingParty('third-app')
    const verifier = oidc.randomPKCECodeVerifier()
    const state = oidc.randomState()
    const nonce = oidc.randomNonce()
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: APP_REDIRECT, scope: 'openid profile email pan', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state, nonce })
    const detectBefore = await call(t.app, 'GET', '/v1/user/authorize/detect', { token: userToken, query: { client_id: 'third-app', scope: 'openid profile email pan' } })
    expect(detectBefore.json()).toEqual({ authorized: false })
    const { info, answer } = await consent(url)
    expect(info.client).toEqual({ client_id: 'third-app', name: 'Third App', logo: '' })
    // Scope descriptions in the caller's language (Korean here).
    expect(info.scopes.map((s: { id: string }) => s.id)).toEqual(['openid', 'profile', 'email', 'pan'])
    expect(info.scopes.find((s: { id: string }) => s.id === 'email').description).toBe('이메일 주소 보기')
    expect(answer.statusCode, answer.body).toBe(200)
    const back = new URL(answer.json().redirect_uri)
    expect(back.searchParams.get('state')).toBe(state)
    expect(back.searchParams.get('iss')).toBe(issuer)

    const tokens = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true })
    const claims = tokens.claims()!
    expect(claims).toMatchObject({ iss: issuer, sub: userId, aud: 'third-app', nonce, name: 'Rita Relying', email_verified: true })
    expect(tokens.scope).toBe('openid profile email pan')
    const info2 = await oidc.fetchUserInfo(config, tokens.access_token, userId)
    expect(info2).toMatchObject({ sub: userId, name: 'Rita Relying' })

    expect((await call(t.app, 'GET', '/v1/user/authorize/detect', { token: userToken, query: { client_id: 'third-app', scope: 'openid pan' } })).json()).toEqual({ authorized: true })

    // The app got what the user granted, and nothing more: no account calls without `user`, and
    // no consent, device approval, binding or deletion, which only the product's own apps make.
    expectErrorReply(await call(t.app, 'GET', '/v1/user/me', { token: tokens.access_token }), GenericErrors.permission_denied)
    expectErrorReply(await call(t.app, 'GET', '/vip/v1/activity/inviteCode', { token: tokens.access_token }), GenericErrors.permission_denied)
    expectErrorReply(await call(t.app, 'POST', '/v1/user/authorize', { token: tokens.access_token, body: { client_id: 'third-app', response_type: 'code', redirect_uri: APP_REDIRECT, scope: 'pan user', code_challenge: 'c'.repeat(43), code_challenge_method: 'S256', consent: true } }), GenericErrors.permission_denied)
    expectErrorReply(await call(t.app, 'POST', '/v1/user/device/authorize', { token: tokens.access_token, body: { user_code: 'BBBB-BBBB', consent: true } }), GenericErrors.permission_denied)
    expectErrorReply(await call(t.app, 'GET', '/v1/user/provider', { token: tokens.access_token }), GenericErrors.permission_denied)
    expectErrorReply(await call(t.app, 'DELETE', '/v1/user/me', { token: tokens.access_token, query: { sudo_token: 'x' } }), GenericErrors.permission_denied)
    // Nor may it turn its token into a first-party session (single sign-on is between the product's own apps).
    expectErrorReply(await call(t.app, 'POST', '/v1/auth/signin/token', { body: { client_id: 'cumulus-web', token: tokens.access_token } }), OAuthErrors.unauthorized_client)

    // A public client refreshes with its id alone.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!)
    expect(refreshed.access_token).not.toBe(tokens.access_token)
    const introspected = await oidc.tokenIntrospection(config, refreshed.access_token)
    expect(introspected).toMatchObject({ active: true, sub: userId, client_id: 'third-app' })
    await oidc.tokenRevocation(config, refreshed.refresh_token!)
    expect((await oidc.tokenIntrospection(config, refreshed.access_token)).active).toBe(false)
  })

  it('lists connected apps, and disconnecting one ends its sessions at once and asks again next time', async () => {
    const config = await relyingParty('third-app')
    const verifier = oidc.randomPKCECodeVerifier()
    const state = oidc.randomState()
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: APP_REDIRECT, scope: 'pan', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state })
    const tokens = await oidc.authorizationCodeGrant(config, new URL((await consent(url)).answer.json().redirect_uri), { pkceCodeVerifier: verifier, expectedState: state })
    const listed = await call(t.app, 'GET', '/v1/user/authorize/clients', { token: userToken, query: { locale: 'zh-CN' } })
    const app = listed.json().data.find((a: { client: { client_id: string } }) => a.client.client_id === 'third-app')
    expect(app).toMatchObject({ client: { name: 'Third App' }, scopes: expect.arrayContaining([{ id: 'pan', description: '查看、添加、修改和删除你云盘中的文件' }]) })
    expect((await call(t.app, 'DELETE', '/v1/user/authorize/clients/third-app', { token: userToken })).statusCode).toBe(200)
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false)
    expect((await oidc.tokenIntrospection(config, tokens.refresh_token!)).active).toBe(false)
    expect((await call(t.app, 'GET', '/v1/user/authorize/detect', { token: userToken, query: { client_id: 'third-app', scope: 'pan' } })).json()).toEqual({ authorized: false })
    expectErrorReply(await call(t.app, 'DELETE', '/v1/user/authorize/clients/third-app', { token: userToken }), GenericErrors.not_found)
    // A code the app got just before, not yet exchanged, dies with the consent.
    const late = oidc.randomPKCECodeVerifier()
    const lateParams = { client_id: 'third-app', response_type: 'code', redirect_uri: APP_REDIRECT, scope: 'pan', code_challenge: await oidc.calculatePKCECodeChallenge(late), code_challenge_method: 'S256' }
    const lateCode = (await call(t.app, 'POST', '/v1/user/authorize', { token: userToken, body: { ...lateParams, consent: true } })).json().code
    expect((await call(t.app, 'DELETE', '/v1/user/authorize/clients/third-app', { token: userToken })).statusCode).toBe(200)
    expectErrorReply(await call(t.app, 'POST', '/v1/auth/token', { body: { grant_type: 'authorization_code', client_id: 'third-app', code: lateCode, redirect_uri: APP_REDIRECT, code_verifier: late } }), OAuthErrors.invalid_grant)
    // The user's own sessions (the web app's) are untouched.
    expect((await call(t.app, 'GET', '/v1/user/me', { token: userToken })).statusCode).toBe(200)
  })

  it('refuses a reused code and revokes what its first use gave', async () => {
    const config = await relyingParty('third-app')
    const verifier = oidc.randomPKCECodeVerifier()
    const state = oidc.randomState()
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: APP_REDIRECT, scope: 'pan', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state })
    const back = new URL((await consent(url)).answer.json().redirect_uri)
    const first = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier, expectedState: state })
    expect((await oidc.tokenIntrospection(config, first.access_token)).active).toBe(true)
    const again = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier, expectedState: state }).catch((e: unknown) => e)
    expect(again).toBeInstanceOf(oidc.ResponseBodyError)
    expect((again as oidc.ResponseBodyError).error).toBe('invalid_grant')
    expect((again as oidc.ResponseBodyError).cause).toMatchObject({ error_code: OAuthErrors.invalid_grant.code })
    expect((await oidc.tokenIntrospection(config, first.access_token)).active).toBe(false)
  })

  it('refuses a wrong verifier and a wrong redirect_uri with invalid_grant', async () => {
    const verifier = oidc.randomPKCECodeVerifier()
    const challenge = await oidc.calculatePKCECodeChallenge(verifier)
    const params = { client_id: 'third-app', response_type: 'code', redirect_uri: APP_REDIRECT, scope: 'pan', code_challenge: challenge, code_challenge_method: 'S256' }
    const code1 = (await call(t.app, 'POST', '/v1/user/authorize', { token: userToken, body: { ...params, consent: true } })).json().code
    expectErrorReply(await call(t.app, 'POST', '/v1/auth/token', { body: { grant_type: 'authorization_code', client_id: 'third-app', code: code1, redirect_uri: APP_REDIRECT, code_verifier: oidc.randomPKCECodeVerifier() } }), OAuthErrors.invalid_grant)
    const code2 = (await call(t.app, 'POST', '/v1/user/authorize', { token: userToken, body: { ...params, consent: true } })).json().code
    expectErrorReply(await call(t.app, 'POST', '/v1/auth/token', { body: { grant_type: 'authorization_code', client_id: 'third-app', code: code2, redirect_uri: 'http://127.0.0.1:9/other', code_verifier: verifier } }), OAuthErrors.invalid_grant)
  })

  it('checks the request before anything is sent to the redirect URI', async () => {
    const base = { client_id: 'third-app', response_type: 'code', redirect_uri: APP_REDIRECT, scope: 'pan', code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' }
    expectErrorReply(await call(t.app, 'GET', '/v1/user/authorize/info', { query: { ...base, client_id: 'nobody' } }), OAuthErrors.unauthorized_client)
    const wrongUri = expectErrorReply(await call(t.app, 'GET', '/v1/user/authorize/info', { query: { ...base, redirect_uri: `${APP_REDIRECT}/more` } }), OAuthErrors.invalid_request)
    expect(wrongUri.details[0].metadata.field).toBe('redirect_uri')
    expectErrorReply(await call(t.app, 'GET', '/v1/user/authorize/info', { query: { ...base, response_type: 'token' } }), OAuthErrors.unsupported_response_type)
    expectErrorReply(await call(t.app, 'GET', '/v1/user/authorize/info', { query: { ...base, scope: 'pan admin' } }), OAuthErrors.invalid_scope)
    expectErrorReply(await call(t.app, 'GET', '/v1/user/authorize/info', { query: { ...base, scope: 'offline' } }), OAuthErrors.invalid_scope)
    const { code_challenge: _c, code_challenge_method: _m, ...noPkce } = base
    expectErrorReply(await call(t.app, 'GET', '/v1/user/authorize/info', { query: noPkce }), OAuthErrors.invalid_request)
    expectErrorReply(await call(t.app, 'GET', '/v1/user/authorize/info', { query: { ...base, code_challenge_method: 'plain' } }), OAuthErrors.invalid_request)
    // Consent needs a signed-in user.
    expectErrorReply(await call(t.app, 'POST', '/v1/user/authorize', { body: { ...base, consent: true } }), GenericErrors.unauthenticated)
  })

  it('a denial is access_denied, with the redirect carrying error=access_denied', async () => {
    const params = { client_id: 'third-app', response_type: 'code', redirect_uri: APP_REDIRECT, scope: 'pan', state: 'st-1', code_challenge: 'b'.repeat(43), code_challenge_method: 'S256' }
    const denied = expectErrorReply(await call(t.app, 'POST', '/v1/user/authorize', { token: userToken, body: { ...params, consent: false } }), OAuthErrors.access_denied)
    const redirect = new URL(denied.details[0].metadata.redirect_uri)
    expect(redirect.origin + redirect.pathname).toBe(APP_REDIRECT)
    expect(redirect.searchParams.get('error')).toBe('access_denied')
    expect(redirect.searchParams.get('state')).toBe('st-1')
  })

  it('a third-party app with the user scope still cannot change the password, the address or get a sudo token', async () => {
    await addClient(t.deps, { clientId: 'full-app', name: 'Full App', type: 'public', redirectUris: [APP_REDIRECT], scopes: ['pan', 'user', 'offline'] })
    const verifier = oidc.randomPKCECodeVerifier()
    const params = { client_id: 'full-app', response_type: 'code', redirect_uri: APP_REDIRECT, scope: 'pan user offline', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' }
    const code = (await call(t.app, 'POST', '/v1/user/authorize', { token: userToken, body: { ...params, consent: true } })).json().code
    const token = (await call(t.app, 'POST', '/v1/auth/token', { body: { grant_type: 'authorization_code', client_id: 'full-app', code, redirect_uri: APP_REDIRECT, code_verifier: verifier } })).json().access_token
    expect((await call(t.app, 'GET', '/v1/user/me', { token })).statusCode).toBe(200)
    expectErrorReply(await call(t.app, 'PATCH', '/v1/user/contact', { token, body: { email: 'thief@example.com', verification_token: 'x' } }), GenericErrors.permission_denied)
    expectErrorReply(await call(t.app, 'PATCH', '/v1/user/password', { token, body: { old_password: 'x', password: 'a new long password' } }), GenericErrors.permission_denied)
    expectErrorReply(await call(t.app, 'POST', '/v1/user/sudo', { token, body: { password: 'x' } }), GenericErrors.permission_denied)
  })

  it('accepts a loopback redirect on any port (RFC 8252 7.3), nothing else that differs', async () => {
    const base = { client_id: 'third-app', response_type: 'code', scope: 'pan', code_challenge: 'd'.repeat(43), code_challenge_method: 'S256' }
    expect((await call(t.app, 'GET', '/v1/user/authorize/info', { query: { ...base, redirect_uri: 'http://127.0.0.1:53682/app/callback' } })).statusCode).toBe(200)
    for (const other of ['http://127.0.0.1:53682/app/callback/x', 'http://localhost:9/app/callback', 'http://127.0.0.1:53682/app/callback?x=1', 'https://127.0.0.1:9/app/callback']) {
      expectErrorReply(await call(t.app, 'GET', '/v1/user/authorize/info', { query: { ...base, redirect_uri: other } }), OAuthErrors.invalid_request)
    }
  })

  it('asks the user even for a first-party public client with an app scheme (another app could claim it)', async () => {
    await addClient(t.deps, { clientId: 'own-desktop', name: 'Own desktop app', type: 'first_party', redirectUris: ['com.example.cumulus:/oauth'] })
    await addClient(t.deps, { clientId: 'own-site', name: 'Own site', type: 'first_party', redirectUris: ['https://apps.example/cb'] })
    expect((await call(t.app, 'GET', '/v1/user/authorize/detect', { token: userToken, query: { client_id: 'own-desktop', scope: 'pan' } })).json()).toEqual({ authorized: false })
    expect((await call(t.app, 'GET', '/v1/user/authorize/detect', { token: userToken, query: { client_id: 'own-site', scope: 'pan' } })).json()).toEqual({ authorized: true })
  })

  it('a code asked for without redirect_uri (one is registered) is exchanged without one', async () => {
    const verifier = oidc.randomPKCECodeVerifier()
    const params = { client_id: 'third-app', response_type: 'code', scope: 'pan', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' }
    const answer = await call(t.app, 'POST', '/v1/user/authorize', { token: userToken, body: { ...params, consent: true } })
    expect(new URL(answer.json().redirect_uri).origin + new URL(answer.json().redirect_uri).pathname).toBe(APP_REDIRECT)
    const res = await call(t.app, 'POST', '/v1/auth/token', { body: { grant_type: 'authorization_code', client_id: 'third-app', code: answer.json().code, code_verifier: verifier } })
    expect(res.statusCode, res.body).toBe(200)
  })

  it('one code, exchanged by many at once, never leaves live tokens with the code presented twice', async () => {
    const verifier = oidc.randomPKCECodeVerifier()
    const params = { client_id: 'third-app', response_type: 'code', redirect_uri: APP_REDIRECT, scope: 'pan', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' }
    const code = (await call(t.app, 'POST', '/v1/user/authorize', { token: userToken, body: { ...params, consent: true } })).json().code
    const body = { grant_type: 'authorization_code', client_id: 'third-app', code, redirect_uri: APP_REDIRECT, code_verifier: verifier }
    const results = await Promise.all(Array.from({ length: 12 }, () => call(t.app, 'POST', '/v1/auth/token', { body })))
    // RFC 6749 4.1.2: a code used more than once is denied and what it gave is revoked. Whoever
    // won the race (if the reuse came after its reply) holds tokens that no longer work.
    const won = results.filter((r) => r.statusCode === 200)
    expect(won.length).toBeLessThanOrEqual(1)
    for (const r of results.filter((r) => r.statusCode !== 200)) expectErrorReply(r, OAuthErrors.invalid_grant)
    for (const r of won) expect((await call(t.app, 'GET', '/v1/auth/token/introspect', { query: { token: r.json().access_token } })).json()).toEqual({ active: false })
  })

  it('runs the device flow: pending, slow_down, approval on the verification calls, tokens once', async () => {
    const config = await relyingParty('tv-app')
    const device = await oidc.initiateDeviceAuthorization(config, { scope: 'pan user offline' })
    expect(device.user_code).toMatch(/^[B-DF-HJ-NP-TV-XZ]{4}-[B-DF-HJ-NP-TV-XZ]{4}$/)
    expect(device.verification_uri).toBe(`${issuer}/device`)
    expect(device.verification_uri_complete).toBe(`${issuer}/device?user_code=${device.user_code}`)
    const poll = () => call(t.app, 'POST', '/v1/auth/token', { body: { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', client_id: 'tv-app', device_code: device.device_code } })
    expectErrorReply(await poll(), OAuthErrors.authorization_pending)
    expectErrorReply(await poll(), OAuthErrors.slow_down)
    // The verification page's calls: what is asked (typed in lower case, without the dash), then the approval.
    const typed = device.user_code.toLowerCase().replace('-', '')
    const info = await call(t.app, 'GET', '/v1/user/device/info', { token: userToken, query: { user_code: typed } })
    expect(info.json()).toMatchObject({ user_code: device.user_code, client: { client_id: 'tv-app', name: 'TV App' } })
    expect((await call(t.app, 'POST', '/v1/user/device/authorize', { token: userToken, body: { user_code: typed, consent: true } })).statusCode).toBe(200)
    // Answered once only.
    expectErrorReply(await call(t.app, 'POST', '/v1/user/device/authorize', { token: userToken, body: { user_code: typed, consent: false } }), OAuthErrors.invalid_grant)
    t.clock.advanceSeconds(20)
    const tokens = await oidc.pollDeviceAuthorizationGrant(config, { ...device, interval: 0 })
    expect(tokens.scope).toBe('pan user offline')
    expect((await call(t.app, 'GET', '/v1/user/me', { token: tokens.access_token })).json().sub).toBe(userId)
    t.clock.advanceSeconds(20)
    expectErrorReply(await poll(), OAuthErrors.invalid_grant)
  })

  it('a session an app gets by its code records the device the token request named, and a refresh does not change it', async () => {
    await addClient(t.deps, { clientId: 'desk-app', name: 'Desk App', type: 'public', redirectUris: [APP_REDIRECT], scopes: ['pan', 'offline'], grantTypes: ['authorization_code', 'refresh_token'] })
    const verifier = oidc.randomPKCECodeVerifier()
    const params = { client_id: 'desk-app', response_type: 'code', redirect_uri: APP_REDIRECT, scope: 'pan offline', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' }
    const code = (await call(t.app, 'POST', '/v1/user/authorize', { token: userToken, body: { ...params, consent: true } })).json().code
    const device = { 'x-device-name': 'Ann desk', 'user-agent': 'DeskApp/2.1 (Windows NT 10.0; Win64; x64)' }
    const tokens = (await call(t.app, 'POST', '/v1/auth/token', { headers: device, body: { grant_type: 'authorization_code', client_id: 'desk-app', code, redirect_uri: APP_REDIRECT, code_verifier: verifier } })).json()
    const refreshed = await call(t.app, 'POST', '/v1/auth/token', { headers: { 'x-device-name': 'someone else', 'user-agent': 'Other/1' }, body: { grant_type: 'refresh_token', client_id: 'desk-app', refresh_token: tokens.refresh_token } })
    expect(refreshed.statusCode, refreshed.body).toBe(200)
    const me = (await call(t.app, 'GET', '/v1/user/me', { token: userToken })).json().sub
    const sessions = await t.deps.sessions.listLive(me, t.clock.nowMs(), 100)
    const app = sessions.find((s) => s.clientId === 'desk-app')
    expect(app?.origin).toMatchObject({ deviceName: 'Ann desk', userAgent: device['user-agent'] })
  })

  it('a device code expires (expired_token), and a denial is access_denied', async () => {
    const start = async () => (await call(t.app, 'POST', '/v1/auth/device/code', { body: { client_id: 'tv-app' } })).json() as { device_code: string; user_code: string }
    const poll = (deviceCode: string) => call(t.app, 'POST', '/v1/auth/token', { body: { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', client_id: 'tv-app', device_code: deviceCode } })
    const late = await start()
    t.clock.advanceSeconds(601)
    expectErrorReply(await poll(late.device_code), OAuthErrors.expired_token)
    expectErrorReply(await call(t.app, 'POST', '/v1/user/device/authorize', { token: userToken, body: { user_code: late.user_code, consent: true } }), OAuthErrors.invalid_grant)

    const refused = await start()
    expect((await call(t.app, 'POST', '/v1/user/device/authorize', { token: userToken, body: { user_code: refused.user_code, consent: false } })).statusCode).toBe(200)
    expectErrorReply(await poll(refused.device_code), OAuthErrors.access_denied)
  })

  it('parallel polls of an approved code give tokens once; parallel approvals count once', async () => {
    const device = (await call(t.app, 'POST', '/v1/auth/device/code', { body: { client_id: 'tv-app' } })).json() as { device_code: string; user_code: string }
    const approvals = await Promise.all(Array.from({ length: 8 }, () => call(t.app, 'POST', '/v1/user/device/authorize', { token: userToken, body: { user_code: device.user_code, consent: true } })))
    expect(approvals.filter((r) => r.statusCode === 200)).toHaveLength(1)
    t.clock.advanceSeconds(10)
    const body = { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', client_id: 'tv-app', device_code: device.device_code }
    const polls = await Promise.all(Array.from({ length: 12 }, () => call(t.app, 'POST', '/v1/auth/token', { body })))
    expect(polls.filter((r) => r.statusCode === 200)).toHaveLength(1)
    for (const r of polls.filter((r) => r.statusCode !== 200)) expect([OAuthErrors.slow_down.code, OAuthErrors.invalid_grant.code]).toContain(r.json().error_code)
  })

  it('a client without the grant is unauthorized_client; wrong user codes are limited per account', async () => {
    expectErrorReply(await call(t.app, 'POST', '/v1/auth/device/code', { body: { client_id: 'third-app' } }), OAuthErrors.unauthorized_client)
    const { user, password } = await aUser(t)
    const token = (await signIn(t, user.email!, password)).json().access_token
    const results = []
    for (let i = 0; i < 11; i++) results.push(await call(t.app, 'GET', '/v1/user/device/info', { token, query: { user_code: 'BBBB-BBBB' } }))
    for (const r of results.slice(0, 10)) expectErrorReply(r, OAuthErrors.invalid_grant)
    expectErrorReply(results[10]!, GenericErrors.resource_exhausted)
  })

  it('starts at most 30 device sign-ins a minute from one address', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, () => t.app.inject({ method: 'POST', url: '/v1/auth/device/code', remoteAddress: '10.9.9.9', payload: { client_id: 'tv-app' } })))
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(30)
    for (const r of results.filter((r) => r.statusCode !== 200)) expectErrorReply(r, GenericErrors.resource_exhausted)
    // The user codes handed out are all different.
    expect(new Set(results.filter((r) => r.statusCode === 200).map((r) => r.json().user_code)).size).toBe(30)
  })

  it('answers hostile authorization requests with the contract error, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          client_id: fc.oneof(fc.constant('third-app'), fc.string({ maxLength: 40 })),
          response_type: fc.oneof(fc.constant('code'), fc.string({ maxLength: 10 })),
          redirect_uri: fc.oneof(fc.constant(APP_REDIRECT), fc.webUrl(), fc.string({ maxLength: 60 })),
          scope: fc.oneof(fc.constant('pan'), fc.string({ maxLength: 40 })),
          code_challenge: fc.oneof(fc.constant('c'.repeat(43)), fc.string({ maxLength: 140 })),
          code_challenge_method: fc.oneof(fc.constant('S256'), fc.string({ maxLength: 8 })),
          state: fc.string({ maxLength: 80 }),
        }),
        fc.string({ maxLength: 80 }),
        async (params, junk) => {
          for (const res of [
            await call(t.app, 'GET', '/v1/user/authorize/info', { query: params }),
            await call(t.app, 'POST', '/v1/user/authorize', { token: userToken, body: { ...params, consent: true } }),
            await call(t.app, 'POST', '/v1/auth/token', { body: { grant_type: 'authorization_code', client_id: params.client_id, code: junk, redirect_uri: params.redirect_uri, code_verifier: junk } }),
            await call(t.app, 'POST', '/v1/auth/token', { body: { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', client_id: params.client_id, device_code: junk } }),
            await call(t.app, 'GET', '/v1/user/device/info', { token: userToken, query: { user_code: junk || 'x' } }),
          ]) {
            expect(res.statusCode, res.body).toBeLessThan(500)
            if (res.statusCode !== 200) expect(typeof res.json().error_code).toBe('number')
          }
        },
      ),
      { numRuns: 30 },
    )
  })
})
