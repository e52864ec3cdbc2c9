import { setTimeout as sleep } from 'node:timers/promises'
import { AccountErrors, AppError, GenericErrors } from '@cumulus/protocol'
import type { IdentityDeps } from '../../deps.js'
import { lockoutKeys } from './lockout.js'

type Deps = Pick<IdentityDeps, 'config' | 'counters' | 'hasher'>

/**
 * How long a place held by a check in flight lasts at most. A check holds it for one hash; this
 * only bounds how long a node that crashed mid-check keeps the place (decision 015).
 */
export const PENDING_WINDOW_SECONDS = 60

/**
 * A check that finds every free place taken by checks in flight waits for one to settle,
 * polling with growing pauses (about 6 s in all) before it gives up with resource_exhausted.
 */
const MAX_ADMISSION_ROUNDS = 150
const MAX_PAUSE_MS = 50

export interface PasswordCheck {
  /** The account identifiers this check counts against: what was typed, and every identifier of the account. */
  accountIdentifiers: string[]
  ip: string
  /** Counted on failure (captcha escalation); '' for none. */
  deviceId: string
  password: string
  /** The hash to compare with, or null (unknown user, no password): a decoy hash is computed instead. */
  passwordHash: string | null
}

interface Budget {
  failureKey: string
  pendingKey: string
  limit: number
  blocked: (retryAfterSeconds: number) => AppError
}

/**
 * The one place identity compares a password with an account's hash (sign-in, sudo, password
 * change). Returns whether it matches; throws `user_blocked` (account) or `invalid_status` (IP),
 * with Retry-After, once the failures in the window reach the limit. Every path computes exactly
 * one argon2id hash, so the time of a reply tells nothing.
 *
 * Only failures count, and the limit holds under any burst: before the hash, a check takes one
 * of the places the limit leaves (`limit − failures − checks in flight`) by incrementing the
 * pending counter and reading the failures; a failure moves its place into the failure counter
 * (counted before the place is given back, so it is never free twice), a success gives it back.
 * When no place is free but the failures are under the limit, the check waits for one in flight
 * to settle rather than being refused: a burst of correct passwords all get through, and a burst
 * of wrong ones gets at most `limit` comparisons with the real hash.
 */
export async function checkPassword(deps: Deps, check: PasswordCheck): Promise<boolean> {
  const { lockout } = deps.config
  const budgets: Budget[] = [
    ...[...new Set(check.accountIdentifiers)].map((identifier) => {
      const failureKey = lockoutKeys.account(identifier)
      return {
        failureKey,
        pendingKey: lockoutKeys.pending(failureKey),
        limit: lockout.maxFailuresPerAccount,
        blocked: (retryAfterSeconds: number) => new AppError(AccountErrors.user_blocked, { description: 'too many failed password checks for this account', retryAfterSeconds }),
      }
    }),
    {
      failureKey: lockoutKeys.ip(check.ip),
      pendingKey: lockoutKeys.pending(lockoutKeys.ip(check.ip)),
      limit: lockout.maxFailuresPerIp,
      blocked: (retryAfterSeconds: number) => new AppError(AccountErrors.invalid_status, { description: 'too many failed password checks from this network', retryAfterSeconds }),
    },
  ]

  const refusal = await takePlace(deps, budgets)
  if (refusal) {
    await deps.hasher.verifyDecoy(check.password)
    throw refusal
  }
  let matches = false
  try {
    matches = check.passwordHash ? await deps.hasher.verify(check.passwordHash, check.password) : await deps.hasher.verifyDecoy(check.password)
  } finally {
    await settle(deps, budgets, matches, check)
  }
  return matches
}

