import { AccountErrors, AppError, WEB_CLIENT_ID } from '@cumulus/protocol'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CONFIDENTIAL_CLIENT, type TestDeps, buildTestDeps } from '../../../test/test-app.js'
import { issueCaptchaToken, normalizeAction, verifyCaptchaToken } from './captcha-token.js'
import { issueChallenge } from './challenge.js'

const SIGN_IN = 'POST:/v1/auth/signin'

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  return error as AppError
}

describe('normalizeAction', () => {
  it.each([
    ['POST:/v1/auth/signin', SIGN_IN],
    ['post:/v1/auth/signin', SIGN_IN],
    ['POST:https://id.example.com/v1/auth/signin', SIGN_IN],
    ['POST:https://id.example.com:8443/v1/auth/signin?x=1#frag', SIGN_IN],
    ['POST:/v1/auth/signin/', SIGN_IN],
    ['POST://v1//auth/signin', SIGN_IN],
    [' POST:/v1/auth/signin?client_id=a ', SIGN_IN],
    ['GET:/', 'GET:/'],
    ['POST:v1/auth/signin', SIGN_IN],
  ])('%j -> %j', (raw, expected) => {
    expect(normalizeAction(raw)).toBe(expected)
  })

  it('never throws and never yields a method from a URL scheme', () => {
    expect(normalizeAction('https://host/v1/auth/signin')).toBe(':/v1/auth/signin')
    expect(normalizeAction('')).toBe(':/')
    expect(normalizeAction('POST:http://[bad')).toMatch(/^POST:\//)
  })
})

describe('captcha tokens', () => {
  let t: TestDeps
  beforeEach(async () => {
    t = await buildTestDeps()
  })
  afterEach(async () => {
    await t.close()
  })

  const issue = (overrides: Partial<{ clientId: string; deviceId: string; action: string }> = {}) =>
    issueCaptchaToken(t.deps, { clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: SIGN_IN, ...overrides })

  it('round-trips the client, device and normalised action, with the configured lifetime', async () => {
    const { captchaToken, expiresIn } = issue({ action: 'post:https://cumulus.example/v1/auth/signin' })
    expect(expiresIn).toBe(300)
    const claims = await verifyCaptchaToken(t.deps, { token: captchaToken, clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: SIGN_IN, singleUse: false })
    expect(claims).toMatchObject({ clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: SIGN_IN })
  })

  it('is valid at 299 s and expired at 301 s', async () => {
    const { captchaToken } = issue()
    const check = () => verifyCaptchaToken(t.deps, { token: captchaToken, clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: SIGN_IN, singleUse: false })
    t.clock.advanceSeconds(299)
    await expect(check()).resolves.toMatchObject({ clientId: WEB_CLIENT_ID })
    t.clock.advanceSeconds(2)
    expect((await rejection(check())).entry).toBe(AccountErrors.captcha_invalid)
  })

  it('rejects a token shown by another client, another device or for another action', async () => {
    const { captchaToken: token } = issue()
    const base = { token, clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: SIGN_IN, singleUse: false }
    for (const mismatch of [{ clientId: CONFIDENTIAL_CLIENT.clientId }, { deviceId: 'device-2' }, { action: 'POST:/v1/auth/signup' }, { action: 'GET:/v1/auth/signin' }]) {
      const error = await rejection(verifyCaptchaToken(t.deps, { ...base, ...mismatch }))
      expect(error.entry).toBe(AccountErrors.captcha_invalid)
    }
  })

  it('checks the device only when the call names one', async () => {
    const { captchaToken } = issue()
    await expect(verifyCaptchaToken(t.deps, { token: captchaToken, clientId: WEB_CLIENT_ID, deviceId: '', action: SIGN_IN, singleUse: false })).resolves.toBeTruthy()
    await expect(verifyCaptchaToken(t.deps, { token: captchaToken, clientId: WEB_CLIENT_ID, action: SIGN_IN, singleUse: false })).resolves.toBeTruthy()
  })

  it('accepts a call whose action is a full URL of the same path', async () => {
    const { captchaToken } = issue()
    await expect(
      verifyCaptchaToken(t.deps, { token: captchaToken, clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: 'POST:https://other-host.example/v1/auth/signin', singleUse: false }),
    ).resolves.toMatchObject({ action: SIGN_IN })
  })

  it('rejects tampered, truncated and foreign tokens', async () => {
    const { captchaToken } = issue()
    const [kind, body, mac] = captchaToken.split('.') as [string, string, string]
    const otherBody = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), cid: 'test-other' })).toString('base64url')
    const { challenge } = issueChallenge(t.deps, { clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: SIGN_IN })
    for (const token of [`${kind}.${otherBody}.${mac}`, `${kind}.${body}`, `${kind}.${body}.${mac}x`, 'garbage', challenge, 'x'.repeat(10_000)]) {
      const error = await rejection(verifyCaptchaToken(t.deps, { token, clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: SIGN_IN, singleUse: false }))
      expect(error.entry).toBe(AccountErrors.captcha_invalid)
    }
  })

  it('is single-use when asked, and a burst with one token lets exactly one call through', async () => {
    const { captchaToken } = issue()
    const use = () => verifyCaptchaToken(t.deps, { token: captchaToken, clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: SIGN_IN, singleUse: true })
    const results = await Promise.allSettled(Array.from({ length: 8 }, use))
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    for (const r of results) if (r.status === 'rejected') expect((r.reason as AppError).entry).toBe(AccountErrors.captcha_invalid)
    expect((await rejection(use())).entry).toBe(AccountErrors.captcha_invalid)
  })

  it('can be reused when not single-use, and a mismatched use does not burn a single-use token', async () => {
    const { captchaToken } = issue()
    const input = { token: captchaToken, clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: SIGN_IN }
    await verifyCaptchaToken(t.deps, { ...input, singleUse: false })
    await verifyCaptchaToken(t.deps, { ...input, singleUse: false })
    await rejection(verifyCaptchaToken(t.deps, { ...input, action: 'POST:/v1/auth/signup', singleUse: true }))
    await expect(verifyCaptchaToken(t.deps, { ...input, singleUse: true })).resolves.toBeTruthy()
  })
})
