import { sql } from 'kysely'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { POSTGRES_URL, testBackend } from '../../../../test-support/backend.js'
import { openDatabase } from './open-database.js'

describe.runIf(testBackend() === 'postgres')('openDatabase on PostgreSQL', () => {
  it('survives PostgreSQL dropping an idle connection, and the next query gets a new one', async () => {
    const dropped: Error[] = []
    const database = openDatabase({ databaseUrl: POSTGRES_URL, sqlitePath: ':memory:', poolSize: 1, onIdleConnectionError: (err) => dropped.push(err) })
    try {
      const before = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(database.db)
      const pid = before.rows[0]!.pid
      // What a restart or an operator does to the now idle pooled connection.
      const admin = new pg.Client({ connectionString: POSTGRES_URL })
      await admin.connect()
      try {
        await admin.query('SELECT pg_terminate_backend($1)', [pid])
      } finally {
        await admin.end()
      }
      for (let i = 0; i < 200 && dropped.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10))
      expect(dropped).toHaveLength(1)
      expect((dropped[0] as Error & { code?: string }).code).toBe('57P01')
      const after = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(database.db)
      expect(after.rows[0]!.pid).not.toBe(pid)
    } finally {
      await database.close()
    }
  })
})
