import { mkdtempSync, rmSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { POSTGRES_URL, REDIS_URL, testBackend } from '../../../test-support/backend.js'

export { POSTGRES_URL, REDIS_URL, testBackend } from '../../../test-support/backend.js'

export interface TestEnvironment {
  /** The environment a fresh install on this backend would have (plus LOG_LEVEL=silent). */
  env: Record<string, string>
  dataDir: string
  /** The PostgreSQL connection URL of this environment's own database, or undefined on SQLite. */
  databaseUrl: string | undefined
  /** Removes the data directory and drops the database. */
  cleanup(): Promise<void>
}

/**
 * A temp data directory and, in the postgres project, an empty database of its own with Redis
 * counters: the two configurations the README documents, each starting from nothing.
 *
 * A database rather than a schema per test, so DATABASE_URL is exactly what an operator would
 * write; server.test.ts covers the `?schema=` parameter separately.
 */
export async function testEnvironment(extra: Record<string, string> = {}): Promise<TestEnvironment> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cumulus-server-'))
  const env: Record<string, string> = { CUMULUS_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }
  let database: string | undefined
  if (testBackend() === 'postgres') {
    database = `cumulus_test_${randomBytes(6).toString('hex')}`
    await postgresAdmin(`CREATE DATABASE ${database}`)
    env.DATABASE_URL = databaseUrlOf(database)
    env.REDIS_URL = REDIS_URL
    // Every run and both Vitest projects share this Redis: keys of their own, so that one run's
    // counters (anonymous sign-ups per IP, send budgets) never spend another's.
    env.REDIS_PREFIX = `cumulus-test-${randomBytes(6).toString('hex')}:`
    // Every run and both Vitest projects share this Redis, where the service-wide send budget
    // lives for an hour: earlier runs must not spend this one's.
    env.VERIFICATION_SENDS_PER_HOUR = '1000000'
  }
  return {
    env: { ...env, ...extra },
    dataDir,
    databaseUrl: database ? databaseUrlOf(database) : undefined,
    async cleanup() {
      rmSync(dataDir, { recursive: true, force: true })
      if (database) {
        // pg's Pool.end() resolves once its clients are removed, while their sockets may still be
        // saying goodbye; a forced drop then sends those clients a FATAL that nobody listens for
        // (an uncaught error). Give the sessions a moment to leave first; FORCE ends stragglers.
        for (let attempt = 0; attempt < 40; attempt++) {
          const { rows } = await postgresAdmin('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [database])
          if ((rows[0] as { n: number }).n === 0) break
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        await postgresAdmin(`DROP DATABASE ${database} WITH (FORCE)`)
      }
    },
  }
}

function databaseUrlOf(database: string): string {
  return POSTGRES_URL.replace(/\/test$/, `/${database}`)
}

/** Runs one statement as the PostgreSQL superuser, on the test database unless `url` names another. */
export async function postgresAdmin(sql: string, params: unknown[] = [], url = POSTGRES_URL): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await client.query(sql, params)
  } finally {
    await client.end()
  }
}

/** A CLI output stream that remembers what was written. */
export class Captured {
  private chunks: string[] = []
  write(chunk: string) {
    this.chunks.push(chunk)
    return true
  }
  get text(): string {
    return this.chunks.join('')
  }
  clear() {
    this.chunks = []
  }
}
