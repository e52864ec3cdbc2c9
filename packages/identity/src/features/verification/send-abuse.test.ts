// Regression tests for issue 11, "Abuse of paid channels" (SMS and e-mail pumping):
// - one verification captcha token sent 200 SMS in 364 ms: tokens other than sign-in's were
//   reusable until they expired;
// - the per-address throttle read the recent sends, then inserted the new one, so 50 parallel
//   sends to one address on PostgreSQL sent 49;
// - there was no per-IP and no global budget at all.
// Every test fires its burst with Promise.all, as a pumping script does, and counts what the
// SMS outbox (or the SMTP sink) really received.
import { AccountErrors, GenericErrors, WEB_CLIENT_ID } from '@cumulus/protocol'
import type { LightMyRequestResponse } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { captchaFor, expectErrorReply } from '../../../test/http.js'
import { type TestApp, type TestAppOptions, buildTestApp, testBackend } from '../../../test/test-app.js'

const VERIFICATION = 'POST:/v1/auth/verification'

/** Budgets far above what a test sends, so each test meets only the one it is about. */
const ROOMY = { resendIntervalSeconds: 0, maxPerAddressPerDay: 10_000, maxPerIpPerHour: 10_000, maxGlobalPerHour: 10_000 }

const phone = (i: number) => `+6591${String(i).padStart(6, '0')}`

