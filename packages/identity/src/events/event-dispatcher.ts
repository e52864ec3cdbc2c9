import { type Kysely, sql } from 'kysely'
import type { Logger } from 'pino'
import type { IdentityDatabase } from '../db/schema.js'
import type { Clock } from '../lib/clock.js'
import { isForeignKeyViolation } from '../stores/errors.js'
import type { DomainEvent, DomainEventType, EventNotifier } from './domain-event.js'

/**
 * A subscriber's reaction to one event. It may run more than once for the same event (after a
 * crash, a lost lease or a retry), so it must be idempotent; it throws to ask for a retry.
 */
export type EventHandler = (event: DomainEvent) => Promise<void>

export interface EventSubscriber {
  /** Stable name: deliveries are remembered under it, so renaming it delivers every kept event again. */
  name: string
  /** The event types it wants; the others count as delivered to it without a call. */
  types: readonly DomainEventType[]
  handle: EventHandler
}

export interface EventDispatcherOptions {
  db: Kysely<any>
  clock: Clock
  logger: Logger
  /** More can be added with `subscribe` before the first pass. */
  subscribers?: readonly EventSubscriber[]
  /** How long one delivery may run before another node may take it over; renewed while it runs. */
  leaseMs?: number
  /** Delivered events are kept this long (for support questions), then deleted. */
  retentionMs?: number
}

/** Events read per subscriber and pass; a pass repeats while it finds this many. */
const BATCH = 100
const DEFAULT_LEASE_MS = 5 * 60_000
const DEFAULT_RETENTION_MS = 7 * 86_400_000
/** Retries wait 2 s, 4 s, 8 s, … and at most an hour. */
const MAX_BACKOFF_MS = 60 * 60_000
const PRUNE_EVERY_MS = 60 * 60_000

/**
 * Delivers the outbox (domain-event.ts) to the subscribers, at least once each.
 *
 * - Each (event, subscriber) delivery is claimed with a conditional write (an insert that loses
 *   to a concurrent insert, or an update of an expired lease), so several nodes may run passes at
 *   once and a delivery runs on one of them at a time. A crashed node's claim expires with its
 *   lease and another pass takes it over: nothing is lost, something may run twice.
 * - Events of one subject reach a subscriber in order: while an earlier event of that subject is
 *   undelivered (failing, or running elsewhere), the later ones wait. Other subjects go on.
 * - A failure is retried with exponential backoff, for ever, with the error logged and kept on
 *   the delivery row.
 *
 * `deliverPending` is one pass: what a scheduler calls. The composition root runs it as a
 * scheduled job on the durable job runner (every few seconds, on one node at a time), and
 * `eventsRecorded` runs it whenever a commit on this node wrote events.
 */
export class EventDispatcher implements EventNotifier {
  readonly #db: Kysely<IdentityDatabase>
  readonly #clock: Clock
  readonly #logger: Logger
  readonly #subscribers: EventSubscriber[] = []
  readonly #leaseMs: number
  readonly #retentionMs: number
  #running: Promise<number> | undefined
  #again = false
  #lastPruneMs = 0
  #stopped = false

  constructor(options: EventDispatcherOptions) {
    this.#db = options.db as Kysely<IdentityDatabase>
    this.#clock = options.clock
    this.#logger = options.logger
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS
    this.#retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS
    for (const subscriber of options.subscribers ?? []) this.subscribe(subscriber)
  }

