import { type CompiledQuery, type InferResult, type Kysely, PostgresAdapter, type Selectable, sql } from 'kysely'
import type { IdentityDatabase, SessionsTable } from '../db/schema.js'
import { toMembershipRecord, toUserRecord } from './kysely-user-store.js'
import type { ActiveSession, LiveSession, NewSession, RotateInput, RotationResult, SessionRecord, SessionStore } from './session-store.js'

function toRecord(row: Selectable<SessionsTable>): SessionRecord {
  return {
    id: row.id,
    userId: row.user_id,
    clientId: row.client_id,
    deviceId: row.device_id,
    scope: row.scope,
    createdAtMs: row.created_at,
    refreshedAtMs: row.refreshed_at,
    expiresAtMs: row.expires_at,
    revokedAtMs: row.revoked_at,
    revokeReason: row.revoke_reason,
  }
}

/**
 * The session check, run on every authenticated request. Building and compiling it through
 * Kysely's query builder cost more than running it, so it is compiled once per store; only its
 * two parameters (session id, now) change, in this order.
 */
function activeSessionQuery(db: Kysely<IdentityDatabase>) {
  return db
    .selectFrom('identity_sessions as s')
    .innerJoin('identity_users as u', 'u.id', 's.user_id')
    .leftJoin('identity_memberships as m', 'm.user_id', 'u.id')
    .selectAll('u')
    .select([
      's.id as s_id',
      's.client_id as s_client_id',
      's.device_id as s_device_id',
      's.scope as s_scope',
      's.created_at as s_created_at',
      's.refreshed_at as s_refreshed_at',
      's.expires_at as s_expires_at',
      'm.vas_type as m_vas_type',
      'm.level as m_level',
      'm.is_year as m_is_year',
      'm.expires_at as m_expires_at',
      'm.updated_at as m_updated_at',
    ])
    .where('s.id', '=', '')
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', 0)
}

type ActiveSessionRow = InferResult<ReturnType<typeof activeSessionQuery>>[number]

export class KyselySessionStore implements SessionStore {
  private readonly activeSessionCompiled: CompiledQuery<ActiveSessionRow>

  private readonly isPostgres: boolean

  constructor(private readonly db: Kysely<IdentityDatabase>) {
    this.activeSessionCompiled = activeSessionQuery(db).compile()
    this.isPostgres = db.getExecutor().adapter instanceof PostgresAdapter
  }

  async create(session: NewSession, refreshTokenHash: string) {
    const row = {
      id: session.id,
      user_id: session.userId,
      client_id: session.clientId,
      device_id: session.deviceId,
      scope: session.scope,
      created_at: session.createdAtMs,
      refreshed_at: session.refreshedAtMs,
      expires_at: session.expiresAtMs,
      revoked_at: null,
      revoke_reason: null,
      device_name: session.origin?.deviceName ?? '',
      user_agent: session.origin?.userAgent ?? '',
      ip: session.origin?.ip ?? '',
    }
    const token = { token_hash: refreshTokenHash, session_id: session.id, created_at: session.createdAtMs, rotated_at: null, successor_hash: null }
    if (this.isPostgres) {
      // One statement, so one round trip and one commit per sign-in: the refresh token is
      // inserted from the session row the same statement wrote.
      await this.db
        .with('s', (db) => db.insertInto('identity_sessions').values(row).returning(['id', 'created_at']))
        .insertInto('identity_refresh_tokens')
        .columns(['token_hash', 'session_id', 'created_at'])
        .expression((eb) => eb.selectFrom('s').select([sql<string>`cast(${refreshTokenHash} as text)`.as('token_hash'), 's.id', 's.created_at']))
        .execute()
      return
    }
    // SQLite has no data-modifying CTE; its inserts are calls in this process, not round trips.
    // Two plain inserts, no transaction: a crash between them leaves a session without a refresh
    // token, which nobody can use and which expires and is purged like any other.
    await this.db.insertInto('identity_sessions').values(row).execute()
    await this.db.insertInto('identity_refresh_tokens').values(token).execute()
  }

