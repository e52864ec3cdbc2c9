import { createHash } from 'node:crypto'
import {
  AppError,
  AUTHORIZATION_CODE_TTL_SECONDS,
  type AuthorizeDetectReply,
  type AuthorizeInfoReply,
  type AuthorizeReply,
  type ConnectedApp,
  GenericErrors,
  type OAuthClientInfo,
  OAuthErrors,
  type TokenReply,
} from '@cumulus/protocol'
import type { RegisteredClient } from '../../config.js'
import type { IdentityDeps } from '../../deps.js'
import { hashSecret, randomSecret, safeEqual } from '../../lib/secrets.js'
import type { UserRecord } from '../../stores/user-store.js'
import { type AuthContext, newSessionId, startSession } from '../tokens/sessions.js'
import { describeScopes, requestedScopes } from './scopes.js'
import type { SessionOrigin } from '../../stores/session-store.js'

type Deps = Pick<IdentityDeps, 'config' | 'clock' | 'keys' | 'sessions' | 'users' | 'clients' | 'oauth'>

export const AUTHORIZATION_CODE_GRANT = 'authorization_code'

/** The query of an authorization request (RFC 6749 4.1.1, RFC 7636, OpenID Connect Core 3.1.2.1). */
export interface AuthorizeParams {
  client_id?: string | undefined
  response_type?: string | undefined
  redirect_uri?: string | undefined
  scope?: string | undefined
  state?: string | undefined
  code_challenge?: string | undefined
  code_challenge_method?: string | undefined
  nonce?: string | undefined
}

export interface CheckedRequest {
  client: RegisteredClient
  redirectUri: string
  /** Whether the request named it (RFC 6749 4.1.3: then the token request must name it too). */
  redirectUriGiven: boolean
  scopes: string[]
  state: string
  codeChallenge: string
  codeChallengeMethod: string
  nonce: string
}

/** A PKCE code challenge or verifier: 43 to 128 unreserved characters (RFC 7636 4.1, 4.2). */
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/

function invalidRequest(description: string, field?: string): AppError {
  return new AppError(OAuthErrors.invalid_request, { description, ...(field ? { metadata: { field } } : {}) })
}

/**
 * A redirect URI matches what was registered exactly, except that a loopback IP literal may come
 * on any port (RFC 8252 7.3: a native app listens on whatever port the system gives it).
 */
export function redirectMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true
  let a: URL
  let b: URL
  try {
    a = new URL(registered)
    b = new URL(requested)
  } catch {
    return false
  }
  const loopback = (u: URL) => u.protocol === 'http:' && (u.hostname === '127.0.0.1' || u.hostname === '[::1]')
  return loopback(a) && loopback(b) && a.hostname === b.hostname && a.pathname === b.pathname && a.search === b.search && !b.hash && !b.username && !b.password
}

/** A public client: it holds no secret, so it must prove with PKCE (S256) that it started the flow. */
export function isPublicClient(client: RegisteredClient): boolean {
  return client.clientSecret === undefined && client.clientSecretHash === undefined
}

export function clientInfo(client: RegisteredClient): OAuthClientInfo {
  return { client_id: client.clientId, name: client.name, logo: client.logo ?? '' }
}

/**
 * Checks an authorization request as RFC 6749 orders it: the client and its redirect URI first
 * (exactly as registered: no prefix, no wildcard), since until both are known good no error may
 * be sent to the redirect URI; then the response type, scopes and PKCE.
 */
