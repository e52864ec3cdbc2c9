import { randomBytes } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { IdentityDatabase } from '../db/schema.js'

/*
 * Domain events: how one service tells the others what happened, without calling them. The
 * service that changes something writes an event row into the outbox (`domain_events`) in the
 * SAME transaction as the change, so a change can never exist without its event, nor an event
 * without its change. The dispatcher (event-dispatcher.ts) then delivers each event at least
 * once to every subscriber the composition root wired; subscribers are idempotent.
 */

/** The account entered its cancellation review: frozen, signed in nowhere, erased at `eraseAtMs`. */
export const ACCOUNT_FROZEN = 'account.frozen'
/** An operator cancelled the deletion; the account is active again. */
export const ACCOUNT_RESTORED = 'account.restored'
/** The account's identity rows are gone; every other service must now forget the account. */
export const ACCOUNT_ERASED = 'account.erased'

export type DomainEventType = typeof ACCOUNT_FROZEN | typeof ACCOUNT_RESTORED | typeof ACCOUNT_ERASED

export interface DomainEvent {
  /** Unique, and increasing with `occurredAtMs` within one process (see newEventId). */
  id: string
  type: DomainEventType
  /**
   * What the event is about (a user id for account events). Events of one subject reach each
   * subscriber in the order they occurred; events of different subjects do not wait for each other.
   */
  subjectId: string
  occurredAtMs: number
  /** Small JSON facts for the subscribers; never secrets, never personal data beyond ids. */
  payload: Record<string, unknown>
}

export type NewDomainEvent = Omit<DomainEvent, 'id'>

type Db = Kysely<IdentityDatabase> | Transaction<IdentityDatabase>

let lastIdMs = 0
let sequence = 0

/**
 * An id that sorts by time: 13 digits of milliseconds, a per-millisecond sequence and random
 * bytes, so ids of one process never tie and ids of several nodes almost never do (a tie is
 * harmless: the order is then by id, still total).
 */
export function newEventId(nowMs: number): string {
  if (nowMs === lastIdMs) sequence++
  else {
    lastIdMs = nowMs
    sequence = 0
  }
  return `${String(nowMs).padStart(13, '0')}-${String(sequence).padStart(6, '0')}-${randomBytes(6).toString('hex')}`
}

/**
 * Writes events into the outbox. Call it with the transaction that makes the change the events
 * describe; they become visible to the dispatcher when, and only if, that transaction commits.
 */
export async function recordEvents(db: Db, events: readonly NewDomainEvent[]): Promise<void> {
  if (events.length === 0) return
  await db
    .insertInto('domain_events')
    .values(
      events.map((event) => ({
        id: newEventId(event.occurredAtMs),
        type: event.type,
        subject_id: event.subjectId,
        occurred_at: event.occurredAtMs,
        payload: JSON.stringify(event.payload),
      })),
    )
    .execute()
}

/**
 * What identity's domain functions tell after they committed an event, so that delivery starts
 * at once instead of at the next poll. Resolves when a delivery pass has run (its failures are
 * the dispatcher's to log and retry, never the caller's).
 */
export interface EventNotifier {
  eventsRecorded(): Promise<void>
}

/** For code that runs without a dispatcher (some tests, the operator CLI): the next server start delivers. */
export const NO_EVENT_NOTIFIER: EventNotifier = { eventsRecorded: async () => {} }
