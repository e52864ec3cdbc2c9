import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely'

/** Tables of the job runner: `job_schedules` on every backend, and `jobs` itself for the embedded SQLite store. */
function migrations(kind: 'sqlite' | 'postgres'): Record<string, Migration> {
  return {
    '0001_jobs': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('job_schedules')
          .addColumn('queue', 'text', (c) => c.primaryKey())
          .addColumn('every_ms', 'bigint', (c) => c.notNull())
          .addColumn('data', 'text', (c) => c.notNull())
          .addColumn('next_run_at', 'bigint', (c) => c.notNull())
          .execute()
        // pg-boss keeps PostgreSQL's jobs in its own schema.
        if (kind === 'postgres') return
        await db.schema
          .createTable('jobs')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('queue', 'text', (c) => c.notNull())
          .addColumn('data', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('unique_key', 'text')
          .addColumn('run_at', 'bigint', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('max_attempts', 'integer', (c) => c.notNull())
          .addColumn('backoff_ms', 'bigint', (c) => c.notNull())
          .addColumn('lease', 'text')
          .addColumn('lease_until', 'bigint')
          .addColumn('progress', 'text')
          .addColumn('last_error', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute()
        // The claim's lookup: due jobs of a queue in order; and running ones, for expired leases.
        await db.schema.createIndex('jobs_due').on('jobs').columns(['queue', 'state', 'run_at']).execute()
        // At most one queued job per key: the dedup of pending work.
        await db.schema.createIndex('jobs_unique_queued').on('jobs').columns(['queue', 'unique_key']).unique().where(sql<boolean>`unique_key IS NOT NULL AND state = 'queued'`).execute()
        await db.schema.createIndex('jobs_ended').on('jobs').columns(['state', 'updated_at']).execute()
      },
    },
  }
}

export async function migrateJobs(db: Kysely<any>, kind: 'sqlite' | 'postgres', schemaName?: string): Promise<void> {
  // Kysely looks for its migration tables in every schema unless told which one.
  const schema = kind === 'postgres' ? (schemaName ?? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema) : undefined
  const provider: MigrationProvider = { getMigrations: async () => migrations(kind) }
  const migrator = new Migrator({ db, provider, migrationTableName: 'job_migrations', migrationLockTableName: 'job_migrations_lock', ...(schema ? { migrationTableSchema: schema } : {}) })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName
    throw new Error(`job runner migration ${failed ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
}
