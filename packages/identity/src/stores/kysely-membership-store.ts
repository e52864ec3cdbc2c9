import { type Kysely, type Transaction, sql } from 'kysely'
import type { IdentityDatabase } from '../db/schema.js'
import type { MembershipRecord, MembershipStore, NewActivationCode, RedeemResult } from './membership-store.js'

const DAY_MS = 86_400_000
/** Rows per INSERT when the operator makes many codes at once (well under both databases' parameter limits). */
const CODE_INSERT_BATCH = 500

type GrantInput = { days: number; isYear: boolean; level: number; vasType: string; nowMs: number }

/**
 * Extends a membership in one statement: the new expiry is computed from the row as it is when
 * the statement runs, so concurrent grants add up instead of overwriting each other (a read then
 * a write would lose days under PostgreSQL's READ COMMITTED).
 */
async function grantIn(db: Kysely<IdentityDatabase> | Transaction<IdentityDatabase>, userId: string, input: GrantInput): Promise<MembershipRecord> {
  const addMs = input.days * DAY_MS
  const row = await db
    .insertInto('identity_memberships')
    .values({ user_id: userId, vas_type: input.vasType, level: input.level, is_year: input.isYear ? 1 : 0, expires_at: input.nowMs + addMs, updated_at: input.nowMs })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        // A running membership of a higher level keeps its plan: days of a lower one (an invite
        // reward, a vip code for a platinum member) extend it rather than demote it. A running
        // yearly membership stays yearly.
        vas_type: sql<string>`CASE WHEN identity_memberships.expires_at > ${input.nowMs} AND identity_memberships.level > ${input.level} THEN identity_memberships.vas_type ELSE ${input.vasType} END`,
        level: sql<number>`CASE WHEN identity_memberships.expires_at > ${input.nowMs} AND identity_memberships.level > ${input.level} THEN identity_memberships.level ELSE ${input.level} END`,
        is_year: sql<number>`CASE WHEN identity_memberships.expires_at > ${input.nowMs} AND identity_memberships.is_year = 1 THEN 1 ELSE ${input.isYear ? 1 : 0} END`,
        expires_at: sql<number>`(CASE WHEN identity_memberships.expires_at > ${input.nowMs} THEN identity_memberships.expires_at ELSE ${input.nowMs} END) + ${addMs}`,
        updated_at: input.nowMs,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow()
  return { userId, vasType: row.vas_type, level: Number(row.level), isYear: Number(row.is_year) === 1, expiresAtMs: Number(row.expires_at), updatedAtMs: Number(row.updated_at) }
}

export class KyselyMembershipStore implements MembershipStore {
  constructor(private readonly db: Kysely<IdentityDatabase>) {}

  async find(userId: string): Promise<MembershipRecord | null> {
    const row = await this.db.selectFrom('identity_memberships').selectAll().where('user_id', '=', userId).executeTakeFirst()
    return row
      ? { userId: row.user_id, vasType: row.vas_type, level: row.level, isYear: row.is_year === 1, expiresAtMs: row.expires_at, updatedAtMs: row.updated_at }
      : null
  }

  grant(userId: string, input: GrantInput): Promise<MembershipRecord> {
    return grantIn(this.db, userId, input)
  }