  /** Adds a subscriber (the composition root wires them before `start`). Names must be distinct. */
  subscribe(subscriber: EventSubscriber): void {
    if (this.#subscribers.some((s) => s.name === subscriber.name)) throw new Error(`an event subscriber named ${subscriber.name} exists already`)
    this.#subscribers.push(subscriber)
  }

  /**
   * Runs passes until one finds nothing to do; resolves with how many deliveries succeeded.
   * Concurrent calls share the running pass, which then runs once more so that an event
   * committed meanwhile is not left for the next poll.
   */
  deliverPending(): Promise<number> {
    if (this.#running) {
      this.#again = true
      return this.#running
    }
    const run = async () => {
      let delivered = 0
      try {
        do {
          this.#again = false
          for (const subscriber of this.#subscribers) {
            let result: { delivered: number; read: number }
            do {
              result = await this.#passFor(subscriber)
              delivered += result.delivered
            } while (result.read === BATCH && result.delivered > 0 && !this.#stopped)
          }
          await this.#pruneIfDue()
        } while (this.#again && !this.#stopped)
      } finally {
        this.#running = undefined
      }
      return delivered
    }
    this.#running = run()
    return this.#running
  }

  /** EventNotifier: a commit wrote events; deliver them now. Never rejects: failures are logged and retried. */
  async eventsRecorded(): Promise<void> {
    if (this.#stopped) return
    await this.deliverPending().catch((err: unknown) => this.#logger.error({ err }, 'event delivery pass failed'))
  }

  /** Stops delivering and waits for the running pass (its deliveries finish or fail; none is cut). */
  async stop(): Promise<void> {
    this.#stopped = true
    await this.#running?.catch(() => {})
  }

  async #passFor(subscriber: EventSubscriber): Promise<{ delivered: number; read: number }> {
    const rows = await this.#db
      .selectFrom('domain_events as e')
      .leftJoin('domain_event_deliveries as d', (join) => join.onRef('d.event_id', '=', 'e.id').on('d.subscriber', '=', subscriber.name))
      .select(['e.id', 'e.type', 'e.subject_id', 'e.occurred_at', 'e.payload', 'd.state', 'd.lease_until'])
      .where((eb) => eb.or([eb('d.state', 'is', null), eb('d.state', '=', 'pending')]))
      .orderBy('e.occurred_at')
      .orderBy('e.id')
      .limit(BATCH)
      .execute()
    const waiting = new Set<string>()
    let delivered = 0
    for (const row of rows) {
      if (this.#stopped) break
      if (waiting.has(row.subject_id)) continue
      const nowMs = this.#clock.nowMs()
      if (row.state === 'pending' && (row.lease_until ?? 0) > nowMs) {
        waiting.add(row.subject_id)
        continue
      }
      const event: DomainEvent = { id: row.id, type: row.type as DomainEventType, subjectId: row.subject_id, occurredAtMs: row.occurred_at, payload: JSON.parse(row.payload) as Record<string, unknown> }
      if (!subscriber.types.includes(event.type)) {
        await this.#markDoneUnclaimed(subscriber.name, event.id, nowMs)
        continue
      }
      const attempts = await this.#claim(subscriber.name, event.id, row.state === null, nowMs)
      if (attempts === null) {
        waiting.add(row.subject_id)
        continue
      }
      if (await this.#deliver(subscriber, event, attempts)) delivered++
      else waiting.add(row.subject_id)
    }
    return { delivered, read: rows.length }
  }

  /** Takes the delivery for this node; returns the attempt number, or null when another node has it. */
  async #claim(subscriber: string, eventId: string, isNew: boolean, nowMs: number): Promise<number | null> {
    const leaseUntil = nowMs + this.#leaseMs
    if (isNew) {
      try {
        const inserted = await this.#db
          .insertInto('domain_event_deliveries')
          .values({ event_id: eventId, subscriber, state: 'pending', attempts: 1, lease_until: leaseUntil, last_error: null, updated_at: nowMs })
          .onConflict((oc) => oc.columns(['subscriber', 'event_id']).doNothing())
          .executeTakeFirst()
        return Number(inserted.numInsertedOrUpdatedRows) === 1 ? 1 : null
      } catch (err) {
        // Another node delivered it and pruned it between our read and this claim: nothing left to do.
        if (isForeignKeyViolation(err)) return null
        throw err
      }
    }
    const claimed = await this.#db
      .updateTable('domain_event_deliveries')
      .set({ lease_until: leaseUntil, attempts: sql`attempts + 1`, updated_at: nowMs })
      .where('subscriber', '=', subscriber)
      .where('event_id', '=', eventId)
      .where('state', '=', 'pending')
      .where('lease_until', '<=', nowMs)
      .returning('attempts')
      .executeTakeFirst()
    return claimed ? claimed.attempts : null
  }

  async #deliver(subscriber: EventSubscriber, event: DomainEvent, attempts: number): Promise<boolean> {
    // Renew the lease while a long delivery (erasing a large account) runs, so no other node takes it over.
    const heartbeat = setInterval(() => {
      void this.#db
        .updateTable('domain_event_deliveries')
        .set({ lease_until: this.#clock.nowMs() + this.#leaseMs })
        .where('subscriber', '=', subscriber.name)
        .where('event_id', '=', event.id)
        .where('state', '=', 'pending')
        .execute()
        .catch((err: unknown) => this.#logger.warn({ err, eventId: event.id }, 'could not renew an event delivery lease'))
    }, Math.max(1_000, Math.floor(this.#leaseMs / 3)))
    heartbeat.unref()
    try {
      await subscriber.handle(event)
    } catch (err) {
      clearInterval(heartbeat)
      const backoffMs = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** Math.min(attempts, 32))
      const nowMs = this.#clock.nowMs()
      this.#logger.error({ err, eventId: event.id, type: event.type, subscriber: subscriber.name, attempts, retryInMs: backoffMs }, 'event delivery failed; will retry')
      await this.#db
        .updateTable('domain_event_deliveries')
        .set({ lease_until: nowMs + backoffMs, last_error: String((err as Error)?.message ?? err).slice(0, 1_000), updated_at: nowMs })
        .where('subscriber', '=', subscriber.name)
        .where('event_id', '=', event.id)
        .where('state', '=', 'pending')
        .execute()
      return false
    }
    clearInterval(heartbeat)
    await this.#db
      .updateTable('domain_event_deliveries')
      .set({ state: 'done', last_error: null, updated_at: this.#clock.nowMs() })
      .where('subscriber', '=', subscriber.name)
      .where('event_id', '=', event.id)
      .execute()
    this.#logger.debug({ eventId: event.id, type: event.type, subscriber: subscriber.name }, 'event delivered')
    return true
  }

  async #markDoneUnclaimed(subscriber: string, eventId: string, nowMs: number): Promise<void> {
    try {
      await this.#db
        .insertInto('domain_event_deliveries')
        .values({ event_id: eventId, subscriber, state: 'done', attempts: 0, lease_until: nowMs, last_error: null, updated_at: nowMs })
        .onConflict((oc) => oc.columns(['subscriber', 'event_id']).doNothing())
        .execute()
    } catch (err) {
      if (!isForeignKeyViolation(err)) throw err // pruned meanwhile by another node: already handled
    }
  }

  /** Deletes events every subscriber has handled once they are older than the retention. */
  async #pruneIfDue(): Promise<void> {
    const nowMs = this.#clock.nowMs()
    if (nowMs - this.#lastPruneMs < PRUNE_EVERY_MS) return
    this.#lastPruneMs = nowMs
    const names = this.#subscribers.map((s) => s.name)
    if (names.length === 0) return
    await this.#db
      .deleteFrom('domain_events')
      .where('occurred_at', '<', nowMs - this.#retentionMs)
      .where((eb) =>
        eb(
          eb
            .selectFrom('domain_event_deliveries as d')
            .select((s) => s.fn.countAll<number>().as('n'))
            .whereRef('d.event_id', '=', 'domain_events.id')
            .where('d.state', '=', 'done')
            .where('d.subscriber', 'in', names),
          '>=',
          names.length,
        ),
      )
      .execute()
  }
}
