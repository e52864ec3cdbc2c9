import { type Kysely, type Selectable, sql } from 'kysely'
import type { IdentityDatabase, VerificationsTable } from '../db/schema.js'
import type { VerificationRecord, VerificationStore } from './verification-store.js'

function toRecord(row: Selectable<VerificationsTable>): VerificationRecord {
  return {
    id: row.id,
    channel: row.channel,
    address: row.address,
    usage: row.usage,
    userId: row.user_id,
    clientId: row.client_id,
    codeHash: row.code_hash,
    attempts: row.attempts,
    createdAtMs: row.created_at,
    expiresAtMs: row.expires_at,
    verifiedAtMs: row.verified_at,
    tokenExpiresAtMs: row.token_expires_at,
    consumedAtMs: row.consumed_at,
  }
}

export class KyselyVerificationStore implements VerificationStore {
  constructor(private readonly db: Kysely<IdentityDatabase>) {}

  async create(record: Omit<VerificationRecord, 'attempts' | 'verifiedAtMs' | 'tokenExpiresAtMs' | 'consumedAtMs'>) {
    await this.db
      .insertInto('identity_verifications')
      .values({
        id: record.id,
        channel: record.channel,
        address: record.address,
        usage: record.usage,
        user_id: record.userId,
        client_id: record.clientId,
        code_hash: record.codeHash,
        created_at: record.createdAtMs,
        expires_at: record.expiresAtMs,
        verified_at: null,
        token_hash: null,
        token_expires_at: null,
        consumed_at: null,
      })
      .execute()
  }

  async findById(id: string) {
    const row = await this.db.selectFrom('identity_verifications').selectAll().where('id', '=', id).executeTakeFirst()
    return row ? toRecord(row) : null
  }

  async recordAttempt(id: string, maxAttempts: number) {
    const row = await this.db
      .updateTable('identity_verifications')
      .set({ attempts: sql`attempts + 1` })
      .where('id', '=', id)
      .where('attempts', '<', maxAttempts)
      .returning('attempts')
      .executeTakeFirst()
    return row ? row.attempts : null
  }

  async markVerified(id: string, tokenHash: string, tokenExpiresAtMs: number, nowMs: number) {
    const result = await this.db
      .updateTable('identity_verifications')
      .set({ verified_at: nowMs, token_hash: tokenHash, token_expires_at: tokenExpiresAtMs })
      .where('id', '=', id)
      .where('verified_at', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async findByToken(tokenHash: string, nowMs: number) {
    const row = await this.db
      .selectFrom('identity_verifications')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('consumed_at', 'is', null)
      .where('token_expires_at', '>', nowMs)
      .executeTakeFirst()
    return row ? toRecord(row) : null
  }

  async consumeToken(tokenHash: string, nowMs: number) {
    const result = await this.db
      .updateTable('identity_verifications')
      .set({ consumed_at: nowMs })
      .where('token_hash', '=', tokenHash)
      .where('consumed_at', 'is', null)
      .where('token_expires_at', '>', nowMs)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async purgeExpired(beforeMs: number) {
    const result = await this.db
      .deleteFrom('identity_verifications')
      .where('expires_at', '<=', beforeMs)
      .where((eb) => eb.or([eb('token_expires_at', 'is', null), eb('token_expires_at', '<=', beforeMs)]))
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  }
}
