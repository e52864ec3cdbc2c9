import { AccountErrors } from '@cumulus/protocol'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { aUser, webClient } from '../../../test/builders.js'
import { call, expectErrorReply } from '../../../test/http.js'
import { type TestApp, buildTestApp } from '../../../test/test-app.js'
import { signInWithPassword } from '../sign-in/sign-in.js'
import { startSession } from '../tokens/sessions.js'

const LIMIT = 5

describe('password checks of a signed-in user (sudo, password change)', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await buildTestApp({ config: { lockout: { maxFailuresPerAccount: LIMIT, maxFailuresPerIp: 50, windowSeconds: 900 } } })
  })
  afterEach(() => t.close())

  async function signedIn() {
    const built = await aUser(t)
    const reply = await startSession(t.deps, { userId: built.user.id, client: webClient(t.deps), deviceId: '' })
    return { ...built, token: reply.access_token }
  }
  const signIn = (username: string, password: string) => signInWithPassword(t.deps, { username, password, client: webClient(t.deps), ip: '127.0.0.1', deviceId: '' })

  const guesses: [string, (password: string) => { method: 'POST' | 'PATCH'; url: string; body: object }][] = [
    ['POST /v1/user/sudo', (password) => ({ method: 'POST', url: '/v1/user/sudo', body: { password } })],
    ['PATCH /v1/user/password', (password) => ({ method: 'PATCH', url: '/v1/user/password', body: { old_password: password, password: 'a new long password' } })],
  ]

  it.each(guesses)('%s: 200 parallel wrong passwords get only the lockout limit of comparisons, and lock sign-in too', async (_name, request) => {
    // Regression (issue 11): sudo and password change compared old_password with no lockout at
    // all: 200 guesses in 1.9 s, each checked against the real hash.
    const { user, password, token } = await signedIn()
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const { method, url, body } = request(`wrong-${i}`)
        return call(t.app, method, url, { token, body })
      }),
    )
    const wrong = replies.filter((r) => r.json().error === AccountErrors.invalid_password.reason)
    const blocked = replies.filter((r) => r.json().error === AccountErrors.user_blocked.reason)
    expect(wrong).toHaveLength(LIMIT)
    expect(blocked).toHaveLength(200 - LIMIT)
    expectErrorReply(blocked[0]!, AccountErrors.user_blocked)
    expect(Number(blocked[0]!.headers['retry-after'])).toBeGreaterThan(0)
    expect(t.hasher.verifies - t.hasher.decoys).toBe(LIMIT)
    expect(t.hasher.total).toBe(200)

    // One lockout: the right password is now refused here and at sign-in alike.
    const { method, url, body } = request(password)
    expectErrorReply(await call(t.app, method, url, { token, body }), AccountErrors.user_blocked)
    await expect(signIn(user.email!, password)).rejects.toMatchObject({ entry: AccountErrors.user_blocked })
  })

  it.each(guesses)('%s: failed sign-ins count toward its lockout', async (_name, request) => {
    const { user, password, token } = await signedIn()
    for (let i = 0; i < LIMIT; i++) await expect(signIn(user.email!, `wrong-${i}`)).rejects.toMatchObject({ entry: AccountErrors.invalid_account_or_password })
    const { method, url, body } = request(password)
    const res = await call(t.app, method, url, { token, body })
    expectErrorReply(res, AccountErrors.user_blocked)
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
  })

  it('a right password after a few wrong ones succeeds and clears the failures', async () => {
    const { user, password, token } = await signedIn()
    for (let i = 0; i < LIMIT - 1; i++) expectErrorReply(await call(t.app, 'POST', '/v1/user/sudo', { token, body: { password: `wrong-${i}` } }), AccountErrors.invalid_password)
    const sudo = await call(t.app, 'POST', '/v1/user/sudo', { token, body: { password } })
    expect(sudo.statusCode, sudo.body).toBe(200)
    for (let i = 0; i < LIMIT - 1; i++) await expect(signIn(user.email!, `wrong-${i}`)).rejects.toMatchObject({ entry: AccountErrors.invalid_account_or_password })
    await expect(signIn(user.email!, password)).resolves.toMatchObject({ sub: user.id })
  })
})
