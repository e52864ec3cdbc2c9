import { createHash } from 'node:crypto'
import {
  AccountErrors,
  AppError,
  GenericErrors,
  OAuthErrors,
  PROVIDER_TOKEN_MAX_AGE_SECONDS,
  PROVIDER_TOKEN_TTL_SECONDS,
  type ProviderBinding,
  type ProviderProfile,
  type ProviderTokenReply,
  type ProviderUriReply,
  type TokenReply,
} from '@cumulus/protocol'
import type { RegisteredClient } from '../../config.js'
import type { IdentityDeps } from '../../deps.js'
import { hashSecret, randomId, randomSecret } from '../../lib/secrets.js'
import { UniqueViolationError } from '../../stores/errors.js'
import type { ProviderTokenRecord } from '../../stores/provider-store.js'
import type { UserRecord } from '../../stores/user-store.js'
import { LAST_SIGN_IN_METHOD } from '../../http/error-handler.js'
import { accountFrozen } from '../sign-in/sign-in.js'
import { type AuthContext, startSession } from '../tokens/sessions.js'
import { newUserId } from '../users/admin.js'
import type { SessionOrigin } from '../../stores/session-store.js'

type Deps = Pick<IdentityDeps, 'config' | 'clock' | 'keys' | 'sessions' | 'users' | 'providers' | 'providerStore' | 'counters'>

/** A sign-in started at a provider must come back within this many seconds. */
const FLOW_TTL_SECONDS = 600
const MAX_STATE_LENGTH = 512
/** Provider sign-ins one address may start a minute. */
export const PROVIDER_STARTS_PER_IP_PER_MINUTE = 30

/** The key of a flow: one (client, provider, state) is one sign-in in progress. */
function flowKey(clientId: string, providerId: string, state: string): string {
  return createHash('sha256').update(`${clientId}\n${providerId}\n${state}`).digest('base64url')
}

function badField(field: string, description: string): AppError {
  return new AppError(GenericErrors.invalid_argument, { description, metadata: { field } })
}

/**
 * The provider redirects the browser to `redirect_uri`: it must be on an origin the client
 * registered, so nobody can start a sign-in that lands the provider's code on their own site
 * (the provider checks its own list too).
 */
function checkRedirectUri(client: RegisteredClient, redirectUri: string): void {
  let origin: string
  try {
    const url = new URL(redirectUri)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme')
    origin = url.origin
  } catch {
    throw badField('redirect_uri', 'redirect_uri must be an absolute http(s) URL')
  }
  const allowed = client.redirectUris.some((registered) => {
    try {
      return new URL(registered).origin === origin
    } catch {
      return false
    }
  })
  if (!allowed) throw badField('redirect_uri', 'redirect_uri is not on an origin this client registered')
}

/** GET /v1/auth/provider/uri: the provider's authorize URL; PKCE verifier, state and nonce stay here. */
export async function providerUri(deps: Deps, input: { client: RegisteredClient; providerId: string; redirectUri: string; state?: string | undefined; scope?: string | undefined; ip: string }): Promise<ProviderUriReply> {
  deps.providers.get(input.providerId)
  // Each call stores a row: a flood from one address is refused before it fills the table.
  const { count, ttlSeconds } = await deps.counters.increment(`provider:uri:ip:${input.ip}`, 60)
  if (count > PROVIDER_STARTS_PER_IP_PER_MINUTE) throw new AppError(GenericErrors.resource_exhausted, { description: 'too many sign-ins started from this network; try again shortly', retryAfterSeconds: ttlSeconds })
  checkRedirectUri(input.client, input.redirectUri)
  if (input.state !== undefined && (input.state.length < 8 || input.state.length > MAX_STATE_LENGTH)) throw badField('state', `state must be 8 to ${MAX_STATE_LENGTH} characters`)
  const state = input.state ?? randomId(16)
  const codeVerifier = randomSecret()
  const nonce = randomId(16)
  const nowMs = deps.clock.nowMs()
  try {
    await deps.providerStore.createFlow(
      flowKey(input.client.clientId, input.providerId, state),
      { providerId: input.providerId, clientId: input.client.clientId, redirectUri: input.redirectUri, codeVerifier, nonce, expiresAtMs: nowMs + FLOW_TTL_SECONDS * 1000 },
      nowMs,
    )
  } catch (error) {
    if (error instanceof UniqueViolationError) throw badField('state', 'this state was used already; make a new one for each sign-in')
    throw error
  }
  const uri = await deps.providers.authorizationUrl(input.providerId, { redirectUri: input.redirectUri, state, codeVerifier, nonce, scope: input.scope })
  return { uri, state }
}

