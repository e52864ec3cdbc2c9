import { AppError, DriveErrors, FOLDER_KIND, type Locale, type RestoreShareReply, SHARE_TEXTS } from '@cumulus/protocol'
import { type Json, JobFailedPermanently } from '@cumulus/jobs'
import type { Kysely, Transaction } from 'kysely'
import type { DriveDatabase, FilesTable } from '../../db/schema.js'
import type { Caller, DriveDeps } from '../../deps.js'
import { copyTree, countTree, insertItem, itemInShare, liveFolder, lockUserTree, newShareCache, quotaLimit, recordEvents, recordTask, retryOnConflict, shareStanding, underAnyOf } from '../../domain/index.js'
import { type ShareAccess, openShare } from './access.js'
import { statusText } from './views.js'

type Trx = Transaction<DriveDatabase>

/** The job queue of saves too large to run inside their request. */
export const RESTORE_QUEUE = 'drive.share-restore'

export interface RestoreInput {
  shareId: string
  passCodeToken: string
  /** Empty: the whole share. */
  fileIds: readonly string[]
  /** The caller's folder, when `specifyParentId`; otherwise the localized "Pack From Shared" folder. */
  parentId: string
  specifyParentId: boolean
  ip: string
  locale: Locale
}

/** The caller's live top-level folder named like the localized pack folder, made when missing. */
async function packFolder(trx: Trx, userId: string, locale: Locale, nowMs: number): Promise<string> {
  const name = SHARE_TEXTS[locale].packFolder
  const found = await trx.selectFrom('drive_files').select('id').where('user_id', '=', userId).where('parent_id', '=', '').where('trashed', '=', 0).where('name', '=', name).where('kind', '=', FOLDER_KIND).executeTakeFirst()
  if (found) return found.id
  const created = await insertItem(trx, { userId, parentId: '', name, kind: FOLDER_KIND, size: 0, gcid: null, phase: 'PHASE_TYPE_COMPLETE', nowMs })
  await recordEvents(trx as Kysely<DriveDatabase>, nowMs, userId, 'TYPE_CREATE', [created])
  return created.id
}

async function targetFolder(trx: Trx, caller: Caller, input: Pick<RestoreInput, 'parentId' | 'specifyParentId' | 'locale'>, nowMs: number): Promise<string> {
  return input.specifyParentId ? liveFolder(trx, caller.userId, input.parentId, { forInsert: true }) : packFolder(trx, caller.userId, input.locale, nowMs)
}

/** The items to save: the chosen ones (each must lie in the share), or all its top-level items; an item under another chosen one comes with it. */
async function chosenItems(deps: Pick<DriveDeps, 'db'>, access: Extract<ShareAccess, { status: 'OK' }>, fileIds: readonly string[]): Promise<FilesTable[]> {
  const ids = fileIds.length === 0 ? access.rootIds : [...new Set(fileIds)]
  const cache = newShareCache()
  const items: FilesTable[] = []
  for (const id of ids) {
    const item = await itemInShare(deps.db, access.share, access.rootIds, id, cache)
    if (!item) throw new AppError(DriveErrors.file_not_found, { description: `no item ${id} in this share`, metadata: { id } })
    items.push(item)
  }
  const chosen = new Set(items.map((i) => i.id))
  return items.filter((i) => !underAnyOf(cache, i.id, chosen))
}

/**
 * The copy itself, in one transaction that owns the caller's tree: the share's items (re-read
 * live, so what left the share meanwhile is not copied) become the caller's, sharing their blobs,
 * counted against the caller's quota; the share counts one more save.
 */
