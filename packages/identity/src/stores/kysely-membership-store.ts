import type { Kysely } from 'kysely'
import type { IdentityDatabase } from '../db/schema.js'
import type { MembershipRecord, MembershipStore } from './membership-store.js'

const DAY_MS = 86_400_000

export class KyselyMembershipStore implements MembershipStore {
  constructor(private readonly db: Kysely<IdentityDatabase>) {}

  async find(userId: string): Promise<MembershipRecord | null> {
    const row = await this.db.selectFrom('identity_memberships').selectAll().where('user_id', '=', userId).executeTakeFirst()
    return row
      ? { userId: row.user_id, vasType: row.vas_type, level: row.level, isYear: row.is_year === 1, expiresAtMs: row.expires_at, updatedAtMs: row.updated_at }
      : null
  }

  async grant(userId: string, input: { days: number; isYear: boolean; level: number; vasType: string; nowMs: number }) {
    return this.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('identity_memberships').select('expires_at').where('user_id', '=', userId).executeTakeFirst()
      const from = Math.max(input.nowMs, current?.expires_at ?? 0)
      const row = {
        user_id: userId,
        vas_type: input.vasType,
        level: input.level,
        is_year: input.isYear ? 1 : 0,
        expires_at: from + input.days * DAY_MS,
        updated_at: input.nowMs,
      }
      await trx
        .insertInto('identity_memberships')
        .values(row)
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ vas_type: row.vas_type, level: row.level, is_year: row.is_year, expires_at: row.expires_at, updated_at: row.updated_at }))
        .execute()
      return { userId, vasType: row.vas_type, level: row.level, isYear: input.isYear, expiresAtMs: row.expires_at, updatedAtMs: input.nowMs }
    })
  }
}
