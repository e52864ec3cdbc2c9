import type { MembershipRecord } from './membership-store.js'
import type { UserRecord } from './user-store.js'

export interface SessionRecord {
  id: string
  userId: string
  clientId: string
  deviceId: string
  scope: string
  createdAtMs: number
  refreshedAtMs: number
  expiresAtMs: number
  revokedAtMs: number | null
  revokeReason: string | null
}

/** Where a session signed in from, as its sign-in request told (for the list of signed-in devices). */
export interface SessionOrigin {
  /** The client's own name for its device (`x-device-name`, else `x-device-model`); '' when none. */
  deviceName: string
  userAgent: string
  ip: string
}

export type NewSession = Omit<SessionRecord, 'revokedAtMs' | 'revokeReason'> & { origin?: SessionOrigin }

/** A live session as its user's list of signed-in devices shows it. */
export interface LiveSession {
  id: string
  clientId: string
  createdAtMs: number
  refreshedAtMs: number
  origin: SessionOrigin
}

/**
 * What the per-request session check reads in one query: the session, its user and the user's
 * membership (which the profile and the drive quota need on most requests anyway).
 */
export interface ActiveSession {
  session: SessionRecord
  user: UserRecord
  membership: MembershipRecord | null
}

export type RotationResult =
  /**
   * The token was current, and `newTokenHash` is now its successor; or it was rotated within the
   * grace window into that same successor (`viaGrace`).
   */
  | { kind: 'rotated'; session: SessionRecord; viaGrace: boolean }
  /** A rotated token came back after the grace window: the session is now revoked. */
  | { kind: 'reused'; sessionId: string }
  /**
   * Unknown token, or its session is revoked, expired or belongs to another client, or it was
   * rotated within the grace window into a successor other than `newTokenHash`.
   */
  | { kind: 'invalid' }

export interface RotateInput {
  tokenHash: string
  /**
   * The hash of the token's successor. Callers derive the successor from the token itself, so
   * every concurrent refresh of one token names the same successor (decision 015).
   */
  newTokenHash: string
  clientId: string
  nowMs: number
  graceMs: number
  /** The refreshed session's new idle expiry. */
  newExpiresAtMs: number
}

/** Sessions with their refresh tokens and sudo tokens. Token values are stored as hashes only. */
export interface SessionStore {
  /** Creates a session and its first refresh token (the session first, so the token never dangles). */
  create(session: NewSession, refreshTokenHash: string): Promise<void>
  /** The session if it exists, is not revoked and has not expired at `nowMs`; else null. */
  findActive(sessionId: string, nowMs: number): Promise<ActiveSession | null>
  /**
   * Exchanges a refresh token atomically. A current token is marked rotated with `newTokenHash`
   * as its one successor, which becomes valid. A token rotated at most `graceMs` ago succeeds
   * again only when `newTokenHash` is the successor it was rotated into (two tabs refreshing at
   * once get the same token; nothing new is issued). An older rotated token revokes the whole
   * session, which is the token family (reuse detection, RFC 9700 4.14.2).
   */
  rotateRefreshToken(input: RotateInput): Promise<RotationResult>
  /** The session a refresh token (current or rotated) belongs to, or null. Does not check validity. */
  findByRefreshToken(tokenHash: string): Promise<SessionRecord | null>
  /** The user's live sessions (not revoked, not expired at `nowMs`), most recently refreshed first, at most `limit`. */
  listLive(userId: string, nowMs: number, limit: number): Promise<LiveSession[]>
  /** Revokes one live session of `userId`; false when it is not one (another user's, unknown, ended). */
  revokeOwn(userId: string, sessionId: string, reason: string, nowMs: number): Promise<boolean>
  /** Revokes one session. Idempotent. */
  revoke(sessionId: string, reason: string, nowMs: number): Promise<void>
  /** Revokes every live session of a user, except `exceptSessionId`. Returns how many were revoked. */
  revokeAllForUser(userId: string, reason: string, nowMs: number, exceptSessionId?: string): Promise<number>
  /** Revokes the user's live sessions on one client (an app the user disconnected); returns how many. */
  revokeForUserClient(userId: string, clientId: string, reason: string, nowMs: number): Promise<number>
  /** Stores a sudo token hash for the user and session. */
  createSudoToken(tokenHash: string, userId: string, sessionId: string, expiresAtMs: number): Promise<void>
  /** The user id a live sudo token belongs to, or null when unknown or expired. */
  findSudoToken(tokenHash: string, nowMs: number): Promise<{ userId: string; sessionId: string } | null>
  /** Deletes a sudo token (single use). */
  deleteSudoToken(tokenHash: string): Promise<void>
  /** Deletes sessions that ended (revoked or expired) before `beforeMs`, and expired sudo tokens. */
  purgeEnded(beforeMs: number): Promise<number>
}