export async function checkAuthorizeRequest(deps: Pick<Deps, 'clients'>, params: AuthorizeParams): Promise<CheckedRequest> {
  const client = await deps.clients.require(params.client_id)
  if (!client.grantTypes.includes(AUTHORIZATION_CODE_GRANT)) throw new AppError(OAuthErrors.unauthorized_client, { description: 'this client may not use the authorization code flow' })
  const redirectUri = params.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0]! : undefined)
  if (!redirectUri) throw invalidRequest('redirect_uri is required', 'redirect_uri')
  if (!client.redirectUris.some((registered) => redirectMatches(registered, redirectUri))) throw invalidRequest('redirect_uri is not registered for this client', 'redirect_uri')
  if (params.response_type !== 'code') throw new AppError(OAuthErrors.unsupported_response_type, { description: 'only response_type=code is supported', metadata: { field: 'response_type' } })
  const scopes = requestedScopes(client, params.scope)
  const challenge = params.code_challenge ?? ''
  const method = challenge === '' ? '' : (params.code_challenge_method ?? 'plain')
  if (challenge !== '' && !PKCE_VALUE.test(challenge)) throw invalidRequest('code_challenge must be 43 to 128 characters of [A-Za-z0-9._~-]', 'code_challenge')
  if (method !== '' && method !== 'S256' && method !== 'plain') throw invalidRequest('code_challenge_method must be S256', 'code_challenge_method')
  if (isPublicClient(client) && method !== 'S256') throw invalidRequest('a public client must use PKCE with code_challenge_method=S256', 'code_challenge')
  if ((params.state ?? '').length > 1024) throw invalidRequest('state is too long', 'state')
  if ((params.nonce ?? '').length > 512) throw invalidRequest('nonce is too long', 'nonce')
  return { client, redirectUri, redirectUriGiven: params.redirect_uri !== undefined, scopes, state: params.state ?? '', codeChallenge: challenge, codeChallengeMethod: method, nonce: params.nonce ?? '' }
}

/** GET /v1/user/authorize/info: what the client asks for, in the caller's language. Needs no sign-in: it shows nothing of the user. */
export async function authorizeInfo(deps: Pick<Deps, 'clients'>, params: AuthorizeParams, locale: string): Promise<AuthorizeInfoReply> {
  const checked = await checkAuthorizeRequest(deps, params)
  return { client: clientInfo(checked.client), scopes: describeScopes(checked.scopes, locale), redirect_uri: checked.redirectUri }
}

/**
 * Whether a first-party client is trusted without asking: it proves who it is with a secret, or
 * every redirect URI it has is https (a web origin the operator owns). A public client with an
 * app's own scheme or a loopback redirect is asked once like anyone else: another app on the
 * device can claim the same scheme and start the flow in its name (RFC 8252 8.6).
 */
function trustedWithoutConsent(client: RegisteredClient): boolean {
  if ((client.type ?? 'first_party') !== 'first_party') return false
  if (!isPublicClient(client)) return true
  return client.redirectUris.length > 0 && client.redirectUris.every((uri) => uri.startsWith('https://'))
}

/** Whether the user already gave the client these scopes (trusted first-party clients never ask). */
async function alreadyGranted(deps: Pick<Deps, 'oauth'>, userId: string, client: RegisteredClient, scopes: readonly string[]): Promise<boolean> {
  if (trustedWithoutConsent(client)) return true
  const granted = await deps.oauth.findConsent(userId, client.clientId)
  return granted !== null && scopes.every((s) => granted.includes(s))
}

/** GET /v1/user/authorize/detect */
export async function authorizeDetect(deps: Pick<Deps, 'clients' | 'oauth'>, auth: AuthContext, input: { clientId: string | undefined; scope: string | undefined }): Promise<AuthorizeDetectReply> {
  const client = await deps.clients.require(input.clientId)
  return { authorized: await alreadyGranted(deps, auth.userId, client, requestedScopes(client, input.scope)) }
}

function withQuery(uri: string, params: Record<string, string>): string {
  const url = new URL(uri)
  for (const [key, value] of Object.entries(params)) if (value !== '') url.searchParams.set(key, value)
  return url.href
}

/**
 * POST /v1/user/authorize: the user's answer. A grant records the consent and returns a one-use
 * code (stored as a hash, 60 s) and the redirect carrying it; a denial is access_denied (4123)
 * whose metadata holds the redirect carrying `error=access_denied`.
 */
