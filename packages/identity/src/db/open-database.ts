import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import type { Pool } from 'pg'

export type DatabaseKind = 'sqlite' | 'postgres'

export interface OpenDatabaseOptions {
  /** A postgres:// URL selects PostgreSQL; anything else uses SQLite at `sqlitePath`. */
  databaseUrl?: string | undefined
  /** SQLite file path (':memory:' for a throwaway database). */
  sqlitePath: string
  /** PostgreSQL schema to use (tests give each run its own); default `public`. */
  postgresSchema?: string | undefined
  /** PostgreSQL pool size. */
  poolSize?: number | undefined
  /**
   * Told when PostgreSQL drops an idle pooled connection (a restart, a failover, an operator's
   * pg_terminate_backend). The pool has already discarded it and opens a new one when asked.
   */
  onIdleConnectionError?: ((err: Error) => void) | undefined
}

export interface OpenedDatabase {
  db: Kysely<any>
  kind: DatabaseKind
  close(): Promise<void>
}

const PG_INT8_OID = 20

export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//i.test(url)
}

/** Opens the product database: SQLite (WAL) by default, PostgreSQL when the URL says so. */
export function openDatabase(options: OpenDatabaseOptions): OpenedDatabase {
  if (isPostgresUrl(options.databaseUrl)) {
    // Kysely opens the pool on the first query; node-postgres is loaded only then, so the SQLite
    // default never carries it.
    const pool = async (): Promise<Pool> => {
      const { default: pg } = await import('pg')
      const opened = new pg.Pool({
        connectionString: options.databaseUrl,
        max: options.poolSize ?? 10,
        ...(options.postgresSchema ? { options: `-c search_path=${quoteIdent(options.postgresSchema)}` } : {}),
        // Times are bigint milliseconds; they fit a JS number, so read them as numbers, not strings.
        types: {
          getTypeParser: ((oid: number, format?: string) =>
            oid === PG_INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
        },
      })
      // Without a listener, node-postgres re-emits an idle connection's error as an unhandled
      // 'error' event, and the whole process exits because the database restarted.
      opened.on('error', (err) => options.onIdleConnectionError?.(err))
      return opened
    }
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) })
    return { db, kind: 'postgres', close: () => db.destroy() }
  }
  if (options.sqlitePath !== ':memory:') mkdirSync(dirname(options.sqlitePath), { recursive: true })
  const database = new SQLite(options.sqlitePath)
  // WAL lets readers run while one writer commits; NORMAL sync is durable across process crashes
  // in WAL mode. busy_timeout covers a second process (the CLI) writing while the server runs.
  database.pragma('journal_mode = WAL')
  database.pragma('synchronous = NORMAL')
  database.pragma('foreign_keys = ON')
  database.pragma('busy_timeout = 5000')
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) })
  return { db, kind: 'sqlite', close: () => db.destroy() }
}

/**
 * Distinct SQL texts kept prepared, least recently used dropped first. The fixed statements are a
 * few dozen, but `IN (?, ?, …)` lists make one text per length (the soak bench saw 352 in three
 * minutes), so the cache fills and must keep the hot statements rather than the oldest.
 */
const STATEMENT_CACHE_SIZE = 500

/**
 * Kysely's SQLite driver prepares every statement it runs, BEGIN and COMMIT included; preparing is
 * a good share of a short query's cost. better-sqlite3 runs statements synchronously, so one
 * prepared statement can safely serve every execution of the same SQL text.
 */
function withStatementCache(database: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>()
  const prepare = database.prepare.bind(database)
  return new Proxy(database, {
    get(target, property) {
      if (property !== 'prepare') {
        const value: unknown = Reflect.get(target, property, target)
        return typeof value === 'function' ? value.bind(target) : value
      }
      return (sql: string) => {
        let statement = cache.get(sql)
        if (statement) {
          // Map order is insertion order: re-inserting marks it most recently used.
          cache.delete(sql)
        } else {
          statement = prepare(sql)
          if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!)
        }
        cache.set(sql, statement)
        return statement
      }
    },
  })
}

function quoteIdent(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid PostgreSQL schema name: ${name}`)
  return name
}