  async addCodes(codes: readonly NewActivationCode[], nowMs: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < codes.length; i += CODE_INSERT_BATCH) {
        const rows = codes.slice(i, i + CODE_INSERT_BATCH).map((code) => ({
          code_hash: code.codeHash,
          vas_type: code.vasType,
          level: code.level,
          days: code.days,
          created_at: nowMs,
          expires_at: code.expiresAtMs,
          redeemed_at: null,
          redeemed_by: null,
        }))
        await trx.insertInto('identity_vip_codes').values(rows).execute()
      }
    })
  }

  redeemCode(codeHash: string, userId: string, nowMs: number): Promise<RedeemResult> {
    return this.db.transaction().execute(async (trx) => {
      // The UPDATE is the claim: a second redemption waits for the first's commit (PostgreSQL)
      // or runs after it (SQLite's single writer), then finds redeemed_at set and claims nothing.
      const claimed = await trx
        .updateTable('identity_vip_codes')
        .set({ redeemed_at: nowMs, redeemed_by: userId })
        .where('code_hash', '=', codeHash)
        .where('redeemed_at', 'is', null)
        .where('expires_at', '>', nowMs)
        .returning(['vas_type', 'level', 'days'])
        .executeTakeFirst()
      if (!claimed) {
        const row = await trx.selectFrom('identity_vip_codes').select('redeemed_at').where('code_hash', '=', codeHash).executeTakeFirst()
        return row && row.redeemed_at !== null ? { kind: 'used' } : { kind: 'unknown' }
      }
      const membership = await grantIn(trx, userId, { days: claimed.days, isYear: claimed.days >= 365, level: claimed.level, vasType: claimed.vas_type, nowMs })
      return { kind: 'granted', vasType: claimed.vas_type, days: claimed.days, membership }
    })
  }

  async inviteCodeOf(userId: string, candidate: string, nowMs: number): Promise<string | null> {
    // A second request racing this one, or a code another user holds, both leave the row as it is.
    await this.db.insertInto('identity_invite_codes').values({ code: candidate, user_id: userId, created_at: nowMs }).onConflict((oc) => oc.doNothing()).execute()
    const row = await this.db.selectFrom('identity_invite_codes').select('code').where('user_id', '=', userId).executeTakeFirst()
    return row?.code ?? null
  }

  acceptInvite(code: string, inviteeId: string, reward: { days: number; maxRewards: number; windowMs: number; vipLevel: number }, nowMs: number): Promise<{ inviterId: string; rewardedDays: number } | null> {
    return this.db.transaction().execute(async (trx) => {
      const owner = await trx
        .selectFrom('identity_invite_codes')
        .innerJoin('identity_users', 'identity_users.id', 'identity_invite_codes.user_id')
        .select(['identity_invite_codes.user_id', 'identity_users.status'])
        .where('identity_invite_codes.code', '=', code)
        .executeTakeFirst()
      if (!owner || owner.user_id === inviteeId) return null
      // An account frozen for deletion earns nothing more.
      const rewarding = owner.status === 'ACTIVE'
      const recorded = await trx
        .insertInto('identity_invitations')
        .values({ invitee_id: inviteeId, inviter_id: owner.user_id, rewarded_days: 0, created_at: nowMs })
        .onConflict((oc) => oc.doNothing())
        .returning('invitee_id')
        .executeTakeFirst()
      // An account joins with one invite at most.
      if (!recorded) return null
      let rewardedDays = 0
      if (rewarding && reward.days > 0 && reward.maxRewards > 0) {
        // Spends one reward of the inviter's window in the same statement that checks it, so
        // parallel sign-ups with one code cannot pass the budget together.
        const windowFrom = nowMs - reward.windowMs
        const spent = await trx
          .updateTable('identity_invite_codes')
          .set({
            window_uses: sql<number>`CASE WHEN window_start <= ${windowFrom} THEN 1 ELSE window_uses + 1 END`,
            window_start: sql<number>`CASE WHEN window_start <= ${windowFrom} THEN ${nowMs} ELSE window_start END`,
          })
          .where('code', '=', code)
          .where((eb) => eb.or([eb('window_start', '<=', windowFrom), eb('window_uses', '<', reward.maxRewards)]))
          .returning('user_id')
          .executeTakeFirst()
        if (spent) {
          rewardedDays = reward.days
          await trx.updateTable('identity_invitations').set({ rewarded_days: rewardedDays }).where('invitee_id', '=', inviteeId).execute()
          for (const userId of [inviteeId, owner.user_id]) await grantIn(trx, userId, { days: rewardedDays, isYear: false, level: reward.vipLevel, vasType: 'vip', nowMs })
        }
      }
      return { inviterId: owner.user_id, rewardedDays }
    })
  }
}