/** Takes one place in every budget, waiting while only checks in flight fill them; or returns the refusal. */
async function takePlace(deps: Deps, budgets: Budget[]): Promise<AppError | null> {
  const { counters } = deps
  for (let round = 0; ; round++) {
    if (round > 0) {
      // Look before reserving, so that waiters polling do not crowd each other out with places
      // they would give back at once.
      const [pending, failures] = await Promise.all([Promise.all(budgets.map((b) => counters.get(b.pendingKey))), Promise.all(budgets.map((b) => counters.get(b.failureKey)))])
      const refusal = refusalOf(budgets, failures)
      if (refusal) return refusal
      if (budgets.some((b, i) => pending[i]!.count + failures[i]!.count >= b.limit)) {
        if (round >= MAX_ADMISSION_ROUNDS) return busy()
        await pause(round)
        continue
      }
    }
    // The pending counts are read by the increment and the failures after it: a place that moves
    // from one to the other in between is counted twice (safe), never missed. Both are issued at
    // once (one round trip to Redis): the store applies them in call order.
    const increments = Promise.all(budgets.map((b) => counters.increment(b.pendingKey, PENDING_WINDOW_SECONDS)))
    const reads = Promise.all(budgets.map((b) => counters.get(b.failureKey)))
    const [pending, failures] = await Promise.all([increments, reads])
    if (budgets.every((b, i) => pending[i]!.count + failures[i]!.count <= b.limit)) return null
    await Promise.all(budgets.map((b) => counters.decrement(b.pendingKey)))
    const refusal = refusalOf(budgets, failures)
    if (refusal) return refusal
    if (round >= MAX_ADMISSION_ROUNDS) return busy()
    await pause(round)
  }
}

function refusalOf(budgets: Budget[], failures: { count: number; ttlSeconds: number }[]): AppError | null {
  const index = budgets.findIndex((b, i) => failures[i]!.count >= b.limit)
  return index < 0 ? null : budgets[index]!.blocked(failures[index]!.ttlSeconds)
}

function busy(): AppError {
  return new AppError(GenericErrors.resource_exhausted, { description: 'too many password checks for this account at once; retry shortly', retryAfterSeconds: 1 })
}

function pause(round: number): Promise<void> {
  // Jitter spreads waiters that started together.
  return sleep(Math.min(2 ** Math.min(round, 6), MAX_PAUSE_MS) + Math.random() * 5)
}

async function settle(deps: Deps, budgets: Budget[], matched: boolean, check: PasswordCheck): Promise<void> {
  const { counters, config } = deps
  const identifiers = [...new Set(check.accountIdentifiers)]
  // The outcome is counted before the places are given back; the store applies calls in order,
  // so both go out at once (one round trip to Redis) and a freed place never meets an uncounted
  // failure.
  const outcome = matched
    ? // A success clears the account's failures, from everywhere and from this IP; the IP's stay
      // (one account's owner says nothing about the other guesses from that network).
      Promise.all([
        ...budgets.slice(0, -1).map((b) => counters.reset(b.failureKey)),
        ...identifiers.map((identifier) => counters.reset(lockoutKeys.accountAtIp(identifier, check.ip))),
      ])
    : Promise.all([
        ...budgets.map((b) => counters.increment(b.failureKey, config.lockout.windowSeconds)),
        ...(check.deviceId ? [counters.increment(lockoutKeys.device(check.deviceId), config.lockout.windowSeconds)] : []),
        countCaptchaRisk(deps, identifiers, check.ip),
      ])
  const release = Promise.all(budgets.map((b) => counters.decrement(b.pendingKey)))
  await Promise.all([outcome, release])
}

/**
 * Counts a failure for captcha init's risk (decision 018): against each (account identifier, IP)
 * pair, and against the IP's risk only while it is among the first `challengeAfterFailures` of
 * one of those pairs. Each count is one atomic increment, so a burst counts every failure once
 * and one pair never gives its IP more than `challengeAfterFailures`, however many run at once.
 */
async function countCaptchaRisk(deps: Deps, identifiers: string[], ip: string): Promise<void> {
  const { counters, config } = deps
  const pairs = await Promise.all(identifiers.map((identifier) => counters.increment(lockoutKeys.accountAtIp(identifier, ip), config.lockout.windowSeconds)))
  const fewest = Math.min(...pairs.map((pair) => pair.count))
  if (fewest <= config.captcha.challengeAfterFailures) await counters.increment(lockoutKeys.ipRisk(ip), config.lockout.windowSeconds)
}
