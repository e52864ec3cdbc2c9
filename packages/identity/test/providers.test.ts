import { AccountErrors, GenericErrors, OAuthErrors } from '@cumulus/protocol'
import fc from 'fast-check'
import { OAuth2Server } from 'oauth2-mock-server'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { IdentityProviderConfig } from '../src/config.js'
import { aUser } from './builders.js'
import { call, captchaFor, expectErrorReply, signIn } from './http.js'
import { type TestApp, buildTestApp, testBackend } from './test-app.js'
import { unusedPort } from '../../../test-support/ports.js'

/**
 * Provider sign-in against a real OpenID Connect server on 127.0.0.1 (oauth2-mock-server): its
 * discovery, its authorize redirect, its token endpoint and its signed ID tokens, checked by
 * openid-client inside the identity service. Nothing of the HTTP layer is mocked.
 */
const CALLBACK = 'http://127.0.0.1:3000/auth/callback'

interface Person {
  sub: string
  email?: string
  email_verified?: boolean
  name?: string
  /** Seconds to add to the ID token's exp (negative: already expired). */
  expShift?: number
}

let idp: OAuth2Server
let person: Person = { sub: 'alice-1' }

function localProvider(overrides: Partial<IdentityProviderConfig> = {}): IdentityProviderConfig {
  return {
    id: 'local',
    kind: 'oidc',
    name: 'Local ID',
    icon: '',
    clientId: 'cumulus-at-local',
    clientSecret: 'local-secret',
    scopes: ['openid', 'email', 'profile'],
    issuer: idp.issuer.url!,
    claims: { sub: 'sub', name: 'name', email: 'email', emailVerified: 'email_verified', picture: 'picture' },
    signUp: true,
    extraAudiences: [],
    ...overrides,
  }
}

/** An issuer on a port nothing listens on: a provider that is down. */
let downIssuer = ''

beforeAll(async () => {
  idp = new OAuth2Server()
  await idp.issuer.keys.generate('RS256')
  await idp.start(0, '127.0.0.1')
  idp.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    token.payload['sub'] = person.sub
    if (person.email !== undefined) token.payload['email'] = person.email
    if (person.email_verified !== undefined) token.payload['email_verified'] = person.email_verified
    if (person.name !== undefined) token.payload['name'] = person.name
    if (person.expShift !== undefined) token.payload['exp'] = Math.floor(Date.now() / 1000) + person.expShift
  })
  idp.service.on('beforeUserinfo', (reply: { body: Record<string, unknown> }) => {
    reply.body = { sub: person.sub, ...(person.name ? { name: person.name } : {}) }
  })
  downIssuer = `http://127.0.0.1:${await unusedPort()}`
})

afterAll(async () => {
  await idp.stop()
})

