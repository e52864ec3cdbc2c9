import { createHash } from 'node:crypto'
import type { FetchFunction } from './real-service.js'

/**
 * Plays the part of a person in the captcha frame: loads the challenge page the SDK was given,
 * does the proof of work the page's script would do, and posts it to the page's verify call.
 */

export interface ChallengePageConfig {
  challenge: string
  bits: number
  valid: boolean
  redirectUri: string
  state: string
  verifyUrl: string
}

export interface SolvedChallenge {
  captchaToken: string
  expiresIn: number
  /** The `state` the page sent back (what the SDK put on the URL). */
  state: string
  /** Difficulty the challenge asked for. */
  bits: number
  /** The challenge page's URL as the SDK handed it to onCaptcha. */
  url: string
}

/** The JSON inside a `cc1.<base64url JSON>.<mac>` challenge. */
export function challengeClaims(challenge: string): { bits: number; act: string; did: string; cid: string; exp: number } {
  const [kind, body] = challenge.split('.')
  if (kind !== 'cc1' || !body) throw new Error(`not a challenge: ${challenge}`)
  return JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
}

function leadingZeroBits(bytes: Uint8Array): number {
  let bits = 0
  for (const byte of bytes) {
    if (byte !== 0) return bits + Math.clz32(byte) - 24
    bits += 8
  }
  return bits
}

/** The first decimal nonce such that SHA-256(challenge + ':' + nonce) starts with `bits` zero bits. */
export function proofOfWork(challenge: string, bits: number): string {
  // The prefix is hashed once; each try continues from a copy of that state.
  const prefix = createHash('sha256').update(`${challenge}:`)
  for (let nonce = 0; ; nonce++) {
    if (leadingZeroBits(prefix.copy().update(String(nonce)).digest()) >= bits) return String(nonce)
  }
}

/** The settings block the challenge page hands its script. */
export function pageConfig(html: string): ChallengePageConfig {
  const match = /<script type="application\/json" id="captcha-config">([\s\S]*?)<\/script>/.exec(html)
  if (!match) throw new Error('the challenge page has no captcha-config block')
  return JSON.parse(match[1]!) as ChallengePageConfig
}

/** Loads the page at `url` through `fetch`, solves it and verifies; throws when the service refuses. */
export async function solveCaptcha(fetch: FetchFunction, url: string): Promise<SolvedChallenge> {
  const page = await fetch(url, { headers: { accept: 'text/html' } })
  if (page.status !== 200) throw new Error(`challenge page answered ${page.status}`)
  const config = pageConfig(await page.text())
  // The page reads the challenge from the URL's `challenge` parameter; both must agree.
  const fromUrl = new URL(url).searchParams.get('challenge')
  if (fromUrl !== config.challenge) throw new Error('the page and its URL name different challenges')
  if (!config.valid) throw new Error('the challenge page says the challenge is expired or invalid')
  const { bits } = challengeClaims(config.challenge)
  const nonce = proofOfWork(config.challenge, bits)
  const verified = await fetch(new URL(config.verifyUrl, url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ challenge: config.challenge, nonce, redirect_uri: config.redirectUri, state: config.state }),
  })
  const body = (await verified.json()) as { captcha_token?: string; expires_in?: number; state?: string }
  if (verified.status !== 200 || typeof body.captcha_token !== 'string') throw new Error(`challenge verify answered ${verified.status}: ${JSON.stringify(body)}`)
  return { captchaToken: body.captcha_token, expiresIn: body.expires_in ?? 0, state: body.state ?? '', bits, url }
}