async function saveItems(deps: DriveDeps, caller: Caller, shareId: string, ownerId: string, itemIds: readonly string[], folderId: string | null, input: Pick<RestoreInput, 'parentId' | 'specifyParentId' | 'locale'>, task: { id: string } | null): Promise<{ folderId: string; taskId: string }> {
  const nowMs = deps.clock.nowMs()
  return retryOnConflict(() =>
    deps.db.transaction().execute(async (trx) => {
      await lockUserTree(trx, caller.userId)
      // A job runs once however often it is delivered: the task is claimed with the copy.
      if (task) {
        const claimed = await trx.updateTable('drive_tasks').set({ phase: 'PHASE_TYPE_RUNNING' }).where('id', '=', task.id).where('phase', 'not in', ['PHASE_TYPE_COMPLETE', 'PHASE_TYPE_ERROR']).executeTakeFirst()
        if (Number(claimed.numUpdatedRows) === 0) throw new AlreadySaved()
      }
      // The share is read again where the copy is made: cancelled, expired or its owner frozen
      // since the request, it gives nothing; an item that left it (trashed, moved out) is not copied.
      const standing = await shareStanding({ db: trx as Kysely<DriveDatabase>, clock: deps.clock }, shareId)
      if (standing.status !== 'OK' || !standing.share || standing.share.user_id !== ownerId) {
        throw new AppError(DriveErrors.file_not_found, { description: 'the share is no longer open', metadata: { share_id: shareId } })
      }
      const cache = newShareCache()
      const items: FilesTable[] = []
      for (const id of itemIds) {
        const item = await itemInShare(trx, standing.share, standing.rootIds, id, cache)
        if (item) items.push(item)
      }
      if (items.length === 0) throw new AppError(DriveErrors.file_not_found, { description: 'nothing chosen is in the share any more', metadata: { share_id: shareId } })
      const target = folderId ?? (await targetFolder(trx, caller, input, nowMs))
      const copies = await copyTree(trx, { userId: ownerId, items }, { userId: caller.userId, folderId: target, quotaLimitBytes: quotaLimit(deps.config, caller, nowMs) }, nowMs)
      await recordEvents(trx as Kysely<DriveDatabase>, nowMs, caller.userId, 'TYPE_COPY', copies)
      await trx.updateTable('drive_shares').set((eb) => ({ restore_count: eb('restore_count', '+', 1) })).where('id', '=', shareId).execute()
      const params = { share_id: shareId, parent_id: target, count: String(copies.length) }
      if (task) {
        await trx.updateTable('drive_tasks').set({ phase: 'PHASE_TYPE_COMPLETE', progress: 100, message: '', file_id: target, params: JSON.stringify(params), updated_at: nowMs }).where('id', '=', task.id).execute()
        return { folderId: target, taskId: task.id }
      }
      const done = await recordTask(trx, { userId: caller.userId, type: 'restore', name: 'restore', phase: 'PHASE_TYPE_COMPLETE', progress: 100, params, fileId: target, nowMs })
      return { folderId: target, taskId: done.id }
    }),
  )
}

/**
 * `POST /drive/v1/share/restore`: saves a share, or chosen items of it, into the caller's drive
 * (by default the localized "Pack From Shared" folder). Instant however large: the copies share
 * the share's blobs. A save that outgrows one request runs as a job whose task shows it
 * (RESTORE_START); otherwise it is done when the reply goes out (RESTORE_COMPLETE). Saving one's
 * own share is file_restore_own.
 */
