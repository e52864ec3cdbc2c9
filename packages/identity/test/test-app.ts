import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { WEB_CLIENT_ID } from '@cumulus/protocol'
import type { FastifyInstance } from 'fastify'
import type { JWK } from 'jose'
import pg from 'pg'
import { pino } from 'pino'
import { dropSchemas, POSTGRES_URL, REDIS_URL, testBackend, whileSchemasStay } from '../../../test-support/backend.js'
import Fastify from 'fastify'
import { baseServerOptions, identityRoutes } from '../src/app.js'
import { httpKit } from '../src/http/http-kit.js'
import { IDENTITY_DEFAULTS, type IdentityConfig } from '../src/config.js'
import type { CounterStore } from '../src/counters/counter-store.js'
import { MemoryCounterStore } from '../src/counters/memory-counter-store.js'
import { RedisCounterStore } from '../src/counters/redis-counter-store.js'
import { createIdentityDeps } from '../src/create-deps.js'
import { migrateIdentity } from '../src/db/migrations.js'
import { type OpenedDatabase, openDatabase } from '../src/db/open-database.js'
import type { IdentityDeps } from '../src/deps.js'
import { createTokenKeys, generateIdTokenJwk, generateSigningJwk } from '../src/features/tokens/token-keys.js'
import { ManualClock } from '../src/lib/clock.js'
import { Argon2Hasher, type PasswordHasher } from '../src/lib/hasher.js'
import { createMailer } from '../src/lib/mailer.js'
import { parseMailUrl } from '../src/lib/transport-url.js'
import { FileOutboxSms } from '../src/lib/sms.js'
import { randomId } from '../src/lib/secrets.js'
import { type SmtpSink, startSmtpSink } from '../../../test-support/smtp-sink.js'

export { POSTGRES_URL, REDIS_URL, testBackend } from '../../../test-support/backend.js'

/** Argon2id with small parameters: the real algorithm, fast enough for hundreds of test sign-ins. */
export const TEST_ARGON2 = { memoryCostKiB: 1024, timeCost: 1, parallelism: 1 }

/** Wraps a hasher and counts the hashes it computes (every verify, decoy or real, and every hash). */
export class CountingHasher implements PasswordHasher {
  hashes = 0
  verifies = 0
  /** Of `verifies`, how many were against the decoy (no real password checked). */
  decoys = 0
  constructor(private readonly inner: PasswordHasher) {}
  get total() {
    return this.hashes + this.verifies
  }
  reset() {
    this.hashes = 0
    this.verifies = 0
    this.decoys = 0
  }
  hash(password: string) {
    this.hashes++
    return this.inner.hash(password)
  }
  verify(encoded: string, password: string) {
    this.verifies++
    return this.inner.verify(encoded, password)
  }
  verifyDecoy(password: string) {
    this.verifies++
    this.decoys++
    return this.inner.verifyDecoy(password)
  }
}

export const CONFIDENTIAL_CLIENT = { clientId: 'test-confidential', clientSecret: 'test-secret-value', name: 'Confidential test app', redirectUris: ['http://127.0.0.1:9/callback'], grantTypes: ['refresh_token', 'authorization_code'] }
export const OTHER_CLIENT = { clientId: 'test-other', name: 'Other test app', redirectUris: [], grantTypes: ['refresh_token'] }

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K] }

export function testConfig(overrides: DeepPartial<IdentityConfig> = {}): IdentityConfig {
  const base: IdentityConfig = {
    ...structuredClone(IDENTITY_DEFAULTS),
    publicUrl: 'http://127.0.0.1:3000',
    corsOrigins: ['http://127.0.0.1:3000'],
    clients: [
      { clientId: WEB_CLIENT_ID, name: 'Cumulus web', redirectUris: ['http://127.0.0.1:3000/'], grantTypes: ['refresh_token'] },
      CONFIDENTIAL_CLIENT,
      OTHER_CLIENT,
    ],
  } as IdentityConfig
  const merge = (target: Record<string, unknown>, source: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(source)) {
      if (value && typeof value === 'object' && !Array.isArray(value)) merge(target[key] as Record<string, unknown>, value as Record<string, unknown>)
      else if (value !== undefined) target[key] = value
    }
  }
  merge(base as unknown as Record<string, unknown>, overrides as Record<string, unknown>)
  return base
}

let signingJwk: Promise<JWK> | undefined
let idTokenJwk: ReturnType<typeof generateIdTokenJwk> | undefined

export interface TestDatabase extends OpenedDatabase {
  /** Drops the per-run schema (PostgreSQL) or the temp directory (SQLite). */
  destroy(): Promise<void>
}