  async findActive(sessionId: string, nowMs: number): Promise<ActiveSession | null> {
    const result = await this.db.executeQuery<ActiveSessionRow>({ ...this.activeSessionCompiled, parameters: [sessionId, nowMs] })
    const row = result.rows[0]
    if (!row) return null
    const { s_id, s_client_id, s_device_id, s_scope, s_created_at, s_refreshed_at, s_expires_at, m_vas_type, m_level, m_is_year, m_expires_at, m_updated_at, ...user } = row
    return {
      session: {
        id: s_id,
        userId: user.id,
        clientId: s_client_id,
        deviceId: s_device_id,
        scope: s_scope,
        createdAtMs: s_created_at,
        refreshedAtMs: s_refreshed_at,
        expiresAtMs: s_expires_at,
        revokedAtMs: null,
        revokeReason: null,
      },
      user: toUserRecord(user),
      membership: toMembershipRecord(user.id, { vas_type: m_vas_type, level: m_level, is_year: m_is_year, expires_at: m_expires_at, updated_at: m_updated_at }),
    }
  }

  async rotateRefreshToken(input: RotateInput): Promise<RotationResult> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('identity_refresh_tokens as t')
        .innerJoin('identity_sessions as s', 's.id', 't.session_id')
        .innerJoin('identity_users as u', 'u.id', 's.user_id')
        .selectAll('s')
        .select(['t.rotated_at', 't.successor_hash', 'u.status as user_status'])
        .where('t.token_hash', '=', input.tokenHash)
        .executeTakeFirst()
      if (!row) return { kind: 'invalid' } as const
      const { rotated_at, successor_hash, user_status, ...sessionRow } = row
      const session = toRecord(sessionRow)
      if (session.revokedAtMs !== null || session.expiresAtMs <= input.nowMs || user_status !== 'ACTIVE' || session.clientId !== input.clientId) {
        return { kind: 'invalid' } as const
      }
      let rotation = { rotatedAtMs: rotated_at, successorHash: successor_hash }
      if (rotated_at === null) {
        // Claim the token with a conditional update: of racing refreshes only one sees a row
        // change here. On PostgreSQL the others wait for its commit, then find the row rotated.
        const claimed = await trx
          .updateTable('identity_refresh_tokens')
          .set({ rotated_at: input.nowMs, successor_hash: input.newTokenHash })
          .where('token_hash', '=', input.tokenHash)
          .where('rotated_at', 'is', null)
          .executeTakeFirst()
        if (Number(claimed.numUpdatedRows) === 1) {
          await trx.insertInto('identity_refresh_tokens').values({ token_hash: input.newTokenHash, session_id: session.id, created_at: input.nowMs, rotated_at: null, successor_hash: null }).execute()
          await trx.updateTable('identity_sessions').set({ refreshed_at: input.nowMs, expires_at: input.newExpiresAtMs }).where('id', '=', session.id).execute()
          return { kind: 'rotated', session: { ...session, refreshedAtMs: input.nowMs, expiresAtMs: input.newExpiresAtMs }, viaGrace: false } as const
        }
        const now = await trx.selectFrom('identity_refresh_tokens').select(['rotated_at', 'successor_hash']).where('token_hash', '=', input.tokenHash).executeTakeFirst()
        if (!now) return { kind: 'invalid' } as const
        rotation = { rotatedAtMs: now.rotated_at, successorHash: now.successor_hash }
      }
      if (rotation.rotatedAtMs !== null && input.nowMs - rotation.rotatedAtMs <= input.graceMs) {
        // Within the grace window the caller gets the successor already issued, never a new
        // one, so the token's family stays one chain. A different hash (the secret changed in
        // between) is refused rather than forked.
        return rotation.successorHash === input.newTokenHash ? ({ kind: 'rotated', session, viaGrace: true } as const) : ({ kind: 'invalid' } as const)
      }
      // A rotated token after the grace window: someone holds a copy (RFC 9700 4.14.2). The
      // session is the family; revoking it ends every refresh and access token issued in it.
      await trx
        .updateTable('identity_sessions')
        .set({ revoked_at: input.nowMs, revoke_reason: 'refresh_token_reuse' })
        .where('id', '=', session.id)
        .where('revoked_at', 'is', null)
        .execute()
      return { kind: 'reused', sessionId: session.id } as const
    })
  }

  async findByRefreshToken(tokenHash: string) {
    const row = await this.db
      .selectFrom('identity_refresh_tokens as t')
      .innerJoin('identity_sessions as s', 's.id', 't.session_id')
      .selectAll('s')
      .where('t.token_hash', '=', tokenHash)
      .executeTakeFirst()
    return row ? toRecord(row) : null
  }

  async listLive(userId: string, nowMs: number, limit: number): Promise<LiveSession[]> {
    const rows = await this.db
      .selectFrom('identity_sessions')
      .select(['id', 'client_id', 'created_at', 'refreshed_at', 'device_name', 'user_agent', 'ip'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', nowMs)
      .orderBy('refreshed_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute()
    return rows.map((row) => ({
      id: row.id,
      clientId: row.client_id,
      createdAtMs: row.created_at,
      refreshedAtMs: row.refreshed_at,
      origin: { deviceName: row.device_name, userAgent: row.user_agent, ip: row.ip },
    }))
  }

  async revokeOwn(userId: string, sessionId: string, reason: string, nowMs: number): Promise<boolean> {
    // One statement: of two requests ending the same session at once, exactly one revokes it.
    const result = await this.db
      .updateTable('identity_sessions')
      .set({ revoked_at: nowMs, revoke_reason: reason })
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', nowMs)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) > 0
  }

  async revoke(sessionId: string, reason: string, nowMs: number) {
    await this.db.updateTable('identity_sessions').set({ revoked_at: nowMs, revoke_reason: reason }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute()
  }

  async revokeAllForUser(userId: string, reason: string, nowMs: number, exceptSessionId?: string) {
    let query = this.db.updateTable('identity_sessions').set({ revoked_at: nowMs, revoke_reason: reason }).where('user_id', '=', userId).where('revoked_at', 'is', null)
    if (exceptSessionId) query = query.where('id', '!=', exceptSessionId)
    const result = await query.executeTakeFirst()
    await this.db.deleteFrom('identity_sudo_tokens').where('user_id', '=', userId).execute()
    return Number(result.numUpdatedRows)
  }

  async revokeForUserClient(userId: string, clientId: string, reason: string, nowMs: number) {
    const result = await this.db
      .updateTable('identity_sessions')
      .set({ revoked_at: nowMs, revoke_reason: reason })
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows)
  }

  async createSudoToken(tokenHash: string, userId: string, sessionId: string, expiresAtMs: number) {
    await this.db.insertInto('identity_sudo_tokens').values({ token_hash: tokenHash, user_id: userId, session_id: sessionId, expires_at: expiresAtMs }).execute()
  }

  async findSudoToken(tokenHash: string, nowMs: number) {
    const row = await this.db
      .selectFrom('identity_sudo_tokens')
      .select(['user_id', 'session_id'])
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', nowMs)
      .executeTakeFirst()
    return row ? { userId: row.user_id, sessionId: row.session_id } : null
  }

  async deleteSudoToken(tokenHash: string) {
    await this.db.deleteFrom('identity_sudo_tokens').where('token_hash', '=', tokenHash).execute()
  }

  async purgeEnded(beforeMs: number) {
    await this.db.deleteFrom('identity_sudo_tokens').where('expires_at', '<=', beforeMs).execute()
    const result = await this.db
      .deleteFrom('identity_sessions')
      .where((eb) => eb.or([eb('revoked_at', '<=', beforeMs), eb('expires_at', '<=', beforeMs)]))
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  }
}
