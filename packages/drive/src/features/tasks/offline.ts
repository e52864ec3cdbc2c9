import { AppError, type CreateFileReply, DOWNLOAD_FOLDER_NAMES, DriveErrors, FOLDER_KIND, type Locale } from '@cumulus/protocol'
import type { Transaction } from 'kysely'
import type { DriveDatabase } from '../../db/schema.js'
import type { Caller, DriveDeps } from '../../deps.js'
import { checkName, insertItem, liveFolder, lockUserTree, recordEvents, recordTask, retryOnNameRace, taskView } from '../../domain/index.js'
import { parseOfflineUrl } from './offline-url.js'

const DAY_MS = 24 * 3600_000

type Trx = Transaction<DriveDatabase>

/**
 * The caller's download folder (folder_type DOWNLOAD), where offline downloads land unless the
 * request names a folder. Found by its type, never its name, so it stays the same folder after
 * the user renames it or switches language. Made in the root folder on first use, named in
 * `locale` (a clash with an existing name gets a suffix, as any new item does).
 */
async function downloadFolder(trx: Trx, userId: string, locale: Locale, nowMs: number): Promise<string> {
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
  const isVip = caller.membership !== null && caller.membership.expiresAtMs > nowMs
  const limit = isVip ? deps.config.offlineTasksPerDay.vip : deps.config.offlineTasksPerDay.free
  const dayStartMs = nowMs - (nowMs % DAY_MS)
  const { count } = await trx
    .selectFrom('drive_tasks')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', caller.userId)
    .where('type', '=', 'offline')
    .where('created_at', '>=', dayStartMs)
    .executeTakeFirstOrThrow()
  if (Number(count) >= limit) {
    throw new AppError(DriveErrors.task_daily_create_limit_vip, { description: `${limit} offline downloads a day on this plan`, metadata: { limit: String(limit) } })
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * `POST /drive/v1/files` with `upload_type: UPLOAD_TYPE_URL`: stores an offline download task,
 * PENDING. The name defaults to what the URL says; the content lands in `parent_id`, or in the
 * caller's download folder, which is created on first use with its name in `locale` (the
 * request's language). Fetching the content is not built yet, so the task stays PENDING.
 */
export async function createOfflineTask(deps: DriveDeps, caller: Caller, body: Record<string, unknown>, locale: Locale): Promise<CreateFileReply> {
  const source = parseOfflineUrl(isObject(body['url']) ? body['url']['url'] : undefined)
  const requestedName = body['name']
  const name = requestedName === undefined || requestedName === null || requestedName === '' ? source.name : checkName(requestedName)
  const parentId = typeof body['parent_id'] === 'string' ? body['parent_id'] : ''
  const nowMs = deps.clock.nowMs()

  const task = await retryOnNameRace(() =>
    deps.db.transaction().execute(async (trx) => {
      // One at a time per user, so a burst cannot slip past the daily limit between count and insert.
      await lockUserTree(trx, caller.userId)
      await requireDailyAllowance(deps, trx, caller, nowMs)
      const folderId = parentId !== '' ? await liveFolder(trx, caller.userId, parentId, { forInsert: true }) : await downloadFolder(trx, caller.userId, locale, nowMs)
      return recordTask(trx, { userId: caller.userId, type: 'offline', name, phase: 'PHASE_TYPE_PENDING', progress: 0, params: { url: source.url, parent_id: folderId }, fileName: name, nowMs })
    }),
  )
  return { upload_type: 'UPLOAD_TYPE_URL', url: { kind: 'upload#url' }, file: null, task: taskView(task) }
}