export async function authorize(deps: Deps, auth: AuthContext, params: AuthorizeParams, consent: boolean): Promise<AuthorizeReply> {
  const checked = await checkAuthorizeRequest(deps, params)
  const iss = deps.config.publicUrl
  if (!consent) {
    throw new AppError(OAuthErrors.access_denied, {
      description: 'the user denied the request',
      metadata: { redirect_uri: withQuery(checked.redirectUri, { error: 'access_denied', error_description: 'the user denied the request', state: checked.state, iss }) },
    })
  }
  const nowMs = deps.clock.nowMs()
  if (!trustedWithoutConsent(checked.client)) await deps.oauth.grantConsent(auth.userId, checked.client.clientId, checked.scopes, nowMs)
  const code = randomSecret()
  await deps.oauth.createAuthCode(
    hashSecret(code),
    {
      clientId: checked.client.clientId,
      userId: auth.userId,
      // '' when the request left it to the one registered URI: the token request may then omit it.
      redirectUri: checked.redirectUriGiven ? checked.redirectUri : '',
      scope: checked.scopes.join(' '),
      codeChallenge: checked.codeChallenge,
      codeChallengeMethod: checked.codeChallengeMethod,
      nonce: checked.nonce,
      authTimeMs: auth.authTimeMs ?? nowMs,
      expiresAtMs: nowMs + AUTHORIZATION_CODE_TTL_SECONDS * 1000,
    },
    nowMs,
  )
  // RFC 9207: `iss` in the response tells a client talking to several servers which one answered.
  return { code, state: checked.state, redirect_uri: withQuery(checked.redirectUri, { code, state: checked.state, iss }) }
}

function pkceMatches(method: string, challenge: string, verifier: string | undefined): boolean {
  if (method === '') return verifier === undefined || verifier === ''
  if (verifier === undefined || !PKCE_VALUE.test(verifier)) return false
  const computed = method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier
  return safeEqual(computed, challenge)
}

/**
 * The authorization_code grant (RFC 6749 4.1.3). A code is spent by its first exchange, whatever
 * the outcome; a second exchange revokes the session the first one opened (RFC 6749 4.1.2), since
 * someone else holds the code.
 */
export async function exchangeAuthorizationCode(
  deps: Deps,
  input: { client: RegisteredClient; code: string | undefined; redirectUri: string | undefined; codeVerifier: string | undefined; deviceId: string; origin?: SessionOrigin | undefined },
): Promise<TokenReply> {
  if (!input.client.grantTypes.includes(AUTHORIZATION_CODE_GRANT)) throw new AppError(OAuthErrors.unauthorized_client, { description: 'this client may not use the authorization_code grant' })
  if (!input.code) throw invalidRequest('code is required', 'code')
  const nowMs = deps.clock.nowMs()
  const codeHash = hashSecret(input.code)
  // The session's id is recorded with the spending, so a replay finds what to revoke even while
  // the first exchange is still running.
  const sessionId = newSessionId()
  const spent = await deps.oauth.consumeAuthCode(codeHash, nowMs, sessionId)
  if (spent.kind === 'reused') {
    if (spent.sessionId) await deps.sessions.revoke(spent.sessionId, 'code_reuse', nowMs)
    throw new AppError(OAuthErrors.invalid_grant, { description: 'the authorization code was already used; the tokens it gave are revoked' })
  }
  if (spent.kind === 'invalid') throw new AppError(OAuthErrors.invalid_grant, { description: 'the authorization code is invalid or expired' })
  const code = spent.record
  if (code.clientId !== input.client.clientId) throw new AppError(OAuthErrors.invalid_grant, { description: 'the authorization code was issued to another client' })
  if (code.redirectUri !== '' && input.redirectUri !== code.redirectUri) throw new AppError(OAuthErrors.invalid_grant, { description: 'redirect_uri differs from the authorization request' })
  if (!pkceMatches(code.codeChallengeMethod, code.codeChallenge, input.codeVerifier)) throw new AppError(OAuthErrors.invalid_grant, { description: 'code_verifier does not match the code_challenge' })
  const user = await deps.users.findById(code.userId)
  if (!user || user.status !== 'ACTIVE') throw new AppError(OAuthErrors.invalid_grant, { description: 'the account is no longer available' })
  const reply = await startSession(deps, { userId: code.userId, client: input.client, deviceId: input.deviceId, origin: input.origin, scope: code.scope, sessionId })
  // A replay that came while this exchange ran found no session yet to revoke: it is revoked now.
  if (await deps.oauth.wasReused(codeHash)) {
    await deps.sessions.revoke(sessionId, 'code_reuse', deps.clock.nowMs())
    throw new AppError(OAuthErrors.invalid_grant, { description: 'the authorization code was used twice; the tokens it gave are revoked' })
  }
  return withIdToken(deps, reply, { client: input.client, user, nonce: code.nonce, authTimeMs: code.authTimeMs })
}

