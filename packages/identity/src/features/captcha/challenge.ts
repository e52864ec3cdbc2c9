import { createHash } from 'node:crypto'
import type { IdentityDeps } from '../../deps.js'
import { randomId } from '../../lib/secrets.js'
import { normalizeAction } from './captcha-token.js'
import { openSignedPayload, signPayload } from './signed-payload.js'

/**
 * The proof-of-work challenge: a signed, stateless string naming the client, device and action
 * the resulting captcha token will be for, its expiry and its difficulty. The browser finds a
 * nonce such that SHA-256(challenge + ':' + nonce) starts with `bits` zero bits.
 */

const CHALLENGE_KIND = 'cc1'

/** Paths of the challenge page and its verify call, relative to `config.publicUrl`. */
export const CHALLENGE_PAGE_PATH = '/captcha/challenge'
export const CHALLENGE_VERIFY_PATH = '/captcha/challenge/verify'

export interface ChallengeClaims {
  clientId: string
  deviceId: string
  action: string
  expiresAtSeconds: number
  /** Leading zero bits asked for, fixed at issue so a config change does not break open challenges. */
  bits: number
  jti: string
  /** Passed on to the token: the targets captcha init's `meta` named (captcha-target.ts). */
  targetBindings: string[]
}

/** `config.publicUrl` without a trailing slash; the service may live under a path prefix. */
export function publicBase(publicUrl: string): string {
  return publicUrl.replace(/\/+$/, '')
}

export function issueChallenge(
  deps: Pick<IdentityDeps, 'config' | 'clock' | 'hmacKey'>,
  input: {
    clientId: string
    deviceId: string
    action: string
    targetBindings?: readonly string[] | undefined
    /** The difficulty the risk asks for (risk.ts); `config.captcha.powDifficultyBits` when absent. */
    bits?: number | undefined
  },
): { challenge: string; expiresIn: number } {
  const expiresIn = deps.config.captcha.tokenTtlSeconds
  const challenge = signPayload(deps.hmacKey, CHALLENGE_KIND, {
    cid: input.clientId,
    did: input.deviceId,
    act: normalizeAction(input.action),
    exp: Math.floor(deps.clock.nowMs() / 1000) + expiresIn,
    bits: input.bits ?? deps.config.captcha.powDifficultyBits,
    jti: randomId(12),
    tgt: [...(input.targetBindings ?? [])],
  })
  return { challenge, expiresIn }
}

/** The page URL a captcha init answer sends the caller to (the caller adds redirect_uri and state). */
export function challengeUrl(deps: Pick<IdentityDeps, 'config'>, challenge: string): string {
  return `${publicBase(deps.config.publicUrl)}${CHALLENGE_PAGE_PATH}?${new URLSearchParams({ challenge })}`
}

/** The claims of a well-signed, unexpired challenge, or null. Does not mutate. */
export function findLiveChallenge(deps: Pick<IdentityDeps, 'clock' | 'hmacKey'>, challenge: string): ChallengeClaims | null {
  const payload = openSignedPayload(deps.hmacKey, CHALLENGE_KIND, challenge)
  if (!payload) return null
  const { cid, did, act, exp, bits, jti, tgt = [] } = payload
  if (typeof cid !== 'string' || typeof did !== 'string' || typeof act !== 'string' || typeof jti !== 'string') return null
  if (typeof exp !== 'number' || typeof bits !== 'number' || !Number.isInteger(bits) || bits < 0 || bits > 256) return null
  if (!Array.isArray(tgt) || !tgt.every((b) => typeof b === 'string')) return null
  if (deps.clock.nowMs() >= exp * 1000) return null
  return { clientId: cid, deviceId: did, action: act, expiresAtSeconds: exp, bits, jti, targetBindings: tgt as string[] }
}

export function leadingZeroBits(bytes: Uint8Array): number {
  let bits = 0
  for (const byte of bytes) {
    if (byte === 0) {
      bits += 8
      continue
    }
    return bits + Math.clz32(byte) - 24
  }
  return bits
}

/** Whether `nonce` solves `challenge` at `bits` of difficulty. One hash: cheap for the server. */
export function isProofOfWork(challenge: string, nonce: string, bits: number): boolean {
  return leadingZeroBits(createHash('sha256').update(`${challenge}:${nonce}`).digest()) >= bits
}
