import { randomInt } from 'node:crypto'
import { DriveErrors, GenericErrors } from '@cumulus/protocol'
import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, expectErrorReply } from '../../../test/http.js'
import { type TestApp, buildTestApp } from '../../../test/test-app.js'
import { REDEEM_ATTEMPTS_PER_ACCOUNT, createActivationCodes, normaliseActivationCode } from './activation-codes.js'

const DAY_MS = 86_400_000
const CODE_FORMAT = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/

describe('activation codes', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp()
  })
  afterAll(async () => {
    await t?.close()
  })

  /** A new anonymous account, from an address of its own (each address has its own attempt budget). */
  async function account(): Promise<{ token: string; ip: string }> {
    const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`
    const res = await t.app.inject({ method: 'POST', url: '/v1/auth/signup/anonymously', remoteAddress: ip, headers: { 'x-client-id': 'cumulus-web' }, payload: { client_id: 'cumulus-web' } })
    expect(res.statusCode, res.body).toBe(200)
    return { token: res.json().access_token, ip }
  }

  const redeem = (who: { token: string; ip: string }, code: unknown) =>
    t.app.inject({ method: 'POST', url: '/vip/v1/order/activation-code', remoteAddress: who.ip, headers: { 'x-client-id': 'cumulus-web', authorization: `Bearer ${who.token}` }, payload: { activation_code: code, data: {} } })

  const vipInfo = async (who: { token: string }) => (await call(t.app, 'GET', '/v1/user/me', { token: who.token })).json().vip_info[0]

  it('makes codes in groups of four, stores only their hashes, and refuses what it cannot make', async () => {
    const codes = await createActivationCodes(t.deps, { plan: 'vip', days: 31, count: 50 })
    expect(codes).toHaveLength(50)
    expect(new Set(codes).size).toBe(50)
    for (const code of codes) expect(code).toMatch(CODE_FORMAT)
    const stored = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM identity_vip_codes`.execute(t.db)
    expect(Number(stored.rows[0]!.n)).toBeGreaterThanOrEqual(50)
    const dump = JSON.stringify((await sql`SELECT * FROM identity_vip_codes`.execute(t.db)).rows)
    for (const code of codes) expect(dump).not.toContain(normaliseActivationCode(code)!)
    for (const bad of [{ plan: 'gold', days: 1, count: 1 }, { plan: 'vip', days: 0, count: 1 }, { plan: 'vip', days: 1, count: 0 }, { plan: 'vip', days: 1.5, count: 1 }, { plan: 'vip', days: 1, count: 1, validDays: 0 }]) {
      await expect(createActivationCodes(t.deps, bad)).rejects.toMatchObject({ entry: GenericErrors.invalid_argument })
    }
  })

  it('turns a free account into a member; a second code adds its days to what is left', async () => {
    const who = await account()
    expect(await vipInfo(who)).toMatchObject({ is_vip: 0, vas_type: 'novip' })
    const [first, second] = await createActivationCodes(t.deps, { plan: 'vip', days: 31, count: 2 })
    const now = t.clock.nowMs()

    const res = await redeem(who, first)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ add_days: 31, code: first, data: { expire: new Date(now + 31 * DAY_MS).toISOString(), status: 'ok', type: 'vip', user_id: expect.any(String) } })
    expect(await vipInfo(who)).toMatchObject({ is_vip: 1, vas_type: 'vip' })

    // Typed by hand: lower case, spaces for dashes, O for 0 and I for 1 are all read as the code.
    const typed = second!.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o').replace(/1/g, 'i')
    const again = await redeem(who, typed)
    expect(again.statusCode, again.body).toBe(200)
    expect(Date.parse(again.json().data.expire)).toBe(now + 62 * DAY_MS)
  })

  it('answers the catalogue errors for a used, an unknown, an expired and a malformed code', async () => {
    const who = await account()
    const [code, expiring] = await createActivationCodes(t.deps, { plan: 'vip', days: 7, count: 2, validDays: 1 })
    expect((await redeem(who, code)).statusCode).toBe(200)
    expectErrorReply(await redeem(await account(), code), DriveErrors.activation_code_used)
    expectErrorReply(await redeem(who, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ'), DriveErrors.activation_code_invalid)
    expectErrorReply(await redeem(who, 'not a code'), DriveErrors.activation_code_invalid)
    t.clock.advanceSeconds(86_401)
    // A new account: the first one's access token is past its lifetime too.
    expectErrorReply(await redeem(await account(), expiring), DriveErrors.activation_code_invalid)
    expectErrorReply(await t.app.inject({ method: 'POST', url: '/vip/v1/order/activation-code', payload: { activation_code: code } }), GenericErrors.unauthenticated)
  })

  it('grants a code once however many accounts redeem it at the same moment', async () => {
    const [code] = await createActivationCodes(t.deps, { plan: 'vip', days: 30, count: 1 })
    const accounts = await Promise.all(Array.from({ length: 12 }, () => account()))
    const replies = await Promise.all(accounts.map((who) => redeem(who, code)))
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(1)
    for (const reply of replies.filter((r) => r.statusCode !== 200)) expectErrorReply(reply, DriveErrors.activation_code_used)
    const members = await Promise.all(accounts.map(vipInfo))
    expect(members.filter((info) => info.is_vip === 1)).toHaveLength(1)
  })

  it('adds up codes one account redeems in parallel, losing no day', async () => {
    const who = await account()
    const codes = await createActivationCodes(t.deps, { plan: 'vip', days: 10, count: 5 })
    const now = t.clock.nowMs()
    const replies = await Promise.all(codes.map((code) => redeem(who, code)))
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200])
    const latest = Math.max(...replies.map((r) => Date.parse(r.json().data.expire)))
    expect(latest).toBe(now + 50 * DAY_MS)
  })

  it('lets an account try 10 codes an hour, however many it sends at once', async () => {
    const who = await account()
    const guesses = Array.from({ length: 25 }, (_, i) => `AAAA-BBBB-CCCC-${String(i).padStart(4, '0')}`)
    const replies = await Promise.all(guesses.map((guess) => redeem(who, guess)))
    expect(replies.filter((r) => r.statusCode === 400)).toHaveLength(REDEEM_ATTEMPTS_PER_ACCOUNT)
    const refused = replies.filter((r) => r.statusCode === 429)
    expect(refused).toHaveLength(25 - REDEEM_ATTEMPTS_PER_ACCOUNT)
    expectErrorReply(refused[0]!, GenericErrors.resource_exhausted)
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0)
    // A real code is refused too while the budget is spent: guessing then redeeming gains nothing.
    const [real] = await createActivationCodes(t.deps, { plan: 'vip', days: 1, count: 1 })
    expect((await redeem(who, real)).statusCode).toBe(429)
  })

  it('answers any body with a contract error, never a 500 (property)', async () => {
    const who = await account()
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 80 }), fc.integer(), fc.constant(null), fc.array(fc.string()), fc.string({ unit: 'binary', maxLength: 40 })), async (value) => {
        const res = await redeem({ ...who, ip: `10.9.${randomInt(256)}.${randomInt(1, 255)}` }, value)
        expect([400, 409, 429]).toContain(res.statusCode)
        expect(res.json()).toHaveProperty('error')
      }),
      { numRuns: 40 },
    )
  })

  it('extends a running higher plan with the days of a lower one instead of demoting it; a yearly membership stays yearly', async () => {
    const who = await account()
    const sub = (await call(t.app, 'GET', '/v1/user/me', { token: who.token })).json().sub as string
    const now = t.clock.nowMs()
    await t.deps.memberships.grant(sub, { days: 10, isYear: true, level: 2, vasType: 'platinum', nowMs: now })
    const [code] = await createActivationCodes(t.deps, { plan: 'vip', days: 31, count: 1 })
    expect((await redeem(who, code)).json().data).toMatchObject({ type: 'platinum', expire: new Date(now + 41 * DAY_MS).toISOString() })
    expect(await vipInfo(who)).toMatchObject({ is_vip: 1, vas_type: 'platinum', level: 2, is_year: 1 })
  })
})
