import { randomInt } from 'node:crypto'
import {
  AppError,
  DEVICE_CODE_TTL_SECONDS,
  DEVICE_POLL_INTERVAL_SECONDS,
  type DeviceCodeReply,
  type DeviceInfoReply,
  GenericErrors,
  OAuthErrors,
  type TokenReply,
} from '@cumulus/protocol'
import type { RegisteredClient } from '../../config.js'
import type { IdentityDeps } from '../../deps.js'
import { hashSecret, randomSecret } from '../../lib/secrets.js'
import { UniqueViolationError } from '../../stores/errors.js'
import { type AuthContext, newSessionId, startSession } from '../tokens/sessions.js'
import { clientInfo, withIdToken } from './authorize.js'
import { describeScopes, requestedScopes } from './scopes.js'
import type { SessionOrigin } from '../../stores/session-store.js'

type Deps = Pick<IdentityDeps, 'config' | 'clock' | 'keys' | 'sessions' | 'users' | 'clients' | 'oauth' | 'counters'>

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'

/**
 * User codes: eight letters from an alphabet without vowels (no words) or look-alikes, shown as
 * XXXX-XXXX (RFC 8628 6.1): 20^8 ≈ 2.6e10 codes, against at most a few thousand live ones and
 * ten wrong guesses per account per quarter hour.
 */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ'
const USER_CODE_LENGTH = 8
/** RFC 8628 3.5: each slow_down adds five seconds to the interval. */
const SLOW_DOWN_STEP_SECONDS = 5
const WRONG_CODES_PER_WINDOW = 10
/** Device sign-ins one address may start a minute. */
export const DEVICE_STARTS_PER_IP_PER_MINUTE = 30
const WRONG_CODE_WINDOW_SECONDS = 15 * 60

function newUserCode(): string {
  let code = ''
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]
  return code
}

/** What a person typed, as stored: upper case, without the dash or spaces. */
export function normalizeUserCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '')
}

