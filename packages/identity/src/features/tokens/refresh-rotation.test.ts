import { GenericErrors, OAuthErrors } from '@cumulus/protocol'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { aUser, webClient } from '../../../test/builders.js'
import { call, expectErrorReply } from '../../../test/http.js'
import { type TestApp, buildTestApp } from '../../../test/test-app.js'
import { hashSecret } from '../../lib/secrets.js'
import { startSession } from './sessions.js'

const GRACE_SECONDS = 30

describe('refresh token rotation under concurrency (RFC 9700 4.14.2)', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await buildTestApp({ config: { tokens: { refreshReuseGraceSeconds: GRACE_SECONDS } } })
  })
  afterEach(() => t.close())

  async function session() {
    const { user } = await aUser(t)
    const reply = await startSession(t.deps, { userId: user.id, client: webClient(t.deps), deviceId: '' })
    const row = await t.db.selectFrom('identity_refresh_tokens').select('session_id').where('token_hash', '=', hashSecret(reply.refresh_token)).executeTakeFirstOrThrow()
    return { user, reply, sessionId: row.session_id as string }
  }
  const refresh = (refreshToken: string) => call(t.app, 'POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'cumulus-web' } })
  const me = (accessToken: string) => call(t.app, 'GET', '/v1/user/me', { token: accessToken })
  /** Refresh tokens of the session that have not been exchanged yet: more than one is a fork. */
  const liveTokens = async (sessionId: string) =>
    (await t.db.selectFrom('identity_refresh_tokens').select('token_hash').where('session_id', '=', sessionId).where('rotated_at', 'is', null).execute()).length

  it('20 parallel refreshes of one token all succeed with one and the same successor', async () => {
    // Regression (issue 11): every refresh inside the grace window minted a fresh token, so 20
    // parallel refreshes left 20 live successors, 20 chains a thief could keep using.
    const { reply, sessionId } = await session()
    const replies = await Promise.all(Array.from({ length: 20 }, () => refresh(reply.refresh_token)))
    expect(replies.map((r) => r.statusCode)).toEqual(Array.from({ length: 20 }, () => 200))
    const successors = new Set(replies.map((r) => r.json().refresh_token as string))
    expect(successors.size).toBe(1)
    const [successor] = [...successors] as [string]
    expect(successor).not.toBe(reply.refresh_token)
    expect(await liveTokens(sessionId)).toBe(1)
    // Every caller got a working access token, and the successor refreshes.
    for (const r of replies) expect((await me(r.json().access_token)).statusCode).toBe(200)
    const next = await refresh(successor)
    expect(next.statusCode, next.body).toBe(200)
    expect((await me(next.json().access_token)).statusCode).toBe(200)
  })

  it('a grace-window retry of the old token returns the successor, inside the window (30 s) and not after (31 s)', async () => {
    const { reply } = await session()
    const first = (await refresh(reply.refresh_token)).json().refresh_token
    t.clock.advanceSeconds(GRACE_SECONDS)
    const retry = await refresh(reply.refresh_token)
    expect(retry.statusCode, retry.body).toBe(200)
    expect(retry.json().refresh_token).toBe(first)
    t.clock.advanceSeconds(1)
    expectErrorReply(await refresh(reply.refresh_token), OAuthErrors.invalid_grant)
  })

  it('the old token after the grace window revokes the family: the successor and every access token of the session stop working', async () => {
    const { reply } = await session()
    const rotated = (await refresh(reply.refresh_token)).json()
    const later = (await refresh(rotated.refresh_token)).json()
    t.clock.advanceSeconds(GRACE_SECONDS + 1)
    expectErrorReply(await refresh(reply.refresh_token), OAuthErrors.invalid_grant)
    expectErrorReply(await refresh(later.refresh_token), OAuthErrors.invalid_grant)
    for (const accessToken of [reply.access_token, rotated.access_token, later.access_token]) expectErrorReply(await me(accessToken), GenericErrors.unauthenticated)
  })

  it('a thief who refreshes a stolen token inside the grace window shares the owner chain, so its next use is caught', async () => {
    // Regression (issue 11): the thief's grace-window refresh got a fork of its own, which it
    // could go on refreshing while the owner refreshed theirs: the reuse was never detected.
    const { reply } = await session()
    const owner = (await refresh(reply.refresh_token)).json()
    const thief = await refresh(reply.refresh_token)
    expect(thief.statusCode).toBe(200)
    expect(thief.json().refresh_token).toBe(owner.refresh_token)
    const ownerNext = (await refresh(owner.refresh_token)).json()
    t.clock.advanceSeconds(GRACE_SECONDS + 1)
    expectErrorReply(await refresh(thief.json().refresh_token), OAuthErrors.invalid_grant)
    expectErrorReply(await refresh(ownerNext.refresh_token), OAuthErrors.invalid_grant)
    expectErrorReply(await me(ownerNext.access_token), GenericErrors.unauthenticated)
    expectErrorReply(await me(thief.json().access_token), GenericErrors.unauthenticated)
  })

  it('fork attempts (the old token and its successor refreshed at once) leave one chain', async () => {
    const { reply, sessionId } = await session()
    const successor = (await refresh(reply.refresh_token)).json().refresh_token as string
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => refresh(i % 2 === 0 ? reply.refresh_token : successor)))
    expect(replies.map((r) => r.statusCode)).toEqual(Array.from({ length: 20 }, () => 200))
    const issued = new Set(replies.map((r) => r.json().refresh_token as string))
    // The old token still maps to the successor; the successor to its own one successor.
    expect(issued.size).toBe(2)
    expect(issued.has(successor)).toBe(true)
    expect(await liveTokens(sessionId)).toBe(1)
    const newest = [...issued].find((token) => token !== successor)!
    expect((await refresh(newest)).statusCode).toBe(200)
  })
})
