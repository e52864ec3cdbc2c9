import { FOLDER_KIND, type Locale } from '@cumulus/protocol'
import type { Kysely } from 'kysely'
import type { DriveDatabase, FilesTable, TasksTable } from '../../db/schema.js'
import type { DriveDeps } from '../../deps.js'
import { type OfflineWork, addBlobRef, enqueueMedia, enqueueThumbnail, insertItem, liveFolder, lockUserTree, recordEvents, reserveSpace, retryOnNameRace, transcodesOnArrival, workLimits, workOf } from '../../domain/index.js'
import { SAVED_MESSAGE, downloadFolder } from './create-offline-task.js'
import { sanitizeName } from './offline-url.js'

/** A file a download gave: its path inside the download (one element for a lone file), size and blob. */
export interface LandedFile {
  path: string[]
  size: number
  gcid: string
}

/**
 * Whether `files` named `name` land as one file rather than a folder: a lone file whose path is
 * just its name (an HTTP download, a single-file torrent). A torrent folder of one file stays a folder.
 */
export function landsAsOneFile(name: string, files: readonly LandedFile[]): boolean {
  return files.length === 1 && files[0]!.path.length === 1 && files[0]!.path[0] === name
}

/**
 * Inserts what a download gave into the caller's transaction: one file, or one folder named
 * `name` holding the files under their paths (sub-folders made on the way). Names are made
 * acceptable and clashes get suffixes, as for any new item. Returns the top item and every item
 * made. The caller takes the space and the blob references.
 */
export async function insertDownloadTree(trx: Kysely<DriveDatabase>, input: { userId: string; parentId: string; name: string; files: readonly LandedFile[]; oneFile: boolean; nowMs: number }): Promise<{ top: FilesTable; created: FilesTable[] }> {
  const { userId, nowMs } = input
  if (input.oneFile) {
    const only = input.files[0]!
    const top = await insertItem(trx, { userId, parentId: input.parentId, name: sanitizeName(input.name), kind: 'drive#file', size: only.size, gcid: only.gcid, phase: 'PHASE_TYPE_COMPLETE', nowMs })
    return { top, created: [top] }
  }
  const top = await insertItem(trx, { userId, parentId: input.parentId, name: sanitizeName(input.name), kind: FOLDER_KIND, size: 0, gcid: null, phase: 'PHASE_TYPE_COMPLETE', nowMs })
  const created = [top]
  const folders = new Map<string, string>()
  for (const file of input.files) {
    let parent = top.id
    for (let depth = 1; depth < file.path.length; depth++) {
      const key = file.path.slice(0, depth).join('/')
      let id = folders.get(key)
      if (!id) {
        const folder = await insertItem(trx, { userId, parentId: parent, name: sanitizeName(file.path[depth - 1]!), kind: FOLDER_KIND, size: 0, gcid: null, phase: 'PHASE_TYPE_COMPLETE', nowMs })
        created.push(folder)
        id = folder.id
        folders.set(key, id)
      }
      parent = id
    }
    created.push(await insertItem(trx, { userId, parentId: parent, name: sanitizeName(file.path[file.path.length - 1]!), kind: 'drive#file', size: file.size, gcid: file.gcid, phase: 'PHASE_TYPE_COMPLETE', nowMs }))
  }
  return { top, created }
}

/**
 * Lands a finished download whose content is already stored as blobs (announced, then adopted):
 * one transaction reserves the space, inserts the file or tree into the task's folder (or the
 * download folder when that one went away), takes the blob references, completes the task and,
 * with a `sourceKey`, remembers the source for instant completion. A crash before it leaves
 * unreferenced blobs, which a rerun claims (the same GCIDs) or the collector deletes. Does
 * nothing when the task was deleted or completed meanwhile. Rejects file_space_not_enough when
 * the content no longer fits.
 */
export async function landDownload(deps: DriveDeps, task: TasksTable, input: { name: string; files: readonly LandedFile[]; oneFile: boolean; sourceKey: string | null; locale: Locale }): Promise<void> {
  const work = workOf(task)
  const limits = workLimits(deps.config, work, deps.clock.nowMs())
  const limit = limits.storageBytes
  const transcode = transcodesOnArrival(deps.config, limits)
  const total = input.files.reduce((sum, f) => sum + f.size, 0)
  const counts = new Map<string, { count: number; size: number }>()
  for (const f of input.files) counts.set(f.gcid, { count: (counts.get(f.gcid)?.count ?? 0) + 1, size: f.size })
  const files = input.oneFile ? [{ ...input.files[0]!, path: [input.name] }] : input.files
  const nowMs = deps.clock.nowMs()
  await retryOnNameRace(() =>
    deps.db.transaction().execute(async (trx) => {
      await lockUserTree(trx, task.user_id)
      const current = await trx.selectFrom('drive_tasks').selectAll().where('id', '=', task.id).executeTakeFirst()
      if (!current || current.phase === 'PHASE_TYPE_COMPLETE') return
      await reserveSpace(trx, task.user_id, total, limit)
      const params = JSON.parse(current.params) as Record<string, string>
      const parentId = await liveFolder(trx, task.user_id, params['parent_id'] ?? '', { forInsert: true }).catch(() => downloadFolder(trx, task.user_id, input.locale, nowMs))
      const { top, created } = await insertDownloadTree(trx, { userId: task.user_id, parentId, name: input.name, files, oneFile: input.oneFile, nowMs })
      for (const [gcid, { count, size }] of counts) {
        if (!(await addBlobRef(trx, gcid, count, nowMs, size))) throw new Error(`blob ${gcid} was announced but cannot take a reference`)
      }
      await recordEvents(trx, nowMs, task.user_id, 'TYPE_CREATE', [top])
      for (const file of created) {
        if (!file.gcid) continue
        await enqueueThumbnail(deps.jobs, trx, file.gcid, file.file_category)
        await enqueueMedia(deps.jobs, trx, file.gcid, file.file_category, transcode)
      }
      const reference: OfflineWork['reference'] = { kind: top.kind, id: top.id, name: top.name, size: String(total), mime_type: top.mime_type }
      await trx
        .updateTable('drive_tasks')
        .set({
          phase: 'PHASE_TYPE_COMPLETE', progress: 100, message: SAVED_MESSAGE, file_id: top.id, file_name: top.name, file_size: total,
          params: JSON.stringify({ ...params, parent_id: parentId, predict_speed: '0' }), work: JSON.stringify({ ...workOf(current), resume: null, reference }), updated_at: nowMs,
        })
        .where('id', '=', task.id)
        .execute()
      if (input.sourceKey) {
        // Recorded under the name before any clash suffix, so that adding it again lands the same way.
        const record = { source_key: input.sourceKey, name: input.name, files: JSON.stringify(files), completed_at: nowMs }
        await trx.insertInto('drive_offline_sources').values(record).onConflict((oc) => oc.column('source_key').doUpdateSet({ name: record.name, files: record.files, completed_at: nowMs })).execute()
      }
    }),
  )
}
