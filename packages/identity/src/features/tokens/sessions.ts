import { createHmac } from 'node:crypto'
import { AppError, DEFAULT_SCOPE, GenericErrors, OAuthErrors, type TokenReply } from '@cumulus/protocol'
import type { RegisteredClient } from '../../config.js'
import type { IdentityDeps } from '../../deps.js'
import { hashSecret, hmac, randomId, randomSecret } from '../../lib/secrets.js'
import type { MembershipRecord } from '../../stores/membership-store.js'
import type { SessionOrigin, SessionRecord } from '../../stores/session-store.js'
import type { UserRecord } from '../../stores/user-store.js'

type Deps = Pick<IdentityDeps, 'config' | 'clock' | 'keys' | 'sessions'>
type RefreshDeps = Deps & Pick<IdentityDeps, 'hmacKey'>

/** Who a bearer token speaks for, after the per-request session check. */
export interface AuthContext {
  userId: string
  sessionId: string
  clientId: string
  scope: string
  /** The account as read by this request's session check. */
  user: UserRecord
  membership: MembershipRecord | null
  /** When the user signed in to this session (OpenID Connect's auth_time for what it approves). */
  authTimeMs?: number
}

async function accessTokenFor(deps: Deps, session: Pick<SessionRecord, 'id' | 'userId' | 'clientId' | 'scope'>, nowMs: number) {
  const iat = Math.floor(nowMs / 1000)
  const expiresIn = deps.config.tokens.accessTtlSeconds
  const accessToken = await deps.keys.sign({ sub: session.userId, client_id: session.clientId, scope: session.scope, sid: session.id, jti: randomId(9), iat, exp: iat + expiresIn })
  return { accessToken, expiresIn }
}

/** A fresh session id (callers that must record it before the session exists make one here). */
export function newSessionId(): string {
  return randomId(12)
}

/** Opens a session for a user on a client and returns the token reply (sign-in, sign-up, SSO exchange). */
export async function startSession(deps: Deps, input: { userId: string; client: RegisteredClient; deviceId: string; origin?: SessionOrigin | undefined; scope?: string; sessionId?: string }): Promise<TokenReply> {
  const nowMs = deps.clock.nowMs()
  const refreshToken = randomSecret()
  const session = {
    id: input.sessionId ?? newSessionId(),
    userId: input.userId,
    clientId: input.client.clientId,
    deviceId: input.deviceId,
    scope: input.scope ?? DEFAULT_SCOPE,
    createdAtMs: nowMs,
    refreshedAtMs: nowMs,
    expiresAtMs: nowMs + deps.config.tokens.refreshIdleTtlSeconds * 1000,
    ...(input.origin ? { origin: input.origin } : {}),
  }
  await deps.sessions.create(session, hashSecret(refreshToken))
  const { accessToken, expiresIn } = await accessTokenFor(deps, session, nowMs)
  return { token_type: 'Bearer', access_token: accessToken, refresh_token: refreshToken, expires_in: expiresIn, sub: input.userId, scope: session.scope }
}

/**
 * The one token a refresh token rotates into: an HMAC of it under a key derived from the server
 * secret. Every concurrent refresh of one token computes the same successor, so a grace-window
 * retry hands back the token already issued instead of starting a second live chain (a fork a
 * thief could keep using undetected). Without the secret a token's successor cannot be guessed.
 */
export function successorRefreshToken(hmacKey: Buffer, refreshToken: string): string {
  let successorKey = successorKeys.get(hmacKey)
  if (!successorKey) {
    successorKey = createHmac('sha256', hmacKey).update(SUCCESSOR_KEY_LABEL).digest()
    successorKeys.set(hmacKey, successorKey)
  }
  return hmac(successorKey, refreshToken)
}

/** The derived key per server secret, derived once (a secret is one Buffer for a process's life). */
const successorKeys = new WeakMap<Buffer, Buffer>()

// Derives a key of its own, so no other HMAC the server computes with the secret (captcha
// tokens, which callers see) can ever equal a refresh token.
const SUCCESSOR_KEY_LABEL = 'cumulus refresh-token successor v1'

/**
 * The refresh_token grant. Rotates the token into its one successor; concurrent refreshes of the
 * same token within the grace window all get that successor (their access tokens differ). A
 * rotated token reused after the grace window revokes the session: the thief's and the owner's
 * refresh and access tokens all stop working.
 */
export async function refreshSession(deps: RefreshDeps, input: { refreshToken: string; client: RegisteredClient }): Promise<TokenReply> {
  const nowMs = deps.clock.nowMs()
  const next = successorRefreshToken(deps.hmacKey, input.refreshToken)
  const result = await deps.sessions.rotateRefreshToken({
    tokenHash: hashSecret(input.refreshToken),
    newTokenHash: hashSecret(next),
    clientId: input.client.clientId,
    nowMs,
    graceMs: deps.config.tokens.refreshReuseGraceSeconds * 1000,
    newExpiresAtMs: nowMs + deps.config.tokens.refreshIdleTtlSeconds * 1000,
  })
  if (result.kind === 'reused') throw new AppError(OAuthErrors.invalid_grant, { description: 'refresh token was already used; the session is revoked' })
  if (result.kind === 'invalid') throw new AppError(OAuthErrors.invalid_grant, { description: 'refresh token is invalid or expired' })
  const { accessToken, expiresIn } = await accessTokenFor(deps, result.session, nowMs)
  return { token_type: 'Bearer', access_token: accessToken, refresh_token: next, expires_in: expiresIn, sub: result.session.userId, scope: result.session.scope }
}

/**
 * Checks a bearer access token: signature and expiry, then the session itself, so a revoked
 * session's tokens stop working at once. Returns null when the token does not authenticate.
 */
export async function authenticateAccessToken(deps: Deps, token: string): Promise<AuthContext | null> {
  const nowMs = deps.clock.nowMs()
  const claims = await deps.keys.verify(token, nowMs)
  if (!claims) return null
  const active = await deps.sessions.findActive(claims.sid, nowMs)
  if (!active || active.user.status !== 'ACTIVE' || active.session.userId !== claims.sub) return null
  return { userId: claims.sub, sessionId: claims.sid, clientId: claims.client_id, scope: claims.scope, user: active.user, membership: active.membership, authTimeMs: active.session.createdAtMs }
}

/** Like authenticateAccessToken, but throws `unauthenticated` (16, 401). */
export async function requireAuth(deps: Deps, token: string | undefined): Promise<AuthContext> {
  const auth = token ? await authenticateAccessToken(deps, token) : null
  if (!auth) throw new AppError(GenericErrors.unauthenticated, { description: token ? 'access token is invalid, expired or revoked' : 'bearer access token required' })
  return auth
}
