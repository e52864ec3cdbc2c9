import { AppError, GenericErrors } from '@cumulus/protocol'
import type { IdentityDeps } from '../../deps.js'
import { normalizeEmail } from '../../lib/identifiers.js'
import { randomId } from '../../lib/secrets.js'
import type { MembershipRecord } from '../../stores/membership-store.js'
import type { UserRecord } from '../../stores/user-store.js'
import { assertAcceptablePassword } from './password-policy.js'

type Deps = Pick<IdentityDeps, 'users' | 'memberships' | 'hasher' | 'clock'>

/** Operator commands (`cumulus user ...`). They bypass verification and captcha by design. */

export async function createUserByOperator(deps: Deps, input: { email: string; password: string; name?: string | undefined }): Promise<UserRecord> {
  const email = normalizeEmail(input.email)
  if (!email) throw new AppError(GenericErrors.invalid_argument, { description: `not an e-mail address: ${input.email}`, metadata: { field: 'email' } })
  assertAcceptablePassword(input.password)
  if (await deps.users.findByEmail(email)) throw new AppError(GenericErrors.already_exists, { description: `a user with e-mail ${email} already exists` })
  return deps.users.create({
    id: newUserId(),
    email,
    name: input.name?.trim() || email.split('@')[0]!,
    passwordHash: await deps.hasher.hash(input.password),
    anonymous: false,
    createdAtMs: deps.clock.nowMs(),
  })
}

/** A user by id or e-mail, or not_found. */
export async function requireUserByIdOrEmail(deps: Pick<IdentityDeps, 'users'>, idOrEmail: string): Promise<UserRecord> {
  const email = idOrEmail.includes('@') ? normalizeEmail(idOrEmail) : null
  const user = email ? await deps.users.findByEmail(email) : await deps.users.findById(idOrEmail)
  if (!user) throw new AppError(GenericErrors.not_found, { description: `no user ${idOrEmail}` })
  return user
}

export async function listUsers(deps: Pick<IdentityDeps, 'users'>, input: { limit: number; offset?: number }) {
  return deps.users.list(input)
}

/** Grants or extends VIP by `days` (the membership table /v1/user/me reads). */
export async function grantVip(deps: Deps, input: { user: string; days: number; year: boolean }): Promise<{ user: UserRecord; membership: MembershipRecord }> {
  if (!Number.isInteger(input.days) || input.days < 1 || input.days > 36_500) {
    throw new AppError(GenericErrors.invalid_argument, { description: 'days must be a whole number from 1 to 36500', metadata: { field: 'days' } })
  }
  const user = await requireUserByIdOrEmail(deps, input.user)
  const membership = await deps.memberships.grant(user.id, { days: input.days, isYear: input.year, level: 1, vasType: 'vip', nowMs: deps.clock.nowMs() })
  return { user, membership }
}

/** Ends a pending deletion (the cancellation review), for an operator acting on the user's request. */
export async function restoreUser(deps: Pick<IdentityDeps, 'users' | 'clock' | 'events'>, idOrEmail: string): Promise<UserRecord> {
  const user = await requireUserByIdOrEmail(deps, idOrEmail)
  if (!(await deps.users.cancelDeletion(user.id, deps.clock.nowMs()))) {
    throw new AppError(GenericErrors.failed_precondition, { description: 'this account is not pending deletion' })
  }
  await deps.events.eventsRecorded()
  return { ...user, status: 'ACTIVE', deletionRequestedAtMs: null, eraseAtMs: null }
}

/** Identifiers of registered users: random, URL-safe, 16 characters. */
export function newUserId(): string {
  return `u${randomId(12)}`.replace(/[-_]/g, 'x')
}


