import type { Kysely } from 'kysely'
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type TestDatabase, openTestDatabase, testBackend } from '../../test/test-app.js'
import type { IdentityDatabase } from '../db/schema.js'
import { ManualClock } from '../lib/clock.js'
import { KyselyUserStore } from '../stores/kysely-user-store.js'
import { ACCOUNT_ERASED, ACCOUNT_FROZEN, ACCOUNT_RESTORED, type DomainEvent, type NewDomainEvent, recordEvents } from './domain-event.js'
import { EventDispatcher, type EventSubscriber } from './event-dispatcher.js'

const silent = pino({ level: 'silent' })
const DAY_MS = 86_400_000

describe(`the domain-event outbox and dispatcher on ${testBackend()}`, () => {
  let database: TestDatabase
  let db: Kysely<IdentityDatabase>
  let clock: ManualClock
  beforeEach(async () => {
    database = await openTestDatabase()
    db = database.db as Kysely<IdentityDatabase>
    clock = new ManualClock()
  })
  afterEach(() => database.destroy())

  const frozen = (subjectId: string, atMs = clock.nowMs()): NewDomainEvent => ({ type: ACCOUNT_FROZEN, subjectId, occurredAtMs: atMs, payload: { eraseAtMs: atMs + DAY_MS } })
  const restored = (subjectId: string, atMs = clock.nowMs()): NewDomainEvent => ({ type: ACCOUNT_RESTORED, subjectId, occurredAtMs: atMs, payload: {} })

  /** A subscriber that remembers what reached it and fails while `failing` names the subject. */
  function recorder(name: string, types: EventSubscriber['types'] = [ACCOUNT_FROZEN, ACCOUNT_RESTORED, ACCOUNT_ERASED]) {
    const seen: DomainEvent[] = []
    const failing = new Set<string>()
    const subscriber: EventSubscriber = {
      name,
      types,
      handle: async (event) => {
        if (failing.has(event.subjectId)) throw new Error(`cannot handle ${event.subjectId} now`)
        seen.push(event)
      },
    }
    return { subscriber, seen, failing }
  }

  const dispatcher = (...subscribers: EventSubscriber[]) => new EventDispatcher({ db, clock, logger: silent, subscribers })

  it('delivers an event committed with its change to every subscriber once, and never one whose transaction rolled back', async () => {
    const drive = recorder('drive')
    const shares = recorder('shares')
    await db.transaction().execute((trx) => recordEvents(trx, [frozen('u1')]))
    await db
      .transaction()
      .execute(async (trx) => {
        await recordEvents(trx, [frozen('u2')])
        throw new Error('the change failed')
      })
      .catch(() => {})
    const events = dispatcher(drive.subscriber, shares.subscriber)
    expect(await events.deliverPending()).toBe(2)
    expect(await events.deliverPending()).toBe(0)
    expect(drive.seen.map((e) => [e.type, e.subjectId, e.payload])).toEqual([[ACCOUNT_FROZEN, 'u1', { eraseAtMs: clock.nowMs() + DAY_MS }]])
    expect(shares.seen.map((e) => e.subjectId)).toEqual(['u1'])
  })

  it('retries a failed delivery with backoff, holds back later events of the same subject and lets other subjects through', async () => {
    const drive = recorder('drive')
    await recordEvents(db, [frozen('u1', 1_000), frozen('u2', 1_001), restored('u1', 1_002)])
    drive.failing.add('u1')
    const events = dispatcher(drive.subscriber)
    await events.deliverPending()
    // u1's freeze failed: its restore waits behind it; u2 is not held up.
    expect(drive.seen.map((e) => `${e.type}:${e.subjectId}`)).toEqual([`${ACCOUNT_FROZEN}:u2`])
    const row = await db.selectFrom('domain_event_deliveries').selectAll().where('subscriber', '=', 'drive').where('state', '=', 'pending').executeTakeFirstOrThrow()
    expect(row).toMatchObject({ attempts: 1, last_error: 'cannot handle u1 now' })

    drive.failing.delete('u1')
    // The backoff (2 s after the first failure) has not passed: nothing is tried yet.
    clock.advanceSeconds(1)
    await events.deliverPending()
    expect(drive.seen).toHaveLength(1)
    clock.advanceSeconds(2)
    await events.deliverPending()
    expect(drive.seen.map((e) => `${e.type}:${e.subjectId}`)).toEqual([`${ACCOUNT_FROZEN}:u2`, `${ACCOUNT_FROZEN}:u1`, `${ACCOUNT_RESTORED}:u1`])
  })

  it('delivers each event once when many passes on several nodes race for it', async () => {
    const calls: string[] = []
    const subscriber: EventSubscriber = {
      name: 'drive',
      types: [ACCOUNT_FROZEN],
      handle: async (event) => {
        calls.push(event.subjectId)
        await new Promise((resolve) => setTimeout(resolve, 5))
      },
    }
    await recordEvents(
      db,
      Array.from({ length: 30 }, (_, i) => frozen(`u${i}`, 1_000 + i)),
    )
    // Four "nodes" (dispatchers on one database), each asked to deliver five times at once.
    const nodes = Array.from({ length: 4 }, () => dispatcher(subscriber))
    const delivered = await Promise.all(nodes.flatMap((node) => Array.from({ length: 5 }, () => node.deliverPending())))
    expect(calls.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `u${i}`).sort())
    // Passes of one node share a run; the per-node totals add up to the 30 deliveries.
    expect(new Set(calls).size).toBe(30)
    expect(delivered.length).toBe(20)
  })

  it('skips an event that another node delivered and pruned between reading it and claiming it', async () => {
    await recordEvents(db, [frozen('u0', 1_000), frozen('u1', 2_000), frozen('u2', 3_000)])
    const seen: string[] = []
    const subscriber: EventSubscriber = {
      name: 'drive',
      types: [ACCOUNT_FROZEN],
      handle: async (event) => {
        seen.push(event.subjectId)
        // While this pass handles u0, another node delivers u1 and prunes it: the row this pass read is gone.
        if (event.subjectId === 'u0') await db.deleteFrom('domain_events').where('subject_id', '=', 'u1').execute()
      },
    }
    await expect(dispatcher(subscriber).deliverPending()).resolves.toBe(2)
    expect(seen).toEqual(['u0', 'u2'])
  })

  it('takes over a delivery whose node died once its lease has run out', async () => {
    const drive = recorder('drive')
    await recordEvents(db, [frozen('u1')])
    const [event] = await db.selectFrom('domain_events').select('id').execute()
    // A node claimed it and was killed before it finished (its lease is 5 minutes).
    await db.insertInto('domain_event_deliveries').values({ event_id: event!.id, subscriber: 'drive', state: 'pending', attempts: 1, lease_until: clock.nowMs() + 5 * 60_000, last_error: null, updated_at: clock.nowMs() }).execute()
    const events = dispatcher(drive.subscriber)
    await events.deliverPending()
    expect(drive.seen).toHaveLength(0)
    clock.advanceSeconds(5 * 60)
    await events.deliverPending()
    expect(drive.seen.map((e) => e.subjectId)).toEqual(['u1'])
    expect(await db.selectFrom('domain_event_deliveries').select(['state', 'attempts']).executeTakeFirst()).toEqual({ state: 'done', attempts: 2 })
  })

  it('counts an event as delivered to a subscriber that does not want its type, without calling it', async () => {
    const onlyErasures = recorder('search', [ACCOUNT_ERASED])
    await recordEvents(db, [frozen('u1')])
    await dispatcher(onlyErasures.subscriber).deliverPending()
    expect(onlyErasures.seen).toHaveLength(0)
    expect(await db.selectFrom('domain_event_deliveries').select(['subscriber', 'state']).execute()).toEqual([{ subscriber: 'search', state: 'done' }])
  })

  it('deletes events every subscriber has handled once they are older than the retention, and keeps the others', async () => {
    const drive = recorder('drive')
    await recordEvents(db, [frozen('old', clock.nowMs() - 8 * DAY_MS), frozen('stuck', clock.nowMs() - 8 * DAY_MS), frozen('new')])
    drive.failing.add('stuck')
    await dispatcher(drive.subscriber).deliverPending()
    const left = await db.selectFrom('domain_events').select('subject_id').orderBy('subject_id').execute()
    expect(left.map((r) => r.subject_id)).toEqual(['new', 'stuck'])
  })

  it('refuses two subscribers of one name (deliveries are remembered by name)', () => {
    expect(() => dispatcher(recorder('drive').subscriber, recorder('drive').subscriber)).toThrow(/drive/)
  })

  describe('the user store writes account events in the transaction of the change', () => {
    it('records account.frozen, account.restored and account.erased, and nothing for a change that did not happen', async () => {
      const users = new KyselyUserStore(db)
      await users.create({ id: 'u1', email: 'u1@example.com', name: 'u1', anonymous: false, createdAtMs: 1_000 })
      await users.requestDeletion('u1', 2_000, 10_000)
      expect(await users.cancelDeletion('u1', 3_000)).toBe(true)
      expect(await users.cancelDeletion('u1', 3_500)).toBe(false)
      await users.requestDeletion('u1', 4_000, 10_000)
      await users.requestDeletion('nobody', 4_000, 10_000)
      expect(await users.eraseDue(9_999)).toEqual([])
      expect(await users.eraseDue(10_000)).toEqual(['u1'])
      const events = await db.selectFrom('domain_events').select(['type', 'subject_id', 'occurred_at', 'payload']).orderBy('occurred_at').orderBy('id').execute()
      expect(events).toEqual([
        { type: ACCOUNT_FROZEN, subject_id: 'u1', occurred_at: 2_000, payload: JSON.stringify({ eraseAtMs: 10_000 }) },
        { type: ACCOUNT_RESTORED, subject_id: 'u1', occurred_at: 3_000, payload: '{}' },
        { type: ACCOUNT_FROZEN, subject_id: 'u1', occurred_at: 4_000, payload: JSON.stringify({ eraseAtMs: 10_000 }) },
        { type: ACCOUNT_ERASED, subject_id: 'u1', occurred_at: 10_000, payload: '{}' },
      ])
    })
  })
})
