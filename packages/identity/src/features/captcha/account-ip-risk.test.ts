// Regression test for issue 11, "Close the holes that an attack run found": captcha risk counted
// every sign-in failure from an IP against that IP's threshold (20). One person behind a NAT (or
// a script of theirs) failing 20 times on their own account put every other account behind that
// NAT behind a challenge. Failures are now also counted per (account, IP) pair, which challenges
// that pair after a few, and a pair adds at most `challengeAfterFailures` to its IP's risk count
// (decision 018). Counted with atomic increments: on memory counters in the sqlite project, on
// Redis in the postgres one.
import { AccountErrors, WEB_CLIENT_ID } from '@cumulus/protocol'
import { afterEach, describe, expect, it } from 'vitest'
import { aUser } from '../../../test/builders.js'
import { type TestApp, buildTestApp } from '../../../test/test-app.js'
import { lockoutKeys } from '../sign-in/lockout.js'

const SIGN_IN = 'POST:/v1/auth/signin'
const NAT_IP = '203.0.113.50'
const OTHER_IP = '198.51.100.50'
const CHALLENGE_AFTER_FAILURES = 3
const CHALLENGE_AFTER_IP_FAILURES = 20
const BURST = 20

describe('captcha risk per (account, IP)', () => {
  let t: TestApp | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  async function setup() {
    t = await buildTestApp({
      config: {
        captcha: { mode: 'auto', challengeAfterFailures: CHALLENGE_AFTER_FAILURES, challengeAfterIpFailures: CHALLENGE_AFTER_IP_FAILURES },
        // Every wrong password of the burst is compared and counted: no lockout gets in the way.
        lockout: { maxFailuresPerAccount: 1000, maxFailuresPerIp: 1000 },
      },
    })
    return t
  }

  const init = (app: TestApp['app'], username: string, ip: string) =>
    app.inject({ method: 'POST', url: '/v1/shield/captcha/init', remoteAddress: ip, payload: { client_id: WEB_CLIENT_ID, action: SIGN_IN, meta: { username } } })

  /** Whether captcha init asks `username` at `ip` for a challenge (else it hands out a token). */
  async function challenged(app: TestApp['app'], username: string, ip: string): Promise<boolean> {
    const res = await init(app, username, ip)
    expect(res.statusCode, res.body).toBe(200)
    return typeof res.json().url === 'string'
  }

  /** `usernames.length` wrong-password sign-ins at once from `ip`, each with its own token, all taken before any fails. */
  async function failAtOnce(app: TestApp['app'], usernames: string[], ip: string) {
    const tokens = await Promise.all(
      usernames.map(async (username) => {
        const res = await init(app, username, ip)
        const token = res.json().captcha_token
        expect(typeof token, res.body).toBe('string')
        return token as string
      }),
    )
    const replies = await Promise.all(
      usernames.map((username, i) =>
        app.inject({ method: 'POST', url: '/v1/auth/signin', remoteAddress: ip, headers: { 'x-captcha-token': tokens[i]! }, payload: { client_id: WEB_CLIENT_ID, username, password: 'not the password' } }),
      ),
    )
    for (const res of replies) expect(res.json().error, res.body).toBe(AccountErrors.invalid_account_or_password.reason)
  }

  const count = async (key: string) => (await t!.deps.counters.get(key)).count

  it(`${BURST} parallel failures on one account challenge that account at that IP, not its neighbours behind the NAT until a spray reaches the IP's threshold`, async () => {
    const { app } = await setup()
    const { user: ann } = await aUser(t!)
    const { user: bob } = await aUser(t!)
    const annEmail = ann.email!

    await failAtOnce(app, Array.from({ length: BURST }, () => annEmail), NAT_IP)

    // Every failure counted once, and the pair gave its IP no more than its threshold.
    expect(await count(lockoutKeys.accountAtIp(annEmail, NAT_IP))).toBe(BURST)
    expect(await count(lockoutKeys.ip(NAT_IP))).toBe(BURST)
    expect(await count(lockoutKeys.ipRisk(NAT_IP))).toBe(CHALLENGE_AFTER_FAILURES)
    expect(await challenged(app, annEmail, NAT_IP)).toBe(true)
    // Bob, behind the same NAT, signs in without a challenge.
    expect(await challenged(app, bob.email!, NAT_IP)).toBe(false)
    // The account itself stays challenged elsewhere too: a spray on it from many IPs must not slip through (decision 014).
    expect(await challenged(app, annEmail, OTHER_IP)).toBe(true)

    // A spray across other accounts from the NAT: each pair adds its failures, up to the IP's threshold.
    const sprayed = Array.from({ length: CHALLENGE_AFTER_IP_FAILURES - CHALLENGE_AFTER_FAILURES - 1 }, (_, i) => `sprayed-${i}@example.com`)
    await failAtOnce(app, sprayed, NAT_IP)
    expect(await count(lockoutKeys.ipRisk(NAT_IP))).toBe(CHALLENGE_AFTER_IP_FAILURES - 1)
    expect(await challenged(app, bob.email!, NAT_IP)).toBe(false)
    await failAtOnce(app, ['one-more@example.com'], NAT_IP)
    expect(await challenged(app, bob.email!, NAT_IP)).toBe(true)
    // Another IP is not affected by this one's failures.
    expect(await challenged(app, bob.email!, OTHER_IP)).toBe(false)
  })

  it('a correct password clears the pair at that IP, as it clears the account', async () => {
    const { app } = await setup()
    const { user, password } = await aUser(t!)
    const email = user.email!
    await failAtOnce(app, [email, email], NAT_IP)
    expect(await count(lockoutKeys.accountAtIp(email, NAT_IP))).toBe(2)
    const token = (await init(app, email, NAT_IP)).json().captcha_token as string
    const ok = await app.inject({ method: 'POST', url: '/v1/auth/signin', remoteAddress: NAT_IP, headers: { 'x-captcha-token': token }, payload: { client_id: WEB_CLIENT_ID, username: email, password } })
    expect(ok.statusCode, ok.body).toBe(200)
    expect(await count(lockoutKeys.accountAtIp(email, NAT_IP))).toBe(0)
    expect(await count(lockoutKeys.account(email))).toBe(0)
  })
})