/** Adds an OpenID Connect ID token to a token reply whose scope has `openid`. */
export async function withIdToken(deps: Pick<Deps, 'config' | 'clock' | 'keys'>, reply: TokenReply, input: { client: RegisteredClient; user: UserRecord; nonce: string; authTimeMs: number }): Promise<TokenReply> {
  const scopes = reply.scope.split(' ')
  if (!scopes.includes('openid')) return reply
  const iat = Math.floor(deps.clock.nowMs() / 1000)
  const atHash = createHash('sha256').update(reply.access_token).digest().subarray(0, 16).toString('base64url')
  const claims: Record<string, unknown> = {
    sub: input.user.id,
    aud: input.client.clientId,
    azp: input.client.clientId,
    iat,
    exp: iat + deps.config.tokens.accessTtlSeconds,
    auth_time: Math.floor(input.authTimeMs / 1000),
    at_hash: atHash,
    ...(input.nonce ? { nonce: input.nonce } : {}),
    ...userClaims(input.user, scopes),
  }
  return { ...reply, id_token: await deps.keys.signIdToken(claims) }
}

/** The OpenID Connect claims the scopes allow (`user`, the product's own scope, allows all). */
export function userClaims(user: UserRecord, scopes: readonly string[]): Record<string, unknown> {
  const all = scopes.includes('user')
  const claims: Record<string, unknown> = {}
  if (all || scopes.includes('profile')) {
    claims['name'] = user.name
    if (user.picture) claims['picture'] = user.picture
  }
  if ((all || scopes.includes('email')) && user.email) {
    claims['email'] = user.email
    // Addresses enter an account only through a verification code or a verified provider claim.
    claims['email_verified'] = true
  }
  if ((all || scopes.includes('phone')) && user.phoneNumber) {
    claims['phone_number'] = user.phoneNumber
    claims['phone_number_verified'] = true
  }
  return claims
}

/** GET|POST /v1/auth/userinfo (OpenID Connect Core 5.3). */
export function userInfo(auth: AuthContext): Record<string, unknown> {
  return { sub: auth.userId, ...userClaims(auth.user, auth.scope.split(' ')) }
}

export function notSignedIn(): AppError {
  return new AppError(GenericErrors.unauthenticated, { description: 'sign in first' })
}

/** GET /v1/user/authorize/clients: the apps the user let in, with what they may do, in the caller's language. */
export async function connectedApps(deps: Pick<Deps, 'clients' | 'oauth'>, auth: AuthContext, locale: string): Promise<{ data: ConnectedApp[] }> {
  const consents = await deps.oauth.listConsents(auth.userId)
  const data: ConnectedApp[] = []
  for (const consent of consents) {
    const client = await deps.clients.find(consent.clientId)
    data.push({
      // A client removed since still shows, by its id, so the user can withdraw what it was given.
      client: client ? clientInfo(client) : { client_id: consent.clientId, name: consent.clientId, logo: '' },
      scopes: describeScopes(consent.scopes, locale),
      granted_at: new Date(consent.grantedAtMs).toISOString(),
    })
  }
  return { data }
}

/**
 * DELETE /v1/user/authorize/clients/{client_id}: withdraws the consent and ends every session the
 * app holds for the user, at once (its refresh and access tokens stop working). The next sign-in
 * through the app asks again.
 */
export async function disconnectApp(deps: Pick<Deps, 'clock' | 'oauth' | 'sessions'>, auth: AuthContext, clientId: string): Promise<Record<string, never>> {
  const forgotten = await deps.oauth.deleteConsent(auth.userId, clientId, deps.clock.nowMs())
  const ended = await deps.sessions.revokeForUserClient(auth.userId, clientId, 'app_disconnected', deps.clock.nowMs())
  if (!forgotten && ended === 0) throw new AppError(GenericErrors.not_found, { description: `${clientId.slice(0, 128)} holds nothing of this account` })
  return {}
}
