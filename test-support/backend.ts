import { inject } from 'vitest'
import pg from 'pg'

declare module 'vitest' {
  export interface ProvidedContext {
    backend: 'sqlite' | 'postgres'
  }
}

/** The machine's PostgreSQL (trust auth); tests make and drop their own schema or database in it. */
export const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test'
/** The machine's Redis; tests use their own random key prefix. */
export const REDIS_URL = 'redis://127.0.0.1:6379'

/** The backend of the Vitest project running this file (see vitest.config.ts). */
export function testBackend(): 'sqlite' | 'postgres' {
  return inject('backend') ?? 'sqlite'
}

/**
 * Kysely's migrator looks for its tables in every schema of the database (its introspector asks
 * `has_schema_privilege` of each one it found), so it fails with "schema does not exist" when
 * another test file drops its schema between the two. Test files run two at a time: migrations
 * in the shared database hold this advisory lock shared, and a schema drop holds it alone.
 */
const SCHEMA_LOCK_KEY = 715_000_001

async function withAdvisoryLock<T>(mode: 'shared' | 'exclusive', run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  await client.connect()
  try {
    await client.query(mode === 'shared' ? 'SELECT pg_advisory_lock_shared($1)' : 'SELECT pg_advisory_lock($1)', [SCHEMA_LOCK_KEY])
    return await run(client)
  } finally {
    // Ending the session releases the lock.
    await client.end()
  }
}

/** Runs migrations (which scan every schema) while no test file drops one. */
export function whileSchemasStay<T>(migrate: () => Promise<T>): Promise<T> {
  return withAdvisoryLock('shared', () => migrate())
}

/** Drops test schemas (if they exist) while no migration scans them. */
export function dropSchemas(...names: string[]): Promise<void> {
  return withAdvisoryLock('exclusive', async (client) => {
    for (const name of names) await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`)
  })
}
