import { AppError, type CreateFileReply, FILE_KIND, GenericErrors } from '@cumulus/protocol'
import { isGcid } from '../../blobs/blob-store.js'
import type { Transaction } from 'kysely'
import type { DriveDatabase, FilesTable, TasksTable } from '../../db/schema.js'
import type { Caller, DriveDeps } from '../../deps.js'
import { addBlobRef, checkName, enqueueMedia, planOf, transcodesOnArrival, fileView, insertItem, liveFolder, quotaLimit, recordEvents, recordTask, reserveSpace, retryOnNameRace, stagingOf, taskView } from '../../domain/index.js'
import { newId } from '../../lib/ids.js'
import { rfc3339 } from '../../lib/time.js'
import { finishUpload } from './finish-upload.js'


export interface StartUploadInput {
  name: unknown
  parentId?: string | null | undefined
  sizeBytes: number
  /** The client's GCID of the content: when that content is stored already, nothing is transferred. */
  gcid?: string | undefined
  /** Whether an empty file or a known GCID may complete at once (tus creation always gets an upload resource). */
  completeAtOnce: boolean
}

export interface StartedUpload {
  file: FilesTable
  task: TasksTable
  /** The tus upload to send the bytes to; absent when the file completed at once. */
  upload?: { id: string; expiresAtMs: number }
}

/** The tus URL of an upload: HEAD, PATCH and DELETE go there. */
export function uploadEndpoint(deps: Pick<DriveDeps, 'config'>, uploadId: string): string {
  return `${deps.config.publicUrl}/drive/v1/uploads/${uploadId}`
}

/** A size as drive.md sends it: a JSON number or a string of digits, a safe integer ≥ 0. */
export function parseSize(raw: unknown): number {
  const value = typeof raw === 'string' && /^\d{1,16}$/.test(raw) ? Number(raw) : raw
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new AppError(GenericErrors.invalid_argument, { description: 'size must be a whole number of bytes (a number or a string)', metadata: { field: 'size' } })
  }
  return value
}

/**
 * Whether a create naming `gcid` may complete without the bytes. A GCID and a size are no proof
 * of holding the content: anyone who learns them (a shared screenshot of file details, a leaked
 * listing) would otherwise get another account's private bytes. So instant upload applies to
 * content the caller already has (any of its files, trash included), or to anyone's content
 * when the operator turned global dedup on. Everyone else sends the bytes as usual; storage
 * still keeps one copy, since the finished upload is adopted under the same GCID.
 */
async function mayReuseContent(db: Transaction<DriveDatabase>, config: Pick<DriveDeps['config'], 'globalDedup'>, userId: string, gcid: string): Promise<boolean> {
  if (config.globalDedup) return true
  const owned = await db.selectFrom('drive_files').select('id').where('user_id', '=', userId).where('gcid', '=', gcid).limit(1).executeTakeFirst()
  return owned !== undefined
}

/**
 * Creates a file to upload into: with `gcid` naming content already stored at that size that the
 * caller may reuse (mayReuseContent), the file is complete at once (instant upload, the blob
 * gains a reference); otherwise a pending file fed by a tus upload. Either way the size is reserved against the quota first, so a file that does
 * not fit fails with file_space_not_enough before any byte is stored.
 */
