import { WEB_CLIENT_ID } from '@cumulus/protocol'
import { afterEach, describe, expect, it } from 'vitest'
import { type TestAppOptions, type TestDeps, buildTestDeps } from '../../../test/test-app.js'
import { lockoutKeys } from '../sign-in/lockout.js'
import { assessCaptchaRisk, metaIdentifiers } from './risk.js'

const SIGN_IN = 'POST:/v1/auth/signin'
const FAILURE_WINDOW_SECONDS = 900

describe('assessCaptchaRisk', () => {
  let t: TestDeps | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  async function setup(config: TestAppOptions['config'] = {}) {
    t = await buildTestDeps({ config })
    return t
  }

  const input = (overrides: Partial<Parameters<typeof assessCaptchaRisk>[1]> = {}) => ({
    clientId: WEB_CLIENT_ID,
    ip: '203.0.113.7',
    deviceId: 'device-1',
    action: SIGN_IN,
    meta: { username: 'Ann@Example.com ' },
    ...overrides,
  })

  async function fail(deps: TestDeps['deps'], key: string, times: number) {
    for (let i = 0; i < times; i++) await deps.counters.increment(key, FAILURE_WINDOW_SECONDS)
  }

  it('is low for a clean caller in auto mode', async () => {
    const { deps } = await setup()
    expect((await assessCaptchaRisk(deps, input())).risk).toBe('low')
  })

  it.each([
    ['the account named by meta.username', lockoutKeys.account('ann@example.com'), {}],
    ['the account named by meta.email', lockoutKeys.account('bob@example.com'), { meta: { email: ' BOB@example.com' } }],
    ['the account named by meta.phone_number', lockoutKeys.account('+8613800138000'), { meta: { phone_number: '+86 138-0013-8000' } }],
    ['the device', lockoutKeys.device('device-1'), {}],
  ])('asks for a challenge once %s reaches challengeAfterFailures, not before', async (_what, key, overrides) => {
    const { deps } = await setup({ captcha: { challengeAfterFailures: 3 } })
    await fail(deps, key, 2)
    expect((await assessCaptchaRisk(deps, input(overrides))).risk).toBe('low')
    await fail(deps, key, 1)
    expect((await assessCaptchaRisk(deps, input(overrides))).risk).toBe('challenge')
  })

  // Regression (issue 11): three failures from one IP put every account behind it (a NAT) behind a challenge.
  it('asks for a challenge once the IP reaches its own, much higher, threshold, not before', async () => {
    const { deps } = await setup({ captcha: { challengeAfterFailures: 3, challengeAfterIpFailures: 20 } })
    await fail(deps, lockoutKeys.ipRisk('203.0.113.7'), 19)
    expect((await assessCaptchaRisk(deps, input({ meta: { username: 'someone-else' } }))).risk).toBe('low')
    await fail(deps, lockoutKeys.ipRisk('203.0.113.7'), 1)
    expect((await assessCaptchaRisk(deps, input({ meta: { username: 'someone-else' } }))).risk).toBe('challenge')
  })

  it('asks for a challenge once the (account, IP) pair reaches challengeAfterFailures, for that pair only', async () => {
    const { deps } = await setup({ captcha: { challengeAfterFailures: 3 } })
    const pair = lockoutKeys.accountAtIp('ann@example.com', '203.0.113.7')
    await fail(deps, pair, 2)
    expect((await assessCaptchaRisk(deps, input())).risk).toBe('low')
    await fail(deps, pair, 1)
    expect((await assessCaptchaRisk(deps, input())).risk).toBe('challenge')
    // The pair's failures alone (the account-wide count has run out) ask nothing of another IP or account.
    expect((await assessCaptchaRisk(deps, input({ ip: '198.51.100.1' }))).risk).toBe('low')
    expect((await assessCaptchaRisk(deps, input({ meta: { username: 'bob' } }))).risk).toBe('low')
  })

  it('keeps pair keys of IPv6 addresses and odd identifiers apart', () => {
    expect(lockoutKeys.accountAtIp('x', '2001:db8::1')).toBe('signin:account-ip:2001%3Adb8%3A%3A1:x')
    expect(lockoutKeys.accountAtIp('1:x', '2001:db8::')).not.toBe(lockoutKeys.accountAtIp('x', '2001:db8::1'))
  })

  it('does not hold one account’s failures against another account, IP or device', async () => {
    const { deps } = await setup({ captcha: { challengeAfterFailures: 3 } })
    await fail(deps, lockoutKeys.account('someone-else@example.com'), 5)
    await fail(deps, lockoutKeys.ipRisk('198.51.100.1'), 5)
    await fail(deps, lockoutKeys.accountAtIp('ann@example.com', '198.51.100.1'), 5)
    await fail(deps, lockoutKeys.device('device-2'), 5)
    expect((await assessCaptchaRisk(deps, input())).risk).toBe('low')
  })

  it('always challenges in mode always', async () => {
    const { deps } = await setup({ captcha: { mode: 'always' } })
    expect((await assessCaptchaRisk(deps, input({ meta: {} }))).risk).toBe('challenge')
  })

  it('is always low in mode off, even after failures and beyond the init limit', async () => {
    const { deps } = await setup({ captcha: { mode: 'off', initPerIpPerMinute: 1 } })
    await fail(deps, lockoutKeys.ipRisk('203.0.113.7'), 10)
    for (let i = 0; i < 3; i++) expect((await assessCaptchaRisk(deps, input())).risk).toBe('low')
  })

  it('rejects past initPerIpPerMinute inits from one IP, whatever the mode, and only for that IP', async () => {
    const { deps } = await setup({ captcha: { mode: 'always', initPerIpPerMinute: 2 } })
    expect((await assessCaptchaRisk(deps, input())).risk).toBe('challenge')
    expect((await assessCaptchaRisk(deps, input())).risk).toBe('challenge')
    expect((await assessCaptchaRisk(deps, input())).risk).toBe('reject')
    expect((await assessCaptchaRisk(deps, input({ ip: '203.0.113.8' }))).risk).toBe('challenge')
  })

  it('ignores meta that is not an object or holds no identity strings', async () => {
    const { deps } = await setup({ captcha: { challengeAfterFailures: 1 } })
    await fail(deps, lockoutKeys.account('42'), 1)
    for (const meta of [null, 42, 'ann', [1, 2], { username: 42 }, { captcha_sign: 'x', timestamp: 1 }]) {
      expect((await assessCaptchaRisk(deps, input({ meta }))).risk).toBe('low')
    }
  })
})

describe('metaIdentifiers', () => {
  it('normalises like sign-in does and skips blanks and non-strings', () => {
    expect(metaIdentifiers({ username: '  Alice_1 ', email: 'A@B.co', phone_number: '+1 (555) 010-9999', user_id: 'x' })).toEqual(['alice_1', 'a@b.co', '+15550109999'])
    expect(metaIdentifiers({ username: '', email: '   ', phone_number: null })).toEqual([])
    expect(metaIdentifiers(undefined)).toEqual([])
  })
})
