import { AppError, DriveErrors, FOLDER_KIND } from '@cumulus/protocol'
import type { Kysely, Transaction } from 'kysely'
import type { DriveDatabase, FilesTable } from '../db/schema.js'
import { isId, newId } from '../lib/ids.js'
import { categoryOf, mimeTypeOf } from './mime.js'
import { freeName, nameKey, splitExtension } from './names.js'
import { lockUserTree } from './tree.js'

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
 * Inserts a live item under a free name (a clash gets "(1)", "(2)"…). The name is chosen under
 * the user's tree lock, so concurrent inserts into one user's drive choose one after the other
 * and each sees the names the others committed (20 parallel creates of one name end as "a",
 * "a(1)" … "a(19)"). Still run it inside `retryOnNameRace`: a writer that does not take the lock
 * (a rename) may take the name meanwhile, and then the unique index refuses the insert and the
 * whole transaction is tried again.
 */
export async function insertItem(db: Db, item: NewItem): Promise<FilesTable> {
  const isFolder = item.kind === FOLDER_KIND
  await lockUserTree(db, item.userId)
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
