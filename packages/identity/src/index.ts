/** @cumulus/identity: the identity service. Everything else in this package is private. */
export { buildIdentityApp, identityRoutes, baseServerOptions, type IdentityRoutesOptions } from './app.js'
export { IDENTITY_DEFAULTS, type IdentityConfig, type RegisteredClient, type CaptchaMode, type ClientType, type IdentityProviderConfig, type ProviderClaimMapping } from './config.js'
export { addClient, listClients, removeClient, CLIENT_TYPES, CLIENT_GRANT_TYPES, type NewClientInput } from './features/oauth/clients.js'
export type { IdentityDeps } from './deps.js'
export { createIdentityDeps, type CreateIdentityDepsInput } from './create-deps.js'
export { migrateIdentity } from './db/migrations.js'
export { openDatabase, isPostgresUrl, type OpenedDatabase, type OpenDatabaseOptions, type DatabaseKind } from './db/open-database.js'
export type { CounterStore } from './counters/counter-store.js'
export { MemoryCounterStore } from './counters/memory-counter-store.js'
export { RedisCounterStore } from './counters/redis-counter-store.js'
export { createTokenKeys, generateIdTokenJwk, generateSigningJwk, type TokenKeys, type AccessTokenClaims, type JWK } from './features/tokens/token-keys.js'
export { authenticateAccessToken, requireAuth, startSession, refreshSession, type AuthContext } from './features/tokens/sessions.js'
export { REFRESH_TOKEN_GRANT, AUTHORIZATION_CODE_GRANT, DEVICE_CODE_GRANT } from './features/tokens/token-grants.js'
export { createUserByOperator, grantVip, listUsers, restoreUser, requireUserByIdOrEmail } from './features/users/admin.js'
export { runHousekeeping } from './features/account/housekeeping.js'
export { httpKit, type HttpKitOptions } from './http/http-kit.js'
export { authenticated, authOf, bearerTokenOf } from './http/authenticate.js'
export { renderError, sendError, toAppError } from './http/error-handler.js'
export { systemClock, ManualClock, type Clock } from './lib/clock.js'
export { Argon2Hasher, OWASP_ARGON2ID, type PasswordHasher, type Argon2Params } from './lib/hasher.js'
export { createMailer, type Mailer, type OutgoingMail } from './lib/mailer.js'
export { createSmsSender, type SmsSender, type OutgoingSms } from './lib/sms.js'
export { type FileOutboxTransport, type MailTransport, parseMailUrl, parseSmsUrl, type SmsTransport } from './lib/transport-url.js'
export type { UserRecord } from './stores/user-store.js'
export type { MembershipRecord } from './stores/membership-store.js'
export {
  ACCOUNT_ERASED,
  ACCOUNT_FROZEN,
  ACCOUNT_RESTORED,
  NO_EVENT_NOTIFIER,
  recordEvents,
  type DomainEvent,
  type DomainEventType,
  type EventNotifier,
  type NewDomainEvent,
} from './events/domain-event.js'
export { EventDispatcher, type EventDispatcherOptions, type EventHandler, type EventSubscriber } from './events/event-dispatcher.js'
export { CachingMembershipStore, CachingSessionStore, CachingUserStore, type InvalidationChannel, SessionCache, type SessionInvalidation } from './stores/session-cache.js'
export { RedisInvalidationChannel } from './stores/redis-invalidation-channel.js'
export { createActivationCodes, normaliseActivationCode, redeemActivationCode, type CreateCodesInput } from './features/membership/activation-codes.js'
