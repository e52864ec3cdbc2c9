import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { IdentityConfig } from './config.js'
import type { CounterStore } from './counters/counter-store.js'
import type { IdentityDatabase } from './db/schema.js'
import type { IdentityDeps } from './deps.js'
import type { TokenKeys } from './features/tokens/token-keys.js'
import { ClientRegistry } from './http/request-context.js'
import type { Clock } from './lib/clock.js'
import type { PasswordHasher } from './lib/hasher.js'
import type { Mailer } from './lib/mailer.js'
import type { SmsSender } from './lib/sms.js'
import { KyselyMembershipStore } from './stores/kysely-membership-store.js'
import { KyselySessionStore } from './stores/kysely-session-store.js'
import { KyselyUserStore } from './stores/kysely-user-store.js'
import { KyselyVerificationStore } from './stores/kysely-verification-store.js'

export interface CreateIdentityDepsInput {
  config: IdentityConfig
  db: Kysely<any>
  clock: Clock
  hasher: PasswordHasher
  counters: CounterStore
  mailer: Mailer
  sms: SmsSender
  keys: TokenKeys
  hmacKey: Buffer
  logger: Logger
}

/** Wires the Kysely stores and the client registry around the given infrastructure. */
export function createIdentityDeps(input: CreateIdentityDepsInput): IdentityDeps {
  const db = input.db as Kysely<IdentityDatabase>
  if (input.hmacKey.length < 32) throw new Error('the HMAC key must be at least 32 bytes')
  return {
    config: input.config,
    clients: new ClientRegistry(input.config.clients),
    clock: input.clock,
    hasher: input.hasher,
    counters: input.counters,
    mailer: input.mailer,
    sms: input.sms,
    keys: input.keys,
    hmacKey: input.hmacKey,
    logger: input.logger,
    users: new KyselyUserStore(db),
    sessions: new KyselySessionStore(db),
    verifications: new KyselyVerificationStore(db),
    memberships: new KyselyMembershipStore(db),
  }
}
