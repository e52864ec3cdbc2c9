import {
  AccountErrors,
  AppError,
  GenericErrors,
  type Locale,
  type VerificationPurpose,
  type VerificationReply,
  type VerificationTarget,
  type VerifyReply,
} from '@cumulus/protocol'
import type { IdentityDeps } from '../../deps.js'
import { normalizeEmail, normalizePhone } from '../../lib/identifiers.js'
import { hashSecret, hmac, randomDigits, randomId, randomSecret, safeEqual } from '../../lib/secrets.js'
import type { UserRecord } from '../../stores/user-store.js'
import type { VerificationRecord } from '../../stores/verification-store.js'
import type { AuthContext } from '../tokens/sessions.js'
import { verificationMessage } from './messages.js'
import { reserveSendBudgets } from './send-budgets.js'

type Deps = Pick<IdentityDeps, 'config' | 'clock' | 'counters' | 'users' | 'verifications' | 'mailer' | 'sms' | 'hmacKey' | 'logger'>

export const CODE_DIGITS = 6

export interface Address {
  channel: 'email' | 'phone'
  value: string
}

/** Exactly one of e-mail and phone, normalised; invalid_argument naming the field otherwise. */
export function requireAddress(input: { email?: string | undefined; phoneNumber?: string | undefined }): Address {
  const hasEmail = input.email !== undefined && input.email !== ''
  const hasPhone = input.phoneNumber !== undefined && input.phoneNumber !== ''
  if (hasEmail === hasPhone) {
    throw new AppError(GenericErrors.invalid_argument, { description: 'give exactly one of email and phone_number', metadata: { field: hasEmail ? 'phone_number' : 'email' } })
  }
  if (hasEmail) {
    const value = normalizeEmail(input.email!)
    if (!value) throw new AppError(GenericErrors.invalid_argument, { description: 'email is not a valid e-mail address', metadata: { field: 'email' } })
    return { channel: 'email', value }
  }
  const value = normalizePhone(input.phoneNumber!)
  if (!value) throw new AppError(GenericErrors.invalid_argument, { description: 'phone_number must be in international format, e.g. +6512345678', metadata: { field: 'phone_number' } })
  return { channel: 'phone', value }
}

export function findUserAt(deps: Pick<IdentityDeps, 'users'>, address: Address): Promise<UserRecord | null> {
  return address.channel === 'email' ? deps.users.findByEmail(address.value) : deps.users.findByPhone(address.value)
}

// The code is stored as an HMAC keyed by the server secret, so a leaked table does not reveal
// codes even though six digits would be trivial to brute-force from a plain hash.
function codeHash(deps: Pick<IdentityDeps, 'hmacKey'>, verificationId: string, code: string): string {
  return hmac(deps.hmacKey, `${verificationId}:${code}`)
}

export interface SendVerificationInput {
  email?: string | undefined
  phoneNumber?: string | undefined
  target: VerificationTarget
  usage: VerificationPurpose
  clientId: string
  locale: Locale
  /** The signed-in caller, when a bearer was sent (required for target CUR_USER). */
  auth: AuthContext | null
  /** The caller's IP, for the per-IP send budget. */
  ip: string
}

/**
 * POST /v1/auth/verification: sends a 6-digit code by e-mail or SMS, within the send budgets
 * (send-budgets.ts): over one → resource_exhausted (8) with Retry-After, and nothing is sent.
 */
