import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { type JobInfo, type JobState, type Json, retryDelayMs } from './job-runner.js'
import type { ClaimedJob, JobStore, NewJob } from './job-store.js'

interface JobRow {
  id: string
  queue: string
  data: string
  state: JobState
  unique_key: string | null
  run_at: number
  attempts: number
  max_attempts: number
  backoff_ms: number
  lease: string | null
  lease_until: number | null
  progress: string | null
  last_error: string | null
  created_at: number
  updated_at: number
}

const isUniqueViolation = (err: unknown) => err instanceof Error && /UNIQUE constraint failed/.test(err.message)

/**
 * The embedded job store: the `jobs` table of the product's own SQLite database, so a job is
 * enqueued in the transaction of the change that asks for it and needs no other service. SQLite
 * has one writer at a time, so a claim (one UPDATE … RETURNING) can never hand one job to two
 * workers, also across processes sharing the file (the server and the CLI).
 */
export class SqliteJobStore implements JobStore {
  constructor(
    private readonly db: Kysely<any>,
    private readonly now: () => number = Date.now,
  ) {}

  async add(job: NewJob, db: Kysely<any> = this.db): Promise<string | null> {
    const id = randomUUID()
    const nowMs = this.now()
    try {
      await db
        .insertInto('jobs')
        .values({ id, queue: job.queue, data: JSON.stringify(job.data), state: 'queued', unique_key: job.uniqueKey, run_at: job.runAtMs, attempts: 0, max_attempts: job.maxAttempts, backoff_ms: job.backoffMs, created_at: nowMs, updated_at: nowMs })
        .execute()
    } catch (err) {
      if (job.uniqueKey !== null && isUniqueViolation(err)) return null
      throw err
    }
    return id
  }

  async claim(queue: string, leaseSeconds: number): Promise<ClaimedJob | null> {
    const nowMs = this.now()
    const lease = randomUUID()
    // A running job whose lease ran out belongs to a worker that died or stalled: take it over.
    const row = await this.db
      .updateTable('jobs')
      .set((eb) => ({ state: 'active', lease, lease_until: nowMs + leaseSeconds * 1000, attempts: eb('attempts', '+', 1), updated_at: nowMs }))
      .where(
        'id',
        '=',
        this.db
          .selectFrom('jobs')
          .select('id')
          .where('queue', '=', queue)
          .where((eb) => eb.or([eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', nowMs)]), eb.and([eb('state', '=', 'active'), eb('lease_until', '<', nowMs)])]))
          .orderBy('run_at')
          .limit(1),
      )
      .returning(['id', 'data', 'attempts', 'lease'])
      .executeTakeFirst()
    if (!row) return null
    return { id: row.id, data: JSON.parse(row.data) as Json, attempt: Number(row.attempts), lease }
  }

  async heartbeat(queue: string, job: ClaimedJob, leaseSeconds: number, progress?: Json): Promise<boolean> {
    const nowMs = this.now()
    const result = await this.db
      .updateTable('jobs')
      .set({ lease_until: nowMs + leaseSeconds * 1000, updated_at: nowMs, ...(progress === undefined ? {} : { progress: JSON.stringify(progress) }) })
      .where('id', '=', job.id)
      .where('queue', '=', queue)
      .where('state', '=', 'active')
      .where('lease', '=', job.lease)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async complete(queue: string, job: ClaimedJob): Promise<void> {
    await this.ownRun(queue, job).set({ state: 'done', lease: null, lease_until: null, updated_at: this.now() }).execute()
  }

  async fail(queue: string, job: ClaimedJob, error: string, permanent: boolean): Promise<void> {
    const nowMs = this.now()
    const row = await this.db.selectFrom('jobs').select(['attempts', 'max_attempts', 'backoff_ms']).where('id', '=', job.id).executeTakeFirst()
    if (!row) return
    const retry = !permanent && Number(row.attempts) < Number(row.max_attempts)
    await this.ownRun(queue, job)
      .set(retry ? { state: 'queued', run_at: nowMs + retryDelayMs(Number(row.backoff_ms), Number(row.attempts)), lease: null, lease_until: null, last_error: error, updated_at: nowMs } : { state: 'failed', lease: null, lease_until: null, last_error: error, updated_at: nowMs })
      .execute()
      .catch((err: unknown) => {
        // A job queued again while another of its key waits: the waiting one does the work.
        if (!isUniqueViolation(err)) throw err
        return this.ownRun(queue, job).set({ state: 'cancelled', last_error: error, updated_at: nowMs }).execute()
      })
  }

  async defer(queue: string, job: ClaimedJob, delayMs: number): Promise<void> {
    const nowMs = this.now()
    await this.ownRun(queue, job)
      .set((eb) => ({ state: 'queued', run_at: nowMs + delayMs, attempts: eb('attempts', '-', 1), lease: null, lease_until: null, updated_at: nowMs }))
      .execute()
      .catch((err: unknown) => {
        if (!isUniqueViolation(err)) throw err
        return this.ownRun(queue, job).set({ state: 'cancelled', updated_at: nowMs }).execute()
      })
  }

  async cancel(queue: string, jobId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ state: 'cancelled', lease: null, lease_until: null, updated_at: this.now() })
      .where('id', '=', jobId)
      .where('queue', '=', queue)
      .where('state', 'in', ['queued', 'active'])
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async get(queue: string, jobId: string): Promise<JobInfo | null> {
    const row = (await this.db.selectFrom('jobs').selectAll().where('id', '=', jobId).where('queue', '=', queue).executeTakeFirst()) as JobRow | undefined
    if (!row) return null
    return { id: row.id, queue: row.queue, state: row.state, data: JSON.parse(row.data) as Json, progress: row.progress === null ? null : (JSON.parse(row.progress) as Json), attempts: Number(row.attempts), lastError: row.last_error }
  }

  async prune(olderThanMs: number): Promise<void> {
    await this.db.deleteFrom('jobs').where('state', 'in', ['done', 'failed', 'cancelled']).where('updated_at', '<', olderThanMs).execute()
  }

  async close(): Promise<void> {}

  /** An update of this run of the job only: a run that lost its lease changes nothing. */
  private ownRun(queue: string, job: ClaimedJob) {
    return this.db.updateTable('jobs').where('id', '=', job.id).where('queue', '=', queue).where('state', '=', 'active').where('lease', '=', job.lease)
  }
}
