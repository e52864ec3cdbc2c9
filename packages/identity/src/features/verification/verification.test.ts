import { AccountErrors, AppError, type ErrorEntry, GenericErrors } from '@cumulus/protocol'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { aUser, webClient } from '../../../test/builders.js'
import { codeIn } from '../../../../../test-support/smtp-sink.js'
import { type TestDeps, buildTestDeps, testBackend } from '../../../test/test-app.js'
import { startSession, authenticateAccessToken } from '../tokens/sessions.js'
import { claimVerification, sendVerification, verifyCode } from './verification.js'

async function expectError(promise: Promise<unknown>, entry: ErrorEntry): Promise<AppError> {
  const error = await promise.then(() => null, (e: unknown) => e)
  expect(error).toBeInstanceOf(AppError)
  expect((error as AppError).entry).toBe(entry)
  return error as AppError
}

describe('verification codes', () => {
  let t: TestDeps
  beforeEach(async () => {
    t = await buildTestDeps()
  })
  afterEach(() => t.close())

  const send = (over: Partial<Parameters<typeof sendVerification>[1]> = {}) =>
    sendVerification(t.deps, { email: 'new@example.com', target: 'ANY', usage: 'REGISTER', clientId: 'cumulus-web', locale: 'en-US', auth: null, ip: '203.0.113.1', ...over })

  it('e-mails a 6-digit code through SMTP and exchanges it for a token', async () => {
    const reply = await send()
    expect(reply).toMatchObject({ expires_in: 600, selected_channel: 'VERIFICATION_EMAIL', is_user: false })
    const mail = await t.mail.next('new@example.com')
    const token = await verifyCode(t.deps, { verificationId: reply.verification_id, code: codeIn(mail.text), clientId: 'cumulus-web' })
    expect(token.verification_token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const claim = await claimVerification(t.deps, { token: token.verification_token, address: { channel: 'email', value: 'new@example.com' }, usages: ['REGISTER'] })
    await claim.consume()
    await expectError(claim.consume(), AccountErrors.invalid_verification_code)
  })

  it('writes the SMS outbox for a phone number, in the requested language', async () => {
    const reply = await send({ email: undefined, phoneNumber: '+60 12-345 6789', locale: 'zh-CN' })
    expect(reply.selected_channel).toBe('VERIFICATION_PHONE')
    const [sms] = t.sms()
    expect(sms?.to).toBe('+60123456789')
    expect(sms?.text).toMatch(/\d{6}/)
    expect(sms?.text).toMatch(/[\u4e00-\u9fff]/)
  })

  it('codes live 10 minutes: 599 s accepted, 601 s expired', async () => {
    const a = await send({ email: 'a@example.com' })
    const codeA = codeIn((await t.mail.next('a@example.com')).text)
    const b = await send({ email: 'b@example.com' })
    const codeB = codeIn((await t.mail.next('b@example.com')).text)
    t.clock.advanceSeconds(599)
    await expect(verifyCode(t.deps, { verificationId: a.verification_id, code: codeA, clientId: 'cumulus-web' })).resolves.toBeTruthy()
    t.clock.advanceSeconds(2)
    await expectError(verifyCode(t.deps, { verificationId: b.verification_id, code: codeB, clientId: 'cumulus-web' }), AccountErrors.expired_verification_code)
  })

  it('five wrong tries burn the code, even for parallel guesses', async () => {
    const reply = await send()
    const code = codeIn((await t.mail.next('new@example.com')).text)
    const wrong = code === '000000' ? '111111' : '000000'
    const results = await Promise.all(Array.from({ length: 8 }, () => verifyCode(t.deps, { verificationId: reply.verification_id, code: wrong, clientId: 'cumulus-web' }).catch((e: AppError) => e)))
    expect(results.every((r) => r instanceof AppError && r.entry === AccountErrors.invalid_verification_code)).toBe(true)
    await expectError(verifyCode(t.deps, { verificationId: reply.verification_id, code, clientId: 'cumulus-web' }), AccountErrors.invalid_verification_code)
  })

  it('throttles resends to one a minute per address, with Retry-After', async () => {
    await send()
    const error = await expectError(send(), GenericErrors.resource_exhausted)
    expect(error.retryAfterSeconds).toBeGreaterThan(0)
  })

  // Only where the test owns the counters' clock (memory counters); Redis keeps real time.
  it.runIf(testBackend() === 'sqlite')('lets the next code go a minute later', async () => {
    await send()
    t.clock.advanceSeconds(61)
    await expect(send()).resolves.toBeTruthy()
  })

  it('target USER needs an existing account; is_user tells whether there is one', async () => {
    await expectError(send({ target: 'USER', usage: 'PASSWORD_RESET' }), AccountErrors.user_not_exist)
    const { user } = await aUser(t)
    await expect(send({ email: user.email!, target: 'USER', usage: 'PASSWORD_RESET' })).resolves.toMatchObject({ is_user: true })
  })

  it("target CUR_USER needs a bearer and uses the signed-in user's address", async () => {
    await expectError(send({ target: 'CUR_USER', email: undefined }), GenericErrors.unauthenticated)
    const { user } = await aUser(t)
    const session = await startSession(t.deps, { userId: user.id, client: webClient(t.deps), deviceId: '' })
    const auth = await authenticateAccessToken(t.deps, session.access_token)
    await send({ target: 'CUR_USER', email: undefined, usage: 'DEFAULT', auth })
    expect((await t.mail.next(user.email!)).to).toEqual([user.email])
  })

  it('refuses malformed addresses and both or neither address', async () => {
    await expectError(send({ email: 'not-an-email' }), GenericErrors.invalid_argument)
    await expectError(send({ email: undefined, phoneNumber: '12345' }), GenericErrors.invalid_argument)
    await expectError(send({ email: 'a@example.com', phoneNumber: '+6512345678' }), GenericErrors.invalid_argument)
    await expectError(send({ email: undefined }), GenericErrors.invalid_argument)
  })

  it('a token is bound to its address and usage', async () => {
    const reply = await send({ usage: 'SIGN_IN' })
    const code = codeIn((await t.mail.next('new@example.com')).text)
    const { verification_token } = await verifyCode(t.deps, { verificationId: reply.verification_id, code, clientId: 'cumulus-web' })
    await expectError(claimVerification(t.deps, { token: verification_token, address: { channel: 'email', value: 'other@example.com' }, usages: ['SIGN_IN'] }), AccountErrors.invalid_verification_code)
    await expectError(claimVerification(t.deps, { token: verification_token, address: { channel: 'email', value: 'new@example.com' }, usages: ['PASSWORD_RESET'] }), AccountErrors.invalid_verification_code)
    await expect(claimVerification(t.deps, { token: verification_token, address: { channel: 'email', value: 'new@example.com' }, usages: ['SIGN_IN'] })).resolves.toBeTruthy()
  })

  it('a code verified by another client is refused', async () => {
    const reply = await send()
    const code = codeIn((await t.mail.next('new@example.com')).text)
    await expectError(verifyCode(t.deps, { verificationId: reply.verification_id, code, clientId: 'test-other' }), AccountErrors.invalid_verification_code)
  })
})
