import type { Kysely, Selectable } from 'kysely'
import type { IdentityDatabase, UsersTable } from '../db/schema.js'
import { ACCOUNT_ERASED, ACCOUNT_FROZEN, ACCOUNT_RESTORED, recordEvents } from '../events/domain-event.js'
import { asUniqueViolation } from './errors.js'
import type { MembershipRecord } from './membership-store.js'
import type { NewUser, UserPatch, UserRecord, UserStore } from './user-store.js'

export function toUserRecord(row: Selectable<UsersTable>): UserRecord {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    phoneNumber: row.phone_number,
    name: row.name,
    picture: row.picture,
    passwordHash: row.password_hash,
    passwordUpdatedAtMs: row.password_updated_at,
    status: row.status,
    anonymous: row.anonymous === 1,
    createdAtMs: row.created_at,
    updatedAtMs: row.updated_at,
    deletionRequestedAtMs: row.deletion_requested_at,
    eraseAtMs: row.erase_at,
  }
}

/** A membership from the nullable columns of a LEFT JOIN; null when the user was never a member. */
export function toMembershipRecord(
  userId: string,
  m: { vas_type: string | null; level: number | null; is_year: number | null; expires_at: number | null; updated_at: number | null },
): MembershipRecord | null {
  if (m.vas_type === null || m.expires_at === null) return null
  return { userId, vasType: m.vas_type, level: m.level ?? 0, isYear: m.is_year === 1, expiresAtMs: m.expires_at, updatedAtMs: m.updated_at ?? 0 }
}

function rethrow(error: unknown): never {
  throw asUniqueViolation(error) ?? error
}

export class KyselyUserStore implements UserStore {
  constructor(private readonly db: Kysely<IdentityDatabase>) {}

  async create(user: NewUser): Promise<UserRecord> {
    const row = {
      id: user.id,
      username: user.username ?? null,
      email: user.email ?? null,
      phone_number: user.phoneNumber ?? null,
      name: user.name,
      picture: user.picture ?? '',
      password_hash: user.passwordHash ?? null,
      password_updated_at: user.passwordHash ? user.createdAtMs : null,
      status: 'ACTIVE' as const,
      anonymous: user.anonymous ? 1 : 0,
      created_at: user.createdAtMs,
      updated_at: user.createdAtMs,
      deletion_requested_at: null,
      erase_at: null,
    }
    await this.db.insertInto('identity_users').values(row).execute().catch(rethrow)
    return toUserRecord(row)
  }

  private async findBy(column: 'id' | 'email' | 'phone_number' | 'username', value: string) {
    const row = await this.db.selectFrom('identity_users').selectAll().where(column, '=', value).executeTakeFirst()
    return row ? toUserRecord(row) : null
  }

  findById(id: string) {
    return this.findBy('id', id)
  }
  findByEmail(email: string) {
    return this.findBy('email', email)
  }
  findByPhone(phoneNumber: string) {
    return this.findBy('phone_number', phoneNumber)
  }
  findByUsername(username: string) {
    return this.findBy('username', username)
  }

  async findWithMembership(id: string) {
    const row = await this.db
      .selectFrom('identity_users as u')
      .leftJoin('identity_memberships as m', 'm.user_id', 'u.id')
      .selectAll('u')
      .select(['m.vas_type', 'm.level', 'm.is_year', 'm.expires_at', 'm.updated_at as membership_updated_at'])
      .where('u.id', '=', id)
      .executeTakeFirst()
    if (!row) return null
    const { vas_type, level, is_year, expires_at, membership_updated_at, ...user } = row
    return { user: toUserRecord(user), membership: toMembershipRecord(id, { vas_type, level, is_year, expires_at, updated_at: membership_updated_at }) }
  }

  async findByIds(ids: readonly string[]) {
    if (ids.length === 0) return []
    const rows = await this.db.selectFrom('identity_users').selectAll().where('id', 'in', [...ids]).execute()
    return rows.map(toUserRecord)
  }

  async update(id: string, patch: UserPatch, nowMs: number) {
    const set: Partial<UsersTable> = { updated_at: nowMs }
    if (patch.name !== undefined) set.name = patch.name
    if (patch.picture !== undefined) set.picture = patch.picture
    if (patch.email !== undefined) set.email = patch.email
    if (patch.phoneNumber !== undefined) set.phone_number = patch.phoneNumber
    if (patch.username !== undefined) set.username = patch.username
    if (patch.passwordHash !== undefined) set.password_hash = patch.passwordHash
    if (patch.passwordUpdatedAtMs !== undefined) set.password_updated_at = patch.passwordUpdatedAtMs
    if (patch.anonymous !== undefined) set.anonymous = patch.anonymous ? 1 : 0
    await this.db.updateTable('identity_users').set(set).where('id', '=', id).execute().catch(rethrow)
  }

  async requestDeletion(id: string, nowMs: number, eraseAtMs: number) {
    await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('identity_users')
        .set({ status: 'FROZEN', deletion_requested_at: nowMs, erase_at: eraseAtMs, updated_at: nowMs })
        .where('id', '=', id)
        .executeTakeFirst()
      if (Number(result.numUpdatedRows) === 1) await recordEvents(trx, [{ type: ACCOUNT_FROZEN, subjectId: id, occurredAtMs: nowMs, payload: { eraseAtMs } }])
    })
  }

  async cancelDeletion(id: string, nowMs: number) {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('identity_users')
        .set({ status: 'ACTIVE', deletion_requested_at: null, erase_at: null, updated_at: nowMs })
        .where('id', '=', id)
        .where('status', '=', 'FROZEN')
        .executeTakeFirst()
      if (Number(result.numUpdatedRows) !== 1) return false
      await recordEvents(trx, [{ type: ACCOUNT_RESTORED, subjectId: id, occurredAtMs: nowMs, payload: {} }])
      return true
    })
  }

  async eraseDue(nowMs: number) {
    // Sessions, refresh tokens, memberships and sudo tokens go with the user (ON DELETE CASCADE);
    // verifications keep no user data beyond the address and expire on their own. The other
    // services forget the account when account.erased reaches them, written in this transaction.
    return this.db.transaction().execute(async (trx) => {
      const due = await trx.selectFrom('identity_users').select('id').where('status', '=', 'FROZEN').where('erase_at', '<=', nowMs).execute()
      const ids = due.map((r) => r.id)
      if (ids.length === 0) return []
      await trx.deleteFrom('identity_verifications').where('user_id', 'in', ids).execute()
      await trx.deleteFrom('identity_users').where('id', 'in', ids).execute()
      await recordEvents(
        trx,
        ids.map((id) => ({ type: ACCOUNT_ERASED, subjectId: id, occurredAtMs: nowMs, payload: {} })),
      )
      return ids
    })
  }

  async list(options: { limit: number; offset?: number }) {
    const rows = await this.db.selectFrom('identity_users').selectAll().orderBy('created_at').orderBy('id').limit(options.limit).offset(options.offset ?? 0).execute()
    return rows.map(toUserRecord)
  }
}
