// Regression tests for issue 11, "Abuse of paid channels": a captcha token was bound to its
// client, device and action only, and was single-use for sign-in only. A token solved once for
// one address could be replayed for any other address (and, outside sign-in, any number of
// times), so one solved check paid for an unlimited number of SMS. A token must now be spent by
// the one call it authorises and name the target (account or address) it was issued for.
import { AccountErrors, WEB_CLIENT_ID } from '@cumulus/protocol'
import fc from 'fast-check'
import type { LightMyRequestResponse } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { captchaFor, expectErrorReply } from '../../../test/http.js'
import { OTHER_CLIENT, type TestApp, buildTestApp } from '../../../test/test-app.js'
import { targetBindings, targetIdentifiers, targetsMatch } from './captcha-target.js'

interface Endpoint {
  path: string
  /** The `meta` a client sends to captcha init for target `who`, and the body of the call itself. */
  meta(who: string): Record<string, string>
  body(who: string): Record<string, unknown>
}

const email = (who: string) => `${who}@example.com`
const phoneOf = (who: string) => (who === 'ann' ? '+65 9100 0001' : '+6591000002')

const ENDPOINTS: Record<string, Endpoint> = {
  'verification by e-mail': { path: '/v1/auth/verification', meta: (w) => ({ email: email(w) }), body: (w) => ({ email: email(w), target: 'ANY', usage: 'REGISTER' }) },
  'verification by SMS': { path: '/v1/auth/verification', meta: (w) => ({ phone_number: phoneOf(w) }), body: (w) => ({ phone_number: phoneOf(w), target: 'ANY', usage: 'REGISTER' }) },
  'sign-in': { path: '/v1/auth/signin', meta: (w) => ({ username: email(w) }), body: (w) => ({ username: email(w), password: 'wrong password' }) },
  'sign-up': { path: '/v1/auth/signup', meta: (w) => ({ email: email(w) }), body: (w) => ({ email: email(w), verification_token: 'x'.repeat(43), password: 'a long passphrase' }) },
  'password reset': { path: '/v1/auth/reset', meta: (w) => ({ email: email(w) }), body: (w) => ({ email: email(w), verification_token: 'x'.repeat(43), password: 'a long passphrase' }) },
}

/** Whether the captcha guard let the call through (whatever the call itself then answered). */
const passedGuard = (res: LightMyRequestResponse) => ![AccountErrors.captcha_invalid.code, AccountErrors.captcha_required.code].includes(res.json().error_code)