export async function sendVerification(deps: Deps, input: SendVerificationInput): Promise<VerificationReply> {
  const nowMs = deps.clock.nowMs()
  let address: Address
  let user: UserRecord | null
  if (input.target === 'CUR_USER') {
    if (!input.auth) throw new AppError(GenericErrors.unauthenticated, { description: 'target CUR_USER needs a bearer access token' })
    user = await deps.users.findById(input.auth.userId)
    if (!user) throw new AppError(GenericErrors.unauthenticated)
    const wantsPhone = !!input.phoneNumber || (!input.email && !user.email)
    const value = wantsPhone ? user.phoneNumber : user.email
    if (!value) throw new AppError(GenericErrors.failed_precondition, { description: `the account has no ${wantsPhone ? 'phone number' : 'e-mail address'}` })
    address = { channel: wantsPhone ? 'phone' : 'email', value }
  } else {
    address = requireAddress(input)
    user = await findUserAt(deps, address)
    if (input.target === 'USER' && !user) throw new AppError(AccountErrors.user_not_exist, { description: 'no account uses this address' })
  }

  await reserveSendBudgets(deps, { address: address.value, ip: input.ip })

  const id = randomId(12)
  const code = randomDigits(CODE_DIGITS)
  const ttlSeconds = deps.config.verification.codeTtlSeconds
  await deps.verifications.create({
    id,
    channel: address.channel,
    address: address.value,
    usage: input.usage,
    userId: user?.id ?? null,
    clientId: input.clientId,
    codeHash: codeHash(deps, id, code),
    createdAtMs: nowMs,
    expiresAtMs: nowMs + ttlSeconds * 1000,
  })
  const message = verificationMessage(input.locale, { code, productName: deps.config.productName, minutes: Math.round(ttlSeconds / 60), usage: input.usage })
  try {
    if (address.channel === 'email') await deps.mailer.send({ to: address.value, subject: message.subject, text: message.text, html: message.html })
    else await deps.sms.send({ to: address.value, text: message.sms })
  } catch (err) {
    deps.logger.error({ err, channel: address.channel }, 'verification delivery failed')
    throw new AppError(GenericErrors.unavailable, { description: 'the code could not be delivered; try again later', cause: err })
  }
  return {
    verification_id: id,
    expires_in: ttlSeconds,
    selected_channel: address.channel === 'email' ? 'VERIFICATION_EMAIL' : 'VERIFICATION_PHONE',
    is_user: user !== null,
  }
}

/** POST /v1/auth/verification/verify: exchanges a correct code for a verification token. */
export async function verifyCode(deps: Deps, input: { verificationId: string; code: string; clientId: string }): Promise<VerifyReply> {
  const nowMs = deps.clock.nowMs()
  const record = await deps.verifications.findById(input.verificationId)
  if (!record || record.clientId !== input.clientId || record.verifiedAtMs !== null) {
    throw new AppError(AccountErrors.invalid_verification_code, { description: 'unknown or already used verification' })
  }
  if (record.expiresAtMs <= nowMs) throw new AppError(AccountErrors.expired_verification_code)
  // Count the attempt before comparing, atomically, so parallel guesses cannot exceed the limit.
  const attempts = await deps.verifications.recordAttempt(record.id, deps.config.verification.maxAttempts)
  if (attempts === null) throw new AppError(AccountErrors.invalid_verification_code, { description: 'too many wrong codes; ask for a new one' })
  if (!safeEqual(codeHash(deps, record.id, input.code.trim()), record.codeHash)) {
    throw new AppError(AccountErrors.invalid_verification_code, { metadata: { attempts_left: String(deps.config.verification.maxAttempts - attempts) } })
  }
  const token = randomSecret()
  const ttlSeconds = deps.config.verification.tokenTtlSeconds
  if (!(await deps.verifications.markVerified(record.id, hashSecret(token), nowMs + ttlSeconds * 1000, nowMs))) {
    throw new AppError(AccountErrors.invalid_verification_code, { description: 'this code was already used' })
  }
  return { verification_token: token, expires_in: ttlSeconds }
}

/** A verification token presented to sign-up, sign-in by code, password reset or contact change. */
export interface VerificationClaim {
  record: VerificationRecord
  /** Burns the token; call it once every other check has passed. Throws if another request won. */
  consume(): Promise<void>
}

/**
 * Checks a verification token without spending it: it must be live, for `address` when one is
 * given, and for one of `usages` (DEFAULT is accepted everywhere).
 */
export async function claimVerification(
  deps: Pick<IdentityDeps, 'clock' | 'verifications'>,
  input: { token: string; address?: Address | undefined; usages: readonly VerificationPurpose[] },
): Promise<VerificationClaim> {
  const tokenHash = hashSecret(input.token)
  const record = await deps.verifications.findByToken(tokenHash, deps.clock.nowMs())
  if (!record) throw new AppError(AccountErrors.invalid_verification_code, { description: 'verification_token is invalid, used or expired' })
  if (input.address && (record.channel !== input.address.channel || record.address !== input.address.value)) {
    throw new AppError(AccountErrors.invalid_verification_code, { description: 'verification_token was issued for another address' })
  }
  if (record.usage !== 'DEFAULT' && !input.usages.includes(record.usage as VerificationPurpose)) {
    throw new AppError(AccountErrors.invalid_verification_code, { description: `verification_token was issued for ${record.usage}` })
  }
  return {
    record,
    async consume() {
      if (!(await deps.verifications.consumeToken(tokenHash, deps.clock.nowMs()))) {
        throw new AppError(AccountErrors.invalid_verification_code, { description: 'verification_token was already used' })
      }
    },
  }
}
