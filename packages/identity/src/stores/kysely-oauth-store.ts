import { type Kysely, sql } from 'kysely'
import type { ClientType, RegisteredClient } from '../config.js'
import type { ClientsTable, IdentityDatabase } from '../db/schema.js'
import { asUniqueViolation } from './errors.js'
import type { AuthCodeRecord, DeviceCodeRecord, DevicePoll, NewClient, OAuthStore } from './oauth-store.js'

function clientOf(row: ClientsTable): RegisteredClient {
  return {
    clientId: row.client_id,
    name: row.name,
    type: row.type as ClientType,
    clientSecretHash: row.secret_hash ?? undefined,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    grantTypes: JSON.parse(row.grant_types) as string[],
    scopes: row.scopes === '' ? [] : row.scopes.split(' '),
    logo: row.logo,
  }
}

/** Reads and writes one grant may take when others change the same consent at once. */
const CONSENT_ATTEMPTS = 50

export class KyselyOAuthStore implements OAuthStore {
  constructor(private readonly db: Kysely<IdentityDatabase>) {}

  async createAuthCode(codeHash: string, r: AuthCodeRecord, nowMs: number) {
    await this.db
      .insertInto('identity_auth_codes')
      .values({
        code_hash: codeHash,
        client_id: r.clientId,
        user_id: r.userId,
        redirect_uri: r.redirectUri,
        scope: r.scope,
        code_challenge: r.codeChallenge,
        code_challenge_method: r.codeChallengeMethod,
        nonce: r.nonce,
        auth_time: r.authTimeMs,
        created_at: nowMs,
        expires_at: r.expiresAtMs,
      })
      .execute()
  }

  async consumeAuthCode(codeHash: string, nowMs: number, sessionId: string) {
    // One UPDATE decides which of many parallel exchanges wins; the losers see it spent.
    const spent = await this.db
      .updateTable('identity_auth_codes')
      .set({ consumed_at: nowMs, session_id: sessionId })
      .where('code_hash', '=', codeHash)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', nowMs)
      .returningAll()
      .executeTakeFirst()
    if (spent) {
      const record: AuthCodeRecord = {
        clientId: spent.client_id,
        userId: spent.user_id,
        redirectUri: spent.redirect_uri,
        scope: spent.scope,
        codeChallenge: spent.code_challenge,
        codeChallengeMethod: spent.code_challenge_method,
        nonce: spent.nonce,
        authTimeMs: Number(spent.auth_time),
        expiresAtMs: Number(spent.expires_at),
      }
      return { kind: 'ok' as const, record }
    }
    // Spent already: mark the reuse, so an exchange still under way revokes its session too.
    const reused = await this.db
      .updateTable('identity_auth_codes')
      .set({ reused_at: nowMs })
      .where('code_hash', '=', codeHash)
      .where('consumed_at', 'is not', null)
      .returning('session_id')
      .executeTakeFirst()
    if (reused) return { kind: 'reused' as const, sessionId: reused.session_id }
    return { kind: 'invalid' as const }
  }

  async wasReused(codeHash: string) {
    const row = await this.db.selectFrom('identity_auth_codes').select('reused_at').where('code_hash', '=', codeHash).executeTakeFirst()
    return row?.reused_at != null
  }

  async findConsent(userId: string, clientId: string) {
    const row = await this.db.selectFrom('identity_consents').select('scope').where('user_id', '=', userId).where('client_id', '=', clientId).executeTakeFirst()
    return row ? row.scope.split(' ').filter(Boolean) : null
  }

  async listConsents(userId: string) {
    const rows = await this.db.selectFrom('identity_consents').selectAll().where('user_id', '=', userId).orderBy('granted_at', 'desc').orderBy('client_id').execute()
    return rows.map((r) => ({ clientId: r.client_id, scopes: r.scope.split(' ').filter(Boolean), grantedAtMs: Number(r.granted_at) }))
  }

