import { AppError, type IntrospectReply, OAuthErrors, type TokenReply } from '@cumulus/protocol'
import type { RegisteredClient } from '../../config.js'
import type { IdentityDeps } from '../../deps.js'
import { hashSecret } from '../../lib/secrets.js'
import { AUTHORIZATION_CODE_GRANT, exchangeAuthorizationCode } from '../oauth/authorize.js'
import { DEVICE_CODE_GRANT, exchangeDeviceCode } from '../oauth/device.js'
import { type AuthContext, authenticateAccessToken, refreshSession, startSession } from './sessions.js'
import type { SessionOrigin } from '../../stores/session-store.js'

type Deps = Pick<IdentityDeps, 'config' | 'clock' | 'keys' | 'sessions' | 'users' | 'hmacKey'>
type GrantDeps = Deps & Pick<IdentityDeps, 'clients' | 'oauth' | 'counters'>

export const REFRESH_TOKEN_GRANT = 'refresh_token'
export { AUTHORIZATION_CODE_GRANT, DEVICE_CODE_GRANT }

export interface GrantInput {
  grantType: string
  client: RegisteredClient
  refreshToken?: string | undefined
  code?: string | undefined
  redirectUri?: string | undefined
  codeVerifier?: string | undefined
  deviceCode?: string | undefined
  /**
   * The caller's device, for the grants that start a session. Read only by them: the caller's
   * context decodes the origin's headers when it is first read, and a refresh never needs it.
   */
  device?: { readonly deviceId: string; readonly origin: SessionOrigin } | undefined
}

/** POST /v1/auth/token: the refresh_token, authorization_code and device_code grants. */
export async function grantTokens(deps: GrantDeps, input: GrantInput): Promise<TokenReply> {
  if (input.grantType === REFRESH_TOKEN_GRANT) {
    if (!input.client.grantTypes.includes(REFRESH_TOKEN_GRANT)) throw new AppError(OAuthErrors.unauthorized_client, { description: 'this client may not use the refresh_token grant' })
    if (!input.refreshToken) throw new AppError(OAuthErrors.invalid_request, { description: 'refresh_token is required', metadata: { field: 'refresh_token' } })
    return refreshSession(deps, { refreshToken: input.refreshToken, client: input.client })
  }
  if (input.grantType === AUTHORIZATION_CODE_GRANT) {
    return exchangeAuthorizationCode(deps, { client: input.client, code: input.code, redirectUri: input.redirectUri, codeVerifier: input.codeVerifier, deviceId: input.device?.deviceId ?? '', origin: input.device?.origin })
  }
  if (input.grantType === DEVICE_CODE_GRANT) {
    return exchangeDeviceCode(deps, { client: input.client, deviceCode: input.deviceCode, deviceId: input.device?.deviceId ?? '', origin: input.device?.origin })
  }
  throw new AppError(OAuthErrors.invalid_request, { description: `unknown grant_type ${input.grantType.slice(0, 128)}`, metadata: { field: 'grant_type' } })
}

/**
 * POST /v1/auth/revoke: ends a session. `token` may be a refresh or access token of the caller's
 * own; without one, the bearer's session ends. A refresh token alone (no bearer) is enough proof,
 * as in RFC 7009. Unknown tokens are not an error (RFC 7009 2.2).
 */
export async function revokeToken(deps: Deps, input: { token?: string | undefined; auth: AuthContext | null }): Promise<Record<string, never>> {
  const nowMs = deps.clock.nowMs()
  if (!input.token) {
    if (!input.auth) throw new AppError(OAuthErrors.invalid_request, { description: 'give a token or a bearer access token' })
    await deps.sessions.revoke(input.auth.sessionId, 'revoked', nowMs)
    return {}
  }
  const byRefresh = await deps.sessions.findByRefreshToken(hashSecret(input.token))
  const target = byRefresh ? { sessionId: byRefresh.id, userId: byRefresh.userId } : await accessTokenSession(deps, input.token)
  if (target && (!input.auth || input.auth.userId === target.userId)) await deps.sessions.revoke(target.sessionId, 'revoked', nowMs)
  return {}
}

async function accessTokenSession(deps: Deps, token: string) {
  const claims = await deps.keys.verify(token, deps.clock.nowMs())
  return claims ? { sessionId: claims.sid, userId: claims.sub } : null
}

/** GET /v1/auth/token/introspect (RFC 7662): an access or refresh token's state; never an error for a bad token. */
export async function introspectToken(deps: Deps, token: string): Promise<IntrospectReply> {
  const nowMs = deps.clock.nowMs()
  const auth = await authenticateAccessToken(deps, token)
  if (auth) {
    const claims = (await deps.keys.verify(token, nowMs))!
    return { active: true, sub: auth.userId, client_id: auth.clientId, scope: auth.scope, exp: claims.exp, iat: claims.iat, token_type: 'access_token' }
  }
  const session = await deps.sessions.findByRefreshToken(hashSecret(token))
  if (session) {
    const active = await deps.sessions.findActive(session.id, nowMs)
    if (active && active.user.status === 'ACTIVE') {
      return {
        active: true,
        sub: session.userId,
        client_id: session.clientId,
        scope: session.scope,
        exp: Math.floor(active.session.expiresAtMs / 1000),
        iat: Math.floor(session.createdAtMs / 1000),
        token_type: 'refresh_token',
      }
    }
  }
  return { active: false }
}

/**
 * POST /v1/auth/signin/token: single sign-on between the product's own apps; a live access token
 * of one buys a session on another. Only first-party to first-party: a third-party app's token
 * (holding only what the user granted it) must never become a first-party session, which could
 * grant itself more, approve devices or bind identities.
 */
export async function exchangeToken(deps: Deps & Pick<IdentityDeps, 'clients'>, input: { token: string; client: RegisteredClient; deviceId: string; origin?: SessionOrigin | undefined }): Promise<TokenReply> {
  const auth = await authenticateAccessToken(deps, input.token)
  if (!auth) throw new AppError(OAuthErrors.invalid_grant, { description: 'token is invalid, expired or revoked' })
  const from = await deps.clients.find(auth.clientId)
  if (!isFirstParty(from) || !isFirstParty(input.client)) throw new AppError(OAuthErrors.unauthorized_client, { description: 'only the product\'s own apps may exchange their tokens' })
  return startSession(deps, { userId: auth.userId, client: input.client, deviceId: input.deviceId, origin: input.origin, scope: auth.scope })
}

function isFirstParty(client: RegisteredClient | null): boolean {
  return client !== null && (client.type ?? 'first_party') === 'first_party'
}
