import { AccountErrors, AppError, GenericErrors, type TokenReply } from '@cumulus/protocol'
import type { RegisteredClient } from '../../config.js'
import type { IdentityDeps } from '../../deps.js'
import { toRfc3339 } from '../../lib/clock.js'
import { type ParsedUsername, parseUsername } from '../../lib/identifiers.js'
import type { UserRecord } from '../../stores/user-store.js'
import { createRegisteredUser } from '../sign-up/sign-up.js'
import { startSession } from '../tokens/sessions.js'
import { claimVerification } from '../verification/verification.js'
import { lockoutKeys } from './lockout.js'

type Deps = Pick<IdentityDeps, 'config' | 'clock' | 'keys' | 'sessions' | 'users' | 'verifications' | 'hasher' | 'counters'>

export interface PasswordSignInInput {
  username: string
  password: string
  client: RegisteredClient
  ip: string
  deviceId: string
}

function findUser(deps: Pick<IdentityDeps, 'users'>, who: ParsedUsername): Promise<UserRecord | null> {
  switch (who.kind) {
    case 'email':
      return deps.users.findByEmail(who.value)
    case 'phone':
      return deps.users.findByPhone(who.value)
    default:
      return deps.users.findByUsername(who.value)
  }
}

/** account_freeze (50), telling when the account will be erased. */
export function accountFrozen(user: UserRecord): AppError {
  return new AppError(AccountErrors.account_freeze, { metadata: user.eraseAtMs ? { erase_at: toRfc3339(user.eraseAtMs) } : {} })
}

/**
 * Password sign-in. Every path, whatever the outcome, computes exactly one argon2id hash, so
 * the reply time tells nothing about whether the account exists or is locked.
 *
 * Lockout: the attempt is counted (per account identifier and per IP) before the hash. Counting
 * first, atomically, means a burst of parallel wrong passwords cannot get more than the limit of
 * guesses checked; a success gives the reservations back.
 */
export async function signInWithPassword(deps: Deps, input: PasswordSignInInput): Promise<TokenReply> {
  const who = parseUsername(input.username)
  const { lockout } = deps.config
  const accountKey = lockoutKeys.account(who?.value ?? input.username.trim().toLowerCase())
  const ipKey = lockoutKeys.ip(input.ip)
  const [account, ip] = await Promise.all([deps.counters.increment(accountKey, lockout.windowSeconds), deps.counters.increment(ipKey, lockout.windowSeconds)])

  if (account.count > lockout.maxFailuresPerAccount) {
    await deps.hasher.verifyDecoy(input.password)
    await deps.counters.decrement(ipKey)
    throw new AppError(AccountErrors.user_blocked, { description: 'too many failed sign-ins for this account', retryAfterSeconds: account.ttlSeconds })
  }
  if (ip.count > lockout.maxFailuresPerIp) {
    await deps.hasher.verifyDecoy(input.password)
    await deps.counters.decrement(accountKey)
    throw new AppError(AccountErrors.invalid_status, { description: 'too many failed sign-ins from this network', retryAfterSeconds: ip.ttlSeconds })
  }

  const user = who ? await findUser(deps, who) : null
  const matches = user?.passwordHash ? await deps.hasher.verify(user.passwordHash, input.password) : await deps.hasher.verifyDecoy(input.password)
  if (!user || !matches) {
    if (input.deviceId) await deps.counters.increment(lockoutKeys.device(input.deviceId), lockout.windowSeconds)
    throw new AppError(AccountErrors.invalid_account_or_password)
  }
  await Promise.all([deps.counters.reset(accountKey), deps.counters.decrement(ipKey)])
  if (user.status === 'FROZEN') throw accountFrozen(user)
  return startSession(deps, { userId: user.id, client: input.client, deviceId: input.deviceId })
}

export interface CodeSignInInput {
  username: string
  verificationToken: string
  client: RegisteredClient
  deviceId: string
}

/**
 * Sign-in with a verification token for the e-mail or phone in `username`. A token of usage
 * REGISTER_SIGN_IN creates the account when there is none. No password is involved, so no hash.
 */
export async function signInWithCode(deps: Deps, input: CodeSignInInput): Promise<TokenReply> {
  const who = parseUsername(input.username)
  if (!who || who.kind === 'username') {
    throw new AppError(GenericErrors.invalid_argument, { description: 'sign-in by code needs an e-mail address or a +phone number as username', metadata: { field: 'username' } })
  }
  const address = { channel: who.kind === 'email' ? ('email' as const) : ('phone' as const), value: who.value }
  const claim = await claimVerification(deps, { token: input.verificationToken, address, usages: ['SIGN_IN', 'REGISTER_SIGN_IN'] })
  let user = await findUser(deps, who)
  if (!user && claim.record.usage !== 'REGISTER_SIGN_IN') throw new AppError(AccountErrors.user_not_exist, { description: 'no account uses this address' })
  if (user?.status === 'FROZEN') throw accountFrozen(user)
  await claim.consume()
  user ??= await createRegisteredUser(deps, { address })
  return startSession(deps, { userId: user.id, client: input.client, deviceId: input.deviceId })
}
