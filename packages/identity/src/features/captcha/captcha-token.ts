import { AccountErrors, AppError } from '@cumulus/protocol'
import type { IdentityDeps } from '../../deps.js'
import { randomId } from '../../lib/secrets.js'
import { targetBindings, targetsMatch } from './captcha-target.js'
import { openSignedPayload, signPayload } from './signed-payload.js'

const TOKEN_KIND = 'ct1'

/** What a captcha token was issued for. */
export interface CaptchaTokenClaims {
  clientId: string
  /** '' when the token was issued without a device. */
  deviceId: string
  /** Normalised `METHOD:/path`. */
  action: string
  expiresAtSeconds: number
  /** Random id; the single-use claim is recorded under it. */
  jti: string
  /** Keyed hashes of the targets (account or address) it was issued for (captcha-target.ts); [] for none. */
  targetBindings: string[]
}

export interface IssuedCaptchaToken {
  captchaToken: string
  expiresIn: number
}

export interface IssueCaptchaTokenInput {
  clientId: string
  deviceId: string
  /** `METHOD:/path` or `METHOD:https://host/path`; normalised before signing. */
  action: string
  /** `targetBindings()` of the targets captcha init's `meta` named; absent or [] for none. */
  targetBindings?: readonly string[] | undefined
}

export interface VerifyCaptchaTokenInput {
  token: string
  clientId: string
  /** The device the call names (`x-device-id`); '' or absent when it names none, and then any device is accepted. */
  deviceId?: string | undefined
  /** The protected call's `METHOD:/path` (normalised here). */
  action: string
  /**
   * `targetIdentifiers()` of the call's body: the account or address it acts on. Absent or []
   * when it names none, and then only a token issued for no target is accepted.
   */
  targets?: readonly string[] | undefined
  /**
   * Spend the token. The captcha guard always does, so one solved check buys one call (one
   * password guess, one SMS); false only checks it (for tests and diagnostics).
   */
  singleUse: boolean
}

const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
const METHOD_PREFIX = /^([A-Za-z]+):(.*)$/s
const ABSOLUTE_URL = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//

/**
 * The path as the router sees it: no query or fragment, repeated slashes folded, no trailing
 * slash (the app ignores both, so `/v1/auth/signin/` is the same call as `/v1/auth/signin`).
 */
function actionPath(raw: string): string {
  let path = raw
  if (ABSOLUTE_URL.test(raw)) {
    try {
      path = new URL(raw).pathname
    } catch {
      // An unparsable URL still normalises to something; it just never matches a real call.
    }
  }
  path = path.split(/[?#]/, 1)[0] ?? ''
  if (!path.startsWith('/')) path = `/${path}`
  path = path.replace(/\/{2,}/g, '/')
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
}

/**
 * `METHOD:/path` with the method upper-cased; a full-URL action (`POST:https://host/v1/auth/signin`)
 * becomes its path (identity.md "Captcha"). Total: any string yields some action, never a throw.
 */
export function normalizeAction(action: string): string {
  const trimmed = action.trim()
  const match = METHOD_PREFIX.exec(trimmed)
  const method = match?.[1]?.toUpperCase()
  // In "https://host/path" the "https" is a scheme, not a method; in "POST://v1/x" POST is a method.
  if (!match || method === undefined || (match[2]!.startsWith('//') && !HTTP_METHODS.has(method))) return `:${actionPath(trimmed)}`
  return `${method}:${actionPath(match[2]!.trim())}`
}

function invalid(description: string): AppError {
  return new AppError(AccountErrors.captcha_invalid, { description })
}

function claimsOf(payload: Record<string, unknown> | null): CaptchaTokenClaims | null {
  if (!payload) return null
  const { cid, did, act, exp, jti, tgt = [] } = payload
  if (typeof cid !== 'string' || typeof did !== 'string' || typeof act !== 'string' || typeof jti !== 'string') return null
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return null
  if (!Array.isArray(tgt) || !tgt.every((b) => typeof b === 'string')) return null
  return { clientId: cid, deviceId: did, action: act, expiresAtSeconds: exp, jti, targetBindings: tgt as string[] }
}

/** Signs a captcha token for one client, device, action and target, valid for `config.captcha.tokenTtlSeconds`. */
export function issueCaptchaToken(deps: Pick<IdentityDeps, 'config' | 'clock' | 'hmacKey'>, input: IssueCaptchaTokenInput): IssuedCaptchaToken {
  const expiresIn = deps.config.captcha.tokenTtlSeconds
  const exp = Math.floor(deps.clock.nowMs() / 1000) + expiresIn
  const captchaToken = signPayload(deps.hmacKey, TOKEN_KIND, {
    cid: input.clientId,
    did: input.deviceId,
    act: normalizeAction(input.action),
    exp,
    jti: randomId(12),
    tgt: [...(input.targetBindings ?? [])],
  })
  return { captchaToken, expiresIn }
}

/**
 * Checks a captcha token against the call presenting it and returns its claims.
 * Throws captcha_invalid (4002) when it is malformed, badly signed, expired, issued to another
 * client, another device (only checked when the call names one), another action or another
 * target, or, with `singleUse`, already used. Mutates only the single-use claim, and only after
 * every other check passed, so a token shown to the wrong call is not burnt.
 */
export async function verifyCaptchaToken(deps: Pick<IdentityDeps, 'clock' | 'hmacKey' | 'counters'>, input: VerifyCaptchaTokenInput): Promise<CaptchaTokenClaims> {
  const claims = claimsOf(openSignedPayload(deps.hmacKey, TOKEN_KIND, input.token))
  if (!claims) throw invalid('captcha token is malformed or its signature does not match')
  const nowMs = deps.clock.nowMs()
  if (nowMs >= claims.expiresAtSeconds * 1000) throw invalid('captcha token has expired')
  if (claims.clientId !== input.clientId) throw invalid('captcha token was issued to another client')
  if (input.deviceId && claims.deviceId !== input.deviceId) throw invalid('captcha token was issued to another device')
  if (claims.action !== normalizeAction(input.action)) throw invalid(`captcha token was issued for ${claims.action}, not ${normalizeAction(input.action)}`)
  // Without this a check solved for one address pays for sends to every other address.
  if (!targetsMatch(claims.targetBindings, targetBindings(deps, input.targets ?? []))) throw invalid('captcha token was issued for another account or address')
  if (input.singleUse) {
    // The claim lives as long as the token could still be accepted; an atomic increment (Redis
    // INCR, or the in-process map) means a burst of parallel requests with one token lets
    // exactly one through.
    const remainingSeconds = Math.max(1, Math.ceil((claims.expiresAtSeconds * 1000 - nowMs) / 1000))
    const { count } = await deps.counters.increment(`captcha:used:${claims.jti}`, remainingSeconds)
    if (count > 1) throw invalid('captcha token was already used')
  }
  return claims
}
