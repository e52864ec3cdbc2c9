import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type TestDatabase, openTestDatabase, testBackend } from '../../test/test-app.js'
import { UniqueViolationError } from './errors.js'
import { KyselyMembershipStore } from './kysely-membership-store.js'
import { KyselyOAuthStore } from './kysely-oauth-store.js'
import { KyselySessionStore } from './kysely-session-store.js'
import { KyselyUserStore } from './kysely-user-store.js'

const DAY_MS = 86_400_000

describe(`Kysely stores on ${testBackend()}`, () => {
  let database: TestDatabase
  let users: KyselyUserStore
  let sessions: KyselySessionStore
  let memberships: KyselyMembershipStore
  beforeEach(async () => {
    database = await openTestDatabase()
    users = new KyselyUserStore(database.db)
    sessions = new KyselySessionStore(database.db)
    memberships = new KyselyMembershipStore(database.db)
  })
  afterEach(() => database.destroy())

  const newUser = (id: string, email: string | null) => users.create({ id, email, name: id, anonymous: false, createdAtMs: 1000 })

  it('translates a taken e-mail into UniqueViolationError naming the column, on create and update', async () => {
    await newUser('u1', 'a@example.com')
    await newUser('u2', 'b@example.com')
    const onCreate = await newUser('u3', 'a@example.com').catch((e: unknown) => e)
    expect(onCreate).toBeInstanceOf(UniqueViolationError)
    expect((onCreate as UniqueViolationError).field).toBe('email')
    const onUpdate = await users.update('u2', { email: 'a@example.com' }, 2000).catch((e: unknown) => e)
    expect(onUpdate).toBeInstanceOf(UniqueViolationError)
    expect(await users.findById('u2')).toMatchObject({ email: 'b@example.com' })
  })

  it('allows many users without an e-mail (NULL is not a duplicate)', async () => {
    await newUser('u1', null)
    await expect(newUser('u2', null)).resolves.toMatchObject({ id: 'u2' })
  })

  it('erases only frozen accounts whose time has come, with their sessions and memberships', async () => {
    await newUser('gone', 'gone@example.com')
    await newUser('later', 'later@example.com')
    await newUser('kept', 'kept@example.com')
    await sessions.create({ id: 's1', userId: 'gone', clientId: 'c', deviceId: '', scope: 's', createdAtMs: 1, refreshedAtMs: 1, expiresAtMs: 10 * DAY_MS }, 'hash-1')
    await memberships.grant('gone', { days: 30, isYear: false, level: 1, vasType: 'vip', nowMs: 1 })
    await users.requestDeletion('gone', 1000, 5000)
    await users.requestDeletion('later', 1000, 9000)
    expect(await users.eraseDue(5000)).toEqual(['gone'])
    expect(await users.findById('gone')).toBeNull()
    expect(await sessions.findByRefreshToken('hash-1')).toBeNull()
    expect(await memberships.find('gone')).toBeNull()
    expect(await users.findById('later')).toMatchObject({ status: 'FROZEN' })
    expect(await users.findById('kept')).toMatchObject({ status: 'ACTIVE' })
  })

  it('extends a membership from its current expiry, never losing remaining time', async () => {
    await newUser('m', null)
    const first = await memberships.grant('m', { days: 30, isYear: false, level: 1, vasType: 'vip', nowMs: 0 })
    expect(first.expiresAtMs).toBe(30 * DAY_MS)
    const renewed = await memberships.grant('m', { days: 365, isYear: true, level: 1, vasType: 'vip', nowMs: 10 * DAY_MS })
    expect(renewed).toMatchObject({ expiresAtMs: 395 * DAY_MS, isYear: true })
    const lapsed = await memberships.grant('m', { days: 1, isYear: false, level: 1, vasType: 'vip', nowMs: 1000 * DAY_MS })
    expect(lapsed.expiresAtMs).toBe(1001 * DAY_MS)
  })

  it('rotates a refresh token exactly once under a burst; every other caller lands in the grace branch with the same successor', async () => {
    await newUser('r', null)
    await sessions.create({ id: 's', userId: 'r', clientId: 'c', deviceId: '', scope: 's', createdAtMs: 1, refreshedAtMs: 1, expiresAtMs: 10 * DAY_MS }, 'first')
    const rotate = (newTokenHash: string, nowMs = 100) => sessions.rotateRefreshToken({ tokenHash: 'first', newTokenHash, clientId: 'c', nowMs, graceMs: 30_000, newExpiresAtMs: 20 * DAY_MS })
    const results = await Promise.all(Array.from({ length: 10 }, () => rotate('next')))
    expect(results.every((r) => r.kind === 'rotated')).toBe(true)
    expect(results.filter((r) => r.kind === 'rotated' && !r.viaGrace)).toHaveLength(1)
    // Within the grace window only the successor it was rotated into is handed out; after it, reuse.
    expect((await rotate('other', 200)).kind).toBe('invalid')
    expect((await rotate('next', 30_100)).kind).toBe('rotated')
    expect(await rotate('next', 30_101)).toEqual({ kind: 'reused', sessionId: 's' })
    expect((await sessions.rotateRefreshToken({ tokenHash: 'next', newTokenHash: 'after', clientId: 'c', nowMs: 30_102, graceMs: 30_000, newExpiresAtMs: 20 * DAY_MS })).kind).toBe('invalid')
  })

  it('keeps every scope of consents granted at once (no grant overwrites another)', async () => {
    await newUser('c', null)
    const oauth = new KyselyOAuthStore(database.db)
    const scopes = Array.from({ length: 12 }, (_, i) => `scope-${i}`)
    await Promise.all(scopes.map((scope, i) => oauth.grantConsent('c', 'app', [scope, 'shared'], 1000 + i)))
    expect((await oauth.findConsent('c', 'app'))?.sort()).toEqual([...scopes, 'shared'].sort())
  })
})