async function issueProviderToken(deps: Deps, record: ProviderTokenRecord, nowMs: number): Promise<{ token: string; expiresIn: number }> {
  const token = randomSecret()
  await deps.providerStore.createToken(hashSecret(token), record, nowMs)
  return { token, expiresIn: Math.max(0, Math.floor((record.expiresAtMs - nowMs) / 1000)) }
}

function tokenExpiry(authenticatedAtMs: number, nowMs: number): number {
  return Math.min(nowMs + PROVIDER_TOKEN_TTL_SECONDS * 1000, authenticatedAtMs + PROVIDER_TOKEN_MAX_AGE_SECONDS * 1000)
}

/**
 * POST /v1/auth/provider/token: the provider's code (with the `state` the sign-in started under),
 * or a native SDK's ID or access token, becomes a provider token: short-lived proof that the
 * caller is this person at this provider, spent by one sign-in, bind or transfer.
 */
export async function providerToken(
  deps: Deps,
  input: { client: RegisteredClient; providerId: string; redirectUri?: string | undefined; code?: string | undefined; state?: string | undefined; iss?: string | undefined; idToken?: string | undefined; accessToken?: string | undefined },
): Promise<ProviderTokenReply> {
  deps.providers.get(input.providerId)
  let profile: ProviderProfile
  if (input.code !== undefined) {
    if (!input.state) throw badField('state', 'state is required with provider_code: give the state the provider sent back')
    const flow = await deps.providerStore.consumeFlow(flowKey(input.client.clientId, input.providerId, input.state), deps.clock.nowMs())
    // An unknown, expired or already used state: a forged or replayed redirect.
    if (!flow) throw new AppError(OAuthErrors.invalid_grant, { description: 'this sign-in is unknown, expired or already completed; start it again' })
    if (input.redirectUri !== undefined && input.redirectUri !== flow.redirectUri) throw badField('provider_redirect_uri', 'provider_redirect_uri differs from the one the sign-in started with')
    ;({ profile } = await deps.providers.exchangeCode(input.providerId, { redirectUri: flow.redirectUri, code: input.code, state: input.state, codeVerifier: flow.codeVerifier, nonce: flow.nonce, iss: input.iss }))
  } else if (input.idToken !== undefined) {
    ;({ profile } = await deps.providers.verifyNativeToken(input.providerId, { idToken: input.idToken }))
  } else if (input.accessToken !== undefined) {
    if (!deps.providers.get(input.providerId).acceptAccessTokens) {
      throw badField('provider_access_token', 'this provider does not take access tokens (they do not say which app they were issued to); send provider_id_token or provider_code')
    }
    ;({ profile } = await deps.providers.verifyNativeToken(input.providerId, { accessToken: input.accessToken }))
  } else {
    throw badField('provider_code', 'give provider_code, provider_id_token or provider_access_token')
  }
  const nowMs = deps.clock.nowMs()
  const { token, expiresIn } = await issueProviderToken(
    deps,
    { providerId: input.providerId, clientId: input.client.clientId, providerUserId: profile.sub, profile, purpose: 'sign_in', authenticatedAtMs: nowMs, expiresAtMs: tokenExpiry(nowMs, nowMs) },
    nowMs,
  )
  return { provider_token: token, expires_in: expiresIn, provider_profile: profile }
}

async function spendProviderToken(deps: Deps, token: string, client: RegisteredClient, purpose: ProviderTokenRecord['purpose'] = 'sign_in'): Promise<ProviderTokenRecord> {
  const record = await deps.providerStore.consumeToken(hashSecret(token), purpose, deps.clock.nowMs())
  if (!record) throw new AppError(OAuthErrors.invalid_grant, { description: 'the provider token is invalid, expired or already used' })
  if (record.clientId !== client.clientId) throw new AppError(OAuthErrors.invalid_grant, { description: 'the provider token was issued to another client' })
  if (!deps.providers.has(record.providerId)) throw new AppError(OAuthErrors.invalid_grant, { description: 'this identity provider is no longer configured' })
  return record
}

/** PATCH /v1/auth/provider/token: a fresh provider token for an unspent one, up to an hour after the sign-in at the provider. */
export async function renewProviderToken(deps: Deps, input: { client: RegisteredClient; providerToken: string }): Promise<ProviderTokenReply> {
  const record = await spendProviderToken(deps, input.providerToken, input.client)
  const nowMs = deps.clock.nowMs()
  const expiresAtMs = tokenExpiry(record.authenticatedAtMs, nowMs)
  if (expiresAtMs <= nowMs) throw new AppError(OAuthErrors.invalid_grant, { description: 'sign in at the provider again' })
  const { token, expiresIn } = await issueProviderToken(deps, { ...record, expiresAtMs }, nowMs)
  return { provider_token: token, expires_in: expiresIn, provider_profile: record.profile }
}