describe('captcha tokens are bound to action, client and target, and single-use', () => {
  let t: TestApp | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  const post = (app: TestApp['app'], path: string, body: Record<string, unknown>, captcha: string, clientId = WEB_CLIENT_ID) =>
    app.inject({ method: 'POST', url: path, headers: { 'x-client-id': clientId, 'x-captcha-token': captcha }, payload: { client_id: clientId, ...body } })

  it.each(Object.entries(ENDPOINTS))('%s: a token for action A, client X, target T is refused for B, Y and U, then works once for A, X, T', async (_name, endpoint) => {
    t = await buildTestApp({ config: { verification: { resendIntervalSeconds: 0 } } })
    const { app } = t
    const token = await captchaFor(app, `POST:${endpoint.path}`, endpoint.meta('ann'))
    const otherAction = endpoint.path === '/v1/auth/signin' ? '/v1/auth/signup' : '/v1/auth/signin'
    const otherBody = endpoint.path === '/v1/auth/signin' ? ENDPOINTS['sign-up']!.body('ann') : ENDPOINTS['sign-in']!.body('ann')

    expectErrorReply(await post(app, otherAction, otherBody, token), AccountErrors.captcha_invalid)
    expectErrorReply(await post(app, endpoint.path, endpoint.body('ann'), token, OTHER_CLIENT.clientId), AccountErrors.captcha_invalid)
    expectErrorReply(await post(app, endpoint.path, endpoint.body('bob-the-victim'), token), AccountErrors.captcha_invalid)
    // Not burnt by the refusals: the call it was issued for goes through, once.
    expect(passedGuard(await post(app, endpoint.path, endpoint.body('ann'), token))).toBe(true)
    expectErrorReply(await post(app, endpoint.path, endpoint.body('ann'), token), AccountErrors.captcha_invalid)
  })

  it('matches the target after normalisation, as sign-in and the send do', async () => {
    t = await buildTestApp()
    const token = await captchaFor(t.app, 'POST:/v1/auth/verification', { email: ' Ann@Example.COM' })
    expect(passedGuard(await post(t.app, '/v1/auth/verification', { email: 'ann@example.com', target: 'ANY', usage: 'REGISTER' }, token))).toBe(true)
  })

  it('a token issued without a target is refused for a call that names one', async () => {
    t = await buildTestApp()
    const token = await captchaFor(t.app, 'POST:/v1/auth/verification', {})
    expectErrorReply(await post(t.app, '/v1/auth/verification', { email: 'ann@example.com', target: 'ANY', usage: 'REGISTER' }, token), AccountErrors.captcha_invalid)
  })

  it('a token issued for target T is refused for a call that names no target', async () => {
    t = await buildTestApp()
    const token = await captchaFor(t.app, 'POST:/v1/auth/verification', { email: 'ann@example.com' })
    const res = await post(t.app, '/v1/auth/verification', { target: 'ANY', usage: 'REGISTER' }, token)
    expectErrorReply(res, AccountErrors.captcha_invalid)
  })

  it('a token solved through the challenge page carries the target of its init', async () => {
    t = await buildTestApp({ config: { captcha: { mode: 'always', powDifficultyBits: 4 } } })
    const init = await t.app.inject({ method: 'POST', url: '/v1/shield/captcha/init', payload: { client_id: WEB_CLIENT_ID, action: 'POST:/v1/auth/verification', meta: { email: 'ann@example.com' } } })
    const challenge = new URL(init.json().url).searchParams.get('challenge')!
    const { createHash } = await import('node:crypto')
    const { leadingZeroBits } = await import('./challenge.js')
    let nonce = 0
    while (leadingZeroBits(createHash('sha256').update(`${challenge}:${nonce}`).digest()) < 4) nonce++
    const solved = await t.app.inject({ method: 'POST', url: '/captcha/challenge/verify', payload: { challenge, nonce: String(nonce) } })
    const token = solved.json().captcha_token as string
    expectErrorReply(await post(t.app, '/v1/auth/verification', { email: 'bob@example.com', target: 'ANY', usage: 'REGISTER' }, token), AccountErrors.captcha_invalid)
    expect(passedGuard(await post(t.app, '/v1/auth/verification', { email: 'ann@example.com', target: 'ANY', usage: 'REGISTER' }, token))).toBe(true)
  })
})

describe('target bindings (property)', () => {
  const deps = { hmacKey: Buffer.alloc(32, 7) }
  const bound = (fields: Record<string, string>) => targetBindings(deps, targetIdentifiers(fields))

  it('a binding matches the same address however it is typed, and never another address or none', () => {
    fc.assert(
      fc.property(fc.emailAddress(), fc.emailAddress(), fc.constantFrom('email', 'username'), (a, b, key) => {
        const token = bound({ email: a })
        expect(targetsMatch(token, bound({ [key]: `  ${a.toUpperCase()} ` }))).toBe(true)
        expect(targetsMatch(token, bound({ email: b }))).toBe(a.toLowerCase() === b.toLowerCase())
        expect(targetsMatch(token, bound({}))).toBe(false)
        expect(targetsMatch(bound({}), bound({ email: a }))).toBe(false)
      }),
    )
  })

  it('phone numbers match in any of the spellings sign-in accepts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100_000_000, max: 999_999_999 }), (n) => {
        const digits = String(n)
        const token = bound({ phone_number: `+65${digits}` })
        expect(targetsMatch(token, bound({ username: `+65 ${digits.slice(0, 4)}-${digits.slice(4)}` }))).toBe(true)
        expect(targetsMatch(token, bound({ phone_number: `+66${digits}` }))).toBe(false)
      }),
    )
  })
})
