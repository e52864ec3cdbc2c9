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

export interface CaptchaRiskAssessment {
  risk: CaptchaRisk
  /**
   * The leading zero bits a challenge asks for: `powDifficultyBits`, plus one (twice the work)
   * for each failure past the challenge threshold, capped at `powMaxDifficultyBits` so a phone
   * still solves it in seconds. Only meaningful when `risk` is 'challenge'.
   */
  powBits: number
}

/**
 * The failures of a caller, in account failures: the most of the named accounts' (from anywhere
 * and from this IP) and the device's counts, and the IP's risk count scaled by
 * `challengeAfterFailures / challengeAfterIpFailures`. The IP is shared by everyone behind a NAT
 * or an office proxy, so its threshold is much higher, and its risk count takes at most
 * `challengeAfterFailures` from each (account, IP) pair (decision 018): one user's typos, however
 * many, do not put their neighbours behind a challenge; a spray across accounts does.
 */
function failureScore(captcha: IdentityDeps['config']['captcha'], counts: { ip: number; others: number[] }): number {
  const ipScore = Math.floor((counts.ip * captcha.challengeAfterFailures) / Math.max(1, captcha.challengeAfterIpFailures))
  return Math.max(ipScore, ...counts.others)
}

/**
 * The risk policy of captcha init (identity.md "Risk policy"), assessed for the (account, IP) pair
 * of the call (and its device). Counts this init against the caller's IP (the one mutation): past
 * `initPerIpPerMinute` the answer is 'reject'. Otherwise mode `always` asks for a challenge, and
 * mode `auto` asks for one once the sign-in failures of a named account (from any IP, or from
 * this one), or of the device, reach `challengeAfterFailures`, or the IP's risk count reaches
 * `challengeAfterIpFailures`. The challenge's cost grows with the failures past that point
 * (`powBits`). Mode `off` is always 'low' and counts nothing.
 */
export async function assessCaptchaRisk(deps: Pick<IdentityDeps, 'config' | 'counters'>, input: CaptchaRiskInput): Promise<CaptchaRiskAssessment> {
  const { captcha } = deps.config
  const base = captcha.powDifficultyBits
  if (captcha.mode === 'off') return { risk: 'low', powBits: base }
  const inits = await deps.counters.increment(captchaInitKey(input.ip), CAPTCHA_INIT_WINDOW_SECONDS)
  if (inits.count > captcha.initPerIpPerMinute) return { risk: 'reject', powBits: base }
  const identifiers = metaIdentifiers(input.meta)
  // The pair's own count, besides the account's: the account's window may have started earlier,
  // elsewhere, and run out while this IP's failures on it are still counted.
  const otherKeys = [...identifiers.map(lockoutKeys.account), ...identifiers.map((identifier) => lockoutKeys.accountAtIp(identifier, input.ip))]
  if (input.deviceId) otherKeys.push(lockoutKeys.device(input.deviceId))
  const [ip, ...others] = await Promise.all([lockoutKeys.ipRisk(input.ip), ...otherKeys].map(async (key) => (await deps.counters.get(key)).count))
  const score = failureScore(captcha, { ip: ip ?? 0, others })
  const powBits = Math.min(Math.max(base, captcha.powMaxDifficultyBits), base + Math.max(0, score - captcha.challengeAfterFailures))
  if (captcha.mode === 'always') return { risk: 'challenge', powBits }
  return { risk: score >= captcha.challengeAfterFailures ? 'challenge' : 'low', powBits }
}
