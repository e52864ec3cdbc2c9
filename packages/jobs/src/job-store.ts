import type { Kysely } from 'kysely'
import type { JobInfo, Json } from './job-runner.js'

/** A job as its worker holds it. `lease` identifies this run: a heartbeat with a stale one fails. */
export interface ClaimedJob {
  id: string
  data: Json
  attempt: number
  lease: string
}

export interface NewJob {
  queue: string
  data: Json
  uniqueKey: string | null
  runAtMs: number
  maxAttempts: number
  backoffMs: number
  leaseSeconds: number
}

/**
 * Where jobs are kept, and the only place that knows how: the embedded SQLite table
 * (SqliteJobStore) or pg-boss on PostgreSQL (PgBossJobStore). The worker loop, leases,
 * heartbeats, cancellation and schedules above it (StoreJobRunner) are the same for both.
 * Every transition is conditional on the job's state and lease, so two workers, two nodes or a
 * worker and a cancel racing for one job leave it in one consistent state.
 */
export interface JobStore {
  add(job: NewJob, db?: Kysely<any>): Promise<string | null>
  /** Takes the next due job of `queue` (or one whose lease ran out) for `leaseSeconds`. */
  claim(queue: string, leaseSeconds: number): Promise<ClaimedJob | null>
  /** Renews the lease and stores progress (undefined: keep it). False when the job is no longer this run's. */
  heartbeat(queue: string, job: ClaimedJob, leaseSeconds: number, progress?: Json): Promise<boolean>
  complete(queue: string, job: ClaimedJob): Promise<void>
  /** Records a failed run: queued again after its backoff while attempts remain (and not `permanent`), else failed. */
  fail(queue: string, job: ClaimedJob, error: string, permanent: boolean): Promise<void>
  /** Queues the job again after `delayMs` without counting the run as an attempt. */
  defer(queue: string, job: ClaimedJob, delayMs: number): Promise<void>
  cancel(queue: string, jobId: string): Promise<boolean>
  get(queue: string, jobId: string): Promise<JobInfo | null>
  /** Removes ended jobs older than `olderThanMs`. */
  prune(olderThanMs: number): Promise<void>
  close(): Promise<void>
}
