import type { Kysely } from 'kysely'
import type { IdentityDatabase } from './db/schema.js'
import type { IdentityDeps } from './deps.js'
import { type EventNotifier, NO_EVENT_NOTIFIER } from './events/domain-event.js'
import { ClientRegistry } from './http/request-context.js'
import { KyselyMembershipStore } from './stores/kysely-membership-store.js'
import { KyselyOAuthStore } from './stores/kysely-oauth-store.js'
import { KyselyProviderStore } from './stores/kysely-provider-store.js'
import { ProviderClients } from './features/providers/provider-clients.js'
import { KyselySessionStore } from './stores/kysely-session-store.js'
import { KyselyUserStore } from './stores/kysely-user-store.js'
import { KyselyVerificationStore } from './stores/kysely-verification-store.js'
import { CachingMembershipStore, CachingProviderStore, CachingSessionStore, CachingUserStore, SessionCache } from './stores/session-cache.js'

/** The infrastructure a caller provides: everything in IdentityDeps but what is built here, plus the database. */
export type CreateIdentityDepsInput = Omit<IdentityDeps, 'clients' | 'users' | 'sessions' | 'verifications' | 'memberships' | 'events' | 'oauth' | 'providerStore' | 'providers'> & {
  db: Kysely<any>
  /** Default: nobody is told; events wait in the outbox for the next dispatcher pass. */
  events?: EventNotifier
  /** The session check's cache (default: one of `config.tokens.sessionCacheSeconds`, this node only). */
  sessionCache?: SessionCache
}

/** Wires the Kysely stores and the client registry around the given infrastructure. */
export function createIdentityDeps({ db: anyDb, events = NO_EVENT_NOTIFIER, sessionCache, ...infrastructure }: CreateIdentityDepsInput): IdentityDeps {
  const db = anyDb as Kysely<IdentityDatabase>
  if (infrastructure.hmacKey.length < 32) throw new Error('the HMAC key must be at least 32 bytes')
  const cache = sessionCache ?? new SessionCache({ ttlMs: infrastructure.config.tokens.sessionCacheSeconds * 1000 })
  const cached = cache.enabled
  const users = new KyselyUserStore(db)
  const sessions = new KyselySessionStore(db)
  const memberships = new KyselyMembershipStore(db)
  const oauth = new KyselyOAuthStore(db)
  return {
    ...infrastructure,
    clients: new ClientRegistry(infrastructure.config.clients, oauth, () => infrastructure.clock.nowMs()),
    oauth,
    providerStore: cached ? new CachingProviderStore(new KyselyProviderStore(db), cache, () => infrastructure.clock.nowMs()) : new KyselyProviderStore(db),
    providers: new ProviderClients(infrastructure.config.providers ?? [], infrastructure.logger),
    users: cached ? new CachingUserStore(users, cache) : users,
    sessions: cached ? new CachingSessionStore(sessions, cache) : sessions,
    verifications: new KyselyVerificationStore(db),
    memberships: cached ? new CachingMembershipStore(memberships, cache) : memberships,
    events,
  }
}
