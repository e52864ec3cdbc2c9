import type { Kysely, Transaction } from 'kysely'
import type { DriveDatabase } from '../db/schema.js'
import { chunks, sumOf } from '../lib/rows.js'
import { countByGcid, releaseBlobRefsInBulk } from './blob-refs.js'
import { subtreeParents } from './tree.js'
import { adjustUsage } from './usage.js'

type Db = Kysely<DriveDatabase> | Transaction<DriveDatabase>

/**
 * Deletes the caller's items `rootIds` (in the trash or not) and everything under them for good,
 * in the caller's transaction: releases one blob reference per deleted file, gives the space back
 * (`usage`, and `usage_in_trash` for the part that was in the trash), and drops the upload rows of
 * unfinished files (their tus staging files expire with the uploads feature's housekeeping).
 *
 * The counters follow the rows the DELETE actually returned, so a concurrent deletion of the same
 * items can never release a blob or the space twice. Returns how many items went.
 */
export async function deleteTrees(db: Db, userId: string, rootIds: readonly string[], nowMs: number): Promise<number> {
  const deleted: { id: string; gcid: string | null; size: number; trashed: number; phase: string }[] = []
  const returned = ['id', 'gcid', 'size', 'trashed', 'phase'] as const
  for (const chunk of chunks(await subtreeParents(db, userId, rootIds, 'all'))) {
    deleted.push(...(await db.deleteFrom('drive_files').where('user_id', '=', userId).where('parent_id', 'in', chunk).returning(returned).execute()))
  }
  for (const chunk of chunks(rootIds)) {
    deleted.push(...(await db.deleteFrom('drive_files').where('user_id', '=', userId).where('id', 'in', chunk).returning(returned).execute()))
  }
  if (deleted.length === 0) return 0

  await adjustUsage(db, userId, { usage: -sumOf(deleted), inTrash: -sumOf(deleted.filter((r) => r.trashed === 1)) })
  await releaseBlobRefsInBulk(db, countByGcid(deleted), nowMs)
  const unfinished = deleted.filter((r) => r.phase !== 'PHASE_TYPE_COMPLETE').map((r) => r.id)
  for (const chunk of chunks(unfinished)) await db.deleteFrom('drive_uploads').where('file_id', 'in', chunk).execute()
  // Where the owner stopped watching goes with the video.
  for (const chunk of chunks(deleted.filter((r) => r.gcid !== null).map((r) => r.id))) await db.deleteFrom('drive_playback').where('file_id', 'in', chunk).execute()
  // And the shares naming a deleted item forget it (a share left with nothing reads DELETED).
  for (const chunk of chunks(deleted.map((r) => r.id))) await db.deleteFrom('drive_share_items').where('file_id', 'in', chunk).execute()
  return deleted.length
}
