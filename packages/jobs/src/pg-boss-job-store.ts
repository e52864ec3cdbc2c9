import { randomUUID } from 'node:crypto'
import { CompiledQuery, type Kysely } from 'kysely'
import type PgBoss from 'pg-boss'
import type { JobInfo, JobState, Json } from './job-runner.js'
import type { ClaimedJob, JobStore, NewJob } from './job-store.js'

export interface PgBossJobStoreOptions {
  connectionString: string
  /** pg-boss's own schema (default `pgboss`); tests give each run its own. */
  schema?: string
  /** Connections of pg-boss's own pool (default 4). */
  poolSize?: number
  /** How often pg-boss fails jobs whose lease ran out, archives and purges (default 10 s). */
  maintenanceIntervalSeconds?: number
}

const STATES: Record<string, JobState> = { created: 'queued', retry: 'queued', active: 'active', completed: 'done', failed: 'failed', cancelled: 'cancelled' }

/** pg-boss's `db` option: its statements run through the caller's Kysely transaction. */
function executorOf(db: Kysely<any>) {
  return { executeSql: async (text: string, values: unknown[]) => ({ rows: (await db.executeQuery(CompiledQuery.raw(text, values))).rows as any[] }) }
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`

/**
 * Jobs on PostgreSQL through pg-boss (decision 020): its tables, its SKIP LOCKED fetch, its retry
 * with backoff, its expiry of jobs whose worker went silent, and its archiving. What pg-boss 10
 * lacks is added in its own terms, on its `job` table's documented columns:
 * - a lease per run: a token in `output.lease`, written right after the fetch, that every later
 *   write of this run must match, so a worker that stalled past its lease cannot complete or fail
 *   the run another worker took over;
 * - heartbeats: a renewal moves `started_on` to now, which pushes back pg-boss's expiry
 *   (`started_on + expire_in`), and stores progress in `output.progress`;
 * - deferral: the run goes back to `retry` with `started_on` cleared, so the next fetch does not
 *   count it as an attempt.
 * Every queue uses the `short` policy: at most one queued (created) job per singleton key. A
 * job without a unique key gets a key of its own.
 */
export class PgBossJobStore implements JobStore {
  // Made by start(): pg-boss (and pg under it) is loaded only when PostgreSQL runs the jobs, so
  // the one-process SQLite default does not carry them in memory.
  private boss!: PgBoss
  private readonly options: PgBossJobStoreOptions
  private readonly schema: string
  private readonly queues = new Map<string, Promise<void>>()
  private creating: Promise<void> = Promise.resolve()
  private started: Promise<unknown> | null = null

  constructor(options: PgBossJobStoreOptions) {
    this.options = options
    this.schema = options.schema ?? 'pgboss'
  }

  /** Installs or migrates pg-boss's schema (once) and starts its maintenance. */
  start(): Promise<unknown> {
    this.started ??= this.startBoss()
    return this.started
  }

  private async startBoss(): Promise<void> {
    const { default: PgBossClass } = await import('pg-boss')
    this.boss = new PgBossClass({
      connectionString: this.options.connectionString,
      schema: this.schema,
      max: this.options.poolSize ?? 4,
      application_name: 'cumulus-jobs',
      // Our runner fetches; pg-boss's cron is not used (schedules live in job_schedules).
      schedule: false,
      supervise: true,
      maintenanceIntervalSeconds: this.options.maintenanceIntervalSeconds ?? 10,
      monitorStateIntervalSeconds: 3600,
    })
    this.boss.on('error', () => undefined)
    await this.boss.start()
  }

  private async queue(job: Pick<NewJob, 'queue' | 'maxAttempts' | 'backoffMs' | 'leaseSeconds'>): Promise<void> {
    let ready = this.queues.get(job.queue)
    if (!ready) {
      // One creation at a time: pg-boss creates a partition per queue, and two creations at once
      // can deadlock on its catalogue. Another node creating the same queue meanwhile is fine.
      ready = this.creating.then(() => this.createQueue(job))
      this.creating = ready.catch(() => undefined)
      this.queues.set(job.queue, ready)
      ready.catch(() => this.queues.delete(job.queue))
    }
    await ready
  }

  private async createQueue(job: Pick<NewJob, 'queue' | 'maxAttempts' | 'backoffMs' | 'leaseSeconds'>): Promise<void> {
    await this.start()
    for (let attempt = 1; ; attempt++) {
      if (await this.boss.getQueue(job.queue)) return
      try {
        await this.boss.createQueue(job.queue, { name: job.queue, policy: 'short', retryLimit: job.maxAttempts - 1, retryDelay: Math.max(1, Math.round(job.backoffMs / 1000)), retryBackoff: true, expireInSeconds: job.leaseSeconds })
        return
      } catch (err) {
        // deadlock_detected or unique_violation: a creation on another node raced this one.
        const code = (err as { code?: string }).code
        if (attempt >= 5 || (code !== '40P01' && code !== '23505')) throw err
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt))
      }
    }
  }

  async add(job: NewJob, db?: Kysely<any>): Promise<string | null> {
    await this.queue(job)
    const id = await this.boss.send(job.queue, { value: job.data } as object, {
      singletonKey: job.uniqueKey ?? randomUUID(),
      startAfter: new Date(job.runAtMs),
      retryLimit: job.maxAttempts - 1,
      retryDelay: Math.max(1, Math.round(job.backoffMs / 1000)),
      retryBackoff: true,
      expireInSeconds: job.leaseSeconds,
      ...(db ? { db: executorOf(db) } : {}),
    })
    return id
  }

  async claim(queue: string, leaseSeconds: number): Promise<ClaimedJob | null> {
    await this.queue({ queue, maxAttempts: 5, backoffMs: 5000, leaseSeconds })
    const [job] = await this.boss.fetch<{ value: Json }>(queue, { batchSize: 1, includeMetadata: true })
    if (!job) return null
    const lease = randomUUID()
    await this.sql(`UPDATE ${this.table} SET output = jsonb_build_object('lease', $3::text), expire_in = $4 * interval '1 second' WHERE name = $1 AND id = $2 AND state = 'active'`, [queue, job.id, lease, leaseSeconds])
    return { id: job.id, data: job.data?.value ?? null, attempt: job.retryCount + 1, lease }
  }

  async heartbeat(queue: string, job: ClaimedJob, leaseSeconds: number, progress?: Json): Promise<boolean> {
    const rows = await this.sql(
      `UPDATE ${this.table} SET started_on = now(), expire_in = $4 * interval '1 second',
         output = CASE WHEN $5::text IS NULL THEN output ELSE jsonb_set(output, '{progress}', $5::jsonb) END
       WHERE name = $1 AND id = $2 AND state = 'active' AND output->>'lease' = $3 RETURNING id`,
      [queue, job.id, job.lease, leaseSeconds, progress === undefined ? null : JSON.stringify(progress)],
    )
    return rows.length === 1
  }

  async complete(queue: string, job: ClaimedJob): Promise<void> {
    await this.sql(`UPDATE ${this.table} SET state = 'completed', completed_on = now() WHERE name = $1 AND id = $2 AND state = 'active' AND output->>'lease' = $3`, [queue, job.id, job.lease])
  }

  async fail(queue: string, job: ClaimedJob, error: string, permanent: boolean): Promise<void> {
    // pg-boss decides between retry (with its backoff) and failed; a permanent failure first
    // spends the remaining attempts. Only this run's lease may do either.
    const rows = await this.sql(
      `UPDATE ${this.table} SET retry_limit = CASE WHEN $4 THEN retry_count ELSE retry_limit END
       WHERE name = $1 AND id = $2 AND state = 'active' AND output->>'lease' = $3 RETURNING id`,
      [queue, job.id, job.lease, permanent],
    )
    if (rows.length === 1) await this.boss.fail(queue, job.id, { error })
  }

  async defer(queue: string, job: ClaimedJob, delayMs: number): Promise<void> {
    await this.sql(
      `UPDATE ${this.table} SET state = 'retry', started_on = NULL, start_after = now() + $4 * interval '1 millisecond', output = output - 'lease'
       WHERE name = $1 AND id = $2 AND state = 'active' AND output->>'lease' = $3`,
      [queue, job.id, job.lease, delayMs],
    )
  }

  async cancel(queue: string, jobId: string): Promise<boolean> {
    if (!isUuid(jobId)) return false
    const rows = await this.sql(`UPDATE ${this.table} SET state = 'cancelled', completed_on = now() WHERE name = $1 AND id = $2 AND state < 'completed' RETURNING id`, [queue, jobId])
    return rows.length === 1
  }

  async get(queue: string, jobId: string): Promise<JobInfo | null> {
    if (!isUuid(jobId)) return null
    await this.start()
    const job = await this.boss.getJobById<{ value: Json }>(queue, jobId, { includeArchive: true })
    if (!job) return null
    const output = (job.output ?? {}) as { progress?: Json; error?: string }
    return {
      id: job.id,
      queue,
      state: STATES[job.state] ?? 'queued',
      data: job.data?.value ?? null,
      progress: output.progress ?? null,
      attempts: job.retryCount + (job.startedOn ? 1 : 0),
      lastError: typeof output.error === 'string' ? output.error : null,
    }
  }

  async prune(): Promise<void> {
    // pg-boss's maintenance archives and deletes ended jobs.
  }

  async close(): Promise<void> {
    if (!this.started) return
    // A start that failed left nothing running to stop.
    if (await this.started.then(() => true, () => false)) await this.boss.stop({ graceful: false, wait: true, close: true })
  }

  private get table(): string {
    return `${quoteIdent(this.schema)}.job`
  }

  private async sql(text: string, values: unknown[]): Promise<unknown[]> {
    await this.start()
    const { rows } = await this.boss.getDb().executeSql(text, values)
    return rows
  }
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
}
