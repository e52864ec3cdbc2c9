import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import { FOLDER_KIND, type ShareStatus } from '@cumulus/protocol'
import { type Kysely, type Transaction, sql } from 'kysely'
import type { DriveDatabase, FilesTable, ShareRow } from '../../db/schema.js'
import type { DriveDeps } from '../../deps.js'
import { isAccountHeld } from '../../domain/index.js'
import { isId } from '../../lib/ids.js'

type Db = Kysely<DriveDatabase> | Transaction<DriveDatabase>
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

/** The share's top-level items that are still live (not trashed, not an unfinished upload), in no order. */
export async function liveRootIds(db: Db, share: Pick<ShareRow, 'id' | 'user_id'>): Promise<string[]> {
  const rows = await db
    .selectFrom('drive_share_items')
    .innerJoin('drive_files', 'drive_files.id', 'drive_share_items.file_id')
    .select('drive_files.id')
    .where('drive_share_items.share_id', '=', share.id)
    .where('drive_files.user_id', '=', share.user_id)
    .where('drive_files.trashed', '=', 0)
    .where(sql<boolean>`(drive_files.kind = ${FOLDER_KIND} or drive_files.phase = 'PHASE_TYPE_COMPLETE')`)
    .execute()
  return rows.map((r) => r.id)
}

/** Where a share stands without its pass code: gone, expired, emptied, or open to whoever has the code. */
export async function shareStanding(deps: Pick<DriveDeps, 'db' | 'clock'>, shareId: string): Promise<{ status: 'OK' | 'DELETED' | 'EXPIRED' | 'NOT_FOUND'; share: ShareRow | null; rootIds: string[] }> {
  if (!isId(shareId)) return { status: 'NOT_FOUND', share: null, rootIds: [] }
  const share = await deps.db.selectFrom('drive_shares').selectAll().where('id', '=', shareId).executeTakeFirst()
  if (!share) return { status: 'NOT_FOUND', share: null, rootIds: [] }
  if (share.deleted_at !== null) return { status: 'DELETED', share, rootIds: [] }
  // An owner frozen for deletion shares nothing (and an erased one has no shares left).
  if (await isAccountHeld(deps, share.user_id)) return { status: 'NOT_FOUND', share: null, rootIds: [] }
  if (share.expires_at !== null && deps.clock.nowMs() >= Number(share.expires_at)) return { status: 'EXPIRED', share, rootIds: [] }
  const rootIds = await liveRootIds(deps.db, share)
  if (rootIds.length === 0) return { status: 'DELETED', share, rootIds }
  return { status: 'OK', share, rootIds }
}

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

/** The deepest a share's item is looked for under its top-level item (as search's paths, a bound on the work one request can ask for). */
export const SHARE_MAX_DEPTH = 512

/**
 * What the climbs of one request learnt: which folders lie in the share (true) or not (false),
 * and each climbed item's parent, so the next climb stops where an earlier one passed.
 */
export interface ShareCache {
  inShare: Map<string, boolean>
  parentOf: Map<string, string>
}

export const newShareCache = (): ShareCache => ({ inShare: new Map(), parentOf: new Map() })

/**
 * The owner's live item `fileId` when it lies in the share: one of its top-level items, or under
 * one of them (climbing one primary-key read per level, at most SHARE_MAX_DEPTH, each folder read
 * once per `cache`). Undefined otherwise: trashed, moved out, an unfinished upload, or never in it.
 */
export async function itemInShare(db: Db, share: Pick<ShareRow, 'user_id'>, rootIds: readonly string[], fileId: string, cache: ShareCache = newShareCache()): Promise<FilesTable | undefined> {
  if (!isId(fileId)) return undefined
  const item = await db.selectFrom('drive_files').selectAll().where('id', '=', fileId).where('user_id', '=', share.user_id).where('trashed', '=', 0).executeTakeFirst()
  if (!item || (item.kind !== FOLDER_KIND && item.phase !== 'PHASE_TYPE_COMPLETE')) return undefined
  const roots = new Set(rootIds)
  // The item too: a later item under it stops its climb here.
  const climbed: string[] = [item.id]
  const settle = (inShare: boolean) => {
    for (const id of climbed) cache.inShare.set(id, inShare)
    return inShare ? item : undefined
  }
  let current: Pick<FilesTable, 'id' | 'parent_id'> = item
  for (let depth = 0; depth <= SHARE_MAX_DEPTH; depth++) {
    cache.parentOf.set(current.id, current.parent_id)
    if (roots.has(current.id)) return settle(true)
    if (current.parent_id === '') return settle(false)
    const known = cache.inShare.get(current.parent_id)
    if (known !== undefined) return settle(known)
    climbed.push(current.parent_id)
    const parent = await db.selectFrom('drive_files').select(['id', 'parent_id']).where('id', '=', current.parent_id).where('user_id', '=', share.user_id).where('trashed', '=', 0).executeTakeFirst()
    if (!parent) return settle(false)
    current = parent
  }
  return settle(false)
}

/** Whether one of `ids` lies above `itemId`, by the parents the cache's climbs learnt. */
export function underAnyOf(cache: ShareCache, itemId: string, ids: ReadonlySet<string>): boolean {
  const seen = new Set<string>()
  let current = cache.parentOf.get(itemId)
  while (current !== undefined && current !== '' && !seen.has(current)) {
    if (ids.has(current)) return true
    seen.add(current)
    current = cache.parentOf.get(current)
  }
  return false
}
