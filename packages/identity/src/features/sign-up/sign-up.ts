import { ANONYMOUS_SUB_PREFIX, AppError, GenericErrors, type TokenReply } from '@cumulus/protocol'
import type { RegisteredClient } from '../../config.js'
import type { IdentityDeps } from '../../deps.js'
import { randomId } from '../../lib/secrets.js'
import { UniqueViolationError } from '../../stores/errors.js'
import { acceptInvite } from '../membership/invites.js'
import { startSession } from '../tokens/sessions.js'
import { newUserId } from '../users/admin.js'
import { assertAcceptablePassword } from '../users/password-policy.js'
import { claimVerification, findUserAt, requireAddress } from '../verification/verification.js'
import type { SessionOrigin } from '../../stores/session-store.js'

type Deps = Pick<IdentityDeps, 'config' | 'clock' | 'keys' | 'sessions' | 'users' | 'verifications' | 'hasher' | 'counters' | 'memberships' | 'logger'>

export interface SignUpInput {
  email?: string | undefined
  phoneNumber?: string | undefined
  verificationToken: string
  password?: string | undefined
  name?: string | undefined
  /** Another account's invite code; rewards both when valid, ignored when not. */
  inviteCode?: string | undefined
  client: RegisteredClient
  deviceId: string
  origin?: SessionOrigin | undefined
}

const MAX_NAME_LENGTH = 64

export function cleanName(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined
  const name = raw.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  if (name === '' || [...name].length > MAX_NAME_LENGTH) {
    throw new AppError(GenericErrors.invalid_argument, { description: `name must be 1 to ${MAX_NAME_LENGTH} characters`, metadata: { field: 'name' } })
  }
  return name
}

/** POST /v1/auth/signup: a new account for a verified e-mail address or phone number. */
export async function signUp(deps: Deps, input: SignUpInput): Promise<TokenReply> {
  const address = requireAddress(input)
  if (input.password !== undefined) assertAcceptablePassword(input.password)
  const name = cleanName(input.name)
  const claim = await claimVerification(deps, { token: input.verificationToken, address, usages: ['REGISTER', 'REGISTER_SIGN_IN'] })
  if (await findUserAt(deps, address)) throw new AppError(GenericErrors.already_exists, { description: 'an account already uses this address' })
  const passwordHash = input.password === undefined ? undefined : await deps.hasher.hash(input.password)
  await claim.consume()
  const user = await createRegisteredUser(deps, { address, name, passwordHash })
  await acceptInvite(deps, user.id, input.inviteCode)
  return startSession(deps, { userId: user.id, client: input.client, deviceId: input.deviceId, origin: input.origin })
}

/** Inserts a registered user; a concurrent sign-up for the same address becomes already_exists. */
export async function createRegisteredUser(
  deps: Pick<IdentityDeps, 'users' | 'clock'>,
  input: { address: { channel: 'email' | 'phone'; value: string }; name?: string | undefined; passwordHash?: string | undefined },
) {
  try {
    return await deps.users.create({
      id: newUserId(),
      ...(input.address.channel === 'email' ? { email: input.address.value } : { phoneNumber: input.address.value }),
      name: input.name ?? defaultName(input.address),
      passwordHash: input.passwordHash,
      anonymous: false,
      createdAtMs: deps.clock.nowMs(),
    })
  } catch (error) {
    if (error instanceof UniqueViolationError) throw new AppError(GenericErrors.already_exists, { description: 'an account already uses this address', cause: error })
    throw error
  }
}

function defaultName(address: { channel: 'email' | 'phone'; value: string }): string {
  return address.channel === 'email' ? address.value.split('@')[0]! : `User ${address.value.slice(-4)}`
}

/** POST /v1/auth/signup/anonymously: an account with no address, limited per IP against abuse. */
export async function signUpAnonymously(deps: Deps, input: { client: RegisteredClient; ip: string; deviceId: string; origin?: SessionOrigin | undefined }): Promise<TokenReply> {
  const { count, ttlSeconds } = await deps.counters.increment(`signup:anonymous:ip:${input.ip}`, 3600)
  if (count > deps.config.anonymousSignUpsPerIpPerHour) {
    throw new AppError(GenericErrors.resource_exhausted, { description: 'too many anonymous accounts from this network', retryAfterSeconds: ttlSeconds })
  }
  const user = await deps.users.create({
    id: `${ANONYMOUS_SUB_PREFIX}${randomId(12).replace(/[-_]/g, 'x')}`,
    name: '',
    anonymous: true,
    createdAtMs: deps.clock.nowMs(),
  })
  return startSession(deps, { userId: user.id, client: input.client, deviceId: input.deviceId, origin: input.origin })
}
