import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createActivationCodes } from './activation-codes.js'
import { call, captchaFor, verifiedEmailToken } from '../../../test/http.js'
import { type TestApp, buildTestApp } from '../../../test/test-app.js'

const DAY_MS = 86_400_000

describe('invite codes', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp({ config: { invites: { rewardDays: 7, rewardsPer30Days: 2 } } })
  })
  afterAll(async () => {
    await t?.close()
  })

  let sequence = 0
  /** An e-mail sign-up (verified code, captcha) with `invite_code`; returns its access token. */
  async function signUp(inviteCode?: string): Promise<string> {
    const email = `invitee${++sequence}-${Date.now()}@example.com`
    const verificationToken = await verifiedEmailToken(t, email)
    const captcha = await captchaFor(t.app, 'POST:/v1/auth/signup', { email })
    const res = await call(t.app, 'POST', '/v1/auth/signup', { captcha, body: { email, verification_token: verificationToken, password: 'correct horse battery', client_id: 'cumulus-web', ...(inviteCode === undefined ? {} : { invite_code: inviteCode }) } })
    expect(res.statusCode, res.body).toBe(200)
    return res.json().access_token
  }
  const codeOf = async (token: string) => (await call(t.app, 'GET', '/vip/v1/activity/inviteCode', { token })).json().code as string
  const vipOf = async (token: string) => (await call(t.app, 'GET', '/v1/user/me', { token })).json().vip_info[0] as { is_vip: number; expire: string }

  it('gives every account one code, the same however many times and however concurrently it asks', async () => {
    const token = await signUp()
    const codes = await Promise.all(Array.from({ length: 6 }, () => codeOf(token)))
    expect(new Set(codes).size).toBe(1)
    expect(codes[0]).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/)
    expect(await codeOf(token)).toBe(codes[0])
    expect(await codeOf(await signUp())).not.toBe(codes[0])
    expect((await call(t.app, 'GET', '/vip/v1/activity/inviteCode')).statusCode).toBe(401)
  })

  it('rewards the new account and the inviter with the configured days, the code typed loosely', async () => {
    const inviter = await signUp()
    const code = await codeOf(inviter)
    const now = t.clock.nowMs()
    const invitee = await signUp(` ${code.toLowerCase().replace(/0/g, 'o')} `)
    for (const token of [invitee, inviter]) {
      const vip = await vipOf(token)
      expect(vip.is_vip).toBe(1)
      expect(Date.parse(vip.expire)).toBe(now + 7 * DAY_MS)
    }
  })

  it('rewards at most the configured number of sign-ups per inviter in 30 days, even when they come at once', async () => {
    const inviter = await signUp()
    const code = await codeOf(inviter)
    const now = t.clock.nowMs()
    const invitees = await Promise.all([signUp(code), signUp(code), signUp(code)])
    const members = (await Promise.all(invitees.map(vipOf))).filter((vip) => vip.is_vip === 1)
    expect(members).toHaveLength(2)
    expect(Date.parse((await vipOf(inviter)).expire)).toBe(now + 14 * DAY_MS)
  })

  it('still signs up with a code that names nobody or is not a code, and gives nothing', async () => {
    for (const code of ['ZZZZZZZZ', 'not-a-code', '']) {
      const token = await signUp(code)
      expect((await vipOf(token)).is_vip).toBe(0)
    }
  })

  it('leaves no row naming an erased account in the membership tables; a code it redeemed stays used', async () => {
    const inviter = await signUp()
    const code = await codeOf(inviter)
    const invitee = await signUp(code)
    const [activation] = await createActivationCodes(t.deps, { plan: 'vip', days: 3, count: 1 })
    expect((await call(t.app, 'POST', '/vip/v1/order/activation-code', { token: invitee, body: { activation_code: activation } })).statusCode).toBe(200)
    const ids = await Promise.all([inviter, invitee].map(async (token) => (await call(t.app, 'GET', '/v1/user/me', { token })).json().sub as string))
    const now = t.clock.nowMs()
    for (const id of ids) await t.deps.users.requestDeletion(id, now, now)
    expect((await t.deps.users.eraseDue(now + 1)).sort()).toEqual([...ids].sort())
    const dump = JSON.stringify(await Promise.all(['identity_memberships', 'identity_vip_codes', 'identity_invite_codes', 'identity_invitations'].map(async (table) => (await sql`SELECT * FROM ${sql.table(table)}`.execute(t.db)).rows)))
    for (const id of ids) expect(dump).not.toContain(id)
    const other = await signUp()
    expect((await call(t.app, 'POST', '/vip/v1/order/activation-code', { token: other, body: { activation_code: activation } })).json().error).toBe('activation_code_used')
  })

  it('rewards nobody when the inviter is pending deletion', async () => {
    const inviter = await signUp()
    const code = await codeOf(inviter)
    const sub = (await call(t.app, 'GET', '/v1/user/me', { token: inviter })).json().sub as string
    const now = t.clock.nowMs()
    await t.deps.users.requestDeletion(sub, now, now + 86_400_000)
    const invitee = await signUp(code)
    expect((await vipOf(invitee)).is_vip).toBe(0)
  })
})
