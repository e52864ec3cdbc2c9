import { type Kysely, type Migration, type MigrationProvider, Migrator, PostgresAdapter, sql } from 'kysely'

// Migrations are code, not files, so they ship inside the build and run the same on SQLite and
// PostgreSQL. Never edit a released migration; add a new one.
const migrations: Record<string, Migration> = {
  '0001_identity': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('identity_users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('username', 'text', (c) => c.unique())
        .addColumn('email', 'text', (c) => c.unique())
        .addColumn('phone_number', 'text', (c) => c.unique())
        .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('picture', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('password_hash', 'text')
        .addColumn('password_updated_at', 'bigint')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('anonymous', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('deletion_requested_at', 'bigint')
        .addColumn('erase_at', 'bigint')
        .execute()
      await db.schema.createIndex('identity_users_erase_at').on('identity_users').column('erase_at').execute()

      await db.schema
        .createTable('identity_memberships')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('identity_users.id').onDelete('cascade'))
        .addColumn('vas_type', 'text', (c) => c.notNull())
        .addColumn('level', 'integer', (c) => c.notNull())
        .addColumn('is_year', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('identity_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('identity_users.id').onDelete('cascade'))
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('refreshed_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .addColumn('revoke_reason', 'text')
        .execute()
      await db.schema.createIndex('identity_sessions_user').on('identity_sessions').column('user_id').execute()
      await db.schema.createIndex('identity_sessions_expires').on('identity_sessions').column('expires_at').execute()

      await db.schema
        .createTable('identity_refresh_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) => c.notNull().references('identity_sessions.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('rotated_at', 'bigint')
        .execute()
      await db.schema.createIndex('identity_refresh_tokens_session').on('identity_refresh_tokens').column('session_id').execute()

      await db.schema
        .createTable('identity_verifications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('usage', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text')
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('verified_at', 'bigint')
        .addColumn('token_hash', 'text', (c) => c.unique())
        .addColumn('token_expires_at', 'bigint')
        .addColumn('consumed_at', 'bigint')
        .execute()
      await db.schema
        .createIndex('identity_verifications_address')
        .on('identity_verifications')
        .columns(['address', 'created_at'])
        .execute()
      await db.schema.createIndex('identity_verifications_expires').on('identity_verifications').column('expires_at').execute()

      await db.schema
        .createTable('identity_sudo_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('identity_users.id').onDelete('cascade'))
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute()
    },
  },
  '0002_domain_events': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('domain_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('occurred_at', 'bigint', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .execute()
      // The dispatcher reads in (occurred_at, id) order.
      await db.schema.createIndex('domain_events_order').on('domain_events').columns(['occurred_at', 'id']).execute()

      await db.schema
        .createTable('domain_event_deliveries')
        .addColumn('event_id', 'text', (c) => c.notNull().references('domain_events.id').onDelete('cascade'))
        .addColumn('subscriber', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('lease_until', 'bigint', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('domain_event_deliveries_pk', ['subscriber', 'event_id'])
        .execute()
    },
  },
  '0003_refresh_token_successor': {
    async up(db: Kysely<unknown>) {
      // The hash of the one token a refresh token was exchanged for (decision 015): every
      // concurrent refresh of it within the grace window gets that same token back.
      await db.schema.alterTable('identity_refresh_tokens').addColumn('successor_hash', 'text').execute()
    },
  },
  '0004_vip_codes': {
    async up(db: Kysely<unknown>) {
      // Activation codes, stored as the SHA-256 of the normalised code: a copy of the table
      // hands out no code. `redeemed_at` marks a code used for good; `redeemed_by` is cleared
      // when that account is erased, and the code stays used.
      await db.schema
        .createTable('identity_vip_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('vas_type', 'text', (c) => c.notNull())
        .addColumn('level', 'integer', (c) => c.notNull())
        .addColumn('days', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('redeemed_at', 'bigint')
        .addColumn('redeemed_by', 'text', (c) => c.references('identity_users.id').onDelete('set null'))
        .execute()
      await db.schema.createIndex('identity_vip_codes_redeemed_by').on('identity_vip_codes').column('redeemed_by').execute()

      // Each account's invite code, made when first asked for. The reward budget is counted on
      // the row itself (window_start, window_uses), so one UPDATE both checks and spends it.
      await db.schema
        .createTable('identity_invite_codes')
        .addColumn('code', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().unique().references('identity_users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('window_start', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('window_uses', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      // Who joined with whose code (one row per new account).
      await db.schema
        .createTable('identity_invitations')
        .addColumn('invitee_id', 'text', (c) => c.primaryKey().references('identity_users.id').onDelete('cascade'))
        .addColumn('inviter_id', 'text', (c) => c.references('identity_users.id').onDelete('set null'))
        .addColumn('rewarded_days', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('identity_invitations_inviter').on('identity_invitations').column('inviter_id').execute()
    },
  },
  '0005_oauth': {
    async up(db: Kysely<unknown>) {
      // Provider identities bound to accounts: one identity belongs to one account, and an
      // account holds at most one identity of each provider.
      await db.schema
        .createTable('identity_provider_bindings')
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('provider_user_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('identity_users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('identity_provider_bindings_pk', ['provider_id', 'provider_user_id'])
        .addUniqueConstraint('identity_provider_bindings_user', ['user_id', 'provider_id'])
        .execute()

      // Sign-ins started at a provider (GET /v1/auth/provider/uri): the PKCE verifier and nonce
      // stay here, keyed by a hash of (client, provider, state); each is used once.
      await db.schema
        .createTable('identity_provider_flows')
        .addColumn('key_hash', 'text', (c) => c.primaryKey())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('consumed_at', 'bigint')
        .execute()
      await db.schema.createIndex('identity_provider_flows_expires').on('identity_provider_flows').column('expires_at').execute()

      // Proof that the caller signed in at a provider as someone (POST /v1/auth/provider/token),
      // spent by one sign-in, bind or transfer. Stored as a hash.
      await db.schema
        .createTable('identity_provider_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('provider_user_id', 'text', (c) => c.notNull())
        .addColumn('profile', 'text', (c) => c.notNull())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('authenticated_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('consumed_at', 'bigint')
        .execute()
      await db.schema.createIndex('identity_provider_tokens_expires').on('identity_provider_tokens').column('expires_at').execute()

      // Third-party clients registered with `cumulus client add` (the configured ones live in
      // the configuration). Only a hash of the secret is kept.
      await db.schema
        .createTable('identity_clients')
        .addColumn('client_id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text')
        .addColumn('redirect_uris', 'text', (c) => c.notNull())
        .addColumn('grant_types', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('logo', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()

      // Authorization codes (RFC 6749 4.1), as hashes. `session_id` is the session the code was
      // exchanged for: a second use of the code revokes it (RFC 6749 4.1.2).
      await db.schema
        .createTable('identity_auth_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('identity_users.id').onDelete('cascade'))
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text', (c) => c.notNull())
        .addColumn('code_challenge_method', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('auth_time', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('consumed_at', 'bigint')
        .addColumn('session_id', 'text')
        // Set when a spent code is presented again: its exchange, if still running, revokes what it opens.
        .addColumn('reused_at', 'bigint')
        .execute()
      await db.schema.createIndex('identity_auth_codes_expires').on('identity_auth_codes').column('expires_at').execute()
      await db.schema.createIndex('identity_auth_codes_user_client').on('identity_auth_codes').columns(['user_id', 'client_id']).execute()

      // What each user granted each client (GET /v1/user/authorize/detect).
      await db.schema
        .createTable('identity_consents')
        .addColumn('user_id', 'text', (c) => c.notNull().references('identity_users.id').onDelete('cascade'))
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('granted_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('identity_consents_pk', ['user_id', 'client_id'])
        .execute()

      // Device authorization (RFC 8628). `next_poll_at` holds the polling interval: a poll before
      // it is slow_down and pushes it further; the check and the push are one UPDATE.
      await db.schema
        .createTable('identity_device_codes')
        .addColumn('device_code_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_code', 'text', (c) => c.notNull().unique())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.references('identity_users.id').onDelete('cascade'))
        .addColumn('interval_seconds', 'integer', (c) => c.notNull())
        .addColumn('next_poll_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('decided_at', 'bigint')
        // When the approving user signed in (the session's start): the ID token's auth_time.
        .addColumn('auth_time', 'bigint')
        .addColumn('session_id', 'text')
        .execute()
      await db.schema.createIndex('identity_device_codes_expires').on('identity_device_codes').column('expires_at').execute()
      await db.schema.createIndex('identity_device_codes_user_client').on('identity_device_codes').columns(['user_id', 'client_id']).execute()
    },
  },
  '0006_session_devices': {
    async up(db: Kysely<unknown>) {
      // What a session signed in from, for the account page's list of signed-in devices: the
      // client's own device name, its User-Agent (summarised when listed) and its address.
      // Sessions opened before this have none ('').
      for (const column of ['device_name', 'user_agent', 'ip']) {
        await db.schema.alterTable('identity_sessions').addColumn(column, 'text', (c) => c.notNull().defaultTo('')).execute()
      }
    },
  },
}

const provider: MigrationProvider = { getMigrations: async () => migrations }

/** Brings the identity tables up to date. Safe to run on every start and from several nodes. */
export async function migrateIdentity(db: Kysely<any>): Promise<void> {
  // Kysely looks for its migration tables in every schema unless told which one; with several
  // schemas in one PostgreSQL database (tests, or two installations) it would find another's.
  const schema = db.getExecutor().adapter instanceof PostgresAdapter ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: 'identity_migrations',
    migrationLockTableName: 'identity_migrations_lock',
    ...(schema ? { migrationTableSchema: schema } : {}),
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName
    throw new Error(`identity migration ${failed ?? ''} failed: ${String((error as Error).message ?? error)}`, { cause: error })
  }
}