  async deleteConsent(userId: string, clientId: string, nowMs: number) {
    return this.db.transaction().execute(async (trx) => {
      const consent = await trx.deleteFrom('identity_consents').where('user_id', '=', userId).where('client_id', '=', clientId).executeTakeFirst()
      // What the app could still turn into a session: codes not yet exchanged, devices approved but not yet polled.
      const codes = await trx.deleteFrom('identity_auth_codes').where('user_id', '=', userId).where('client_id', '=', clientId).where('consumed_at', 'is', null).executeTakeFirst()
      const devices = await trx
        .updateTable('identity_device_codes')
        .set({ status: 'denied', decided_at: nowMs })
        .where('user_id', '=', userId)
        .where('client_id', '=', clientId)
        .where('status', '=', 'approved')
        .executeTakeFirst()
      return Number(consent.numDeletedRows) + Number(codes.numDeletedRows) + Number(devices.numUpdatedRows) > 0
    })
  }

  async grantConsent(userId: string, clientId: string, scopes: string[], nowMs: number) {
    // Compare and set: a write lands only on the scope it merged into, so two grants at once
    // (two tabs consenting, on PostgreSQL's read committed) never drop each other's scopes; the
    // loser reads again and merges into the winner's row.
    for (let attempt = 0; attempt < CONSENT_ATTEMPTS; attempt++) {
      const row = await this.db.selectFrom('identity_consents').select('scope').where('user_id', '=', userId).where('client_id', '=', clientId).executeTakeFirst()
      const merged = [...new Set([...(row ? row.scope.split(' ').filter(Boolean) : []), ...scopes])].join(' ')
      if (row) {
        const updated = await this.db
          .updateTable('identity_consents')
          .set({ scope: merged, granted_at: nowMs })
          .where('user_id', '=', userId)
          .where('client_id', '=', clientId)
          .where('scope', '=', row.scope)
          .executeTakeFirst()
        if (Number(updated.numUpdatedRows) > 0) return
      } else {
        const inserted = await this.db.insertInto('identity_consents').values({ user_id: userId, client_id: clientId, scope: merged, granted_at: nowMs }).onConflict((oc) => oc.columns(['user_id', 'client_id']).doNothing()).executeTakeFirst()
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return
      }
    }
    throw new Error('the consent kept changing under this grant')
  }

  async createDeviceCode(deviceCodeHash: string, r: DeviceCodeRecord, nowMs: number) {
    try {
      await this.db
        .insertInto('identity_device_codes')
        .values({
          device_code_hash: deviceCodeHash,
          user_code: r.userCode,
          client_id: r.clientId,
          scope: r.scope,
          status: r.status,
          user_id: r.userId,
          interval_seconds: r.intervalSeconds,
          next_poll_at: nowMs,
          created_at: nowMs,
          expires_at: r.expiresAtMs,
        })
        .execute()
    } catch (error) {
      throw asUniqueViolation(error) ?? error
    }
  }

  async findDeviceCodeByUserCode(userCode: string, nowMs: number) {
    const row = await this.db.selectFrom('identity_device_codes').selectAll().where('user_code', '=', userCode).where('expires_at', '>', nowMs).executeTakeFirst()
    return row ? deviceOf(row) : null
  }