export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`
}

/** POST /v1/auth/device/code (RFC 8628 3.1-3.2). */
export async function startDeviceAuthorization(deps: Deps, input: { client: RegisteredClient; scope: string | undefined; ip: string }): Promise<DeviceCodeReply> {
  if (!input.client.grantTypes.includes(DEVICE_CODE_GRANT)) throw new AppError(OAuthErrors.unauthorized_client, { description: 'this client may not use the device flow' })
  const scopes = requestedScopes(input.client, input.scope)
  // Each call stores a row and takes a user code: a flood from one address is refused.
  const { count, ttlSeconds } = await deps.counters.increment(`device:start:ip:${input.ip}`, 60)
  if (count > DEVICE_STARTS_PER_IP_PER_MINUTE) throw new AppError(GenericErrors.resource_exhausted, { description: 'too many device sign-ins started from this network; try again shortly', retryAfterSeconds: ttlSeconds })
  const nowMs = deps.clock.nowMs()
  const deviceCode = randomSecret()
  for (let attempt = 0; ; attempt++) {
    const userCode = newUserCode()
    try {
      await deps.oauth.createDeviceCode(
        hashSecret(deviceCode),
        { userCode, clientId: input.client.clientId, scope: scopes.join(' '), status: 'pending', userId: null, intervalSeconds: DEVICE_POLL_INTERVAL_SECONDS, expiresAtMs: nowMs + DEVICE_CODE_TTL_SECONDS * 1000 },
        nowMs,
      )
      const base = `${deps.config.webUrl ?? deps.config.publicUrl}/device`
      return {
        device_code: deviceCode,
        user_code: formatUserCode(userCode),
        verification_uri: base,
        verification_uri_complete: `${base}?user_code=${formatUserCode(userCode)}`,
        expires_in: DEVICE_CODE_TTL_SECONDS,
        interval: DEVICE_POLL_INTERVAL_SECONDS,
      }
    } catch (error) {
      // A user code still live for another device: draw again.
      if (!(error instanceof UniqueViolationError) || attempt >= 4) throw error
    }
  }
}

/**
 * The device behind a user code, for the signed-in user about to approve it. Wrong codes are
 * counted per account: past ten in a quarter hour, resource_exhausted, so the code space cannot
 * be searched through one account.
 */
async function findPending(deps: Deps, auth: AuthContext, typed: string) {
  const userCode = normalizeUserCode(typed)
  const record = userCode.length === USER_CODE_LENGTH ? await deps.oauth.findDeviceCodeByUserCode(userCode, deps.clock.nowMs()) : null
  if (record && record.status === 'pending') return record
  const { count, ttlSeconds } = await deps.counters.increment(`device:wrong:${auth.userId}`, WRONG_CODE_WINDOW_SECONDS)
  if (count > WRONG_CODES_PER_WINDOW) throw new AppError(GenericErrors.resource_exhausted, { description: 'too many wrong codes; try again later', retryAfterSeconds: ttlSeconds })
  throw new AppError(OAuthErrors.invalid_grant, { description: 'this code is wrong, expired or already used', metadata: { field: 'user_code' } })
}

/** GET /v1/user/device/info: what the device asks for, before the user agrees. */
export async function deviceInfo(deps: Deps, auth: AuthContext, input: { userCode: string; locale: string }): Promise<DeviceInfoReply> {
  const record = await findPending(deps, auth, input.userCode)
  const client = await deps.clients.require(record.clientId)
  return {
    user_code: formatUserCode(record.userCode),
    client: clientInfo(client),
    scopes: describeScopes(record.scope.split(' '), input.locale),
    expires_in: Math.max(0, Math.floor((record.expiresAtMs - deps.clock.nowMs()) / 1000)),
  }
}

/** POST /v1/user/device/authorize: the user approves or denies the device. */
export async function authorizeDevice(deps: Deps, auth: AuthContext, input: { userCode: string; consent: boolean }): Promise<Record<string, never>> {
  const record = await findPending(deps, auth, input.userCode)
  const nowMs = deps.clock.nowMs()
  if (!(await deps.oauth.decideDeviceCode(record.userCode, { userId: auth.userId, approve: input.consent, authTimeMs: auth.authTimeMs ?? nowMs }, nowMs))) {
    throw new AppError(OAuthErrors.invalid_grant, { description: 'this code was answered already or has expired', metadata: { field: 'user_code' } })
  }
  const client = await deps.clients.find(record.clientId)
  if (input.consent && client) await deps.oauth.grantConsent(auth.userId, client.clientId, record.scope.split(' '), nowMs)
  return {}
}

/** The device_code grant (RFC 8628 3.4-3.5): pending, slow_down, expired, denied, or the tokens, once. */
export async function exchangeDeviceCode(deps: Deps, input: { client: RegisteredClient; deviceCode: string | undefined; deviceId: string; origin?: SessionOrigin | undefined }): Promise<TokenReply> {
  if (!input.client.grantTypes.includes(DEVICE_CODE_GRANT)) throw new AppError(OAuthErrors.unauthorized_client, { description: 'this client may not use the device_code grant' })
  if (!input.deviceCode) throw new AppError(OAuthErrors.invalid_request, { description: 'device_code is required', metadata: { field: 'device_code' } })
  const nowMs = deps.clock.nowMs()
  const hash = hashSecret(input.deviceCode)
  const sessionId = newSessionId()
  const poll = await deps.oauth.pollDeviceCode(hash, input.client.clientId, nowMs, SLOW_DOWN_STEP_SECONDS, sessionId)
  switch (poll.kind) {
    case 'pending':
      throw new AppError(OAuthErrors.authorization_pending, { description: 'the user has not answered yet' })
    case 'slow_down':
      throw new AppError(OAuthErrors.slow_down, { description: `polling too fast; wait ${SLOW_DOWN_STEP_SECONDS} s more between polls` })
    case 'expired':
      throw new AppError(OAuthErrors.expired_token, { description: 'the device code has expired; start again' })
    case 'denied':
      throw new AppError(OAuthErrors.access_denied, { description: 'the user denied the request' })
    case 'invalid':
      throw new AppError(OAuthErrors.invalid_grant, { description: 'the device code is invalid or already used' })
    case 'approved': {
      const user = await deps.users.findById(poll.record.userId)
      if (!user || user.status !== 'ACTIVE') throw new AppError(OAuthErrors.invalid_grant, { description: 'the account is no longer available' })
      const reply = await startSession(deps, { userId: user.id, client: input.client, deviceId: input.deviceId, origin: input.origin, scope: poll.record.scope, sessionId })
      return withIdToken(deps, reply, { client: input.client, user, nonce: '', authTimeMs: poll.record.authTimeMs })
    }
  }
}