export async function startUpload(deps: DriveDeps, caller: Caller, input: StartUploadInput): Promise<StartedUpload> {
  const name = checkName(input.name)
  const size = input.sizeBytes
  const nowMs = deps.clock.nowMs()
  const limit = quotaLimit(deps.config, caller, nowMs)
  const transcode = transcodesOnArrival(deps.config, planOf(deps.config, caller.membership, nowMs).limits)

  if (input.completeAtOnce && input.gcid !== undefined && size > 0) {
    const gcid = input.gcid
    const instant = await retryOnNameRace(() =>
      deps.db.transaction().execute(async (trx) => {
        const parentId = await liveFolder(trx, caller.userId, input.parentId, { forInsert: true })
        if (!(await mayReuseContent(trx, deps.config, caller.userId, gcid))) return null
        // First write of the transaction: when the content is not stored, nothing has changed yet.
        if (!(await addBlobRef(trx, gcid, 1, nowMs, size))) return null
        await reserveSpace(trx, caller.userId, size, limit)
        const file = await insertItem(trx, { userId: caller.userId, parentId, name, kind: FILE_KIND, size, gcid, phase: 'PHASE_TYPE_COMPLETE', nowMs })
        const task = await recordTask(trx, { userId: caller.userId, type: 'upload', name: file.name, phase: 'PHASE_TYPE_COMPLETE', progress: 100, params: {}, fileId: file.id, fileName: file.name, fileSizeBytes: size, nowMs })
        await recordEvents(trx, nowMs, caller.userId, 'TYPE_UPLOAD', [file])
        await enqueueMedia(deps.jobs, trx, gcid, file.file_category, transcode)
        return { file, task }
      }),
    )
    if (instant) return instant
  }

  // The staging files exist before the rows that point at them: a crash in between leaves files
  // without a row, which the housekeeping removes, never a row whose upload cannot be resumed.
  const uploadId = newId('U')
  const expiresAtMs = nowMs + deps.config.uploadExpirySeconds * 1000
  const staging = stagingOf(deps.config)
  await staging.create(uploadId, size, { filename: name, ...(input.parentId ? { parent_id: input.parentId } : {}) }, nowMs)
  let started: StartedUpload
  try {
    started = await retryOnNameRace(() =>
      deps.db.transaction().execute(async (trx) => {
        const parentId = await liveFolder(trx, caller.userId, input.parentId, { forInsert: true })
        await reserveSpace(trx, caller.userId, size, limit)
        const file = await insertItem(trx, { userId: caller.userId, parentId, name, kind: FILE_KIND, size, gcid: null, phase: 'PHASE_TYPE_PENDING', uploadId, nowMs })
        await trx.insertInto('drive_uploads').values({ id: uploadId, file_id: file.id, user_id: caller.userId, size, created_at: nowMs, expires_at: expiresAtMs, transcode: transcode ? 1 : 0 }).execute()
        const task = await recordTask(trx, { userId: caller.userId, type: 'upload', name: file.name, phase: 'PHASE_TYPE_PENDING', progress: 0, params: {}, fileId: file.id, fileName: file.name, fileSizeBytes: size, nowMs })
        return { file, task, upload: { id: uploadId, expiresAtMs } }
      }),
    )
  } catch (error) {
    await staging.remove(uploadId)
    throw error
  }

  if (input.completeAtOnce && size === 0) {
    // Nothing to send: the empty staging file is the whole content.
    const finished = await finishUpload(deps, uploadId)
    if (finished) return { file: finished.file, task: finished.task ?? { ...started.task, phase: 'PHASE_TYPE_COMPLETE', progress: 100 } }
  }
  return started
}

/** `POST /drive/v1/files` for a file (drive.md "create upload"). */
export async function createUpload(deps: DriveDeps, caller: Caller, body: Record<string, unknown>): Promise<CreateFileReply> {
  const sizeBytes = parseSize(body['size'])
  const hash = typeof body['hash'] === 'string' ? body['hash'].trim().toUpperCase() : ''
  const parentId = typeof body['parent_id'] === 'string' ? body['parent_id'] : undefined
  const started = await startUpload(deps, caller, { name: body['name'], parentId, sizeBytes, gcid: isGcid(hash) ? hash : undefined, completeAtOnce: true })
  const reply: CreateFileReply = { upload_type: 'UPLOAD_TYPE_RESUMABLE', file: fileView(deps, started.file), task: taskView(started.task) }
  if (started.upload) {
    reply.resumable = {
      kind: 'drive#resumable',
      provider: 'PROVIDER_TUS',
      params: { endpoint: uploadEndpoint(deps, started.upload.id), expiration: rfc3339(started.upload.expiresAtMs) },
    }
  }
  return reply
}