  async decideDeviceCode(userCode: string, decision: { userId: string; approve: boolean; authTimeMs: number }, nowMs: number) {
    const result = await this.db
      .updateTable('identity_device_codes')
      .set({ status: decision.approve ? 'approved' : 'denied', user_id: decision.userId, decided_at: nowMs, auth_time: decision.authTimeMs })
      .where('user_code', '=', userCode)
      .where('status', '=', 'pending')
      .where('expires_at', '>', nowMs)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async pollDeviceCode(deviceCodeHash: string, clientId: string, nowMs: number, slowDownStepSeconds: number, sessionId: string): Promise<DevicePoll> {
    // A poll inside the interval is slow_down and pushes the interval by a step (RFC 8628 3.5);
    // one at or after it moves next_poll_at on. Each is one UPDATE, so parallel polls cannot
    // all slip through one interval.
    const onTime = await this.db
      .updateTable('identity_device_codes')
      .set({ next_poll_at: sql<number>`cast(${nowMs} as bigint) + interval_seconds * 1000` })
      .where('device_code_hash', '=', deviceCodeHash)
      .where('client_id', '=', clientId)
      .where('next_poll_at', '<=', nowMs)
      .returningAll()
      .executeTakeFirst()
    if (!onTime) {
      const pushed = await this.db
        .updateTable('identity_device_codes')
        .set({ interval_seconds: sql<number>`interval_seconds + cast(${slowDownStepSeconds} as integer)`, next_poll_at: sql<number>`cast(${nowMs} as bigint) + (interval_seconds + cast(${slowDownStepSeconds} as integer)) * 1000` })
        .where('device_code_hash', '=', deviceCodeHash)
        .where('client_id', '=', clientId)
        .where('status', 'in', ['pending', 'approved'])
        .where('expires_at', '>', nowMs)
        .returning('status')
        .executeTakeFirst()
      if (pushed) return { kind: 'slow_down' }
      return this.finalState(deviceCodeHash, clientId, nowMs)
    }
    if (Number(onTime.expires_at) <= nowMs) return { kind: 'expired' }
    if (onTime.status === 'pending') return { kind: 'pending' }
    if (onTime.status === 'denied') return { kind: 'denied' }
    if (onTime.status === 'consumed') return { kind: 'invalid' }
    const spent = await this.db
      .updateTable('identity_device_codes')
      .set({ status: 'consumed', session_id: sessionId })
      .where('device_code_hash', '=', deviceCodeHash)
      .where('status', '=', 'approved')
      .returningAll()
      .executeTakeFirst()
    if (!spent || spent.user_id === null) return { kind: 'invalid' }
    return { kind: 'approved', record: { ...deviceOf(spent), userId: spent.user_id, authTimeMs: Number(spent.auth_time ?? spent.decided_at ?? nowMs) } }
  }

  private async finalState(deviceCodeHash: string, clientId: string, nowMs: number): Promise<DevicePoll> {
    const row = await this.db.selectFrom('identity_device_codes').select(['status', 'expires_at']).where('device_code_hash', '=', deviceCodeHash).where('client_id', '=', clientId).executeTakeFirst()
    if (!row) return { kind: 'invalid' }
    if (Number(row.expires_at) <= nowMs && row.status !== 'consumed') return { kind: 'expired' }
    if (row.status === 'denied') return { kind: 'denied' }
    return { kind: 'invalid' }
  }

  async createClient(c: NewClient) {
    try {
      await this.db
        .insertInto('identity_clients')
        .values({
          client_id: c.clientId,
          name: c.name,
          type: c.type,
          secret_hash: c.secretHash,
          redirect_uris: JSON.stringify(c.redirectUris),
          grant_types: JSON.stringify(c.grantTypes),
          scopes: c.scopes.join(' '),
          logo: c.logo,
          created_at: c.createdAtMs,
        })
        .execute()
    } catch (error) {
      throw asUniqueViolation(error) ?? error
    }
  }

  async findClient(clientId: string) {
    const row = await this.db.selectFrom('identity_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst()
    return row ? clientOf(row) : null
  }

  async listClients() {
    const rows = await this.db.selectFrom('identity_clients').selectAll().orderBy('created_at').orderBy('client_id').execute()
    return rows.map(clientOf)
  }

  async removeClient(clientId: string) {
    const result = await this.db.deleteFrom('identity_clients').where('client_id', '=', clientId).executeTakeFirst()
    return Number(result.numDeletedRows) > 0
  }

  async purgeExpired(nowMs: number) {
    // Spent codes are kept a while past expiry so a replay still finds (and revokes) its session.
    const keepMs = 24 * 3600 * 1000
    const codes = await this.db.deleteFrom('identity_auth_codes').where('expires_at', '<', nowMs - keepMs).executeTakeFirst()
    const devices = await this.db.deleteFrom('identity_device_codes').where('expires_at', '<', nowMs - keepMs).executeTakeFirst()
    return Number(codes.numDeletedRows) + Number(devices.numDeletedRows)
  }
}

function deviceOf(row: { user_code: string; client_id: string; scope: string; status: string; user_id: string | null; interval_seconds: number; expires_at: number }): DeviceCodeRecord {
  return {
    userCode: row.user_code,
    clientId: row.client_id,
    scope: row.scope,
    status: row.status as DeviceCodeRecord['status'],
    userId: row.user_id,
    intervalSeconds: Number(row.interval_seconds),
    expiresAtMs: Number(row.expires_at),
  }
}
