import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '@cumulus/identity'
import pg from 'pg'
import { dropSchemas, POSTGRES_URL, testBackend, whileSchemasStay } from '../../../test-support/backend.js'
import { PgBossJobStore, SqliteJobStore, migrateJobs } from '../src/index.js'
import { describeJobRunner } from './job-runner-suite.js'

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

if (testBackend() === 'postgres') {
  describeJobRunner('pg-boss on PostgreSQL', async () => {
    const suffix = `${randomBytes(4).toString('hex')}_${Date.now().toString(36)}`
    const schema = `t_jobs_${suffix}`
    const bossSchema = `t_boss_${suffix}`
    await admin(`CREATE SCHEMA ${schema}`)
    const opened = openDatabase({ databaseUrl: POSTGRES_URL, sqlitePath: '', postgresSchema: schema, poolSize: 4 })
    await whileSchemasStay(() => migrateJobs(opened.db, 'postgres', schema))
    return {
      db: opened.db,
      store: async () => {
        const store = new PgBossJobStore({ connectionString: POSTGRES_URL, schema: bossSchema, poolSize: 2, maintenanceIntervalSeconds: 1 })
        await store.start()
        return store
      },
      async destroy() {
        await opened.close()
        await dropSchemas(schema, bossSchema)
      },
    }
  })
} else {
  describeJobRunner('embedded SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cumulus-jobs-'))
    const opened = openDatabase({ sqlitePath: join(dir, 'jobs.db') })
    await migrateJobs(opened.db, 'sqlite')
    return {
      db: opened.db,
      store: async () => new SqliteJobStore(opened.db),
      async destroy() {
        await opened.close()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  })
}
