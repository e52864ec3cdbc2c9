import { AppError, OAuthErrors } from '@cumulus/protocol'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { aUser, webClient } from '../../../test/builders.js'
import { OTHER_CLIENT, type TestDeps, buildTestDeps } from '../../../test/test-app.js'
import { authenticateAccessToken, refreshSession, startSession } from './sessions.js'
import { introspectToken, revokeToken } from './token-grants.js'

describe('sessions and refresh rotation', () => {
  let t: TestDeps
  beforeEach(async () => {
    t = await buildTestDeps({ config: { tokens: { refreshReuseGraceSeconds: 30 } } })
  })
  afterEach(() => t.close())

  async function session() {
    const { user } = await aUser(t)
    return { user, reply: await startSession(t.deps, { userId: user.id, client: webClient(t.deps), deviceId: 'd1' }) }
  }
  const refresh = (refreshToken: string, client = webClient(t.deps)) => refreshSession(t.deps, { refreshToken, client })
  const grantError = async (p: Promise<unknown>) => {
    const e = await p.then(() => null, (x: unknown) => x)
    expect(e).toBeInstanceOf(AppError)
    expect((e as AppError).entry).toBe(OAuthErrors.invalid_grant)
  }

  it('rotates: the new pair works and carries the same session', async () => {
    const { user, reply } = await session()
    const next = await refresh(reply.refresh_token)
    expect(next.refresh_token).not.toBe(reply.refresh_token)
    expect(next.sub).toBe(user.id)
    const before = await authenticateAccessToken(t.deps, reply.access_token)
    const after = await authenticateAccessToken(t.deps, next.access_token)
    expect(after?.sessionId).toBe(before?.sessionId)
    await expect(refresh(next.refresh_token)).resolves.toMatchObject({ sub: user.id })
  })

  it('two tabs refreshing with the same token at once both succeed, with the same successor', async () => {
    const { reply } = await session()
    const [a, b] = await Promise.all([refresh(reply.refresh_token), refresh(reply.refresh_token)])
    expect(a.refresh_token).toBe(b.refresh_token)
    expect(a.access_token).not.toBe(b.access_token)
    await expect(refresh(a.refresh_token)).resolves.toBeTruthy()
  })

  it('refuses a grace-window retry once the server secret changed, rather than forking the chain', async () => {
    const { reply } = await session()
    await refresh(reply.refresh_token)
    const rotatedSecret = { ...t.deps, hmacKey: Buffer.alloc(32, 9) }
    await grantError(refreshSession(rotatedSecret, { refreshToken: reply.refresh_token, client: webClient(t.deps) }))
  })

  it('reuse inside the grace window succeeds (29 s), outside revokes the session (31 s)', async () => {
    const { reply } = await session()
    const next = await refresh(reply.refresh_token)
    t.clock.advanceSeconds(29)
    await expect(refresh(reply.refresh_token)).resolves.toBeTruthy()
    t.clock.advanceSeconds(2)
    await grantError(refresh(reply.refresh_token))
    // The whole session is gone: the legitimate holder's newest tokens stop working too.
    expect(await authenticateAccessToken(t.deps, next.access_token)).toBeNull()
    await grantError(refresh(next.refresh_token))
  })

  it('refuses a refresh token of another client, an unknown one, and after idle expiry', async () => {
    const { reply } = await session()
    await grantError(refresh(reply.refresh_token, await t.deps.clients.require(OTHER_CLIENT.clientId)))
    await grantError(refresh('not-a-token'))
    t.clock.advanceSeconds(t.deps.config.tokens.refreshIdleTtlSeconds + 1)
    await grantError(refresh(reply.refresh_token))
  })

  it('access tokens expire after expires_in (7199 s valid, 7201 s not)', async () => {
    const { reply } = await session()
    t.clock.advanceSeconds(7199)
    expect(await authenticateAccessToken(t.deps, reply.access_token)).not.toBeNull()
    t.clock.advanceSeconds(2)
    expect(await authenticateAccessToken(t.deps, reply.access_token)).toBeNull()
  })

  it('revoke ends the session at once: the access token no longer authenticates', async () => {
    const { reply } = await session()
    const auth = await authenticateAccessToken(t.deps, reply.access_token)
    await revokeToken(t.deps, { auth })
    expect(await authenticateAccessToken(t.deps, reply.access_token)).toBeNull()
    await grantError(refresh(reply.refresh_token))
  })

  it('revoke by refresh token alone ends that session', async () => {
    const { reply } = await session()
    await revokeToken(t.deps, { token: reply.refresh_token, auth: null })
    expect(await authenticateAccessToken(t.deps, reply.access_token)).toBeNull()
  })

  it("one user cannot revoke another user's session", async () => {
    const a = await session()
    const b = await session()
    const authB = await authenticateAccessToken(t.deps, b.reply.access_token)
    await revokeToken(t.deps, { token: a.reply.refresh_token, auth: authB })
    expect(await authenticateAccessToken(t.deps, a.reply.access_token)).not.toBeNull()
  })

  it('introspects access and refresh tokens, and reports revoked ones inactive', async () => {
    const { user, reply } = await session()
    expect(await introspectToken(t.deps, reply.access_token)).toMatchObject({ active: true, sub: user.id, client_id: 'cumulus-web', scope: 'pan user offline', token_type: 'access_token' })
    expect(await introspectToken(t.deps, reply.refresh_token)).toMatchObject({ active: true, sub: user.id, token_type: 'refresh_token' })
    expect(await introspectToken(t.deps, 'garbage')).toEqual({ active: false })
    await revokeToken(t.deps, { token: reply.refresh_token, auth: null })
    expect(await introspectToken(t.deps, reply.access_token)).toEqual({ active: false })
    expect(await introspectToken(t.deps, reply.refresh_token)).toEqual({ active: false })
  })
})
