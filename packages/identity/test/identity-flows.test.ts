import { AccountErrors, GenericErrors, OAuthErrors } from '@cumulus/protocol'
import { createLocalJWKSet, jwtVerify } from 'jose'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { grantVip } from '../src/features/users/admin.js'
import { runHousekeeping } from '../src/features/account/housekeeping.js'
import { toProfile } from '../src/features/users/profile.js'
import { call, captchaFor, expectErrorReply, signIn, signUpByEmail, verifiedEmailToken } from './http.js'
import { CONFIDENTIAL_CLIENT, type TestApp, buildTestApp } from './test-app.js'

describe('identity over HTTP', () => {
  let t: TestApp
  beforeEach(async () => {
    // Flows that send a second code to one address: the resend throttle has its own tests
    // (send-abuse.test.ts), and on Redis its window keeps Redis' time, which the clock cannot move.
    t = await buildTestApp({ config: { verification: { resendIntervalSeconds: 0 } } })
  })
  afterEach(() => t.close())

  it('signs up by e-mail code, signs in, refreshes, reads the profile and signs out', async () => {
    const signedUp = await signUpByEmail(t, 'Newcomer@Example.com', 'correct horse battery', 'Newcomer')
    expect(signedUp).toMatchObject({ token_type: 'Bearer', expires_in: 7200, scope: 'pan user offline' })

    const signedIn = await signIn(t, 'newcomer@example.com', 'correct horse battery')
    expect(signedIn.statusCode, signedIn.body).toBe(200)
    const tokens = signedIn.json()
    expect(tokens.sub).toBe(signedUp.sub)

    const refreshed = await call(t.app, 'POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'cumulus-web' } })
    expect(refreshed.statusCode, refreshed.body).toBe(200)
    const access = refreshed.json().access_token

    const me = await call(t.app, 'GET', '/v1/user/me', { token: access })
    expect(me.statusCode).toBe(200)
    expect(me.json()).toMatchObject({
      sub: signedUp.sub,
      name: 'Newcomer',
      email: 'newcomer@example.com',
      phone_number: '',
      password: 'SET',
      status: 'ACTIVE',
      providers: [],
      vip_info: [{ user_vas: 2, is_vip: 0, is_year: 0, vas_type: 'novip', level: 0 }],
    })
    expect(Date.parse(me.json().created_at)).not.toBeNaN()
    expect(Date.parse(me.json().vip_info[0].expire)).not.toBeNaN()

    const revoked = await call(t.app, 'POST', '/v1/auth/revoke', { token: access, body: {} })
    expect(revoked.statusCode).toBe(200)
    expectErrorReply(await call(t.app, 'GET', '/v1/user/me', { token: access }), GenericErrors.unauthenticated)
  })

  it('reports VIP membership granted by the operator, with the yearly flag', async () => {
    const tokens = await signUpByEmail(t, 'vip@example.com', 'correct horse battery')
    await grantVip(t.deps, { user: 'vip@example.com', days: 365, year: true })
    const info = (await call(t.app, 'GET', '/v1/user/me', { token: tokens.access_token })).json().vip_info[0]
    expect(info).toMatchObject({ user_vas: 2, is_vip: 1, is_year: 1, vas_type: 'vip', level: 1 })
    expect(Date.parse(info.expire) - t.clock.nowMs()).toBe(365 * 86_400_000)
    expect(info.vip_icon.large).toMatch(/^http:\/\/127\.0\.0\.1:3000\/v1\/assets\/vip-large\.svg$/)
    const icon = await call(t.app, 'GET', '/v1/assets/vip-large.svg')
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/)
    t.clock.advanceSeconds(365 * 86_400 + 1)
    const found = (await t.deps.users.findWithMembership(tokens.sub))!
    const lapsed = toProfile(t.deps, found.user, found.membership)
    expect(lapsed.vip_info[0]).toMatchObject({ is_vip: 0, is_year: 0, vas_type: 'novip', expire: info.expire })
  })

  it('signs up anonymously with an anonymous sub', async () => {
    const res = await call(t.app, 'POST', '/v1/auth/signup/anonymously', { body: { client_id: 'cumulus-web' } })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().sub).toMatch(/^anon_.{5,}/)
    const me = await call(t.app, 'GET', '/v1/user/me', { token: res.json().access_token })
    expect(me.json()).toMatchObject({ sub: res.json().sub, email: '', password: '' })
  })

  it('keeps a guest account, with its id, once it binds an e-mail: it is registered and signs in anywhere by code', async () => {
    const guest = (await call(t.app, 'POST', '/v1/auth/signup/anonymously', { body: { client_id: 'cumulus-web' } })).json()
    const token = await verifiedEmailToken(t, 'guest@example.com', 'EMAIL_ADDRESS_VERIFICATION')
    const bound = await call(t.app, 'PATCH', '/v1/user/contact', { token: guest.access_token, body: { email: 'guest@example.com', verification_token: token } })
    expect(bound.statusCode, bound.body).toBe(200)
    expect((await t.deps.users.findById(guest.sub))?.anonymous).toBe(false)
    const code = await verifiedEmailToken(t, 'guest@example.com', 'SIGN_IN')
    const captcha = await captchaFor(t.app, 'POST:/v1/auth/signin', { email: 'guest@example.com' })
    const signedIn = await call(t.app, 'POST', '/v1/auth/signin', { captcha, body: { username: 'guest@example.com', verification_code: '000000', verification_token: code, client_id: 'cumulus-web' } })
    expect(signedIn.statusCode, signedIn.body).toBe(200)
    expect(signedIn.json().sub).toBe(guest.sub)
  })

  it('requires a captcha token on sign-in, and the token is single-use', async () => {
    expectErrorReply(await call(t.app, 'POST', '/v1/auth/signin', { body: { username: 'a@example.com', password: 'whatever-pass', client_id: 'cumulus-web' } }), AccountErrors.captcha_required)
    await signUpByEmail(t, 'once@example.com', 'correct horse battery')
    const captcha = await captchaFor(t.app, 'POST:/v1/auth/signin', { email: 'once@example.com' })
    const body = { username: 'once@example.com', password: 'correct horse battery', client_id: 'cumulus-web' }
    expect((await call(t.app, 'POST', '/v1/auth/signin', { captcha, body })).statusCode).toBe(200)
    expectErrorReply(await call(t.app, 'POST', '/v1/auth/signin', { captcha, body }), AccountErrors.captcha_invalid)
  })

  it('wrong password and unknown account give the same 4022 reply', async () => {
    await signUpByEmail(t, 'known@example.com', 'correct horse battery')
    const wrong = expectErrorReply(await signIn(t, 'known@example.com', 'wrong password!'), AccountErrors.invalid_account_or_password)
    const unknown = expectErrorReply(await signIn(t, 'unknown@example.com', 'wrong password!'), AccountErrors.invalid_account_or_password)
    expect(unknown.error_description).toBe(wrong.error_description)
  })

  it('signs in by e-mail code, and REGISTER_SIGN_IN creates the account', async () => {
    const token = await verifiedEmailToken(t, 'coder@example.com', 'REGISTER_SIGN_IN')
    const captcha = await captchaFor(t.app, 'POST:/v1/auth/signin', { email: 'coder@example.com' })
    const res = await call(t.app, 'POST', '/v1/auth/signin', { captcha, body: { username: 'coder@example.com', verification_code: '000000', verification_token: token, client_id: 'cumulus-web' } })
    expect(res.statusCode, res.body).toBe(200)
    const me = await call(t.app, 'GET', '/v1/user/me', { token: res.json().access_token })
    expect(me.json()).toMatchObject({ email: 'coder@example.com', password: '' })
  })

  it('refuses a second sign-up for the same address with already_exists', async () => {
    await signUpByEmail(t, 'taken@example.com', 'correct horse battery')
    const token = await verifiedEmailToken(t, 'taken@example.com')
    const captcha = await captchaFor(t.app, 'POST:/v1/auth/signup', { email: 'taken@example.com' })
    expectErrorReply(await call(t.app, 'POST', '/v1/auth/signup', { captcha, body: { email: 'taken@example.com', verification_token: token, password: 'another password', client_id: 'cumulus-web' } }), GenericErrors.already_exists)
  })

  it('password reset revokes every session: the old access token gets 401 at once', async () => {
    const tokens = await signUpByEmail(t, 'forgetful@example.com', 'correct horse battery')
    const verification = await verifiedEmailToken(t, 'forgetful@example.com', 'PASSWORD_RESET')
    const captcha = await captchaFor(t.app, 'POST:/v1/auth/reset', { email: 'forgetful@example.com' })
    const reset = await call(t.app, 'POST', '/v1/auth/reset', { captcha, body: { email: 'forgetful@example.com', verification_token: verification, password: 'a brand new password', client_id: 'cumulus-web' } })
    expect(reset.statusCode, reset.body).toBe(200)
    expect(reset.json()).toEqual({})
    expectErrorReply(await call(t.app, 'GET', '/v1/user/me', { token: tokens.access_token }), GenericErrors.unauthenticated)
    expectErrorReply(await signIn(t, 'forgetful@example.com', 'correct horse battery'), AccountErrors.invalid_account_or_password)
    expect((await signIn(t, 'forgetful@example.com', 'a brand new password')).statusCode).toBe(200)
  })

  it('deletes an account: sudo, freeze with sessions ended, account_freeze on sign-in, erasure after the grace period', async () => {
    const tokens = await signUpByEmail(t, 'leaver@example.com', 'correct horse battery')
    expectErrorReply(await call(t.app, 'POST', '/v1/user/sudo', { token: tokens.access_token, body: { password: 'wrong password' } }), AccountErrors.invalid_password)
    const sudo = await call(t.app, 'POST', '/v1/user/sudo', { token: tokens.access_token, body: { password: 'correct horse battery' } })
    expect(sudo.json()).toMatchObject({ expires_in: 300 })
    expectErrorReply(await call(t.app, 'DELETE', '/v1/user/me?sudo_token=forged', { token: tokens.access_token }), GenericErrors.permission_denied)
    const deleted = await call(t.app, 'DELETE', `/v1/user/me?sudo_token=${encodeURIComponent(sudo.json().sudo_token)}`, { token: tokens.access_token })
    expect(deleted.statusCode, deleted.body).toBe(200)
    expectErrorReply(await call(t.app, 'GET', '/v1/user/me', { token: tokens.access_token }), GenericErrors.unauthenticated)
    const frozen = expectErrorReply(await signIn(t, 'leaver@example.com', 'correct horse battery'), AccountErrors.account_freeze)
    expect(frozen.details[0].metadata.erase_at).toBe(deleted.json().erase_at)

    t.clock.advanceSeconds(t.deps.config.deletionGraceSeconds - 1)
    expect((await runHousekeeping(t.deps)).erasedUserIds).toEqual([])
    t.clock.advanceSeconds(2)
    expect((await runHousekeeping(t.deps)).erasedUserIds).toEqual([tokens.sub])
    expect(await t.deps.users.findById(tokens.sub)).toBeNull()
    expectErrorReply(await signIn(t, 'leaver@example.com', 'correct horse battery'), AccountErrors.invalid_account_or_password)
  })

  it('edits profile, changes password (other sessions end, this one stays) and binds a new e-mail', async () => {
    const first = await signUpByEmail(t, 'editor@example.com', 'correct horse battery')
    const second = (await signIn(t, 'editor@example.com', 'correct horse battery')).json()
    const patched = await call(t.app, 'PATCH', '/v1/user/profile', { token: second.access_token, body: { name: '  Ed  ', picture: 'https://example.com/a.png' } })
    expect(patched.json()).toMatchObject({ name: 'Ed', picture: 'https://example.com/a.png' })
    expectErrorReply(await call(t.app, 'PATCH', '/v1/user/profile', { token: second.access_token, body: { picture: 'javascript:alert(1)' } }), GenericErrors.invalid_argument)

    const changed = await call(t.app, 'PATCH', '/v1/user/password', { token: second.access_token, body: { old_password: 'correct horse battery', password: 'even better password' } })
    expect(changed.statusCode, changed.body).toBe(200)
    expectErrorReply(await call(t.app, 'GET', '/v1/user/me', { token: first.access_token }), GenericErrors.unauthenticated)
    expect((await call(t.app, 'GET', '/v1/user/me', { token: second.access_token })).statusCode).toBe(200)

    const token = await verifiedEmailToken(t, 'edited@example.com', 'EMAIL_ADDRESS_CHANGE')
    const bound = await call(t.app, 'PATCH', '/v1/user/contact', { token: second.access_token, body: { email: 'edited@example.com', verification_token: token } })
    expect(bound.statusCode, bound.body).toBe(200)
    expect((await call(t.app, 'GET', '/v1/user/me', { token: second.access_token })).json().email).toBe('edited@example.com')
  })

  it('answers public profiles for user/query and nothing more', async () => {
    const a = await signUpByEmail(t, 'qa@example.com', 'correct horse battery', 'Queried')
    const res = await call(t.app, 'GET', `/v1/user/query?ids=${a.sub},nobody`, { token: a.access_token })
    expect(res.json()).toEqual({ users: [{ sub: a.sub, name: 'Queried', picture: '' }] })
  })

  it('publishes a JWKS that verifies access tokens, with the contract claims', async () => {
    const tokens = await signUpByEmail(t, 'jwt@example.com', 'correct horse battery')
    const jwks = (await call(t.app, 'GET', '/.well-known/jwks.json')).json()
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, createLocalJWKSet(jwks), { currentDate: new Date(t.clock.nowMs()) })
    expect(protectedHeader.alg).toBe('ES256')
    expect(payload).toMatchObject({ sub: tokens.sub, client_id: 'cumulus-web', scope: 'pan user offline' })
    expect(payload).toHaveProperty('sid')
    expect(payload).toHaveProperty('jti')
    expect(payload.exp! - payload.iat!).toBe(7200)
  })

  it('exchanges a token of one client for a session of another (SSO)', async () => {
    const tokens = await signUpByEmail(t, 'sso@example.com', 'correct horse battery')
    const res = await call(t.app, 'POST', '/v1/auth/signin/token', { headers: { 'x-client-id': 'test-other' }, body: { token: tokens.access_token } })
    expect(res.statusCode, res.body).toBe(200)
    const intro = await call(t.app, 'GET', '/v1/auth/token/introspect', { query: { token: res.json().access_token } })
    expect(intro.json()).toMatchObject({ active: true, client_id: 'test-other', sub: tokens.sub })
  })

  describe('transport rules', () => {
    it('accepts the token grant as form-urlencoded, and JSON labelled as a form', async () => {
      const tokens = await signUpByEmail(t, 'forms@example.com', 'correct horse battery')
      const form = await t.app.inject({
        method: 'POST',
        url: '/v1/auth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `grant_type=refresh_token&refresh_token=${encodeURIComponent(tokens.refresh_token)}&client_id=cumulus-web`,
      })
      expect(form.statusCode, form.body).toBe(200)
      const mislabelled = await t.app.inject({
        method: 'POST',
        url: '/v1/auth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: JSON.stringify({ grant_type: 'refresh_token', refresh_token: form.json().refresh_token, client_id: 'cumulus-web' }),
      })
      expect(mislabelled.statusCode, mislabelled.body).toBe(200)
      expect(mislabelled.headers['content-type']).toBe('application/json; charset=utf-8')
    })

    it('authenticates a confidential client by HTTP Basic or body secret, and refuses a wrong secret', async () => {
      const anon = await call(t.app, 'POST', '/v1/auth/signup/anonymously', { headers: { 'x-client-id': CONFIDENTIAL_CLIENT.clientId }, body: { client_secret: CONFIDENTIAL_CLIENT.clientSecret } })
      expect(anon.statusCode, anon.body).toBe(200)
      const basic = Buffer.from(`${CONFIDENTIAL_CLIENT.clientId}:${CONFIDENTIAL_CLIENT.clientSecret}`).toString('base64')
      const viaBasic = await t.app.inject({ method: 'POST', url: '/v1/auth/token', headers: { authorization: `Basic ${basic}` }, payload: { grant_type: 'refresh_token', refresh_token: anon.json().refresh_token } })
      expect(viaBasic.statusCode, viaBasic.body).toBe(200)
      expectErrorReply(await call(t.app, 'POST', '/v1/auth/signup/anonymously', { headers: { 'x-client-id': CONFIDENTIAL_CLIENT.clientId }, body: { client_secret: 'wrong' } }), OAuthErrors.unauthorized_client)
    })

    it('refuses an unknown client with unauthorized_client (4122, 401)', async () => {
      expectErrorReply(await call(t.app, 'POST', '/v1/auth/signup/anonymously', { headers: { 'x-client-id': 'nope' }, body: {} }), OAuthErrors.unauthorized_client)
    })

    it('names the invalid field, localizes the message and echoes the request id', async () => {
      const res = await call(t.app, 'POST', '/v1/auth/token', { headers: { 'accept-language': 'zh-CN,zh;q=0.9', 'x-request-id': 'req-123' }, body: { client_id: 'cumulus-web' } })
      const body = expectErrorReply(res, GenericErrors.invalid_argument)
      expect(body.details[0].metadata.field).toBe('grant_type')
      expect(body.details[1]).toMatchObject({ locale: 'zh-CN' })
      expect(body.details[1].message).toMatch(/[\u4e00-\u9fff]/)
      expect(res.headers['x-request-id']).toBe('req-123')
    })

    it('answers unknown paths with not_found in the contract shape', async () => {
      expectErrorReply(await call(t.app, 'GET', '/v1/nothing/here'), GenericErrors.not_found)
    })

    it('reuse of a rotated refresh token after the grace window gives invalid_grant', async () => {
      const tokens = await signUpByEmail(t, 'reuse@example.com', 'correct horse battery')
      const body = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'cumulus-web' }
      expect((await call(t.app, 'POST', '/v1/auth/token', { body })).statusCode).toBe(200)
      t.clock.advanceSeconds(60)
      expectErrorReply(await call(t.app, 'POST', '/v1/auth/token', { body }), OAuthErrors.invalid_grant)
    })
  })
})
