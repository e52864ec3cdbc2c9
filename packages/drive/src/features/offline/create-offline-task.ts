import { AppError, type CreateFileReply, DOWNLOAD_FOLDER_NAMES, DriveErrors, FOLDER_KIND, GenericErrors, type Locale } from '@cumulus/protocol'
import type { Transaction } from 'kysely'
import type { DriveDatabase, FilesTable } from '../../db/schema.js'
import type { Caller, DriveDeps } from '../../deps.js'
import {
  addBlobRef,
  checkName,
  enqueueOfflineRun,
  OFFLINE_QUEUE,
  fileView,
  findOwned,
  insertItem,
  liveFolder,
  lockUserTree,
  offlineQuota,
  quotaLimit,
  recordEvents,
  recordTask,
  reserveSpace,
  retryOnNameRace,
  taskView,
  planOf,
} from '../../domain/index.js'
import { type LandedFile, insertDownloadTree, landsAsOneFile } from './land-tree.js'
import { type OfflineSource, offlineSource, parseOfflineUrl } from './offline-url.js'
import { refuseLiteralPrivateHost } from './source-policy.js'

type Trx = Transaction<DriveDatabase>

/** The task message of a finished download, and of one completed at once from content stored before. */
export const SAVED_MESSAGE = 'Saved'
export const SAVED_INSTANTLY_MESSAGE = 'Saved at once: this link was downloaded before'

/**
 * The caller's download folder (folder_type DOWNLOAD), where offline downloads land unless the
 * request names a folder. Found by its type, never its name, so it stays the same folder after
 * the user renames it or switches language. Made in the root folder on first use, named in
 * `locale` (a clash with an existing name gets a suffix, as any new item does).
 */
export async function downloadFolder(trx: Trx, userId: string, locale: Locale, nowMs: number): Promise<string> {
  const existing = await trx
    .selectFrom('drive_files')
    .select('id')
    .where('user_id', '=', userId)
    .where('folder_type', '=', 'DOWNLOAD')
    .where('kind', '=', FOLDER_KIND)
    .where('trashed', '=', 0)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst()
  if (existing) return existing.id
  const created = await insertItem(trx, { userId, parentId: '', name: DOWNLOAD_FOLDER_NAMES[locale], kind: FOLDER_KIND, size: 0, gcid: null, phase: 'PHASE_TYPE_COMPLETE', folderType: 'DOWNLOAD', nowMs })
  await recordEvents(trx, nowMs, userId, 'TYPE_CREATE', [created])
  return created.id
}

