import { setTimeout as sleep } from 'node:timers/promises'
import { AccountErrors, AppError, GenericErrors } from '@cumulus/protocol'
import type { CounterReading } from '../../counters/counter-store.js'
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
      const readings = await counters.batch([...budgets.map((b) => ({ op: 'get' as const, key: b.pendingKey })), ...budgets.map((b) => ({ op: 'get' as const, key: b.failureKey }))])
      const pending = readings.slice(0, budgets.length) as CounterReading[]
      const failures = readings.slice(budgets.length) as CounterReading[]
      const refusal = refusalOf(budgets, failures)
      if (refusal) return refusal
      if (budgets.some((b, i) => pending[i]!.count + failures[i]!.count >= b.limit)) {
        if (round >= MAX_ADMISSION_ROUNDS) return busy()
        await pause(round)
        continue
      }
    }
    // One atomic batch (one command to Redis): the places are taken and the failures read in the
    // same step, so no place moves from one counter to the other in between.
    const readings = await counters.batch([
      ...budgets.map((b) => ({ op: 'increment' as const, key: b.pendingKey, windowSeconds: PENDING_WINDOW_SECONDS })),
      ...budgets.map((b) => ({ op: 'get' as const, key: b.failureKey })),
    ])
    const pending = readings.slice(0, budgets.length) as CounterReading[]
    const failures = readings.slice(budgets.length) as CounterReading[]
    if (budgets.every((b, i) => pending[i]!.count + failures[i]!.count <= b.limit)) return null
    await counters.batch(budgets.map((b) => ({ op: 'decrement' as const, key: b.pendingKey })))
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
  const window = config.lockout.windowSeconds
  // One atomic batch: the outcome is counted and the places are given back in the same step, so a
  // freed place never meets an uncounted failure.
  const release = budgets.map((b) => ({ op: 'decrement' as const, key: b.pendingKey }))
  if (matched) {
    // A success clears the account's failures, from everywhere and from this IP; the IP's stay
    // (one account's owner says nothing about the other guesses from that network).
    await counters.batch([
      ...budgets.slice(0, -1).map((b) => ({ op: 'reset' as const, key: b.failureKey })),
      ...identifiers.map((identifier) => ({ op: 'reset' as const, key: lockoutKeys.accountAtIp(identifier, check.ip) })),
      ...release,
    ])
    return
  }
  const failures = [
    ...budgets.map((b) => ({ op: 'increment' as const, key: b.failureKey, windowSeconds: window })),
    ...(check.deviceId ? [{ op: 'increment' as const, key: lockoutKeys.device(check.deviceId), windowSeconds: window }] : []),
  ]
  // Captcha init's risk per (account identifier, IP) pair (decision 018).
  const pairSteps = identifiers.map((identifier) => ({ op: 'increment' as const, key: lockoutKeys.accountAtIp(identifier, check.ip), windowSeconds: window }))
  const readings = await counters.batch([...failures, ...pairSteps, ...release])
  await countIpRisk(deps, readings.slice(failures.length, failures.length + pairSteps.length) as CounterReading[], check.ip)
}

/**
 * Counts a failure against the IP's captcha risk (decision 018) only while it is among the first
 * `challengeAfterFailures` of one of its (account, IP) pairs: each pair count came from one
 * atomic increment, so a burst counts every failure once and one pair never gives its IP more
 * than `challengeAfterFailures`, however many run at once.
 */
async function countIpRisk(deps: Deps, pairs: CounterReading[], ip: string): Promise<void> {
  const { counters, config } = deps
  const fewest = Math.min(...pairs.map((pair) => pair.count))
  if (fewest <= config.captcha.challengeAfterFailures) await counters.increment(lockoutKeys.ipRisk(ip), config.lockout.windowSeconds)
}