/** A fresh, migrated database on this project's backend: a temp SQLite file, or its own PostgreSQL schema. */
export async function openTestDatabase(): Promise<TestDatabase> {
  if (testBackend() === 'postgres') {
    const schema = `t_${randomId(8).replace(/[^A-Za-z0-9]/g, '').toLowerCase()}_${Date.now().toString(36)}`
    const admin = new pg.Client({ connectionString: POSTGRES_URL })
    await admin.connect()
    await admin.query(`CREATE SCHEMA ${schema}`)
    await admin.end()
    const opened = openDatabase({ databaseUrl: POSTGRES_URL, sqlitePath: '', postgresSchema: schema, poolSize: 4 })
    await whileSchemasStay(() => migrateIdentity(opened.db))
    return {
      ...opened,
      async destroy() {
        await opened.close()
        await dropSchemas(schema)
      },
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'cumulus-test-'))
  const opened = openDatabase({ sqlitePath: join(dir, 'cumulus.db') })
  await migrateIdentity(opened.db)
  return {
    ...opened,
    async destroy() {
      await opened.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export function testCounters(clock: ManualClock): CounterStore {
  return testBackend() === 'postgres' ? new RedisCounterStore(REDIS_URL, `cumulus-test:${randomId(8)}:`) : new MemoryCounterStore(clock)
}

export interface TestDeps {
  deps: IdentityDeps
  /** The database under deps, for assertions on rows no API shows. */
  db: OpenedDatabase['db']
  clock: ManualClock
  hasher: CountingHasher
  mail: SmtpSink
  /** SMS texts sent so far, oldest first. */
  sms(): { to: string; text: string }[]
  close(): Promise<void>
}

export interface TestApp extends TestDeps {
  app: FastifyInstance
}

export interface TestAppOptions {
  config?: DeepPartial<IdentityConfig>
  /** Start time of the manual clock (default: now). */
  startMs?: number
}

/** Real identity deps on a real database, real SMTP (a loopback sink) and a file SMS outbox. */
export async function buildTestDeps(options: TestAppOptions = {}): Promise<TestDeps> {
  const clock = new ManualClock(options.startMs ?? Date.now())
  const database = await openTestDatabase()
  const mail = await startSmtpSink()
  const smsDir = mkdtempSync(join(tmpdir(), 'cumulus-sms-'))
  const hasher = new CountingHasher(new Argon2Hasher(TEST_ARGON2))
  const config = testConfig(options.config)
  signingJwk ??= generateSigningJwk()
  idTokenJwk ??= generateIdTokenJwk()
  const counters = testCounters(clock)
  const mailer = createMailer({ transport: parseMailUrl(mail.url), from: 'Cumulus <no-reply@cumulus.test>' })
  const deps = createIdentityDeps({
    config,
    db: database.db,
    clock,
    hasher,
    counters,
    mailer,
    sms: new FileOutboxSms(smsDir),
    keys: await createTokenKeys(await signingJwk, config.publicUrl, { idTokenJwk: await idTokenJwk }),
    hmacKey: Buffer.alloc(32, 7),
    logger: pino({ level: 'silent' }),
  })
  return {
    deps,
    db: database.db,
    clock,
    hasher,
    mail,
    sms: () =>
      readdirSync(smsDir)
        .filter((f) => f.endsWith('.txt'))
        .sort()
        .map((f) => {
          const [first = '', , ...rest] = readFileSync(join(smsDir, f), 'utf8').split('\n')
          return { to: first.replace(/^To: /, ''), text: rest.join('\n').trim() }
        }),
    async close() {
      await mailer.close()
      await counters.close()
      await mail.close()
      await database.destroy()
      rmSync(smsDir, { recursive: true, force: true })
    },
  }
}


/**
 * An app over buildTestDeps with the shared HTTP kit and whatever `register` mounts (one feature's
 * routes, or a probe route behind a pre-handler). Never listens; use app.inject().
 */
export async function buildTestAppWith(register: (app: FastifyInstance, deps: IdentityDeps) => PromiseLike<unknown>, options: TestAppOptions = {}): Promise<TestApp> {
  const testDeps = await buildTestDeps(options)
  const app = Fastify(baseServerOptions(testDeps.deps)) as unknown as FastifyInstance
  await app.register(httpKit, { corsOrigins: testDeps.deps.config.corsOrigins, domain: 'identity' })
  await register(app, testDeps.deps)
  await app.ready()
  return {
    ...testDeps,
    app,
    async close() {
      await app.close()
      await testDeps.close()
    },
  }
}

/** The whole identity app over buildTestDeps. Never listens; use app.inject(). */
export function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  return buildTestAppWith((app, deps) => app.register(identityRoutes, { deps }), options)
}