function bindingName(profile: ProviderProfile): string {
  return profile.name || profile.email || profile.sub
}

/**
 * POST /v1/auth/signin/with/provider. A bound identity signs in to its account. An unbound one
 * signs up: with a verified e-mail that an account already has, it joins that account (the
 * provider vouches for the address, as a verification code would); an unverified e-mail never
 * reaches an existing account, nor becomes the new account's address.
 */
export async function signInWithProvider(deps: Deps, input: { client: RegisteredClient; providerToken: string; deviceId: string; origin?: SessionOrigin | undefined }): Promise<TokenReply> {
  const record = await spendProviderToken(deps, input.providerToken, input.client)
  const provider = deps.providers.get(record.providerId)
  const profile = record.profile
  const start = (user: UserRecord) => {
    if (user.status === 'FROZEN') throw accountFrozen(user)
    return startSession(deps, { userId: user.id, client: input.client, deviceId: input.deviceId, origin: input.origin })
  }
  const bound = await deps.providerStore.findBinding(record.providerId, record.providerUserId)
  if (bound) {
    const user = await deps.users.findById(bound.userId)
    if (user) return start(user)
  }
  const binding = { providerId: record.providerId, providerUserId: record.providerUserId, name: bindingName(profile), email: profile.email }
  const nowMs = deps.clock.nowMs()
  if (profile.email && profile.email_verified) {
    const owner = await deps.users.findByEmail(profile.email)
    if (owner) {
      try {
        await deps.providerStore.bind({ ...binding, userId: owner.id, createdAtMs: nowMs })
      } catch (error) {
        if (!(error instanceof UniqueViolationError)) throw error
        // A parallel sign-in bound it first (then it is this account's), or the account holds
        // another identity of this provider: it does not take a second one silently.
        const now = await deps.providerStore.findBinding(record.providerId, record.providerUserId)
        if (now?.userId !== owner.id) throw new AppError(GenericErrors.already_exists, { description: `the account with this e-mail is bound to another ${provider.name} identity` })
      }
      return start(owner)
    }
  }
  if (!provider.signUp) throw new AppError(AccountErrors.user_not_exist, { description: `no account is bound to this ${provider.name} identity` })
  const verifiedEmail = profile.email && profile.email_verified ? profile.email : null
  const userId = newUserId()
  const name = [...(profile.name || (verifiedEmail ?? '').split('@')[0] || provider.name)].slice(0, 64).join('')
  try {
    await deps.providerStore.createUserWithBinding({ id: userId, name, email: verifiedEmail, picture: profile.picture, createdAtMs: nowMs }, binding)
  } catch (error) {
    if (!(error instanceof UniqueViolationError)) throw error
    // A parallel sign-in of the same person created the account first: sign in to it.
    const winner = await deps.providerStore.findBinding(record.providerId, record.providerUserId)
    const user = winner ? await deps.users.findById(winner.userId) : null
    if (user) return start(user)
    throw new AppError(GenericErrors.already_exists, { description: 'an account already uses this e-mail address', cause: error })
  }
  return start((await deps.users.findById(userId))!)
}

/** The account's bindings, for GET /v1/user/provider and the profile's `providers`. */
export async function listBindings(deps: Pick<Deps, 'providerStore'>, userId: string): Promise<ProviderBinding[]> {
  const rows = await deps.providerStore.listBindings(userId)
  return rows.map((b) => ({ id: b.providerId, provider_user_id: b.providerUserId, name: b.name }))
}

/**
 * POST /v1/user/provider/bind. An identity already bound to another account is not taken from
 * it: the reply is already_exists with a `provider_trans_token` in its metadata, which
 * POST /v1/user/provider/{id}/trans spends to move the binding here.
 */
export async function bindProvider(deps: Deps, auth: AuthContext, input: { client: RegisteredClient; providerToken: string }): Promise<Record<string, never>> {
  const record = await spendProviderToken(deps, input.providerToken, input.client)
  const nowMs = deps.clock.nowMs()
  const existing = await deps.providerStore.findBinding(record.providerId, record.providerUserId)
  if (existing?.userId === auth.userId) return {}
  if (existing) {
    const { token, expiresIn } = await issueProviderToken(deps, { ...record, purpose: 'trans', expiresAtMs: tokenExpiry(nowMs, nowMs) }, nowMs)
    throw new AppError(GenericErrors.already_exists, {
      description: 'this identity is bound to another account; move it here with provider_trans_token',
      metadata: { provider_trans_token: token, expires_in: String(expiresIn) },
    })
  }
  try {
    await deps.providerStore.bind({ providerId: record.providerId, providerUserId: record.providerUserId, userId: auth.userId, name: bindingName(record.profile), email: record.profile.email, createdAtMs: nowMs })
  } catch (error) {
    if (!(error instanceof UniqueViolationError)) throw error
    throw new AppError(GenericErrors.already_exists, { description: `this account is bound to another ${deps.providers.nameOf(record.providerId)} identity; unbind it first` })
  }
  return {}
}