/** Refuses a task past the plan's offline downloads per UTC day (task_daily_create_limit_vip). */
async function requireDailyAllowance(deps: DriveDeps, trx: Trx, caller: Caller, nowMs: number): Promise<void> {
  const { daily } = await offlineQuota(trx, caller.userId, planOf(deps.config, caller.membership, nowMs).limits, nowMs)
  if (daily.usage >= daily.limit) {
    throw new AppError(DriveErrors.task_daily_create_limit_vip, { description: `${daily.limit} offline downloads a day on this plan`, metadata: { limit: String(daily.limit) } })
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Instant completion: a source completed before (by anyone: the content came from a public
 * source, a URL or a whole torrent's info hash) lands at once from the stored blobs, as one file
 * or as the torrent's folder tree. Returns null when the source is unknown or any of its content
 * is gone (a reference can be taken only while a blob is stored and not being collected; the
 * caller's transaction rolls back the references taken when it throws, and none are left when
 * this returns null before taking any).
 */
async function completeFromKnownSource(deps: DriveDeps, trx: Trx, caller: Caller, input: { source: OfflineSource; folderId: string; name: string | null; nowMs: number }): Promise<{ top: FilesTable; total: number } | null> {
  const known = await trx.selectFrom('drive_offline_sources').selectAll().where('source_key', '=', input.source.sourceKey).executeTakeFirst()
  if (!known) return null
  const files = JSON.parse(known.files) as LandedFile[]
  if (files.length === 0) return null
  const counts = new Map<string, { count: number; size: number }>()
  for (const f of files) counts.set(f.gcid, { count: (counts.get(f.gcid)?.count ?? 0) + 1, size: f.size })
  // All or nothing: check every blob first, then take the references.
  const stored = await trx.selectFrom('drive_blobs').select(['gcid', 'size']).where('gcid', 'in', [...counts.keys()]).where('ref_count', '>=', 0).execute()
  if (stored.length !== counts.size || stored.some((b) => Number(b.size) !== counts.get(b.gcid)!.size)) return null
  for (const [gcid, { count, size }] of counts) if (!(await addBlobRef(trx, gcid, count, input.nowMs, size))) return null
  const total = files.reduce((sum, f) => sum + f.size, 0)
  await reserveSpace(trx, caller.userId, total, quotaLimit(deps.config, caller, input.nowMs))
  const oneFile = landsAsOneFile(known.name, files)
  const name = input.name ?? known.name
  const { top } = await insertDownloadTree(trx, { userId: caller.userId, parentId: input.folderId, name, files: oneFile ? [{ ...files[0]!, path: [name] }] : files, oneFile, nowMs: input.nowMs })
  await recordEvents(trx, input.nowMs, caller.userId, 'TYPE_CREATE', [top])
  return { top, total }
}

/** The `.torrent` file in the caller's drive a task is added from (`params.torrent_file_id`, our extension). */
async function torrentFileOf(trx: Trx, userId: string, id: unknown): Promise<FilesTable> {
  if (typeof id !== 'string' || id === '') throw new AppError(GenericErrors.invalid_argument, { description: 'params.torrent_file_id names no file', metadata: { field: 'params.torrent_file_id' } })
  const file = await findOwned(trx, userId, id)
  if (file.kind !== 'drive#file' || file.trashed || !file.gcid || file.phase !== 'PHASE_TYPE_COMPLETE') throw new AppError(DriveErrors.file_not_found, { description: 'the torrent file is not a complete file in the drive', metadata: { id } })
  return file
}

/** `url.files`: the torrent file indexes to download (strings or numbers); absent or empty for all. */
function fileIndexesOf(raw: unknown): number[] | undefined {
  if (raw === undefined || raw === null) return undefined
  if (!Array.isArray(raw) || raw.length > 100_000) throw new AppError(GenericErrors.invalid_argument, { description: 'url.files lists torrent file indexes', metadata: { field: 'url.files' } })
  const indexes = raw.map((v) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : Number.NaN))
  if (indexes.some((i) => !Number.isSafeInteger(i) || i < 0)) throw new AppError(GenericErrors.invalid_argument, { description: 'url.files lists torrent file indexes', metadata: { field: 'url.files' } })
  return indexes.length === 0 ? undefined : [...new Set(indexes)].sort((a, b) => a - b)
}

/**
 * `POST /drive/v1/files` with `upload_type: UPLOAD_TYPE_URL`: adds an offline download. The task
 * and the job that runs it are written in one transaction, after the plan's daily limit; the
 * content lands in `parent_id`, or in the caller's download folder (created on first use, named
 * in `locale`). A link downloaded before completes at once from the stored content: the reply's
 * `file` is set and the task is COMPLETE with a message saying so.
 */
export async function createOfflineTask(deps: DriveDeps, caller: Caller, body: Record<string, unknown>, locale: Locale): Promise<CreateFileReply> {
  const urlField = isObject(body['url']) ? body['url'] : {}
  const params = isObject(body['params']) ? body['params'] : {}
  const torrentFileId = params['torrent_file_id']
  const fromTorrentFile = torrentFileId !== undefined && torrentFileId !== null && torrentFileId !== ''
  const parsed = fromTorrentFile ? null : parseOfflineUrl(urlField['url'])
  const source = parsed ? offlineSource(parsed.url) : null
  if (source?.kind === 'http') refuseLiteralPrivateHost(source.url, deps.config.offlineAllowedNetworks)
  const fileIndexes = fileIndexesOf(urlField['files'])
  const requestedName = body['name']
  const name = requestedName === undefined || requestedName === null || requestedName === '' ? null : checkName(requestedName)
  const parentId = typeof body['parent_id'] === 'string' ? body['parent_id'] : ''
  const nowMs = deps.clock.nowMs()

  const result = await retryOnNameRace(() =>
    deps.db.transaction().execute(async (trx) => {
      // One at a time per user, so a burst cannot slip past the daily limit between count and insert.
      await lockUserTree(trx, caller.userId)
      await requireDailyAllowance(deps, trx, caller, nowMs)
      const torrentFile = fromTorrentFile ? await torrentFileOf(trx, caller.userId, torrentFileId) : null
      const folderId = parentId !== '' ? await liveFolder(trx, caller.userId, parentId, { forInsert: true }) : await downloadFolder(trx, caller.userId, locale, nowMs)
      const taskName = name ?? parsed?.name ?? torrentFile!.name.replace(/\.torrent$/i, '')
      const wireUrl = parsed?.url ?? ''
      const plan = planOf(deps.config, caller.membership, nowMs)
      const work = { plan: plan.name, ...(plan.member && caller.membership ? { planUntilMs: caller.membership.expiresAtMs } : {}), locale, ...(name ? { name } : {}), ...(fileIndexes ? { fileIndexes } : {}), ...(torrentFile ? { torrentFileId: torrentFile.id } : {}) }

      const known = source && !fileIndexes ? await completeFromKnownSource(deps, trx, caller, { source, folderId, name, nowMs }) : null
      if (known) {
        const { top: instant, total } = known
        const reference = { kind: instant.kind, id: instant.id, name: instant.name, size: String(total), mime_type: instant.mime_type }
        const task = await recordTask(trx, {
          userId: caller.userId, type: 'offline', name: instant.name, phase: 'PHASE_TYPE_COMPLETE', progress: 100,
          params: { url: wireUrl, parent_id: folderId, age: '0', predict_speed: '0', predict_type: '0' },
          fileId: instant.id, fileName: instant.name, fileSizeBytes: total, nowMs, work: { ...work, reference },
        })
        await trx.updateTable('drive_tasks').set({ message: SAVED_INSTANTLY_MESSAGE }).where('id', '=', task.id).execute()
        return { task: { ...task, message: SAVED_INSTANTLY_MESSAGE }, file: instant }
      }
      const task = await recordTask(trx, {
        userId: caller.userId, type: 'offline', name: taskName, phase: 'PHASE_TYPE_PENDING', progress: 0,
        params: { url: wireUrl, parent_id: folderId, age: '0', predict_speed: '0', predict_type: '0', ...(torrentFile ? { torrent_file_id: torrentFile.id } : {}) },
        fileName: taskName, nowMs, work,
      })
      await enqueueOfflineRun(deps, trx, task)
      return { task, file: null }
    }),
  )
  if (!result.file) deps.jobs.notify(OFFLINE_QUEUE)
  return { upload_type: 'UPLOAD_TYPE_URL', url: { kind: 'upload#url' }, file: result.file ? fileView(deps, result.file) : null, task: taskView(result.task) }
}