describe(`provider sign-in against a local OpenID Connect server, on ${testBackend()}`, () => {
  let t: TestApp
  beforeEach(async () => {
    person = { sub: `p-${Math.random().toString(36).slice(2)}`, name: 'Alice Provider' }
    t = await buildTestApp({ config: { captcha: { mode: 'off' }, providers: [localProvider(), localProvider({ id: 'down', name: 'Down', issuer: downIssuer })] } as never })
  })
  afterEach(() => t.close())

  /** The browser's part: our authorize URL, then the provider's redirect back with code and state. */
  async function authorizeAtProvider(state = `state-${Math.random().toString(36).slice(2)}`) {
    const uriRes = await call(t.app, 'GET', '/v1/auth/provider/uri', { query: { client_id: 'cumulus-web', provider_id: 'local', redirect_uri: CALLBACK, state } })
    expect(uriRes.statusCode, uriRes.body).toBe(200)
    const { uri } = uriRes.json() as { uri: string; state: string }
    const authorizeUrl = new URL(uri)
    // What the library put in the request: PKCE S256, the state, a nonce.
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorizeUrl.searchParams.get('state')).toBe(state)
    expect(authorizeUrl.searchParams.get('nonce')).toBeTruthy()
    const redirect = await fetch(uri, { redirect: 'manual' })
    expect(redirect.status).toBe(302)
    const back = new URL(redirect.headers.get('location')!)
    expect(back.origin + back.pathname).toBe(CALLBACK)
    return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! }
  }

  async function providerToken(back: { code: string; state: string }) {
    return call(t.app, 'POST', '/v1/auth/provider/token', { body: { client_id: 'cumulus-web', provider_id: 'local', provider_redirect_uri: CALLBACK, provider_code: back.code, state: back.state } })
  }

  async function signInAtProvider() {
    const token = await providerToken(await authorizeAtProvider())
    expect(token.statusCode, token.body).toBe(200)
    const signedIn = await call(t.app, 'POST', '/v1/auth/signin/with/provider', { body: { client_id: 'cumulus-web', provider_token: token.json().provider_token } })
    return signedIn
  }

  it('lists the configured providers for the login page', async () => {
    const res = await call(t.app, 'GET', '/v1/auth/providers')
    expect(res.json()).toEqual({ providers: [{ id: 'local', name: 'Local ID', icon: '' }, { id: 'down', name: 'Down', icon: '' }] })
  })

  it('signs up on the first sign-in, and signs in to the same account after', async () => {
    person.email = 'alice@provider.test'
    person.email_verified = true
    const token = await providerToken(await authorizeAtProvider())
    expect(token.statusCode, token.body).toBe(200)
    expect(token.json().provider_profile).toEqual({ sub: person.sub, name: 'Alice Provider', email: 'alice@provider.test', email_verified: true, picture: '' })
    const first = await call(t.app, 'POST', '/v1/auth/signin/with/provider', { body: { client_id: 'cumulus-web', provider_token: token.json().provider_token } })
    expect(first.statusCode, first.body).toBe(200)
    const me = await call(t.app, 'GET', '/v1/user/me', { token: first.json().access_token })
    expect(me.json()).toMatchObject({ email: 'alice@provider.test', name: 'Alice Provider', password: '', providers: [{ id: 'local', provider_user_id: person.sub, name: 'Alice Provider' }] })

    const second = await signInAtProvider()
    expect(second.statusCode, second.body).toBe(200)
    expect(second.json().sub).toBe(first.json().sub)
  })

  it('a provider token is spent by one sign-in', async () => {
    const token = (await providerToken(await authorizeAtProvider())).json().provider_token
    const body = { client_id: 'cumulus-web', provider_token: token }
    const results = await Promise.all(Array.from({ length: 8 }, () => call(t.app, 'POST', '/v1/auth/signin/with/provider', { body })))
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1)
    for (const r of results.filter((r) => r.statusCode !== 200)) expectErrorReply(r, OAuthErrors.invalid_grant)
  })

  it('parallel first sign-ins of one person make one account', async () => {
    const tokens = await Promise.all(Array.from({ length: 6 }, async () => (await providerToken(await authorizeAtProvider())).json().provider_token as string))
    const results = await Promise.all(tokens.map((provider_token) => call(t.app, 'POST', '/v1/auth/signin/with/provider', { body: { client_id: 'cumulus-web', provider_token } })))
    for (const r of results) expect(r.statusCode, r.body).toBe(200)
    expect(new Set(results.map((r) => r.json().sub)).size).toBe(1)
  })

  it('a verified e-mail joins the existing account; an unverified one never does', async () => {
    const { user } = await aUser(t, { email: 'owner@example.com' })
    person.email = 'owner@example.com'
    person.email_verified = false
    const unverified = await signInAtProvider()
    expect(unverified.statusCode, unverified.body).toBe(200)
    expect(unverified.json().sub).not.toBe(user.id)
    const stranger = await call(t.app, 'GET', '/v1/user/me', { token: unverified.json().access_token })
    // Nor does the unverified address become the new account's.
    expect(stranger.json().email).toBe('')

    person.sub = `${person.sub}-2`
    person.email_verified = true
    const verified = await signInAtProvider()
    expect(verified.statusCode, verified.body).toBe(200)
    expect(verified.json().sub).toBe(user.id)
  })

  it('answers user_not_exist for an unknown identity when sign-up is off', async () => {
    await t.close()
    t = await buildTestApp({ config: { captcha: { mode: 'off' }, providers: [localProvider({ signUp: false })] } as never })
    expectErrorReply(await signInAtProvider(), AccountErrors.user_not_exist)
  })

  it('refuses a wrong state and a replayed code with invalid_grant', async () => {
    const back = await authorizeAtProvider()
    expectErrorReply(await providerToken({ ...back, state: `${back.state}x` }), OAuthErrors.invalid_grant)
    expect((await providerToken(back)).statusCode).toBe(200)
    expectErrorReply(await providerToken(back), OAuthErrors.invalid_grant)
  })

  it('refuses a state used twice, a redirect_uri on a foreign origin and an unknown provider', async () => {
    const state = 'the-same-state-twice'
    expect((await call(t.app, 'GET', '/v1/auth/provider/uri', { query: { provider_id: 'local', redirect_uri: CALLBACK, state } })).statusCode).toBe(200)
    const again = expectErrorReply(await call(t.app, 'GET', '/v1/auth/provider/uri', { query: { provider_id: 'local', redirect_uri: CALLBACK, state } }), GenericErrors.invalid_argument)
    expect(again.details[0].metadata.field).toBe('state')
    const foreign = expectErrorReply(await call(t.app, 'GET', '/v1/auth/provider/uri', { query: { provider_id: 'local', redirect_uri: 'https://evil.example/cb' } }), GenericErrors.invalid_argument)
    expect(foreign.details[0].metadata.field).toBe('redirect_uri')
    const unknown = expectErrorReply(await call(t.app, 'GET', '/v1/auth/provider/uri', { query: { provider_id: 'nope', redirect_uri: CALLBACK } }), GenericErrors.invalid_argument)
    expect(unknown.details[0].metadata.field).toBe('provider_id')
  })

  it('starts at most 30 sign-ins a minute from one address, counted atomically', async () => {
    const results = await Promise.all(
      Array.from({ length: 45 }, (_, i) => call(t.app, 'GET', '/v1/auth/provider/uri', { query: { provider_id: 'local', redirect_uri: CALLBACK, state: `parallel-state-${i}` } })),
    )
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(30)
    for (const r of results.filter((r) => r.statusCode !== 200)) {
      expectErrorReply(r, GenericErrors.resource_exhausted)
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0)
    }
  })

  it('keeps a provider\'s name clean and takes only an http(s) picture', async () => {
    person.name = 'Eve\u0000\u001b[31m '
    person.email = undefined
    const signedIn = await signInAtProvider()
    const me = (await call(t.app, 'GET', '/v1/user/me', { token: signedIn.json().access_token })).json()
    expect(me.name).toBe('Eve[31m')
    expect(me.picture).toBe('')
  })

  it('refuses an expired ID token with provider_error', async () => {
    person.expShift = -120
    const token = await providerToken(await authorizeAtProvider())
    const body = expectErrorReply(token, AccountErrors.provider_error)
    expect(body.error_description).toMatch(/check|exp/i)
  })

  it('answers provider_error when the provider is down', async () => {
    const res = await call(t.app, 'GET', '/v1/auth/provider/uri', { query: { provider_id: 'down', redirect_uri: CALLBACK } })
    const body = expectErrorReply(res, AccountErrors.provider_error)
    expect(body.error_description).toMatch(/unavailable|reached/)
  })

  it('binds, lists, moves and unbinds, never leaving an account without a way in', async () => {
    const { user, password } = await aUser(t)
    const signedIn = await signIn(t, user.email!, password)
    const token = signedIn.json().access_token as string
    const bindToken = (await providerToken(await authorizeAtProvider())).json().provider_token
    const bound = await call(t.app, 'POST', '/v1/user/provider/bind', { token, body: { provider_token: bindToken } })
    expect(bound.statusCode, bound.body).toBe(200)
    expect((await call(t.app, 'GET', '/v1/user/provider', { token })).json()).toEqual({ data: [{ id: 'local', provider_user_id: person.sub, name: 'Alice Provider' }] })
    expect((await call(t.app, 'GET', '/v1/user/me', { token })).json().providers).toHaveLength(1)

    // The same person binds it to a second account: refused, with a token that moves it there.
    const other = await aUser(t)
    const otherToken = (await signIn(t, other.user.email!, other.password)).json().access_token as string
    const conflict = expectErrorReply(
      await call(t.app, 'POST', '/v1/user/provider/bind', { token: otherToken, body: { provider_token: (await providerToken(await authorizeAtProvider())).json().provider_token } }),
      GenericErrors.already_exists,
    )
    const transToken = conflict.details[0].metadata.provider_trans_token as string
    expect(transToken).toBeTruthy()
    const moved = await call(t.app, 'POST', '/v1/user/provider/local/trans', { token: otherToken, body: { provider_trans_token: transToken } })
    expect(moved.statusCode, moved.body).toBe(200)
    expect((await call(t.app, 'GET', '/v1/user/provider', { token })).json().data).toEqual([])
    expect((await call(t.app, 'GET', '/v1/user/provider', { token: otherToken })).json().data).toHaveLength(1)
    // The trans token is spent.
    expectErrorReply(await call(t.app, 'POST', '/v1/user/provider/local/trans', { token: otherToken, body: { provider_trans_token: transToken } }), OAuthErrors.invalid_grant)

    // And back, with a fresh sign-in at the provider.
    const back = await call(t.app, 'PATCH', '/v1/user/trans/by/provider', { token, body: { provider_token: (await providerToken(await authorizeAtProvider())).json().provider_token } })
    expect(back.statusCode, back.body).toBe(200)
    expect((await call(t.app, 'GET', '/v1/user/provider', { token })).json().data).toHaveLength(1)

    const unbound = await call(t.app, 'DELETE', '/v1/user/provider/local', { token })
    expect(unbound.statusCode, unbound.body).toBe(200)
    expect((await call(t.app, 'GET', '/v1/user/me', { token })).json().providers).toEqual([])
    expectErrorReply(await call(t.app, 'DELETE', '/v1/user/provider/local', { token }), GenericErrors.not_found)
  })

  it('refuses to unbind the only way into an account', async () => {
    // No verified e-mail: the account has no address and no password, only this binding.
    person.email = undefined
    const signedIn = await signInAtProvider()
    const token = signedIn.json().access_token as string
    const refused = expectErrorReply(await call(t.app, 'DELETE', '/v1/user/provider/local', { token, headers: { 'accept-language': 'zh-TW' } }), GenericErrors.failed_precondition)
    expect(refused.error_description).toMatch(/only way/)
    // The user reads why, in their language.
    expect(refused.details[0].reason).toBe('LAST_SIGN_IN_METHOD')
    expect(refused.details[1].message).toBe('這是登入你帳號的唯一方式。請先設定密碼或綁定電子郵件')
    expect((await call(t.app, 'GET', '/v1/user/provider', { token })).json().data).toHaveLength(1)
  })

  /** What a native SDK (Google Sign-In on Android, say) hands the app: tokens straight from the provider. */
  async function nativeTokens(audience: string) {
    const res = await fetch(`${idp.issuer.url}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code: 'native', client_id: audience, redirect_uri: 'com.example.app:/cb' }) })
    return (await res.json()) as { id_token: string; access_token: string }
  }

  it('accepts a native SDK\'s ID token for our audience (or an extra one), checked against the provider\'s keys', async () => {
    person.email = 'native@provider.test'
    person.email_verified = true
    const ours = await nativeTokens('cumulus-at-local')
    const accepted = await call(t.app, 'POST', '/v1/auth/provider/token', { body: { client_id: 'cumulus-web', provider_id: 'local', provider_id_token: ours.id_token } })
    expect(accepted.statusCode, accepted.body).toBe(200)
    expect(accepted.json().provider_profile).toMatchObject({ sub: person.sub, email: 'native@provider.test', email_verified: true })
    const signedIn = await call(t.app, 'POST', '/v1/auth/signin/with/provider', { body: { client_id: 'cumulus-web', provider_token: accepted.json().provider_token } })
    expect(signedIn.statusCode, signedIn.body).toBe(200)

    // Minted for another app: refused.
    const foreign = await nativeTokens('someone-else')
    expectErrorReply(await call(t.app, 'POST', '/v1/auth/provider/token', { body: { client_id: 'cumulus-web', provider_id: 'local', provider_id_token: foreign.id_token } }), AccountErrors.provider_error)
    // A forged signature: refused.
    const [head, body] = ours.id_token.split('.')
    expectErrorReply(await call(t.app, 'POST', '/v1/auth/provider/token', { body: { client_id: 'cumulus-web', provider_id: 'local', provider_id_token: `${head}.${body}.${'A'.repeat(342)}` } }), AccountErrors.provider_error)
    // A bare access token does not say which app it was issued to: refused unless the operator allows it.
    const refused = expectErrorReply(await call(t.app, 'POST', '/v1/auth/provider/token', { body: { client_id: 'cumulus-web', provider_id: 'local', provider_access_token: foreign.access_token } }), GenericErrors.invalid_argument)
    expect(refused.details[0].metadata.field).toBe('provider_access_token')
  })

  it('takes an access token, traded at the provider\'s user-info endpoint, only where the operator allows it', async () => {
    await t.close()
    t = await buildTestApp({ config: { captcha: { mode: 'off' }, providers: [localProvider({ acceptAccessTokens: true })] } as never })
    const byAccess = await call(t.app, 'POST', '/v1/auth/provider/token', { body: { client_id: 'cumulus-web', provider_id: 'local', provider_access_token: (await nativeTokens('cumulus-at-local')).access_token } })
    expect(byAccess.statusCode, byAccess.body).toBe(200)
    expect(byAccess.json().provider_profile.sub).toBe(person.sub)
  })

  it('accepts an ID token minted for an extra audience the operator listed', async () => {
    await t.close()
    t = await buildTestApp({ config: { captcha: { mode: 'off' }, providers: [localProvider({ extraAudiences: ['android-app-id'] })] } as never })
    const res = await call(t.app, 'POST', '/v1/auth/provider/token', { body: { client_id: 'cumulus-web', provider_id: 'local', provider_id_token: (await nativeTokens('android-app-id')).id_token } })
    expect(res.statusCode, res.body).toBe(200)
  })

  it('renews an unspent provider token once, spending the old one', async () => {
    const first = (await providerToken(await authorizeAtProvider())).json().provider_token
    const renewed = await call(t.app, 'PATCH', '/v1/auth/provider/token', { body: { client_id: 'cumulus-web', provider_token: first } })
    expect(renewed.statusCode, renewed.body).toBe(200)
    expect(renewed.json().provider_token).not.toBe(first)
    expectErrorReply(await call(t.app, 'PATCH', '/v1/auth/provider/token', { body: { client_id: 'cumulus-web', provider_token: first } }), OAuthErrors.invalid_grant)
    // Never past an hour after the sign-in at the provider.
    t.clock.advanceSeconds(3601)
    expectErrorReply(await call(t.app, 'PATCH', '/v1/auth/provider/token', { body: { client_id: 'cumulus-web', provider_token: renewed.json().provider_token } }), OAuthErrors.invalid_grant)
  })

  it('a provider token is spent only by the client it was issued to', async () => {
    const token = (await providerToken(await authorizeAtProvider())).json().provider_token
    const res = await call(t.app, 'POST', '/v1/auth/signin/with/provider', { headers: { 'x-client-id': 'test-other' }, body: { client_id: 'test-other', provider_token: token } })
    expectErrorReply(res, OAuthErrors.invalid_grant)
  })

  it('answers hostile provider inputs with the contract error, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ provider_id: fc.string({ maxLength: 80 }), redirect_uri: fc.oneof(fc.constant(CALLBACK), fc.webUrl(), fc.string()), state: fc.string({ maxLength: 600 }), code: fc.string({ maxLength: 200 }) }),
        async (input) => {
          const uri = await call(t.app, 'GET', '/v1/auth/provider/uri', { query: { provider_id: input.provider_id, redirect_uri: input.redirect_uri, state: input.state } })
          const token = await call(t.app, 'POST', '/v1/auth/provider/token', { body: { provider_id: input.provider_id, provider_code: input.code, state: input.state, provider_redirect_uri: input.redirect_uri } })
          const signin = await call(t.app, 'POST', '/v1/auth/signin/with/provider', { body: { provider_token: input.code } })
          for (const res of [uri, token, signin]) {
            expect(res.statusCode, res.body).toBeLessThan(500)
            if (res.statusCode !== 200) expect(typeof res.json().error_code).toBe('number')
          }
        },
      ),
      { numRuns: 40 },
    )
  })
})

describe('unbinding needs a captcha token for the concrete path', () => {
  it('refuses without one and accepts one made for DELETE:/v1/user/provider/<id>', async () => {
    person = { sub: `cap-${Math.random().toString(36).slice(2)}`, name: 'Cap' }
    const t = await buildTestApp({ config: { providers: [localProvider()] } as never })
    try {
      const { user, password } = await aUser(t)
      const token = (await signIn(t, user.email!, password)).json().access_token as string
      expectErrorReply(await call(t.app, 'DELETE', '/v1/user/provider/local', { token }), AccountErrors.captcha_required)
      const wrong = await captchaFor(t.app, 'DELETE:/v1/user/provider/github')
      expectErrorReply(await call(t.app, 'DELETE', '/v1/user/provider/local', { token, captcha: wrong }), AccountErrors.captcha_invalid)
      const right = await captchaFor(t.app, 'DELETE:/v1/user/provider/local')
      // Nothing bound: past the captcha, the account simply has no such binding.
      expectErrorReply(await call(t.app, 'DELETE', '/v1/user/provider/local', { token, captcha: right }), GenericErrors.not_found)
    } finally {
      await t.close()
    }
  })
})
