import { BlobNotFound } from '../../blobs/blob-store.js'
import type { DriveDeps } from '../../deps.js'
import { BLOB_GRACE_MS, forgetMedia } from '../../domain/index.js'

/** Deletes the content of blobs no file has used for the grace period. Returns how many went. */
export async function collectGarbageBlobs(deps: Pick<DriveDeps, 'db' | 'blobs' | 'clock' | 'logger'>, graceMs = BLOB_GRACE_MS): Promise<number> {
  // At or before: with no grace (an erasure, a test) a blob released this very millisecond is due.
  const cutoff = deps.clock.nowMs() - graceMs
  const candidates = await deps.db.selectFrom('drive_blobs').select('gcid').where('ref_count', '=', 0).where('updated_at', '<=', cutoff).limit(500).execute()
  let deleted = 0
  for (const { gcid } of candidates) {
    // Claim it: from here on nobody adds references or announces it again.
    const claimed = await deps.db.updateTable('drive_blobs').set({ ref_count: -1 }).where('gcid', '=', gcid).where('ref_count', '=', 0).where('updated_at', '<=', cutoff).executeTakeFirst()
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
    // The thumbnail goes with its content (a content stored again gets a new one).
    await deps.db.deleteFrom('drive_thumbnails').where('gcid', '=', gcid).execute()
    // So do its probe, subtitles and renditions; their files become garbage for a later run.
    await forgetMedia(deps.db, gcid, deps.clock.nowMs())
    deleted++
  }
  return deleted
}
