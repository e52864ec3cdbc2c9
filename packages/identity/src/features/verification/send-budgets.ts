import { AppError, GenericErrors } from '@cumulus/protocol'
import type { IdentityDeps } from '../../deps.js'

/**
 * The budgets a verification send spends (issue 11: SMS and e-mail pumping). Each is a fixed-window
 * counter in the counter store (Redis when `REDIS_URL` is set, so every node shares it), reserved
 * with one atomic increment before anything is sent: a burst of parallel sends sees distinct
 * counts, so no more than the budget ever reach the mailer or the SMS provider. A read of recent
 * sends followed by an insert let 49 of 50 parallel sends through on PostgreSQL.
 */

export const sendBudgetKeys = {
  /** Sends from one client IP, per hour. */
  ip: (ip: string) => `verification:ip:${ip}`,
  /** The resend throttle: one send per address per `resendIntervalSeconds`. */
  resend: (address: string) => `verification:resend:${address}`,
  /** Sends to one address, per day. */
  address: (address: string) => `verification:address:${address}`,
  /** Sends of the whole service, per hour: the ceiling on what pumping can cost. */
  global: () => 'verification:global',
}

const HOUR_SECONDS = 3600
const DAY_SECONDS = 86_400

interface Budget {
  key: string
  limit: number
  windowSeconds: number
  description: string
}

function budgetsFor(deps: Pick<IdentityDeps, 'config'>, input: { address: string; ip: string }): Budget[] {
  const v = deps.config.verification
  const budgets: Budget[] = [
    { key: sendBudgetKeys.ip(input.ip), limit: v.maxPerIpPerHour, windowSeconds: HOUR_SECONDS, description: 'too many codes requested from this network; try again later' },
  ]
  if (v.resendIntervalSeconds > 0) {
    budgets.push({ key: sendBudgetKeys.resend(input.address), limit: 1, windowSeconds: v.resendIntervalSeconds, description: 'a code was sent to this address moments ago; wait before asking again' })
  }
  budgets.push(
    { key: sendBudgetKeys.address(input.address), limit: v.maxPerAddressPerDay, windowSeconds: DAY_SECONDS, description: 'too many codes sent to this address today' },
    { key: sendBudgetKeys.global(), limit: v.maxGlobalPerHour, windowSeconds: HOUR_SECONDS, description: 'the service is sending too many codes right now; try again later' },
  )
  return budgets
}

/**
 * Reserves one send from every budget of this send (per IP, the resend throttle and the daily
 * budget of the address, the global budget), or none. Over any budget it gives back what it had
 * reserved, so refused sends do not spend a victim's address budget or the global one, and throws
 * resource_exhausted (8, HTTP 429) with Retry-After set to the time left in that budget's window.
 * A reservation is kept once the send is attempted, even if delivery then fails.
 */
export async function reserveSendBudgets(deps: Pick<IdentityDeps, 'config' | 'counters'>, input: { address: string; ip: string }): Promise<void> {
  const reserved: string[] = []
  for (const budget of budgetsFor(deps, input)) {
    const { count, ttlSeconds } = await deps.counters.increment(budget.key, budget.windowSeconds)
    reserved.push(budget.key)
    if (count > budget.limit) {
      await Promise.all(reserved.map((key) => deps.counters.decrement(key)))
      throw new AppError(GenericErrors.resource_exhausted, { description: budget.description, retryAfterSeconds: Math.max(1, ttlSeconds) })
    }
  }
}
