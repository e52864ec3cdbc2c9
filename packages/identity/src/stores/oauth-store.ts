import type { ClientType, RegisteredClient } from '../config.js'
import type { DeviceCodeStatus } from '../db/schema.js'

export interface AuthCodeRecord {
  clientId: string
  userId: string
  redirectUri: string
  scope: string
  codeChallenge: string
  codeChallengeMethod: string
  nonce: string
  authTimeMs: number
  expiresAtMs: number
}

export interface DeviceCodeRecord {
  userCode: string
  clientId: string
  scope: string
  status: DeviceCodeStatus
  userId: string | null
  intervalSeconds: number
  expiresAtMs: number
}

/** The outcome of one poll of the device grant (RFC 8628 3.5). */
export type DevicePoll =
  | { kind: 'invalid' }
  | { kind: 'slow_down' }
  | { kind: 'expired' }
  | { kind: 'pending' }
  | { kind: 'denied' }
  | { kind: 'approved'; record: DeviceCodeRecord & { userId: string; authTimeMs: number } }

export interface NewClient {
  clientId: string
  name: string
  type: ClientType
  secretHash: string | null
  redirectUris: string[]
  grantTypes: string[]
  scopes: string[]
  logo: string
  createdAtMs: number
}

/** Cumulus as an authorization server: codes, consents, device codes and CLI-registered clients. */
export interface OAuthStore {
  createAuthCode(codeHash: string, record: AuthCodeRecord, nowMs: number): Promise<void>
  /**
   * Spends a code, recording in the same UPDATE the id of the session its exchange will open:
   * returns it when unspent and unexpired. A code already spent returns `reused` with that
   * session (to be revoked).
   */
  consumeAuthCode(codeHash: string, nowMs: number, sessionId: string): Promise<{ kind: 'ok'; record: AuthCodeRecord } | { kind: 'reused'; sessionId: string | null } | { kind: 'invalid' }>
  /** Whether the code was presented again since it was spent (its exchange then revokes what it opened). */
  wasReused(codeHash: string): Promise<boolean>

  /** The scopes the user granted the client, or null when never. */
  findConsent(userId: string, clientId: string): Promise<string[] | null>
  /** Every client the user granted something, newest grant first. */
  listConsents(userId: string): Promise<{ clientId: string; scopes: string[]; grantedAtMs: number }[]>
  /**
   * Forgets what the user granted the client, with the client's unspent codes for the user and its
   * approved device codes not yet collected; false when there was nothing.
   */
  deleteConsent(userId: string, clientId: string, nowMs: number): Promise<boolean>
  /** Adds scopes to what the user granted the client. */
  grantConsent(userId: string, clientId: string, scopes: string[], nowMs: number): Promise<void>

  /** Throws UniqueViolationError when the user code is taken (the caller draws another). */
  createDeviceCode(deviceCodeHash: string, record: DeviceCodeRecord, nowMs: number): Promise<void>
  findDeviceCodeByUserCode(userCode: string, nowMs: number): Promise<DeviceCodeRecord | null>
  /** Approves or denies a pending, unexpired code; false when there is none. */
  decideDeviceCode(userCode: string, decision: { userId: string; approve: boolean; authTimeMs: number }, nowMs: number): Promise<boolean>
  /**
   * One poll: checks the interval (and pushes it on slow_down) and, for an approved code, spends
   * it, recording the id of the session it will open, all atomically.
   */
  pollDeviceCode(deviceCodeHash: string, clientId: string, nowMs: number, slowDownStepSeconds: number, sessionId: string): Promise<DevicePoll>

  /** Throws UniqueViolationError when the id is taken. */
  createClient(client: NewClient): Promise<void>
  findClient(clientId: string): Promise<RegisteredClient | null>
  listClients(): Promise<RegisteredClient[]>
  removeClient(clientId: string): Promise<boolean>

  /** Deletes codes and device codes past their expiry. */
  purgeExpired(nowMs: number): Promise<number>
}
