import {
  Argon2Hasher,
  type Clock,
  type CounterStore,
  type IdentityDeps,
  type Mailer,
  MemoryCounterStore,
  OWASP_ARGON2ID,
  type OpenedDatabase,
  type PasswordHasher,
  RedisCounterStore,
  RedisInvalidationChannel,
  SessionCache,
  type SmsSender,
  createIdentityDeps,
  createMailer,
  createSmsSender,
  createTokenKeys,
  EventDispatcher,
  NO_EVENT_NOTIFIER,
  migrateIdentity,
  openDatabase,
  systemClock,
} from '@cumulus/identity'
import type { Logger } from 'pino'
import { type CumulusConfig, redactUrl } from './config.js'
import type { ServerKeys } from './keys.js'

/** Replacements for the infrastructure the server would otherwise build from config (tests, the CLI). */
export interface InfrastructureOverrides {
  clock?: Clock
  hasher?: PasswordHasher
  counters?: CounterStore
  mailer?: Mailer
  sms?: SmsSender
  /**
   * Set false to leave recorded domain events in the outbox: nothing delivers them until a server
   * with delivery starts on the same database (the CLI, and crash tests).
   */
  deliverEvents?: boolean
}

export interface OpenIdentityInput extends InfrastructureOverrides {
  config: CumulusConfig
  keys: ServerKeys
  logger: Logger
}

export interface OpenedIdentity {
  deps: IdentityDeps
  /**
   * Delivers the domain events identity (and later other services) records; the composition root
   * adds the subscribers and starts it. It is also `deps.events`, so a commit that wrote events
   * delivers them at once.
   */
  events: EventDispatcher
  database: OpenedDatabase
  /** Releases what was opened here (database, counters, mailer); overrides stay the caller's. */
  close(): Promise<void>
}

const STARTUP_PROBE_TIMEOUT_MS = 5_000

/**
 * Opens and migrates the database and builds identity's deps from config: Argon2id with OWASP
 * parameters, the system clock, counters in memory or Redis, the mail and SMS transports.
 * Fails with a readable error (URLs redacted) when the database or Redis cannot be reached.
 */
export async function openIdentity(input: OpenIdentityInput): Promise<OpenedIdentity> {
  const { config, logger } = input
  const closers: (() => Promise<void>)[] = []
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) {
      await close().catch((err: unknown) => logger.error({ err }, 'error while closing'))
    }
  }
  try {
    const database = openDatabase({
      databaseUrl: config.database.kind === 'postgres' ? config.database.url : undefined,
      postgresSchema: config.database.kind === 'postgres' ? config.database.schema : undefined,
      sqlitePath: config.database.kind === 'sqlite' ? config.database.sqlitePath : ':memory:',
      onIdleConnectionError: (err) => logger.warn({ err }, 'PostgreSQL closed an idle connection; the pool opens a new one'),
    })
    closers.push(() => database.close())
    try {
      await migrateIdentity(database.db)
    } catch (err) {
      const where = config.database.kind === 'postgres' ? redactUrl(config.database.url) : config.database.sqlitePath
      throw new Error(`cannot open and migrate the ${config.database.kind} database at ${where}: ${(err as Error).message}`, { cause: err })
    }

    const clock = input.clock ?? systemClock
    const counters = input.counters ?? (await openCounters(config, clock, logger))
    if (!input.counters) closers.push(() => counters.close())
    const mailer = input.mailer ?? createMailer({ transport: config.mail.transport, from: config.mail.from })
    if (!input.mailer) closers.push(() => mailer.close())

    // The session check's cache; with Redis, a revocation on one node reaches the others at once.
    const channel = config.redisUrl ? new RedisInvalidationChannel(config.redisUrl, `${config.redisPrefix}session-invalidations`, (err) => logger.warn({ err: err.message }, 'redis connection problem')) : undefined
    await channel?.ready()
    const sessionCache = new SessionCache({ ttlMs: config.identity.tokens.sessionCacheSeconds * 1000, channel })
    closers.push(() => sessionCache.close())
    const events = new EventDispatcher({ db: database.db, clock, logger: logger.child({ part: 'events' }) })
    closers.push(() => events.stop())
    const deps = createIdentityDeps({
      config: config.identity,
      db: database.db,
      clock,
      hasher: input.hasher ?? new Argon2Hasher(OWASP_ARGON2ID),
      counters,
      mailer,
      sms: input.sms ?? createSmsSender(config.sms),
      keys: await createTokenKeys(input.keys.signingJwk, config.publicUrl, { idTokenJwk: input.keys.idTokenJwk }),
      hmacKey: input.keys.hmacKey,
      logger,
      events: input.deliverEvents === false ? NO_EVENT_NOTIFIER : events,
      sessionCache,
    })
    return { deps, events, database, close: closeAll }
  } catch (err) {
    await closeAll()
    throw err
  }
}

async function openCounters(config: CumulusConfig, clock: Clock, logger: Logger): Promise<CounterStore> {
  if (!config.redisUrl) return new MemoryCounterStore(clock)
  const counters = new RedisCounterStore(config.redisUrl, config.redisPrefix, (err) => logger.warn({ err: err.message }, 'redis connection problem'))
  // Probe once so a wrong REDIS_URL stops the start instead of failing every sign-in later.
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      counters.get('startup-probe'),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${STARTUP_PROBE_TIMEOUT_MS} ms`)), STARTUP_PROBE_TIMEOUT_MS)
      }),
    ])
  } catch (err) {
    await counters.close().catch(() => {})
    throw new Error(`cannot reach Redis at ${redactUrl(config.redisUrl)}: ${(err as Error).message}`, { cause: err })
  } finally {
    clearTimeout(timer)
  }
  return counters
}
