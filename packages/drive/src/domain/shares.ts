import { AppError, DriveErrors, FOLDER_KIND } from '@cumulus/protocol'
import { type Kysely, type Transaction, sql } from 'kysely'
import type { DriveDatabase, FilesTable, ShareRow } from '../db/schema.js'
import type { DriveDeps } from '../deps.js'
import { isId } from '../lib/ids.js'
import { isAccountHeld } from './account-holds.js'

/*
 * What a share holds, read live (decision 031): its standing (cancelled, expired, its owner
 * frozen, emptied) and whether an item lies in it. The shares feature serves shares; the
 * thumbnails feature serves a share's thumbnails through the same checks.
 */

type Db = Kysely<DriveDatabase> | Transaction<DriveDatabase>

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

/**
 * For whatever serves a file through a share's link (its content, its thumbnail): the share must
 * stand and still hold the file, on every request, so a cancelled share's links die at once.
 */
export async function requireOpenShareItem(deps: Pick<DriveDeps, 'db' | 'clock'>, shareId: string, fileId: string): Promise<void> {
  const standing = await shareStanding(deps, shareId)
  if (standing.status !== 'OK' || !standing.share || !(await itemInShare(deps.db, standing.share, standing.rootIds, fileId))) {
    throw new AppError(DriveErrors.file_link_invalid, { description: 'the share that gave this link is no longer open', metadata: { reason: 'share_closed' } })
  }
}
