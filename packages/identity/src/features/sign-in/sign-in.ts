import { AccountErrors, AppError, GenericErrors, type TokenReply } from '@cumulus/protocol'
import type { RegisteredClient } from '../../config.js'
import type { IdentityDeps } from '../../deps.js'
import { toRfc3339 } from '../../lib/clock.js'
import { type ParsedUsername, parseUsername } from '../../lib/identifiers.js'
import type { UserRecord } from '../../stores/user-store.js'
import { createRegisteredUser } from '../sign-up/sign-up.js'
import { startSession } from '../tokens/sessions.js'
import { claimVerification } from '../verification/verification.js'
import { accountIdentifiers } from './lockout.js'
import { checkPassword } from './password-check.js'
import type { SessionOrigin } from '../../stores/session-store.js'

type Deps = Pick<IdentityDeps, 'config' | 'clock' | 'keys' | 'sessions' | 'users' | 'verifications' | 'hasher' | 'counters'>

export interface PasswordSignInInput {
  username: string
  password: string
  client: RegisteredClient
  ip: string
  deviceId: string
  origin?: SessionOrigin | undefined
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
 * The check goes through checkPassword, which holds the account and IP lockouts: it counts only
 * failures, against what was typed and against every identifier of the account found, so the
 * e-mail, phone number and username share one limit with sudo and password change.
 */
export async function signInWithPassword(deps: Deps, input: PasswordSignInInput): Promise<TokenReply> {
  const who = parseUsername(input.username)
  const typed = who?.value ?? input.username.trim().toLowerCase()
  const user = who ? await findUser(deps, who) : null
  const matches = await checkPassword(deps, {
    accountIdentifiers: [typed, ...(user ? accountIdentifiers(user) : [])],
    ip: input.ip,
    deviceId: input.deviceId,
    password: input.password,
    passwordHash: user?.passwordHash ?? null,
  })
  if (!user || !matches) throw new AppError(AccountErrors.invalid_account_or_password)
  if (user.status === 'FROZEN') throw accountFrozen(user)
  return startSession(deps, { userId: user.id, client: input.client, deviceId: input.deviceId, origin: input.origin })
}

export interface CodeSignInInput {
  username: string
  verificationToken: string
  client: RegisteredClient
  deviceId: string
  origin?: SessionOrigin | undefined
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
  return startSession(deps, { userId: user.id, client: input.client, deviceId: input.deviceId, origin: input.origin })
}
