import type { DriveDeps } from '../../deps.js'
import { adjustUsage, stagingOf } from '../../domain/index.js'
import { finishUpload, UploadNotFinishable } from './finish-upload.js'

/** Why an unfinished upload was dropped; kept as the task's message. */
export type UploadEndReason = 'cancelled' | 'expired'

/**
 * Drops unfinished upload `uploadId` from the database: its pending file goes, the reserved space
 * comes back (from the trash counter too when the file had been trashed), and its task ends in
 * PHASE_TYPE_ERROR with `reason` as the message. The staging files are the caller's to remove
 * (the tus DELETE handler does it under the upload's lock). Returns false when there was no such
 * upload (finished, or dropped already). Idempotent.
 */
export async function dropUploadRows(deps: Pick<DriveDeps, 'db' | 'clock'>, uploadId: string, reason: UploadEndReason): Promise<boolean> {
  const nowMs = deps.clock.nowMs()
  return deps.db.transaction().execute(async (trx) => {
    const upload = await trx.deleteFrom('drive_uploads').where('id', '=', uploadId).returning(['file_id', 'user_id']).executeTakeFirst()
    if (!upload) return false
    // The counters follow the row actually deleted, so a concurrent deletion of the file (batch
    // delete releases the space of what it deletes) never gives the space back twice.
    const file = await trx.deleteFrom('drive_files').where('id', '=', upload.file_id).where('upload_id', '=', uploadId).where('phase', '!=', 'PHASE_TYPE_COMPLETE').returning(['size', 'trashed']).executeTakeFirst()
    if (file) await adjustUsage(trx, upload.user_id, { usage: -file.size, inTrash: file.trashed === 1 ? -file.size : 0 })
    await trx
      .updateTable('drive_tasks')
      .set({ phase: 'PHASE_TYPE_ERROR', message: reason, updated_at: nowMs })
      .where('user_id', '=', upload.user_id)
      .where('type', '=', 'upload')
      .where('file_id', '=', upload.file_id)
      .where('phase', '!=', 'PHASE_TYPE_COMPLETE')
      .execute()
    return true
  })
}

/** Cancels an unfinished upload: its rows (dropUploadRows) and then its staging files. */
export async function cancelUpload(deps: DriveDeps, uploadId: string, reason: UploadEndReason): Promise<boolean> {
  const dropped = await dropUploadRows(deps, uploadId, reason)
  await stagingOf(deps.config).remove(uploadId)
  return dropped
}

/** Staging files with no upload row are left alone this long: a creation may be between writing them and committing its row. */
export const STAGING_ORPHAN_GRACE_MS = 60 * 60_000

const BATCH = 500

/**
 * The uploads' housekeeping, run before the blob garbage collection:
 *  - drops uploads past their expiry (Upload-Expires), giving their space back;
 *  - finishes uploads whose bytes all arrived but whose completion a crash interrupted (so their
 *    announced blob is claimed before the collector could take it);
 *  - removes staging files that no upload row points at any more (leftovers of crashes, of
 *    finished uploads and of files deleted while uploading), once they are `orphanGraceMs` old.
 * Returns what it did, for the logs and tests.
 */
export async function maintainUploads(deps: DriveDeps, options: { orphanGraceMs?: number } = {}): Promise<{ expired: number; finished: number; orphansRemoved: number }> {
  const nowMs = deps.clock.nowMs()
  const staging = stagingOf(deps.config)
  let expired = 0
  for (;;) {
    const due = await deps.db.selectFrom('drive_uploads').select('id').where('expires_at', '<=', nowMs).limit(BATCH).execute()
    for (const { id } of due) if (await cancelUpload(deps, id, 'expired')) expired++
    if (due.length < BATCH) break
  }

  let finished = 0
  let after = ''
  for (;;) {
    const page = await deps.db.selectFrom('drive_uploads').select(['id', 'size']).where('id', '>', after).orderBy('id').limit(BATCH).execute()
    for (const upload of page) {
      const offset = await staging.offsetOf(upload.id)
      const interrupted = offset === upload.size || (offset === null && (await staging.recordedGcid(upload.id)) !== null)
      if (!interrupted) continue
      try {
        if (await finishUpload(deps, upload.id)) finished++
      } catch (error) {
        if (!(error instanceof UploadNotFinishable)) throw error
      }
    }
    if (page.length < BATCH) break
    after = page[page.length - 1]?.id ?? after
  }

  let orphansRemoved = 0
  const cutoffMs = Date.now() - (options.orphanGraceMs ?? STAGING_ORPHAN_GRACE_MS)
  const present = [...(await staging.list())].filter(([, modifiedMs]) => modifiedMs < cutoffMs).map(([id]) => id)
  for (let i = 0; i < present.length; i += BATCH) {
    const chunk = present.slice(i, i + BATCH)
    const known = new Set((await deps.db.selectFrom('drive_uploads').select('id').where('id', 'in', chunk).execute()).map((r) => r.id))
    for (const id of chunk) {
      if (known.has(id)) continue
      await staging.remove(id)
      orphansRemoved++
    }
  }
  return { expired, finished, orphansRemoved }
}
