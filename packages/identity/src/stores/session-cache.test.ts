import { randomBytes } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { OTHER_CLIENT, REDIS_URL, type TestDeps, buildTestDeps, testBackend } from '../../test/test-app.js'
import { createIdentityDeps } from '../create-deps.js'
import type { IdentityDeps } from '../deps.js'
import { authenticateAccessToken, startSession } from '../features/tokens/sessions.js'
import { createUserByOperator } from '../features/users/admin.js'
import { RedisInvalidationChannel } from './redis-invalidation-channel.js'
import { CachingSessionStore, SessionCache } from './session-cache.js'
import type { ActiveSession, SessionStore } from './session-store.js'

describe(`the session check's cache on ${testBackend()}`, () => {
  let t: TestDeps
  const closers: (() => Promise<void>)[] = []
  beforeEach(async () => {
    t = await buildTestDeps()
  })
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close()
    await t.close()
  })

  /** A second node on the same database, with its own cache. */
  function node(cache: SessionCache): IdentityDeps {
    closers.push(() => cache.close())
    const { users: _u, sessions: _s, verifications: _v, memberships: _m, clients: _c, events: _e, ...infrastructure } = t.deps
    return createIdentityDeps({ ...infrastructure, db: t.db, sessionCache: cache })
  }

  async function signedIn(deps: IdentityDeps) {
    const user = await createUserByOperator(deps, { email: `u${randomBytes(4).toString('hex')}@example.com`, password: 'correct horse battery staple' })
    const session = await startSession(deps, { userId: user.id, client: OTHER_CLIENT, deviceId: 'device-1' })
    return { user, token: session.access_token }
  }

  it('answers from the cache, and a revocation, a profile change or a membership on this node shows at once', async () => {
    const { user, token } = await signedIn(t.deps)
    const first = await authenticateAccessToken(t.deps, token)
    expect(first?.user.name).toBe(user.name)

    await t.deps.users.update(user.id, { name: 'Renamed' }, t.clock.nowMs())
    expect((await authenticateAccessToken(t.deps, token))?.user.name).toBe('Renamed')

    await t.deps.memberships.grant(user.id, { days: 31, isYear: false, level: 1, vasType: 'vip', nowMs: t.clock.nowMs() })
    expect((await authenticateAccessToken(t.deps, token))?.membership?.vasType).toBe('vip')

    const auth = await authenticateAccessToken(t.deps, token)
    await t.deps.sessions.revoke(auth!.sessionId, 'test', t.clock.nowMs())
    expect(await authenticateAccessToken(t.deps, token)).toBeNull()
  })

  it('freezing an account (deletion requested) ends its cached sessions at once', async () => {
    const { user, token } = await signedIn(t.deps)
    expect(await authenticateAccessToken(t.deps, token)).not.toBeNull()
    await t.deps.users.requestDeletion(user.id, t.clock.nowMs(), t.clock.nowMs() + 86_400_000)
    expect(await authenticateAccessToken(t.deps, token)).toBeNull()
  })

  it('through Redis, a session revoked on one node stops working on another at once', async () => {
    const channelName = `cumulus-test:${randomBytes(6).toString('hex')}`
    const channels = [new RedisInvalidationChannel(REDIS_URL, channelName), new RedisInvalidationChannel(REDIS_URL, channelName)]
    await Promise.all(channels.map((c) => c.ready()))
    const a = node(new SessionCache({ ttlMs: 60_000, channel: channels[0] }))
    const b = node(new SessionCache({ ttlMs: 60_000, channel: channels[1] }))
    const { user, token } = await signedIn(a)
    const onB = await authenticateAccessToken(b, token)
    expect(onB).not.toBeNull() // now cached on B for a minute

    await a.sessions.revokeAllForUser(user.id, 'signed out everywhere', t.clock.nowMs())
    // Pub/sub is asynchronous: "at once" is the time of one message through Redis.
    await vi.waitFor(async () => expect(await authenticateAccessToken(b, token)).toBeNull(), { timeout: 2_000, interval: 10 })
  })

  it('without a channel, another node sees a revocation once its entry expires, and not later', async () => {
    const a = node(new SessionCache({ ttlMs: 5_000 }))
    const b = node(new SessionCache({ ttlMs: 5_000 }))
    const { token } = await signedIn(a)
    const auth = await authenticateAccessToken(b, token)
    await a.sessions.revoke(auth!.sessionId, 'test', t.clock.nowMs())
    expect(await authenticateAccessToken(a, token)).toBeNull()
    // B's entry is the bound the setting documents (SESSION_CACHE_SECONDS)...
    expect(await authenticateAccessToken(b, token)).not.toBeNull()
    t.clock.advanceSeconds(5)
    // ...and no longer.
    expect(await authenticateAccessToken(b, token)).toBeNull()
  })

  it('a lookup that began before an invalidation does not fill the cache with what it read', async () => {
    const { token } = await signedIn(t.deps)
    const auth = await authenticateAccessToken(t.deps, token)
    const real = await t.deps.sessions.findActive(auth!.sessionId, t.clock.nowMs())
    let release!: () => void
    let reads = 0
    const slow: SessionStore = {
      ...t.deps.sessions,
      findActive: async () => {
        reads++
        await new Promise<void>((resolve) => {
          release = resolve
        })
        return real as ActiveSession
      },
    }
    const cache = new SessionCache({ ttlMs: 60_000 })
    const store = new CachingSessionStore(slow, cache)
    const lookup = store.findActive(auth!.sessionId, t.clock.nowMs())
    await vi.waitFor(() => expect(release).toBeTypeOf('function'))
    cache.invalidate({ sessionId: auth!.sessionId }) // revoked while the read was in flight
    release()
    await lookup
    // The stale answer was not kept: the next check reads again.
    const next = store.findActive(auth!.sessionId, t.clock.nowMs())
    await vi.waitFor(() => expect(reads).toBe(2))
    release()
    await next
  })

  it('is off at 0 seconds: every check reads the database', async () => {
    const cache = new SessionCache({ ttlMs: 0 })
    expect(cache.enabled).toBe(false)
    const d = node(cache)
    const { token } = await signedIn(d)
    const auth = await authenticateAccessToken(d, token)
    await t.db.updateTable('identity_sessions').set({ revoked_at: t.clock.nowMs() }).where('id', '=', auth!.sessionId).execute()
    expect(await authenticateAccessToken(d, token)).toBeNull()
  })
})
