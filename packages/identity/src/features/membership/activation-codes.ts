import { createHash } from 'node:crypto'
import { type ActivationCodeReply, AppError, DriveErrors, GenericErrors } from '@cumulus/protocol'
import type { IdentityDeps } from '../../deps.js'
import type { AuthContext } from '../tokens/sessions.js'
import type { CallerContext } from '../../http/request-context.js'
import { toRfc3339 } from '../../lib/clock.js'
import { normaliseCode, randomCode } from './crockford.js'

/**
 * Activation codes (drive.md "Membership"): the operator makes them with
 * `cumulus vip codes create`, hands them out, and a signed-in user redeems one for days of
 * membership. A code is 16 Crockford base-32 characters (80 random bits), shown in groups of
 * four; only its SHA-256 is stored.
 */

const CODE_LENGTH = 16
const DAY_MS = 86_400_000

export const MAX_CODE_DAYS = 36_500
export const MAX_CODES_PER_RUN = 100_000
/** How long an unredeemed code stays valid unless the operator says otherwise. */
export const DEFAULT_CODE_VALID_DAYS = 365

/**
 * Redemptions an account, and an address, may try in REDEEM_WINDOW_SECONDS, successful or not:
 * counted before the code is looked at, so a burst of parallel guesses gets no more tries than
 * a sequence. With 80-bit codes this makes guessing hopeless; it also stops a script.
 */
export const REDEEM_ATTEMPTS_PER_ACCOUNT = 10
export const REDEEM_ATTEMPTS_PER_ADDRESS = 30
export const REDEEM_WINDOW_SECONDS = 3600

function formatCode(raw: string): string {
  return raw.match(/.{4}/g)!.join('-')
}

/** An activation code as typed, made canonical (see crockford.ts), or null when it cannot be one. */
export function normaliseActivationCode(input: string): string | null {
  return normaliseCode(input, CODE_LENGTH)
}

export function codeHash(normalised: string): string {
  return createHash('sha256').update(`cumulus-vip-code:${normalised}`).digest('hex')
}

export interface CreateCodesInput {
  plan: string
  days: number
  count: number
  /** Days the codes stay redeemable. */
  validDays?: number
}

/** Makes `count` codes and stores their hashes; returns the codes, formatted, for the operator to hand out. */
export async function createActivationCodes(deps: Pick<IdentityDeps, 'memberships' | 'clock' | 'config'>, input: CreateCodesInput): Promise<string[]> {
  const plans = deps.config.plans
  const level = Object.hasOwn(plans, input.plan) ? plans[input.plan] : undefined
  if (level === undefined) throw new AppError(GenericErrors.invalid_argument, { description: `unknown plan ${input.plan} (plans: ${Object.keys(plans).join(', ')})`, metadata: { field: 'plan' } })
  if (!Number.isInteger(input.days) || input.days < 1 || input.days > MAX_CODE_DAYS) {
    throw new AppError(GenericErrors.invalid_argument, { description: `days must be a whole number from 1 to ${MAX_CODE_DAYS}`, metadata: { field: 'days' } })
  }
  if (!Number.isInteger(input.count) || input.count < 1 || input.count > MAX_CODES_PER_RUN) {
    throw new AppError(GenericErrors.invalid_argument, { description: `count must be a whole number from 1 to ${MAX_CODES_PER_RUN}`, metadata: { field: 'count' } })
  }
  const validDays = input.validDays ?? DEFAULT_CODE_VALID_DAYS
  if (!Number.isInteger(validDays) || validDays < 1 || validDays > MAX_CODE_DAYS) {
    throw new AppError(GenericErrors.invalid_argument, { description: `valid days must be a whole number from 1 to ${MAX_CODE_DAYS}`, metadata: { field: 'validDays' } })
  }
  const nowMs = deps.clock.nowMs()
  const codes = new Set<string>()
  while (codes.size < input.count) {
    codes.add(randomCode(CODE_LENGTH))
  }
  const list = [...codes]
  await deps.memberships.addCodes(
    list.map((raw) => ({ codeHash: codeHash(raw), vasType: input.plan, level, days: input.days, expiresAtMs: nowMs + validDays * DAY_MS })),
    nowMs,
  )
  return list.map(formatCode)
}

/** `POST /vip/v1/order/activation-code`: redeems a code for the signed-in account; the days add to what is left. */
export async function redeemActivationCode(deps: Pick<IdentityDeps, 'memberships' | 'clock' | 'counters'>, auth: AuthContext, caller: CallerContext, input: string): Promise<ActivationCodeReply> {
  const userId = auth.user.id
  const [account, address] = await Promise.all([
    deps.counters.increment(`vip-code:account:${userId}`, REDEEM_WINDOW_SECONDS),
    deps.counters.increment(`vip-code:ip:${caller.ip}`, REDEEM_WINDOW_SECONDS),
  ])
  const over = [account.count > REDEEM_ATTEMPTS_PER_ACCOUNT ? account.ttlSeconds : 0, address.count > REDEEM_ATTEMPTS_PER_ADDRESS ? address.ttlSeconds : 0]
  if (over.some((ttl) => ttl > 0)) {
    throw new AppError(GenericErrors.resource_exhausted, { description: 'too many activation code attempts; try again later', retryAfterSeconds: Math.max(1, ...over) })
  }
  const normalised = normaliseActivationCode(input)
  if (normalised === null) throw new AppError(DriveErrors.activation_code_invalid, { description: 'not an activation code', metadata: { field: 'activation_code' } })
  const nowMs = deps.clock.nowMs()
  const result = await deps.memberships.redeemCode(codeHash(normalised), userId, nowMs)
  if (result.kind === 'used') throw new AppError(DriveErrors.activation_code_used, { description: 'this code was redeemed already' })
  if (result.kind === 'unknown') throw new AppError(DriveErrors.activation_code_invalid, { description: 'no such code, or it has expired' })
  return {
    add_days: result.days,
    code: formatCode(normalised),
    data: { expire: toRfc3339(result.membership.expiresAtMs), status: result.membership.expiresAtMs > nowMs ? 'ok' : 'invalid', type: result.membership.vasType, user_id: userId },
  }
}
