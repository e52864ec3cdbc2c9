import { AccountErrors, AppError, GenericErrors, type SudoReply } from '@cumulus/protocol'
import type { IdentityDeps } from '../../deps.js'
import { hashSecret, randomSecret } from '../../lib/secrets.js'
import { UniqueViolationError } from '../../stores/errors.js'
import type { AuthContext } from '../tokens/sessions.js'
import { accountIdentifiers } from '../sign-in/lockout.js'
import { checkPassword } from '../sign-in/password-check.js'
import { claimVerification, findUserAt, requireAddress } from '../verification/verification.js'
import { assertAcceptablePassword } from './password-policy.js'

type Deps = Pick<IdentityDeps, 'config' | 'clock' | 'users' | 'sessions' | 'verifications' | 'hasher' | 'counters'>

/** Who is calling, for the lockout counters a password check counts against. */
export interface Caller {
  ip: string
  deviceId: string
}

/**
 * Checks the user's current password (one hash, decoy when the account has none). It goes
 * through sign-in's checkPassword, so a session holder guessing here meets the same account and
 * IP lockout as sign-in (user_blocked, invalid_status) and spends the same budget.
 */
async function requirePassword(deps: Deps, auth: AuthContext, caller: Caller, password: string) {
  const user = auth.user
  const ok = await checkPassword(deps, { accountIdentifiers: accountIdentifiers(user), ip: caller.ip, deviceId: caller.deviceId, password, passwordHash: user.passwordHash })
  if (!ok) throw new AppError(AccountErrors.invalid_password)
}

/** POST /v1/user/sudo: re-entering the password buys a short-lived token for dangerous calls. */
export async function sudo(deps: Deps, auth: AuthContext, caller: Caller, password: string): Promise<SudoReply> {
  const user = auth.user
  if (!user.passwordHash) throw new AppError(GenericErrors.failed_precondition, { description: 'the account has no password; set one first' })
  await requirePassword(deps, auth, caller, password)
  const token = randomSecret()
  const ttl = deps.config.tokens.sudoTtlSeconds
  await deps.sessions.createSudoToken(hashSecret(token), user.id, auth.sessionId, deps.clock.nowMs() + ttl * 1000)
  return { sudo_token: token, expires_in: ttl }
}

/** A live sudo token of this user, or permission_denied. */
export async function requireSudo(deps: Pick<IdentityDeps, 'sessions' | 'clock'>, auth: AuthContext, sudoToken: string): Promise<string> {
  const tokenHash = hashSecret(sudoToken)
  const found = await deps.sessions.findSudoToken(tokenHash, deps.clock.nowMs())
  if (!found || found.userId !== auth.userId) throw new AppError(GenericErrors.permission_denied, { description: 'sudo_token is invalid or expired; re-enter your password' })
  return tokenHash
}

/**
 * PATCH /v1/user/password. Needs the old password or a sudo token. An account that has no password
 * yet (made by code sign-in) sets its first one through the reset flow, which proves the address.
 * Other sessions end; this one stays.
 */
export async function changePassword(deps: Deps, auth: AuthContext, caller: Caller, input: { oldPassword?: string | undefined; sudoToken?: string | undefined; password: string }) {
  assertAcceptablePassword(input.password)
  const user = auth.user
  if (input.sudoToken !== undefined) await requireSudo(deps, auth, input.sudoToken)
  else if (input.oldPassword !== undefined) await requirePassword(deps, auth, caller, input.oldPassword)
  else throw new AppError(GenericErrors.invalid_argument, { description: 'give old_password or sudo_token', metadata: { field: 'old_password' } })
  const nowMs = deps.clock.nowMs()
  await deps.users.update(user.id, { passwordHash: await deps.hasher.hash(input.password), passwordUpdatedAtMs: nowMs }, nowMs)
  await deps.sessions.revokeAllForUser(user.id, 'password_changed', nowMs, auth.sessionId)
  return {}
}

/**
 * PATCH /v1/user/contact: binds a verified e-mail or phone to the account. A guest account that
 * binds one becomes a registered account in place (same id, same files): it can then sign in
 * anywhere by code, and set a password through the reset flow.
 */
export async function changeContact(deps: Deps, auth: AuthContext, input: { email?: string | undefined; phoneNumber?: string | undefined; verificationToken: string }) {
  const address = requireAddress(input)
  const user = auth.user
  const usages = address.channel === 'email' ? (['EMAIL_ADDRESS_CHANGE', 'EMAIL_ADDRESS_VERIFICATION'] as const) : (['PHONE_NUMBER_CHANGE', 'PHONE_NUMBER_VERIFICATION'] as const)
  const claim = await claimVerification(deps, { token: input.verificationToken, address, usages })
  const owner = await findUserAt(deps, address)
  if (owner && owner.id !== user.id) throw new AppError(GenericErrors.already_exists, { description: 'another account uses this address' })
  await claim.consume()
  try {
    await deps.users.update(user.id, { ...(address.channel === 'email' ? { email: address.value } : { phoneNumber: address.value }), ...(user.anonymous ? { anonymous: false } : {}) }, deps.clock.nowMs())
  } catch (error) {
    if (error instanceof UniqueViolationError) throw new AppError(GenericErrors.already_exists, { description: 'another account uses this address', cause: error })
    throw error
  }
  return {}
}