/** Whether the account could still sign in without this provider binding. */
async function hasOtherWayIn(deps: Deps, user: UserRecord, providerId: string): Promise<boolean> {
  if (user.passwordHash || user.email || user.phoneNumber) return true
  const bindings = await deps.providerStore.listBindings(user.id)
  return bindings.some((b) => b.providerId !== providerId && deps.providers.has(b.providerId))
}

/** DELETE /v1/user/provider/{id}: refused when the binding is the account's last way to sign in. */
export async function unbindProvider(deps: Deps, auth: AuthContext, providerId: string): Promise<Record<string, never>> {
  const user = (await deps.users.findById(auth.userId)) ?? auth.user
  if (!(await hasOtherWayIn(deps, user, providerId))) {
    throw new AppError(GenericErrors.failed_precondition, { description: 'this is the only way to sign in to this account; set a password or an e-mail address first', detailReason: LAST_SIGN_IN_METHOD, metadata: { field: 'provider_id' } })
  }
  if (!(await deps.providerStore.unbind(auth.userId, providerId))) throw new AppError(GenericErrors.not_found, { description: `no ${providerId.slice(0, 64)} identity is bound to this account` })
  return {}
}

async function moveHere(deps: Deps, auth: AuthContext, record: ProviderTokenRecord): Promise<Record<string, never>> {
  const existing = await deps.providerStore.findBinding(record.providerId, record.providerUserId)
  if (existing?.userId === auth.userId) return {}
  const nowMs = deps.clock.nowMs()
  if (!existing) {
    await bindOrConflict(deps, auth, record, nowMs)
    return {}
  }
  const from = await deps.users.findById(existing.userId)
  // The other account must not be left with no way in: it would be lost to its owner for good.
  if (from && !(await hasOtherWayIn(deps, from, record.providerId))) {
    throw new AppError(GenericErrors.failed_precondition, { description: 'this identity is the only way to sign in to the other account; it cannot be moved', detailReason: LAST_SIGN_IN_METHOD })
  }
  try {
    const moved = await deps.providerStore.moveBinding(record.providerId, record.providerUserId, existing.userId, auth.userId)
    if (!moved) throw new AppError(GenericErrors.aborted, { description: 'the binding changed meanwhile; try again' })
  } catch (error) {
    if (!(error instanceof UniqueViolationError)) throw error
    throw new AppError(GenericErrors.already_exists, { description: `this account is bound to another ${deps.providers.nameOf(record.providerId)} identity; unbind it first` })
  }
  return {}
}

async function bindOrConflict(deps: Deps, auth: AuthContext, record: ProviderTokenRecord, nowMs: number) {
  try {
    await deps.providerStore.bind({ providerId: record.providerId, providerUserId: record.providerUserId, userId: auth.userId, name: bindingName(record.profile), email: record.profile.email, createdAtMs: nowMs })
  } catch (error) {
    if (!(error instanceof UniqueViolationError)) throw error
    throw new AppError(GenericErrors.already_exists, { description: `this account is bound to another ${deps.providers.nameOf(record.providerId)} identity; unbind it first` })
  }
}

/** POST /v1/user/provider/{id}/trans: moves an identity bound elsewhere to this account, with the token the refused bind gave. */
export async function transferBinding(deps: Deps, auth: AuthContext, input: { client: RegisteredClient; providerId: string; transToken: string }): Promise<Record<string, never>> {
  const record = await spendProviderToken(deps, input.transToken, input.client, 'trans')
  if (record.providerId !== input.providerId) throw badField('provider_id', 'the token is for another provider')
  return moveHere(deps, auth, record)
}

/** PATCH /v1/user/trans/by/provider: the same with a fresh provider token (a new sign-in at the provider). */
export async function transferByProvider(deps: Deps, auth: AuthContext, input: { client: RegisteredClient; providerToken: string }): Promise<Record<string, never>> {
  const record = await spendProviderToken(deps, input.providerToken, input.client)
  return moveHere(deps, auth, record)
}

