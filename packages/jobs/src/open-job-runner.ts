import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { JobRunner } from './job-runner.js'
import type { JobStore } from './job-store.js'
import { migrateJobs } from './migrations.js'
import { PgBossJobStore } from './pg-boss-job-store.js'
import { SqliteJobStore } from './sqlite-job-store.js'
import { StoreJobRunner } from './store-job-runner.js'

export interface OpenJobRunnerOptions {
  db: Kysely<any>
  kind: 'sqlite' | 'postgres'
  /** PostgreSQL: the URL pg-boss connects with. */
  databaseUrl?: string
  /** PostgreSQL: the schema of the product's tables (job_schedules), when not `public`. */
  postgresSchema?: string
  /** PostgreSQL: pg-boss's own schema (default `pgboss`). */
  pgBossSchema?: string
  logger: Logger
  pollIntervalMs?: number
  maintenanceIntervalSeconds?: number
}

/**
 * The job runner for the product's database: the embedded store on SQLite, pg-boss on
 * PostgreSQL. Runs the runner's migrations first. `close` stops the runner and the store.
 */
export async function openJobRunner(options: OpenJobRunnerOptions): Promise<{ runner: JobRunner; store: JobStore; close(graceMs?: number): Promise<void> }> {
  await migrateJobs(options.db, options.kind, options.postgresSchema)
  let store: JobStore
  if (options.kind === 'postgres') {
    if (!options.databaseUrl) throw new Error('the PostgreSQL job runner needs the database URL')
    const boss = new PgBossJobStore({
      connectionString: options.databaseUrl,
      ...(options.pgBossSchema ? { schema: options.pgBossSchema } : {}),
      ...(options.maintenanceIntervalSeconds ? { maintenanceIntervalSeconds: options.maintenanceIntervalSeconds } : {}),
    })
    await boss.start()
    store = boss
  } else {
    store = new SqliteJobStore(options.db)
  }
  const runner = new StoreJobRunner(store, { db: options.db, logger: options.logger, ...(options.pollIntervalMs ? { pollIntervalMs: options.pollIntervalMs } : {}) })
  return {
    runner,
    store,
    async close(graceMs) {
      await runner.stop(graceMs)
      await store.close()
    },
  }
}
