import type { Kysely } from 'kysely'

/** A JSON value: what job data and progress may hold, since both are stored as JSON. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

export type JobState = 'queued' | 'active' | 'done' | 'failed' | 'cancelled'

/**
 * The durable job runner every long-running feature uses (decision 020). Jobs are rows in the
 * database: a job enqueued in the caller's transaction exists exactly when the change that asked
 * for it committed. A worker holds a job through a lease that its heartbeat renews; when a worker
 * dies the lease runs out and another worker (on any node) runs the job again, so handlers must
 * be idempotent or resume from what they stored. Backends: SqliteJobRunner (embedded, the
 * one-process default) and PgBossJobRunner (PostgreSQL, many nodes). Both pass the conformance
 * suite in test/job-runner-suite.ts.
 */
export interface JobRunner {
  /** Registers the handler of a queue. Call before start(); a node runs only the queues it registered. */
  register<T extends Json>(queue: string, handler: JobHandler<T>, options?: QueueOptions): void
  /**
   * Adds a job. With `options.db` the job is written through that executor (a Kysely transaction
   * on the runner's database), so it commits or rolls back with the caller's change. Returns the
   * job's id, or null when `uniqueKey` matched a job that is still queued or running (the job is
   * not added twice).
   */
  enqueue<T extends Json>(queue: string, data: T, options?: EnqueueOptions): Promise<string | null>
  /**
   * Says that jobs were enqueued on `queue` in a transaction that has now committed, so this
   * node's workers look at once instead of at their next poll. Never needed for correctness.
   */
  notify(queue: string): void
  /**
   * Cancels a queued or running job: a queued one never runs, a running one's signal aborts (at
   * once on this node, at its next heartbeat elsewhere). Returns false when the job had already
   * ended or does not exist.
   */
  cancel(queue: string, jobId: string): Promise<boolean>
  /** The job as stored, or null when it does not exist (or was pruned after it ended). */
  get(queue: string, jobId: string): Promise<JobInfo | null>
  /**
   * Runs a job on `queue` every `everySeconds`, on one node at a time: each period that has come
   * enqueues one job with the unique key `schedule:<queue>` (so a slow run is never doubled up).
   * Idempotent; the last call wins. Periods are checked at each poll, so a period shorter than the
   * poll interval runs once a poll.
   */
  schedule(queue: string, everySeconds: number, data?: Json): Promise<void>
  /** Starts the workers of the registered queues and the schedule tick. */
  start(): Promise<void>
  /**
   * Stops taking jobs, aborts the signals of running jobs and waits up to `graceMs` for their
   * handlers to return. A job still running then keeps its lease until it runs out, and is taken
   * over by another worker or by this node after a restart.
   */
  stop(graceMs?: number): Promise<void>
}

export interface JobHandler<T extends Json> {
  (job: JobContext<T>): Promise<void>
}

export interface JobContext<T extends Json> {
  id: string
  queue: string
  data: T
  /** 1 for the first run; a run after a crash or a failure counts one more. A deferral does not count. */
  attempt: number
  /** Aborts when the job is cancelled, its lease was lost, or the runner stops. */
  signal: AbortSignal
  /** Stores progress (read by `get`) and renews the lease. Resolves false when the job was cancelled or taken over. */
  progress(value: Json): Promise<boolean>
}

export interface QueueOptions {
  /** Jobs of this queue running at once on one node (default 1). */
  concurrency?: number
  /** Attempts before the job fails for good (default 5). */
  maxAttempts?: number
  /** The first retry waits this long; each next one twice as long, capped at an hour (default 5 s). */
  backoffMs?: number
  /** How long a worker holds a job without a heartbeat before another may take it (default 60 s). */
  leaseSeconds?: number
}

export interface EnqueueOptions {
  /** At most one queued-or-running job per (queue, uniqueKey). */
  uniqueKey?: string
  /** Not before this many milliseconds from now. */
  delayMs?: number
  /** Overrides the queue's maxAttempts for this job. */
  maxAttempts?: number
  /** A transaction (or the database) of the runner's own database to write the job through. */
  db?: Kysely<any>
}

export interface JobInfo {
  id: string
  queue: string
  state: JobState
  data: Json
  progress: Json
  /** Runs started so far. */
  attempts: number
  lastError: string | null
}

/**
 * Thrown by a handler that cannot run now (a per-user limit is full, a resource is busy): the
 * job is queued again after `delayMs` without counting an attempt.
 */
export class JobDeferred extends Error {
  constructor(readonly delayMs: number) {
    super(`job deferred for ${delayMs} ms`)
    this.name = 'JobDeferred'
  }
}

/** Thrown by a handler whose job can never succeed (bad input, gone resource): no retry. */
export class JobFailedPermanently extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'JobFailedPermanently'
  }
}

export const DEFAULT_QUEUE_OPTIONS: Required<QueueOptions> = { concurrency: 1, maxAttempts: 5, backoffMs: 5000, leaseSeconds: 60 }

const MAX_BACKOFF_MS = 3600_000

/** The wait before retry number `attempt` (1-based): exponential with ±20% jitter, capped. */
export function retryDelayMs(backoffMs: number, attempt: number): number {
  const base = Math.min(backoffMs * 2 ** Math.max(0, attempt - 1), MAX_BACKOFF_MS)
  return Math.round(base * (0.8 + Math.random() * 0.4))
}

export function errorText(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err)
  return text.slice(0, 2000)
}
