import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import type { ShareStatus } from '@cumulus/protocol'
import type { ShareRow } from '../../db/schema.js'
import type { DriveDeps } from '../../deps.js'
import { shareStanding } from '../../domain/index.js'

type Deps = Pick<DriveDeps, 'db' | 'clock' | 'linkSecret' | 'counters'>

/**
 * Pass-code guesses are counted before they are compared, so however many arrive at once no more
 * than these are ever compared within a window; a right code gives its guesses back.
 * - `perAddress`, over every share: one address cannot sweep many shares.
 * - `perShareAddress`: one address's tries at one share (a visitor's typos fit easily).
 * - `perShare`, over every address: what guessing one share can ever reach. A generated code
 *   (36^6) then takes about two centuries on average. Locking a share against new visitors (those
 *   already holding a token are not affected) takes perShare / perShareAddress addresses at once.
 * An IPv6 address counts by its /64: one host is given a whole /64, so one address is one host.
 */
export const PASS_CODE_GUESSES = { perAddress: 30, perShareAddress: 10, perShare: 100, windowSeconds: 600 } as const

/** How long a pass-code token opens its share: a visitor keeps browsing without typing the code again. */
export const PASS_CODE_TOKEN_TTL_SECONDS = 24 * 3600

const CODE_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'
export const GENERATED_PASS_CODE_LENGTH = 6

/** A new random pass code: 6 lower-case letters and digits (short to type, and past guessing within the budgets). */
export function newPassCode(): string {
  let code = ''
  for (let i = 0; i < GENERATED_PASS_CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]
  return code
}

/** The key an address is counted under: IPv4 as it is, IPv6 by its /64 (IPv4-mapped IPv6 as IPv4). */
export function guessAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)
  if (mapped) return mapped[1] as string
  if (!ip.includes(':')) return ip
  const [head = '', tail] = ip.split('::', 2) as [string, string | undefined]
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

function tokenSignature(secret: string, shareId: string, expiresAtSeconds: number, passCode: string): Buffer {
  // The code is inside the signature: a token opens the share only with the code it was made for.
  return createHmac('sha256', secret).update(`cumulus-share-pass\n${shareId}\n${expiresAtSeconds}\n${passCode}`).digest()
}

export function passCodeToken(deps: Pick<DriveDeps, 'clock' | 'linkSecret'>, share: Pick<ShareRow, 'id' | 'pass_code'>): string {
  const expiresAtSeconds = Math.floor(deps.clock.nowMs() / 1000) + PASS_CODE_TOKEN_TTL_SECONDS
  return `${expiresAtSeconds}.${tokenSignature(deps.linkSecret, share.id, expiresAtSeconds, share.pass_code).toString('base64url')}`
}

export function isPassCodeToken(deps: Pick<DriveDeps, 'clock' | 'linkSecret'>, share: Pick<ShareRow, 'id' | 'pass_code'>, token: string): boolean {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token)
  if (!match) return false
  const expiresAtSeconds = Number(match[1])
  if (Math.floor(deps.clock.nowMs() / 1000) > expiresAtSeconds) return false
  const given = Buffer.from(match[2] as string, 'base64url')
  const expected = tokenSignature(deps.linkSecret, share.id, expiresAtSeconds, share.pass_code)
  return given.byteLength === expected.byteLength && timingSafeEqual(given, expected)
}

/** Constant-time equality of two codes of any length (both are hashed to the same size first). */
function sameCode(secret: string, a: string, b: string): boolean {
  const digest = (value: string) => createHmac('sha256', secret).update(value).digest()
  return timingSafeEqual(digest(a), digest(b))
}

export interface ShareRequest {
  shareId: string
  /** The code the visitor typed, if any. */
  passCode?: string | undefined
  passCodeToken?: string | undefined
  /** The visitor's address, for the guess budget. */
  ip: string
}

export type ShareAccess =
  | { status: 'OK'; share: ShareRow; passCodeToken: string; rootIds: string[] }
  | { status: Exclude<ShareStatus, 'OK'>; share: ShareRow | null; throttled?: boolean }

/**
 * Opens a share for a visitor (no account needed): its standing, then its pass code, given as a
 * token from an earlier call or typed now. Every guess of a code is counted before it is compared
 * (PASS_CODE_GUESSES); past either budget the answer is PASS_CODE_ERROR without comparing.
 */
export async function openShare(deps: Deps, request: ShareRequest): Promise<ShareAccess> {
  const standing = await shareStanding(deps, request.shareId)
  if (standing.status !== 'OK') return { status: standing.status, share: standing.share }
  const share = standing.share as ShareRow
  const ok = (token: string): ShareAccess => ({ status: 'OK', share, passCodeToken: token, rootIds: standing.rootIds })
  if (share.pass_code === '') return ok('')
  if (request.passCodeToken && isPassCodeToken(deps, share, request.passCodeToken)) return ok(request.passCodeToken)
  const typed = request.passCode ?? ''
  if (typed === '') return { status: 'PASS_CODE_EMPTY', share }

  const address = guessAddressKey(request.ip)
  const keys = [`drive:share-guess-ip:${address}`, `drive:share-guess:${share.id}:${address}`, `drive:share-guess:${share.id}`]
  const limits = [PASS_CODE_GUESSES.perAddress, PASS_CODE_GUESSES.perShareAddress, PASS_CODE_GUESSES.perShare]
  // In order, each spent only when the one before allowed the guess: guesses an address's
  // budgets hold back never reach the share's, so one address cannot lock a share.
  for (const [i, key] of keys.entries()) {
    const { count } = await deps.counters.increment(key, PASS_CODE_GUESSES.windowSeconds)
    if (count > (limits[i] as number)) return { status: 'PASS_CODE_ERROR', share, throttled: true }
  }
  if (!sameCode(deps.linkSecret, typed, share.pass_code)) return { status: 'PASS_CODE_ERROR', share }
  // A right code is not a guess against the budget: the owner's friends do not lock each other out.
  await Promise.all(keys.map((key) => deps.counters.decrement(key)))
  return ok(passCodeToken(deps, share))
}