describe('verification sends under a pumping burst', () => {
  let t: TestApp | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  async function setup(config: TestAppOptions['config']) {
    t = await buildTestApp({ config })
    return t
  }

  const send = (app: TestApp['app'], body: Record<string, unknown>, options: { captcha?: string; ip?: string } = {}) =>
    app.inject({
      method: 'POST',
      url: '/v1/auth/verification',
      remoteAddress: options.ip ?? '203.0.113.10',
      headers: { 'x-client-id': WEB_CLIENT_ID, ...(options.captcha ? { 'x-captcha-token': options.captcha } : {}) },
      payload: { target: 'ANY', usage: 'REGISTER', client_id: WEB_CLIENT_ID, ...body },
    })

  const succeeded = (replies: LightMyRequestResponse[]) => replies.filter((r) => r.statusCode === 200)

  it('one captcha token used for 200 parallel sends sends exactly one SMS', async () => {
    const { app, sms } = await setup({ captcha: { mode: 'auto' }, verification: ROOMY })
    const target = phone(1)
    const captcha = await captchaFor(app, VERIFICATION, { phone_number: target })
    const replies = await Promise.all(Array.from({ length: 200 }, () => send(app, { phone_number: target }, { captcha })))
    expect(succeeded(replies)).toHaveLength(1)
    expect(sms()).toHaveLength(1)
    for (const refused of replies.filter((r) => r.statusCode !== 200)) expectErrorReply(refused, AccountErrors.captcha_invalid)
  })

  it('50 parallel sends to one address send at most the per-address budget, and report it', async () => {
    const { app, sms } = await setup({ captcha: { mode: 'off' }, verification: { ...ROOMY, maxPerAddressPerDay: 5 } })
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => send(app, { phone_number: phone(2) }, { ip: `198.51.100.${i + 1}` })))
    expect(succeeded(replies)).toHaveLength(5)
    expect(sms()).toHaveLength(5)
    for (const refused of replies.filter((r) => r.statusCode !== 200)) {
      expectErrorReply(refused, GenericErrors.resource_exhausted)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    }
  })

  it('the one-a-minute resend throttle holds under 50 parallel sends to one address', async () => {
    const { app, sms } = await setup({ captcha: { mode: 'off' }, verification: { ...ROOMY, resendIntervalSeconds: 60 } })
    const replies = await Promise.all(Array.from({ length: 50 }, () => send(app, { phone_number: phone(3) })))
    expect(succeeded(replies)).toHaveLength(1)
    expect(sms()).toHaveLength(1)
    const refused = replies.find((r) => r.statusCode !== 200)!
    expectErrorReply(refused, GenericErrors.resource_exhausted)
    // Redis counts its own seconds: one may have ticked since the first send.
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(59)
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
  })

  // The windows' ends only where the test owns the counters' clock (memory counters on SQLite);
  // Redis keeps real time, and tests never sleep.
  it.runIf(testBackend() === 'sqlite')('the resend throttle lifts after exactly a minute', async () => {
    const { app, clock } = await setup({ captcha: { mode: 'off' }, verification: { ...ROOMY, resendIntervalSeconds: 60 } })
    expect((await send(app, { phone_number: phone(3) })).statusCode).toBe(200)
    clock.advanceSeconds(59)
    expect((await send(app, { phone_number: phone(3) })).statusCode).toBe(429)
    clock.advanceSeconds(1)
    expect((await send(app, { phone_number: phone(3) })).statusCode).toBe(200)
  })

  it('one IP sends at most its hourly budget to many addresses; another IP is not held back', async () => {
    const { app, sms } = await setup({ captcha: { mode: 'off' }, verification: { ...ROOMY, maxPerIpPerHour: 10 } })
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => send(app, { phone_number: phone(100 + i) }, { ip: '203.0.113.66' })))
    expect(succeeded(replies)).toHaveLength(10)
    expect(sms()).toHaveLength(10)
    for (const refused of replies.filter((r) => r.statusCode !== 200)) expectErrorReply(refused, GenericErrors.resource_exhausted)
    expect((await send(app, { phone_number: phone(200) }, { ip: '203.0.113.67' })).statusCode).toBe(200)
  })

  it.runIf(testBackend() === 'sqlite')('the per-IP budget is renewed after exactly an hour', async () => {
    const { app, clock } = await setup({ captcha: { mode: 'off' }, verification: { ...ROOMY, maxPerIpPerHour: 1 } })
    expect((await send(app, { phone_number: phone(200) }, { ip: '203.0.113.66' })).statusCode).toBe(200)
    clock.advanceSeconds(3599)
    expect((await send(app, { phone_number: phone(201) }, { ip: '203.0.113.66' })).statusCode).toBe(429)
    clock.advanceSeconds(1)
    expect((await send(app, { phone_number: phone(202) }, { ip: '203.0.113.66' })).statusCode).toBe(200)
  })

  it('the global hourly budget holds when every request comes from its own IP to its own address', async () => {
    const { app, sms } = await setup({ captcha: { mode: 'off' }, verification: { ...ROOMY, maxGlobalPerHour: 15 } })
    const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => send(app, { phone_number: phone(300 + i) }, { ip: `192.0.2.${i + 1}` })))
    expect(succeeded(replies)).toHaveLength(15)
    expect(sms()).toHaveLength(15)
    for (const refused of replies.filter((r) => r.statusCode !== 200)) expectErrorReply(refused, GenericErrors.resource_exhausted)
  })

  it('a send refused by one budget does not spend the others', async () => {
    // The IP budget is spent; a victim's address must not lose its daily budget to the refusals.
    const { app, sms } = await setup({ captcha: { mode: 'off' }, verification: { ...ROOMY, maxPerIpPerHour: 1, maxPerAddressPerDay: 2 } })
    expect((await send(app, { phone_number: phone(400) }, { ip: '203.0.113.90' })).statusCode).toBe(200)
    const refused = await Promise.all(Array.from({ length: 20 }, () => send(app, { phone_number: phone(401) }, { ip: '203.0.113.90' })))
    expect(succeeded(refused)).toHaveLength(0)
    const fromElsewhere = await Promise.all([send(app, { phone_number: phone(401) }, { ip: '203.0.113.91' }), send(app, { phone_number: phone(401) }, { ip: '203.0.113.92' })])
    expect(succeeded(fromElsewhere)).toHaveLength(2)
    expect(sms()).toHaveLength(3)
  })

  it('e-mail is budgeted the same way (real SMTP)', async () => {
    const { app, mail } = await setup({ captcha: { mode: 'off' }, verification: { ...ROOMY, maxPerAddressPerDay: 3 } })
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => send(app, { email: 'Victim@Example.com' }, { ip: `198.51.100.${i + 1}` })))
    expect(succeeded(replies)).toHaveLength(3)
    // A reply comes after the SMTP transaction, so every accepted message is in the sink by now.
    expect(mail.messages.filter((m) => m.to.includes('victim@example.com'))).toHaveLength(3)
  })
})
