import { gcidOfFile } from '../../blobs/gcid.js'
import type { FilesTable, TasksTable } from '../../db/schema.js'
import type { DriveDeps } from '../../deps.js'
import { addBlobRef, announceBlob, enqueueMedia, enqueueThumbnail, recordEvents, stagingOf } from '../../domain/index.js'

/** The upload's bytes are not all there (or are gone without a recorded blob): nothing to finish. */
export class UploadNotFinishable extends Error {
  constructor(
    readonly uploadId: string,
    reason: string,
  ) {
    super(`upload ${uploadId} cannot be finished: ${reason}`)
    this.name = 'UploadNotFinishable'
  }
}

export interface FinishedUpload {
  file: FilesTable
  /** The upload's task; undefined when the user deleted it meanwhile. */
  task: TasksTable | undefined
}

/** Finishers running in this process, by upload id: a PATCH, a HEAD and the housekeeping may race for one upload. */
const finishing = new Map<string, Promise<FinishedUpload | null>>()

/**
 * Turns a fully received upload into a complete file. Each step can be interrupted by a crash and
 * run again (from a later PATCH, HEAD or the housekeeping) without losing or leaking anything:
 *
 *  1. hash the staging file (GCID);
 *  2. announce the blob (a drive_blobs row at ref_count 0, before any content is stored, so a
 *     crash after step 4 leaves a row the garbage collector finds, never an orphan);
 *  3. record the GCID in the upload's info file;
 *  4. hand the staging file to the blob store (a rename, not a second write);
 *  5. one transaction: the upload row goes, the blob gains a reference, the file becomes
 *     complete, the task too, and the activity feed records the upload;
 *  6. remove tus's info file.
 *
 * A crash before 4 leaves the staging file (hashed again next time); after 4 the recorded GCID
 * names the stored blob. Resolves null when the upload is no longer there (finished by another
 * caller, cancelled, expired) or its file was deleted meanwhile; rejects UploadNotFinishable when
 * bytes are missing.
 */
export function finishUpload(deps: DriveDeps, uploadId: string): Promise<FinishedUpload | null> {
  const running = finishing.get(uploadId)
  if (running) return running
  const run = finishOnce(deps, uploadId).finally(() => finishing.delete(uploadId))
  finishing.set(uploadId, run)
  return run
}

async function finishOnce(deps: DriveDeps, uploadId: string): Promise<FinishedUpload | null> {
  const upload = await deps.db.selectFrom('drive_uploads').selectAll().where('id', '=', uploadId).executeTakeFirst()
  if (!upload) return null
  const size = upload.size
  const staging = stagingOf(deps.config)
  let gcid = await staging.recordedGcid(uploadId)
  const offset = await staging.offsetOf(uploadId)
  if (offset !== null) {
    if (offset !== size) throw new UploadNotFinishable(uploadId, `${offset} of ${size} bytes received`)
    gcid ??= staging.takeStreamedGcid(uploadId, size) ?? (await gcidOfFile(staging.dataPath(uploadId), size))
    await announceBlob(deps.db, gcid, size, deps.clock.nowMs())
    await staging.recordGcid(uploadId, gcid)
    await deps.blobs.adopt(staging.dataPath(uploadId), size, gcid)
  } else {
    // The data file became a blob before a crash: the recorded GCID says which.
    if (gcid === null) throw new UploadNotFinishable(uploadId, 'its staging file is gone')
    await announceBlob(deps.db, gcid, size, deps.clock.nowMs())
    const stored = await deps.blobs.stat(gcid)
    if (!stored || stored.sizeBytes !== size) throw new UploadNotFinishable(uploadId, `blob ${gcid} is not stored`)
  }
  const contentGcid = gcid

  const nowMs = deps.clock.nowMs()
  const finished = await deps.db.transaction().execute(async (trx) => {
    // Claiming the upload row first makes a second finisher (another node, a retried request) a no-op.
    const claimed = await trx.deleteFrom('drive_uploads').where('id', '=', uploadId).executeTakeFirst()
    if (Number(claimed.numDeletedRows) === 0) return null
    const file = await trx.selectFrom('drive_files').selectAll().where('id', '=', upload.file_id).where('upload_id', '=', uploadId).executeTakeFirst()
    // Deleted for good while it was uploading: the blob stays unreferenced and is collected.
    if (!file) return null
    if (!(await addBlobRef(trx, contentGcid, 1, nowMs, size))) throw new Error(`blob ${contentGcid} was announced but cannot take a reference`)
    const completed: FilesTable = { ...file, phase: 'PHASE_TYPE_COMPLETE', gcid: contentGcid, upload_id: null, modified_at: nowMs, revision: file.revision + 1 }
    await trx.updateTable('drive_files').set({ phase: completed.phase, gcid: contentGcid, upload_id: null, modified_at: nowMs, revision: completed.revision }).where('id', '=', file.id).execute()
    await trx.updateTable('drive_tasks').set({ phase: 'PHASE_TYPE_COMPLETE', progress: 100, updated_at: nowMs }).where('user_id', '=', file.user_id).where('type', '=', 'upload').where('file_id', '=', file.id).execute()
    const task = await trx.selectFrom('drive_tasks').selectAll().where('user_id', '=', file.user_id).where('type', '=', 'upload').where('file_id', '=', file.id).executeTakeFirst()
    await recordEvents(trx, nowMs, file.user_id, 'TYPE_UPLOAD', [file])
    await enqueueThumbnail(deps.jobs, trx, contentGcid, file.file_category)
    await enqueueMedia(deps.jobs, trx, contentGcid, file.file_category, upload.transcode === 1)
    return { file: completed, task }
  })
  await staging.remove(uploadId)
  return finished
}
