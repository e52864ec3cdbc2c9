import { AccountErrors, AppError, type ErrorEntry } from '@cumulus/protocol'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { aUser, webClient } from '../../../test/builders.js'
import { type TestDeps, buildTestDeps, testBackend } from '../../../test/test-app.js'
import { signUpAnonymously } from '../sign-up/sign-up.js'
import { authenticateAccessToken } from '../tokens/sessions.js'
import { lockoutKeys } from './lockout.js'
import { signInWithPassword } from './sign-in.js'

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`)
  return error
}

function expectEntry(error: AppError, entry: ErrorEntry) {
  expect(error.entry).toBe(entry)
}

describe('password sign-in', () => {
  let t: TestDeps
  beforeEach(async () => {
    t = await buildTestDeps({ config: { lockout: { maxFailuresPerAccount: 5, maxFailuresPerIp: 50, windowSeconds: 900 } } })
  })
  afterEach(() => t.close())

  const attempt = (username: string, password: string, ip = '10.0.0.1', deviceId = 'device-1') =>
    signInWithPassword(t.deps, { username, password, client: webClient(t.deps), ip, deviceId })

  it('signs in by e-mail, phone and username, and the access token authenticates', async () => {
    const { user, password } = await aUser(t, { email: 'Ann@Example.com', phoneNumber: '+6512345678', username: 'ann_w' })
    for (const username of ['ann@example.com', ' ANN@example.COM ', '+65 1234 5678', 'ann_w']) {
      const reply = await attempt(username, password)
      expect(reply).toMatchObject({ token_type: 'Bearer', sub: user.id, scope: 'pan user offline', expires_in: 7200 })
      expect(await authenticateAccessToken(t.deps, reply.access_token)).toMatchObject({ userId: user.id })
    }
  })

  // The timing of a reply must not tell an attacker which branch ran: each path computes one hash.
  describe('computes exactly one argon2id hash on every path', () => {
    // Regression: the success case used to sign in with another user's password, so it was a
    // second wrong-password case and success itself went untested.
    it.each([
      ['success', (real: string) => real, (u: string) => u, 'signed in'],
      ['wrong password', () => 'not-the-password', (u: string) => u, AccountErrors.invalid_account_or_password.reason],
      ['unknown user', () => 'whatever-password', () => 'nobody@example.com', AccountErrors.invalid_account_or_password.reason],
      ['malformed username', () => 'whatever-password', () => '!!', AccountErrors.invalid_account_or_password.reason],
    ])('%s', async (_name, passwordOf, usernameOf, outcome) => {
      const { user, password } = await aUser(t)
      t.hasher.reset()
      const result = await attempt(usernameOf(user.email!), passwordOf(password)).then(
        () => 'signed in',
        (e: AppError) => e.entry.reason,
      )
      expect(result).toBe(outcome)
      expect(t.hasher.total).toBe(1)
    })

    it('account without a password (decoy)', async () => {
      const { user } = await aUser(t, { password: null })
      const error = await rejection(attempt(user.email!, 'some-password'))
      expectEntry(error, AccountErrors.invalid_account_or_password)
      expect(t.hasher.total).toBe(1)
      expect(t.hasher.decoys).toBe(1)
    })

    it('locked account', async () => {
      const { user, password } = await aUser(t)
      for (let i = 0; i < 5; i++) await attempt(user.email!, 'wrong-password').catch(() => undefined)
      t.hasher.reset()
      const error = await rejection(attempt(user.email!, password))
      expectEntry(error, AccountErrors.user_blocked)
      expect(t.hasher.total).toBe(1)
    })

    it('frozen account', async () => {
      const { user, password } = await aUser(t)
      await t.deps.users.requestDeletion(user.id, t.clock.nowMs(), t.clock.nowMs() + 86_400_000)
      t.hasher.reset()
      const error = await rejection(attempt(user.email!, password))
      expectEntry(error, AccountErrors.account_freeze)
      expect(error.metadata['erase_at']).toBe(new Date(t.clock.nowMs() + 86_400_000).toISOString())
      expect(t.hasher.total).toBe(1)
    })
  })

  it('answers unknown user and wrong password alike', async () => {
    const { user } = await aUser(t)
    const wrong = await rejection(attempt(user.email!, 'wrong-password'))
    const unknown = await rejection(attempt('ghost@example.com', 'wrong-password'))
    expectEntry(wrong, AccountErrors.invalid_account_or_password)
    expect(unknown.entry).toBe(wrong.entry)
    expect(unknown.description).toBe(wrong.description)
  })

  it('locks the account after the limit, with Retry-After, even for the right password', async () => {
    const { user, password } = await aUser(t)
    for (let i = 0; i < 5; i++) expectEntry(await rejection(attempt(user.email!, `wrong-${i}`)), AccountErrors.invalid_account_or_password)
    const locked = await rejection(attempt(user.email!, password))
    expectEntry(locked, AccountErrors.user_blocked)
    expect(locked.retryAfterSeconds).toBeGreaterThan(0)
    expect(locked.retryAfterSeconds).toBeLessThanOrEqual(900)
  })

  it('a success before the limit clears the account counter', async () => {
    const { user, password } = await aUser(t)
    for (let i = 0; i < 4; i++) await attempt(user.email!, 'wrong-password').catch(() => undefined)
    await attempt(user.email!, password)
    expect((await t.deps.counters.get(lockoutKeys.account(user.email!))).count).toBe(0)
    for (let i = 0; i < 4; i++) await attempt(user.email!, 'wrong-password').catch(() => undefined)
    await expect(attempt(user.email!, password)).resolves.toMatchObject({ sub: user.id })
  })

  it.runIf(testBackend() === 'sqlite')('the lock is temporary: it lifts when the window ends', async () => {
    // Memory counters follow the injected clock; Redis expiry is real time, so this side is checked on SQLite's run.
    const { user, password } = await aUser(t)
    for (let i = 0; i < 6; i++) await attempt(user.email!, 'wrong-password').catch(() => undefined)
    t.clock.advanceSeconds(899)
    expectEntry(await rejection(attempt(user.email!, password)), AccountErrors.user_blocked)
    t.clock.advanceSeconds(2)
    await expect(attempt(user.email!, password)).resolves.toMatchObject({ sub: user.id })
  })

  it('a burst of parallel wrong passwords gets no more guesses than the limit', async () => {
    const { user } = await aUser(t)
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => rejection(attempt(user.email!, `wrong-${i}`))))
    const guessed = results.filter((e) => e.entry === AccountErrors.invalid_account_or_password)
    const blocked = results.filter((e) => e.entry === AccountErrors.user_blocked)
    expect(guessed).toHaveLength(5)
    expect(blocked).toHaveLength(20)
    // Only the 5 admitted guesses were checked against the real hash; the rest hashed the decoy.
    expect(t.hasher.verifies - t.hasher.decoys).toBe(5)
  })

  it('a burst of 200 parallel wrong passwords gets exactly the limit of comparisons with the real hash', async () => {
    const { user, password } = await aUser(t)
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => rejection(attempt(user.email!, `wrong-${i}`))))
    expect(results.filter((e) => e.entry === AccountErrors.invalid_account_or_password)).toHaveLength(5)
    expect(results.filter((e) => e.entry === AccountErrors.user_blocked)).toHaveLength(195)
    expect(results.filter((e) => e.entry === AccountErrors.user_blocked).every((e) => e.retryAfterSeconds! > 0)).toBe(true)
    expect(t.hasher.verifies - t.hasher.decoys).toBe(5)
    // One hash per request, whatever it was answered.
    expect(t.hasher.total).toBe(200)
    expectEntry(await rejection(attempt(user.email!, password)), AccountErrors.user_blocked)
  })

  it('a burst of 20 parallel correct sign-ins: every one is signed in, none is blocked', async () => {
    // Regression (issue 11): each attempt was counted before the hash and given back only after a
    // success, so 20 correct sign-ins at once pushed the counter past the limit: 15 got user_blocked.
    const { user, password } = await aUser(t)
    const results = await Promise.all(Array.from({ length: 20 }, () => attempt(user.email!, password).then((r) => r.sub, (e: AppError) => e.entry.reason)))
    expect(results).toEqual(Array.from({ length: 20 }, () => user.id))
    expect(t.hasher.total).toBe(20)
    expect((await t.deps.counters.get(lockoutKeys.account(user.email!))).count).toBe(0)
  })

  it('the e-mail, phone number and username of one account share one lockout', async () => {
    // Regression (issue 11): each identifier had its own counter, so one window bought 5 guesses per identifier.
    const { user, password } = await aUser(t, { phoneNumber: '+6598765432', username: 'shared_lock' })
    for (const username of ['+6598765432', 'shared_lock', user.email!, 'shared_lock', '+6598765432']) {
      expectEntry(await rejection(attempt(username, 'wrong-password')), AccountErrors.invalid_account_or_password)
    }
    for (const username of [user.email!, '+6598765432', 'SHARED_LOCK']) expectEntry(await rejection(attempt(username, password)), AccountErrors.user_blocked)
  })

  it("a username typed as another account's in-flight key does not hold that account's places", async () => {
    // Unparseable usernames are counted as typed: `<e-mail>:pending` once named the e-mail's
    // in-flight counter, so five such failures made the real owner wait and be refused.
    const { user, password } = await aUser(t)
    for (let i = 0; i < 5; i++) await attempt(`${user.email!}:pending`, 'wrong-password', `10.0.1.${i}`).catch(() => undefined)
    await expect(attempt(user.email!, password)).resolves.toMatchObject({ sub: user.id })
  })

  it('locks an IP out after its limit with invalid_status, across accounts', async () => {
    await t.close()
    t = await buildTestDeps({ config: { lockout: { maxFailuresPerAccount: 100, maxFailuresPerIp: 3, windowSeconds: 900 } } })
    const { user, password } = await aUser(t)
    for (let i = 0; i < 3; i++) await attempt(`ghost${i}@example.com`, 'wrong-password', '10.9.9.9').catch(() => undefined)
    const error = await rejection(attempt(user.email!, password, '10.9.9.9'))
    expectEntry(error, AccountErrors.invalid_status)
    expect(error.retryAfterSeconds).toBeGreaterThan(0)
    await expect(attempt(user.email!, password, '10.1.1.1')).resolves.toMatchObject({ sub: user.id })
  })

  it('counts failures per device for captcha escalation', async () => {
    const { user } = await aUser(t)
    await attempt(user.email!, 'wrong-password', '10.0.0.1', 'device-x').catch(() => undefined)
    await attempt(user.email!, 'wrong-password', '10.0.0.1', 'device-x').catch(() => undefined)
    expect((await t.deps.counters.get(lockoutKeys.device('device-x'))).count).toBe(2)
  })

  it('an anonymous account cannot sign in with a password', async () => {
    const reply = await signUpAnonymously(t.deps, { client: webClient(t.deps), ip: '10.0.0.2', deviceId: '' })
    t.hasher.reset()
    expectEntry(await rejection(attempt(reply.sub, 'any-password')), AccountErrors.invalid_account_or_password)
    expect(t.hasher.total).toBe(1)
  })
})
