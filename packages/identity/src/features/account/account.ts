import { AccountErrors, AppError } from '@cumulus/protocol'
import type { IdentityDeps } from '../../deps.js'
import { toRfc3339 } from '../../lib/clock.js'
import { accountIdentifiers, lockoutKeys } from '../sign-in/lockout.js'
import type { AuthContext } from '../tokens/sessions.js'
import { requireSudo } from '../users/credentials.js'
import { assertAcceptablePassword } from '../users/password-policy.js'
import { claimVerification, findUserAt, requireAddress } from '../verification/verification.js'

type Deps = Pick<IdentityDeps, 'config' | 'clock' | 'users' | 'sessions' | 'verifications' | 'hasher' | 'counters' | 'events'>

/**
 * POST /v1/auth/reset: a new password for the account at a verified address. Every session of
 * the account ends, and the account's sign-in lockout is lifted.
 */
export async function resetPassword(deps: Deps, input: { email?: string | undefined; phoneNumber?: string | undefined; verificationToken: string; password: string }) {
  const address = requireAddress(input)
  assertAcceptablePassword(input.password)
  const claim = await claimVerification(deps, { token: input.verificationToken, address, usages: ['PASSWORD_RESET'] })
  const user = await findUserAt(deps, address)
  if (!user) throw new AppError(AccountErrors.user_not_exist, { description: 'no account uses this address' })
  const passwordHash = await deps.hasher.hash(input.password)
  await claim.consume()
  const nowMs = deps.clock.nowMs()
  await deps.users.update(user.id, { passwordHash, passwordUpdatedAtMs: nowMs }, nowMs)
  await deps.sessions.revokeAllForUser(user.id, 'password_reset', nowMs)
  // Every identifier shares the account's lockout (checkPassword), so every one is lifted.
  await Promise.all([address.value, ...accountIdentifiers(user)].map((identifier) => deps.counters.reset(lockoutKeys.account(identifier))))
  return {}
}

/**
 * DELETE /v1/user/me: the account enters cancellation review. It is frozen at once (sign-in
 * answers account_freeze, every session ends) and erased when the grace period is over.
 */
export async function requestAccountDeletion(deps: Deps, auth: AuthContext, sudoToken: string) {
  const sudoHash = await requireSudo(deps, auth, sudoToken)
  const nowMs = deps.clock.nowMs()
  const eraseAtMs = nowMs + deps.config.deletionGraceSeconds * 1000
  await deps.users.requestDeletion(auth.userId, nowMs, eraseAtMs)
  await deps.sessions.deleteSudoToken(sudoHash)
  await deps.sessions.revokeAllForUser(auth.userId, 'account_deleted', nowMs)
  // account.frozen was committed with the freeze: the other services stop serving the account's
  // links before this reply leaves (with one node; with several, the node that committed delivers).
  await deps.events.eventsRecorded()
  return { status: 'FROZEN', erase_at: toRfc3339(eraseAtMs) }
}
