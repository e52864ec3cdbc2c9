import type { Logger } from 'pino'
import type { IdentityConfig } from './config.js'
import type { EventNotifier } from './events/domain-event.js'
import type { CounterStore } from './counters/counter-store.js'
import type { TokenKeys } from './features/tokens/token-keys.js'
import type { ClientRegistry } from './http/request-context.js'
import type { Clock } from './lib/clock.js'
import type { PasswordHasher } from './lib/hasher.js'
import type { Mailer } from './lib/mailer.js'
import type { SmsSender } from './lib/sms.js'
import type { MembershipStore } from './stores/membership-store.js'
import type { OAuthStore } from './stores/oauth-store.js'
import type { ProviderStore } from './stores/provider-store.js'
import type { ProviderClients } from './features/providers/provider-clients.js'
import type { SessionStore } from './stores/session-store.js'
import type { UserStore } from './stores/user-store.js'
import type { VerificationStore } from './stores/verification-store.js'

/** Everything the identity domain functions need, passed explicitly (no globals, no process.env). */
export interface IdentityDeps {
  config: IdentityConfig
  clients: ClientRegistry
  clock: Clock
  hasher: PasswordHasher
  counters: CounterStore
  mailer: Mailer
  sms: SmsSender
  keys: TokenKeys
  /** Key for HMAC-signed artefacts (captcha tokens and challenges). 32 bytes or more. */
  hmacKey: Buffer
  users: UserStore
  sessions: SessionStore
  verifications: VerificationStore
  memberships: MembershipStore
  oauth: OAuthStore
  providerStore: ProviderStore
  /** The configured identity providers, with their discovered metadata. */
  providers: ProviderClients
  /** Told after a commit that wrote domain events, so they are delivered at once (the dispatcher). */
  events: EventNotifier
  logger: Logger
}

