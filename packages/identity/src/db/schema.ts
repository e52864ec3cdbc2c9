import type { Generated } from 'kysely'

/**
 * Identity tables. Times are milliseconds since the epoch (bigint columns); booleans are 0/1
 * integers, so one set of migrations serves SQLite and PostgreSQL alike.
 */
export interface IdentityDatabase {
  identity_users: UsersTable
  identity_memberships: MembershipsTable
  identity_vip_codes: VipCodesTable
  identity_invite_codes: InviteCodesTable
  identity_invitations: InvitationsTable
  identity_sessions: SessionsTable
  identity_refresh_tokens: RefreshTokensTable
  identity_verifications: VerificationsTable
  identity_sudo_tokens: SudoTokensTable
  identity_provider_bindings: ProviderBindingsTable
  identity_provider_flows: ProviderFlowsTable
  identity_provider_tokens: ProviderTokensTable
  identity_clients: ClientsTable
  identity_auth_codes: AuthCodesTable
  identity_consents: ConsentsTable
  identity_device_codes: DeviceCodesTable
  domain_events: DomainEventsTable
  domain_event_deliveries: DomainEventDeliveriesTable
}

export type UserStatus = 'ACTIVE' | 'FROZEN'

export interface UsersTable {
  id: string
  username: string | null
  email: string | null
  phone_number: string | null
  name: string
  picture: string
  password_hash: string | null
  password_updated_at: number | null
  status: UserStatus
  anonymous: number
  created_at: number
  updated_at: number
  /** Set when the user asked for deletion; the account is erased at `erase_at`. */
  deletion_requested_at: number | null
  erase_at: number | null
}

export interface MembershipsTable {
  user_id: string
  vas_type: string
  level: number
  is_year: number
  expires_at: number
  updated_at: number
}

export interface VipCodesTable {
  /** SHA-256 (hex) of the normalised code. */
  code_hash: string
  vas_type: string
  level: number
  days: number
  created_at: number
  /** A code not redeemed by then is void. */
  expires_at: number
  redeemed_at: number | null
  redeemed_by: string | null
}

export interface InviteCodesTable {
  code: string
  user_id: string
  created_at: number
  /** Start of the inviter's current 30-day reward window, and the rewards spent in it. */
  window_start: Generated<number>
  window_uses: Generated<number>
}

export interface InvitationsTable {
  invitee_id: string
  inviter_id: string | null
  rewarded_days: number
  created_at: number
}

export interface SessionsTable {
  id: string
  user_id: string
  client_id: string
  device_id: string
  scope: string
  created_at: number
  refreshed_at: number
  /** The session ends here unless refreshed (idle timeout). */
  expires_at: number
  revoked_at: number | null
  revoke_reason: string | null
  /** What it signed in from (see SessionDevice); '' when not told. */
  device_name: Generated<string>
  user_agent: Generated<string>
  ip: Generated<string>
}

export interface RefreshTokensTable {
  token_hash: string
  session_id: string
  created_at: number
  /** Set when the token was exchanged; a later use outside the grace window revokes the session. */
  rotated_at: number | null
  /** Set with rotated_at: the hash of the one successor token (decision 015). */
  successor_hash: string | null
}

export interface VerificationsTable {
  id: string
  channel: 'email' | 'phone'
  address: string
  usage: string
  user_id: string | null
  client_id: string
  code_hash: string
  attempts: Generated<number>
  created_at: number
  expires_at: number
  verified_at: number | null
  token_hash: string | null
  token_expires_at: number | null
  consumed_at: number | null
}

export interface SudoTokensTable {
  token_hash: string
  user_id: string
  session_id: string
  expires_at: number
}

/** The outbox (events/domain-event.ts): events written in the transaction of the change they describe. */
export interface DomainEventsTable {
  id: string
  type: string
  subject_id: string
  occurred_at: number
  /** JSON object. */
  payload: string
}

/** One row per (event, subscriber) once a delivery was tried; no row means not tried yet. */
export interface DomainEventDeliveriesTable {
  event_id: string
  subscriber: string
  /** `pending` while being delivered or waiting for a retry; `done` once the subscriber handled it. */
  state: 'pending' | 'done'
  attempts: number
  /** While pending: nobody else may try before this time (a running delivery's lease, or a retry's backoff). */
  lease_until: number
  last_error: string | null
  updated_at: number
}

export interface ProviderBindingsTable {
  provider_id: string
  provider_user_id: string
  user_id: string
  name: string
  email: string
  created_at: number
}

export interface ProviderFlowsTable {
  key_hash: string
  provider_id: string
  client_id: string
  redirect_uri: string
  code_verifier: string
  nonce: string
  created_at: number
  expires_at: number
  consumed_at: number | null
}

export interface ProviderTokensTable {
  token_hash: string
  provider_id: string
  client_id: string
  provider_user_id: string
  /** JSON of the ProviderProfile. */
  profile: string
  /** `sign_in` (from POST /v1/auth/provider/token) or `trans` (handed out when a bind found the identity on another account). */
  purpose: string
  authenticated_at: number
  expires_at: number
  consumed_at: number | null
}

export interface ClientsTable {
  client_id: string
  name: string
  type: string
  secret_hash: string | null
  /** JSON arrays. */
  redirect_uris: string
  grant_types: string
  /** Space-separated. */
  scopes: string
  logo: string
  created_at: number
}

export interface AuthCodesTable {
  code_hash: string
  client_id: string
  user_id: string
  redirect_uri: string
  scope: string
  code_challenge: string
  code_challenge_method: string
  nonce: string
  auth_time: number
  created_at: number
  expires_at: number
  consumed_at: number | null
  session_id: string | null
  reused_at: number | null
}

export interface ConsentsTable {
  user_id: string
  client_id: string
  scope: string
  granted_at: number
}

export type DeviceCodeStatus = 'pending' | 'approved' | 'denied' | 'consumed'

export interface DeviceCodesTable {
  device_code_hash: string
  user_code: string
  client_id: string
  scope: string
  status: DeviceCodeStatus
  user_id: string | null
  interval_seconds: number
  next_poll_at: number
  created_at: number
  expires_at: number
  decided_at: number | null
  auth_time: number | null
  session_id: string | null
}