export async function restoreShare(deps: DriveDeps, caller: Caller, input: RestoreInput): Promise<RestoreShareReply> {
  const access = await openShare(deps, { shareId: input.shareId, passCodeToken: input.passCodeToken, ip: input.ip })
  if (access.status !== 'OK') {
    return { share_status: access.status, share_status_text: statusText(input.locale, access.status), restore_status: '', restore_task_id: '', file_id: '' }
  }
  if (access.share.user_id === caller.userId) throw new AppError(DriveErrors.file_restore_own, { description: 'this share is your own', metadata: { share_id: access.share.id } })
  const items = await chosenItems(deps, access, input.fileIds)
  const itemIds = items.map((i) => i.id)
  const ownerId = access.share.user_id
  const ok = { share_status: 'OK' as const, share_status_text: '' }

  // Folders and empty files cost no quota: the count bounds what one save can make (and hold in memory).
  const maxItems = deps.config.shareRestoreMaxItems
  const count = await countTree(deps.db, { userId: ownerId, items }, Math.max(maxItems, deps.config.batchInlineMaxItems))
  if (count > maxItems) {
    throw new AppError(DriveErrors.share_restore_too_large, { description: `a save copies at most ${maxItems} items`, metadata: { limit: String(maxItems) } })
  }
  if (count <= deps.config.batchInlineMaxItems) {
    const saved = await saveItems(deps, caller, access.share.id, ownerId, itemIds, null, input, null)
    return { ...ok, restore_status: 'RESTORE_COMPLETE', restore_task_id: saved.taskId, file_id: saved.folderId }
  }

  // Too large for one request: the target folder is settled now (so the reply can name it), the copy runs as a job.
  const nowMs = deps.clock.nowMs()
  const { taskId, folderId } = await deps.db.transaction().execute(async (trx) => {
    await lockUserTree(trx, caller.userId)
    const folderId = await targetFolder(trx, caller, input, nowMs)
    const task = await recordTask(trx, { userId: caller.userId, type: 'restore', name: 'restore', phase: 'PHASE_TYPE_PENDING', progress: 0, params: { share_id: access.share.id, parent_id: folderId }, fileId: folderId, nowMs })
    const data: RestoreJobData = { taskId: task.id, userId: caller.userId, shareId: access.share.id, ownerId, itemIds, folderId, membership: caller.membership as RestoreJobData['membership'] }
    await deps.jobs.enqueue(RESTORE_QUEUE, data, { db: trx as Kysely<any> })
    return { taskId: task.id, folderId }
  })
  deps.jobs.notify(RESTORE_QUEUE)
  return { ...ok, restore_status: 'RESTORE_START', restore_task_id: taskId, file_id: folderId }
}

/** A delivery of a save job whose task another delivery already finished. */
class AlreadySaved extends Error {}

export interface RestoreJobData {
  [key: string]: Json
  taskId: string
  userId: string
  shareId: string
  ownerId: string
  itemIds: string[]
  folderId: string
  membership: Caller['membership'] & Json
}

/**
 * The job of a save too large for its request. Its task goes PENDING → RUNNING (the share's tree
 * is counted, progress 10) → COMPLETE, or ERROR with the catalogue reason: the share was
 * cancelled or expired meanwhile, the target folder went, or the copy no longer fits the quota.
 */
export async function runRestoreJob(deps: DriveDeps, data: RestoreJobData): Promise<void> {
  const task = await deps.db.selectFrom('drive_tasks').select(['phase']).where('id', '=', data.taskId).where('user_id', '=', data.userId).executeTakeFirst()
  if (!task || task.phase === 'PHASE_TYPE_COMPLETE' || task.phase === 'PHASE_TYPE_ERROR') return
  const fail = async (err: AppError) => {
    await deps.db.updateTable('drive_tasks').set({ phase: 'PHASE_TYPE_ERROR', message: err.entry.reason, updated_at: deps.clock.nowMs() }).where('id', '=', data.taskId).execute()
    throw new JobFailedPermanently(err.message)
  }
  await deps.db.updateTable('drive_tasks').set({ phase: 'PHASE_TYPE_RUNNING', progress: 10, updated_at: deps.clock.nowMs() }).where('id', '=', data.taskId).execute()
  const caller: Caller = { userId: data.userId, membership: data.membership }
  try {
    // The target folder was checked in the request; it must still be a live folder of the caller's.
    const folderId = await liveFolder(deps.db, data.userId, data.folderId)
    await saveItems(deps, caller, data.shareId, data.ownerId, data.itemIds, folderId, { parentId: folderId, specifyParentId: true, locale: 'en-US' }, { id: data.taskId })
  } catch (err) {
    if (err instanceof AlreadySaved) return
    if (!(err instanceof AppError)) throw err
    return fail(err)
  }
}
