import { type Kysely, sql } from 'kysely'
import { BlobNotFound } from '../../blobs/blob-store.js'
import type { DriveDatabase } from '../../db/schema.js'
import type { DriveDeps } from '../../deps.js'

/*
 * Which files use which blob is counted in drive_blobs.ref_count, changed in the same transaction
 * as the files. The life of a blob row:
 *   - `announceBlob` before its content is stored: a row with ref_count 0 (garbage unless claimed
 *     soon), so a crash between storing the content and committing the file leaves a row that
 *     housekeeping finds, never an orphan nobody knows about;
 *   - `addBlobRef` here for one file, `addBlobRefsInBulk` / `releaseBlobRefsInBulk`
 *     (batch/blob-counts.ts) for many, with the files that use it;
 *   - housekeeping claims a row that has stayed at 0 for the grace period (ref_count -1), deletes
 *     the content, then the row. A row at -1 is never given new references.
 */

/** Rows at 0 younger than this are an upload in flight, not garbage. */
export const BLOB_GRACE_MS = 60 * 60_000

type Db = Kysely<DriveDatabase>

/** Records that content `gcid` is about to be stored (see above). Waits out a concurrent deletion of the same content. */
export async function announceBlob(db: Db, gcid: string, size: number, nowMs: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    await db
      .insertInto('drive_blobs')
      .values({ gcid, size, ref_count: 0, updated_at: nowMs })
      .onConflict((oc) => oc.column('gcid').doUpdateSet({ updated_at: nowMs }).where('drive_blobs.ref_count', '>=', 0))
      .execute()
    const row = await db.selectFrom('drive_blobs').select('ref_count').where('gcid', '=', gcid).executeTakeFirst()
    if (row && row.ref_count >= 0) return
    // Housekeeping is deleting this very content; it removes the row in a moment.
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`blob ${gcid} stayed claimed for deletion`)
}

/**
 * Adds `count` references to blobs whose row exists and is not being deleted. Returns whether it
 * did (false: the content is not stored, or is being deleted).
 */
export async function addBlobRef(db: Db, gcid: string, count: number, nowMs: number, expectSize?: number): Promise<boolean> {
  let q = db.updateTable('drive_blobs').set({ ref_count: sql`ref_count + ${count}`, updated_at: nowMs }).where('gcid', '=', gcid).where('ref_count', '>=', 0)
  if (expectSize !== undefined) q = q.where('size', '=', expectSize)
  const result = await q.executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** Deletes the content of blobs no file has used for the grace period. Returns how many went. */
export async function collectGarbageBlobs(deps: Pick<DriveDeps, 'db' | 'blobs' | 'clock' | 'logger'>, graceMs = BLOB_GRACE_MS): Promise<number> {
  const cutoff = deps.clock.nowMs() - graceMs
  const candidates = await deps.db.selectFrom('drive_blobs').select('gcid').where('ref_count', '=', 0).where('updated_at', '<', cutoff).limit(500).execute()
  let deleted = 0
  for (const { gcid } of candidates) {
    // Claim it: from here on nobody adds references or announces it again.
    const claimed = await deps.db.updateTable('drive_blobs').set({ ref_count: -1 }).where('gcid', '=', gcid).where('ref_count', '=', 0).where('updated_at', '<', cutoff).executeTakeFirst()
    if (Number(claimed.numUpdatedRows) === 0) continue
    try {
      await deps.blobs.delete(gcid)
    } catch (error) {
      if (!(error instanceof BlobNotFound)) {
        // Give it back to the garbage so a later run tries again.
        await deps.db.updateTable('drive_blobs').set({ ref_count: 0 }).where('gcid', '=', gcid).where('ref_count', '=', -1).execute()
        deps.logger.warn({ err: error, gcid }, 'could not delete an unused blob; will retry')
        continue
      }
    }
    await deps.db.deleteFrom('drive_blobs').where('gcid', '=', gcid).where('ref_count', '=', -1).execute()
    deleted++
  }
  return deleted
}
