import { AppError, type DriveFile, DriveErrors, FOLDER_KIND } from '@cumulus/protocol'
import type { Kysely, Transaction } from 'kysely'
import type { DriveDatabase, FilesTable } from '../../db/schema.js'
import type { Caller, DriveDeps } from '../../deps.js'
import { isUniqueViolation } from '../../lib/db-errors.js'
import { isId, newId } from '../../lib/ids.js'
import { recordEvents } from '../events/events.js'
import { fileView } from './file-view.js'
import { checkName, freeName, nameKey, splitExtension } from './names.js'
import { categoryOf, mimeTypeOf } from './mime.js'

type Db = Kysely<DriveDatabase> | Transaction<DriveDatabase>

function notFound(id: string): AppError {
  return new AppError(DriveErrors.file_not_found, { description: `no file ${id}`, metadata: { id } })
}

/** The caller's item `id` (trashed or not), or file_not_found. Another user's item is "not found", never "forbidden". */
export async function findOwned(db: Db, userId: string, id: string): Promise<FilesTable> {
  if (!isId(id)) throw notFound(id)
  const row = await db.selectFrom('drive_files').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()
  if (!row) throw notFound(id)
  return row
}

/** '' for the root, or a live folder of the caller's; file_not_found / file_parent_not_folder otherwise. */
export async function liveFolder(db: Db, userId: string, parentId: string | null | undefined): Promise<string> {
  if (!parentId) return ''
  const row = await findOwned(db, userId, parentId)
  if (row.trashed === 1) throw notFound(parentId)
  if (row.kind !== FOLDER_KIND) throw new AppError(DriveErrors.file_parent_not_folder, { description: `${parentId} is not a folder`, metadata: { id: parentId } })
  return row.id
}

/** Which of `candidates` live items of the folder already use. */
export async function takenNames(db: Db, userId: string, parentId: string, candidates: string[]): Promise<Set<string>> {
  const rows = await db.selectFrom('drive_files').select('name').where('user_id', '=', userId).where('parent_id', '=', parentId).where('trashed', '=', 0).where('name', 'in', candidates).execute()
  return new Set(rows.map((r) => r.name))
}

/** The attributes an item's name decides. */
export function nameColumns(name: string, isFolder: boolean) {
  const extension = isFolder ? '' : splitExtension(name).extension.toLowerCase()
  const mimeType = isFolder ? '' : mimeTypeOf(extension)
  return { name, name_key: nameKey(name), file_extension: extension, mime_type: mimeType, file_category: isFolder ? 'OTHER' : categoryOf(extension, mimeType) }
}

export interface NewItem {
  userId: string
  parentId: string
  name: string
  kind: FilesTable['kind']
  size: number
  gcid: string | null
  phase: string
  folderType?: string
  uploadId?: string | null
  nowMs: number
  /** Keep the timestamps of the item this one copies. */
  createdAt?: number
  modifiedAt?: number
  starred?: number
}

/**
 * Inserts a live item under a free name (a clash gets "(1)", "(2)"…). Run it inside
 * `retryOnNameRace`: a concurrent insert may take the name between the check and the insert, and
 * then the unique index refuses it and the whole transaction is tried again.
 */
export async function insertItem(db: Db, item: NewItem): Promise<FilesTable> {
  const isFolder = item.kind === FOLDER_KIND
  const name = await freeName(item.name, (c) => takenNames(db, item.userId, item.parentId, c), isFolder)
  const row: FilesTable = {
    id: newId(),
    user_id: item.userId,
    parent_id: item.parentId,
    ...nameColumns(name, isFolder),
    kind: item.kind,
    kind_rank: isFolder ? 0 : 1,
    size: item.size,
    gcid: item.gcid,
    folder_type: item.folderType ?? 'NORMAL',
    phase: item.phase,
    starred: item.starred ?? 0,
    trashed: 0,
    trash_root: 0,
    trashed_at: null,
    revision: 1,
    upload_id: item.uploadId ?? null,
    created_at: item.createdAt ?? item.nowMs,
    modified_at: item.modifiedAt ?? item.nowMs,
  }
  await db.insertInto('drive_files').values(row).execute()
  return row
}

/** Runs `work` (a whole transaction) again when a concurrent change took a name it chose. */
export async function retryOnNameRace<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work()
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 4) throw error
    }
  }
}

export async function getFile(deps: DriveDeps, caller: Caller, id: string): Promise<DriveFile> {
  return fileView(deps, await findOwned(deps.db, caller.userId, id))
}

export async function createFolder(deps: DriveDeps, caller: Caller, input: { name: unknown; parentId?: string | null | undefined; folderType?: string }): Promise<DriveFile> {
  const name = checkName(input.name)
  const nowMs = deps.clock.nowMs()
  const row = await retryOnNameRace(() => deps.db.transaction().execute(async (trx) => {
    const parentId = await liveFolder(trx, caller.userId, input.parentId)
    const created = await insertItem(trx, { userId: caller.userId, parentId, name, kind: FOLDER_KIND, size: 0, gcid: null, phase: 'PHASE_TYPE_COMPLETE', folderType: input.folderType ?? 'NORMAL', nowMs })
    await recordEvents(trx, nowMs, caller.userId, 'TYPE_CREATE', [created])
    return created
  }))
  return fileView(deps, row)
}

/** PATCH: rename (a clash is file_duplicated_name, not a suffix) and star. */
export async function updateFile(deps: DriveDeps, caller: Caller, id: string, input: { name?: unknown; starred?: boolean | undefined }): Promise<DriveFile> {
  const nowMs = deps.clock.nowMs()
  const row = await deps.db.transaction().execute(async (trx) => {
    const current = await findOwned(trx, caller.userId, id)
    const changes: Partial<FilesTable> = {}
    if (input.name !== undefined) {
      const name = checkName(input.name)
      if (name !== current.name) {
        if (current.trashed === 0 && (await takenNames(trx, caller.userId, current.parent_id, [name])).size > 0) {
          throw new AppError(DriveErrors.file_duplicated_name, { description: `"${name}" already exists in this folder`, metadata: { name } })
        }
        Object.assign(changes, nameColumns(name, current.kind === FOLDER_KIND), { modified_at: nowMs })
        await recordEvents(trx, nowMs, caller.userId, 'TYPE_RENAME', [{ id: current.id, name }])
      }
    }
    if (input.starred !== undefined) changes.starred = input.starred ? 1 : 0
    if (Object.keys(changes).length === 0) return current
    changes.revision = current.revision + 1
    try {
      await trx.updateTable('drive_files').set(changes).where('id', '=', current.id).execute()
    } catch (error) {
      // A concurrent rename took the name between the check and the update.
      if (isUniqueViolation(error)) throw new AppError(DriveErrors.file_duplicated_name, { description: 'name already exists in this folder' })
      throw error
    }
    return { ...current, ...changes }
  })
  return fileView(deps, row)
}
