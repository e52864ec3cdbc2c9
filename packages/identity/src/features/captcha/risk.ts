import type { IdentityDeps } from '../../deps.js'
import { lockoutKeys } from '../sign-in/lockout.js'
import { targetIdentifiers } from './captcha-target.js'

export type CaptchaRisk = 'low' | 'challenge' | 'reject'

export interface CaptchaRiskInput {
  clientId: string
  ip: string
  deviceId: string
  /** Normalised action. Every protected action shares one policy today; kept for per-action rules. */
  action: string
  /** The init call's `meta`: any JSON; only `username`, `email` and `phone_number` strings are read. */
  meta: unknown
}

/** The window of the per-IP init counter. */
export const CAPTCHA_INIT_WINDOW_SECONDS = 60

export const captchaInitKey = (ip: string) => `captcha:init:ip:${ip}`

/**
 * The account identifiers `meta` names, normalised exactly as sign-in normalises them for its
 * lockout counter, so "Ann@Example.com " here reads the counter "ann@example.com" increments.
 */
export const metaIdentifiers = targetIdentifiers

/**
 * The risk policy of captcha init (identity.md "Risk policy"). Counts this init against the
 * caller's IP (the one mutation): past `initPerIpPerMinute` the answer is 'reject'. Otherwise
 * mode `always` asks for a challenge, and mode `auto` asks for one once the sign-in failure
 * counter of the named account, the IP or the device reaches `challengeAfterFailures`.
 * Mode `off` is always 'low' and counts nothing.
 */
export async function assessCaptchaRisk(deps: Pick<IdentityDeps, 'config' | 'counters'>, input: CaptchaRiskInput): Promise<CaptchaRisk> {
  const { captcha } = deps.config
  if (captcha.mode === 'off') return 'low'
  const inits = await deps.counters.increment(captchaInitKey(input.ip), CAPTCHA_INIT_WINDOW_SECONDS)
  if (inits.count > captcha.initPerIpPerMinute) return 'reject'
  if (captcha.mode === 'always') return 'challenge'
  const keys = [lockoutKeys.ip(input.ip), ...metaIdentifiers(input.meta).map(lockoutKeys.account)]
  if (input.deviceId) keys.push(lockoutKeys.device(input.deviceId))
  const counts = await Promise.all(keys.map((key) => deps.counters.get(key)))
  return counts.some(({ count }) => count >= captcha.challengeAfterFailures) ? 'challenge' : 'low'
}
