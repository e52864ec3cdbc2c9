import type { Kysely } from 'kysely'
import type { ProviderProfile } from '@cumulus/protocol'
import type { IdentityDatabase, ProviderBindingsTable } from '../db/schema.js'
import { asUniqueViolation } from './errors.js'
import type { ProviderBindingRecord, ProviderFlowRecord, ProviderStore, ProviderTokenPurpose, ProviderTokenRecord } from './provider-store.js'

function bindingOf(row: ProviderBindingsTable): ProviderBindingRecord {
  return { providerId: row.provider_id, providerUserId: row.provider_user_id, userId: row.user_id, name: row.name, email: row.email, createdAtMs: Number(row.created_at) }
}

export class KyselyProviderStore implements ProviderStore {
  constructor(private readonly db: Kysely<IdentityDatabase>) {}

  async createFlow(keyHash: string, f: ProviderFlowRecord, nowMs: number) {
    try {
      await this.db
        .insertInto('identity_provider_flows')
        .values({ key_hash: keyHash, provider_id: f.providerId, client_id: f.clientId, redirect_uri: f.redirectUri, code_verifier: f.codeVerifier, nonce: f.nonce, created_at: nowMs, expires_at: f.expiresAtMs })
        .execute()
    } catch (error) {
      throw asUniqueViolation(error) ?? error
    }
  }

  async consumeFlow(keyHash: string, nowMs: number) {
    const row = await this.db
      .updateTable('identity_provider_flows')
      .set({ consumed_at: nowMs })
      .where('key_hash', '=', keyHash)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', nowMs)
      .returningAll()
      .executeTakeFirst()
    return row ? { providerId: row.provider_id, clientId: row.client_id, redirectUri: row.redirect_uri, codeVerifier: row.code_verifier, nonce: row.nonce, expiresAtMs: Number(row.expires_at) } : null
  }

  async createToken(tokenHash: string, t: ProviderTokenRecord, nowMs: number) {
    void nowMs
    await this.db
      .insertInto('identity_provider_tokens')
      .values({
        token_hash: tokenHash,
        provider_id: t.providerId,
        client_id: t.clientId,
        provider_user_id: t.providerUserId,
        profile: JSON.stringify(t.profile),
        purpose: t.purpose,
        authenticated_at: t.authenticatedAtMs,
        expires_at: t.expiresAtMs,
      })
      .execute()
  }

  async consumeToken(tokenHash: string, purpose: ProviderTokenPurpose, nowMs: number) {
    const row = await this.db
      .updateTable('identity_provider_tokens')
      .set({ consumed_at: nowMs })
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', nowMs)
      .returningAll()
      .executeTakeFirst()
    if (!row) return null
    return {
      providerId: row.provider_id,
      clientId: row.client_id,
      providerUserId: row.provider_user_id,
      profile: JSON.parse(row.profile) as ProviderProfile,
      purpose: row.purpose as ProviderTokenPurpose,
      authenticatedAtMs: Number(row.authenticated_at),
      expiresAtMs: Number(row.expires_at),
    }
  }

  async findBinding(providerId: string, providerUserId: string) {
    const row = await this.db.selectFrom('identity_provider_bindings').selectAll().where('provider_id', '=', providerId).where('provider_user_id', '=', providerUserId).executeTakeFirst()
    return row ? bindingOf(row) : null
  }

  async listBindings(userId: string) {
    const rows = await this.db.selectFrom('identity_provider_bindings').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('provider_id').execute()
    return rows.map(bindingOf)
  }

  async bind(b: ProviderBindingRecord) {
    try {
      await this.db
        .insertInto('identity_provider_bindings')
        .values({ provider_id: b.providerId, provider_user_id: b.providerUserId, user_id: b.userId, name: b.name, email: b.email, created_at: b.createdAtMs })
        .execute()
    } catch (error) {
      throw asUniqueViolation(error) ?? error
    }
  }

  async createUserWithBinding(user: { id: string; name: string; email: string | null; picture: string; createdAtMs: number }, b: Omit<ProviderBindingRecord, 'userId' | 'createdAtMs'>) {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('identity_users')
          .values({
            id: user.id,
            username: null,
            email: user.email,
            phone_number: null,
            name: user.name,
            picture: user.picture,
            password_hash: null,
            password_updated_at: null,
            status: 'ACTIVE',
            anonymous: 0,
            created_at: user.createdAtMs,
            updated_at: user.createdAtMs,
            deletion_requested_at: null,
            erase_at: null,
          })
          .execute()
        await trx
          .insertInto('identity_provider_bindings')
          .values({ provider_id: b.providerId, provider_user_id: b.providerUserId, user_id: user.id, name: b.name, email: b.email, created_at: user.createdAtMs })
          .execute()
      })
    } catch (error) {
      throw asUniqueViolation(error) ?? error
    }
  }

  async unbind(userId: string, providerId: string) {
    const result = await this.db.deleteFrom('identity_provider_bindings').where('user_id', '=', userId).where('provider_id', '=', providerId).executeTakeFirst()
    return Number(result.numDeletedRows) > 0
  }

  async moveBinding(providerId: string, providerUserId: string, fromUserId: string, toUserId: string) {
    try {
      const result = await this.db
        .updateTable('identity_provider_bindings')
        .set({ user_id: toUserId })
        .where('provider_id', '=', providerId)
        .where('provider_user_id', '=', providerUserId)
        .where('user_id', '=', fromUserId)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    } catch (error) {
      throw asUniqueViolation(error) ?? error
    }
  }

  async purgeExpired(nowMs: number) {
    const flows = await this.db.deleteFrom('identity_provider_flows').where('expires_at', '<', nowMs).executeTakeFirst()
    const tokens = await this.db.deleteFrom('identity_provider_tokens').where('expires_at', '<', nowMs).executeTakeFirst()
    return Number(flows.numDeletedRows) + Number(tokens.numDeletedRows)
  }
}
