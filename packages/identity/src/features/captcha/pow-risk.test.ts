// Regression tests for issue 11, "Abuse of paid channels" (proof of work and risk):
// - the challenge asked for the same 18 bits whatever the risk, and a script solved it in 230 ms,
//   so an attacker paid the same small price for the thousandth guess as for the first;
// - three failures from one IP put every account behind that IP (a NAT, an office) behind a
//   challenge, because the IP counter had the account's threshold.
import { createHash } from 'node:crypto'
import { AccountErrors, WEB_CLIENT_ID } from '@cumulus/protocol'
import { afterEach, describe, expect, it } from 'vitest'
import { expectErrorReply } from '../../../test/http.js'
import { type TestApp, type TestAppOptions, buildTestApp } from '../../../test/test-app.js'
import { lockoutKeys } from '../sign-in/lockout.js'
import { findLiveChallenge, leadingZeroBits } from './challenge.js'

const SIGN_IN = 'POST:/v1/auth/signin'
const BASE_BITS = 6
const MAX_BITS = 10
const NAT_IP = '203.0.113.200'

const zeroBits = (challenge: string, nonce: number) => leadingZeroBits(createHash('sha256').update(`${challenge}:${nonce}`).digest())

/** The first nonce whose hash has at least `min` and fewer than `below` leading zero bits. */
function nonceWithBits(challenge: string, min: number, below = 257): string {
  for (let nonce = 0; ; nonce++) {
    const bits = zeroBits(challenge, nonce)
    if (bits >= min && bits < below) return String(nonce)
  }
}

describe('proof-of-work cost follows the risk', () => {
  let t: TestApp | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  async function setup(config: TestAppOptions['config'] = {}) {
    t = await buildTestApp({ config: { captcha: { powDifficultyBits: BASE_BITS, powMaxDifficultyBits: MAX_BITS, challengeAfterFailures: 3, challengeAfterIpFailures: 12, ...config.captcha } } })
    return t
  }

  const init = (app: TestApp['app'], username: string, ip = NAT_IP) =>
    app.inject({ method: 'POST', url: '/v1/shield/captcha/init', remoteAddress: ip, payload: { client_id: WEB_CLIENT_ID, action: SIGN_IN, meta: { username } } })

  /** The difficulty captcha init asks of `username` from `ip`, or null when it hands out a token at once. */
  async function bitsFor(app: TestApp['app'], username: string, ip = NAT_IP): Promise<number | null> {
    const res = await init(app, username, ip)
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json()
    if (body.captcha_token) return null
    return findLiveChallenge(t!.deps, new URL(body.url).searchParams.get('challenge')!)!.bits
  }

  /** A wrong-password sign-in, sent as an attacker would: through captcha init, from `ip`. */
  async function failSignIn(app: TestApp['app'], username: string, ip = NAT_IP) {
    const reply = (await init(app, username, ip)).json()
    let token = reply.captcha_token as string | undefined
    if (!token) {
      const challenge = new URL(reply.url).searchParams.get('challenge')!
      const bits = findLiveChallenge(t!.deps, challenge)!.bits
      const solved = await app.inject({ method: 'POST', url: '/captcha/challenge/verify', payload: { challenge, nonce: nonceWithBits(challenge, bits) } })
      token = solved.json().captcha_token as string
    }
    const res = await app.inject({
      method: 'POST',
      url: '/v1/auth/signin',
      remoteAddress: ip,
      headers: { 'x-captcha-token': token },
      payload: { client_id: WEB_CLIENT_ID, username, password: 'not the password' },
    })
    expect(res.json().error, res.body).toBe(AccountErrors.invalid_account_or_password.reason)
  }

  it('asks for more work with each failure past the threshold, up to the cap', async () => {
    const { app, deps } = await setup({ captcha: { mode: 'always' } })
    expect(await bitsFor(app, 'ann@example.com')).toBe(BASE_BITS)
    const seen: number[] = []
    for (let failures = 1; failures <= 9; failures++) {
      await deps.counters.increment(lockoutKeys.account('ann@example.com'), 900)
      seen.push((await bitsFor(app, 'ann@example.com'))!)
    }
    // Up to the threshold (3) the base; then one bit (twice the work) per failure; capped.
    expect(seen).toEqual([6, 6, 6, 7, 8, 9, 10, 10, 10])
  })

  it('grows with real failed sign-ins in auto mode', async () => {
    const { app } = await setup()
    expect(await bitsFor(app, 'carol@example.com')).toBeNull()
    for (let i = 0; i < 3; i++) await failSignIn(app, 'carol@example.com')
    expect(await bitsFor(app, 'carol@example.com')).toBe(BASE_BITS)
    await failSignIn(app, 'carol@example.com')
    expect(await bitsFor(app, 'carol@example.com')).toBe(BASE_BITS + 1)
  })

  it('refuses a solution for a lower difficulty at a higher one, and keeps the challenge open', async () => {
    const { app, deps } = await setup({ captcha: { mode: 'always' } })
    for (let i = 0; i < 6; i++) await deps.counters.increment(lockoutKeys.account('dave@example.com'), 900)
    const res = await init(app, 'dave@example.com')
    const challenge = new URL(res.json().url).searchParams.get('challenge')!
    expect(findLiveChallenge(deps, challenge)!.bits).toBe(BASE_BITS + 3)
    const cheap = await app.inject({ method: 'POST', url: '/captcha/challenge/verify', payload: { challenge, nonce: nonceWithBits(challenge, BASE_BITS, BASE_BITS + 3) } })
    expectErrorReply(cheap, AccountErrors.captcha_invalid)
    const paid = await app.inject({ method: 'POST', url: '/captcha/challenge/verify', payload: { challenge, nonce: nonceWithBits(challenge, BASE_BITS + 3) } })
    expect(paid.statusCode, paid.body).toBe(200)
  })

  it('a challenge cannot be re-signed at a lower difficulty', async () => {
    const { app, deps } = await setup({ captcha: { mode: 'always' } })
    for (let i = 0; i < 6; i++) await deps.counters.increment(lockoutKeys.account('erin@example.com'), 900)
    const challenge = new URL((await init(app, 'erin@example.com')).json().url).searchParams.get('challenge')!
    const [kind, body, mac] = challenge.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString())
    const forged = `${kind}.${Buffer.from(JSON.stringify({ ...claims, bits: BASE_BITS })).toString('base64url')}.${mac}`
    const res = await app.inject({ method: 'POST', url: '/captcha/challenge/verify', payload: { challenge: forged, nonce: nonceWithBits(forged, BASE_BITS) } })
    expectErrorReply(res, AccountErrors.captcha_invalid)
  })

  it("failures on account A from an IP do not challenge account B behind the same IP until the IP's own, much higher, threshold", async () => {
    const { app } = await setup()
    for (let i = 0; i < 3; i++) await failSignIn(app, 'alice@example.com')
    expect(await bitsFor(app, 'alice@example.com')).toBe(BASE_BITS)
    expect(await bitsFor(app, 'bob@example.com')).toBeNull()
    // Spraying other accounts from the same IP: 3 + 8 = 11 failures, one below the IP's threshold.
    for (let i = 0; i < 8; i++) await failSignIn(app, `sprayed-${i % 4}@example.com`)
    expect(await bitsFor(app, 'bob@example.com')).toBeNull()
    await failSignIn(app, 'sprayed-9@example.com')
    expect(await bitsFor(app, 'bob@example.com')).toBe(BASE_BITS)
    // Another IP is not affected by this one's failures.
    expect(await bitsFor(app, 'bob@example.com', '198.51.100.1')).toBeNull()
  })
})
