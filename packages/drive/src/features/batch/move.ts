import { AppError, DriveErrors, FOLDER_KIND } from '@cumulus/protocol'
import type { Kysely, Transaction } from 'kysely'
import type { DriveDatabase, FilesTable } from '../../db/schema.js'
import { ancestorsOf, freeName, nameColumns, takenNames } from '../../domain/index.js'

type Db = Kysely<DriveDatabase> | Transaction<DriveDatabase>

/** file_move_or_copy_to_cur when `targetId` is one of `items` or lies under one of them. */
export async function refuseIntoItself(db: Db, userId: string, items: readonly FilesTable[], targetId: string): Promise<void> {
  const above = await ancestorsOf(db, userId, targetId)
  const inside = items.find((item) => above.has(item.id))
  if (inside) {
    throw new AppError(DriveErrors.file_move_or_copy_to_cur, { description: `${inside.id} cannot go into itself or a folder under it`, metadata: { id: inside.id } })
  }
}

/**
 * Moves live `items` into the live folder `targetId` ('' for the root). A name taken there gets a
 * suffix, as on create. modified_time stays: moving is not editing. Items already there are left
 * alone. Returns the items moved, as they are now.
 */
export async function moveItems(db: Db, userId: string, items: readonly FilesTable[], targetId: string): Promise<FilesTable[]> {
  await refuseIntoItself(db, userId, items, targetId)
  const moved: FilesTable[] = []
  for (const item of items) {
    if (item.parent_id === targetId) continue
    const isFolder = item.kind === FOLDER_KIND
    // Items moved earlier in this request are already in the folder, so they count as taken too.
    const name = await freeName(item.name, (c) => takenNames(db, userId, targetId, c), isFolder)
    const changes = { parent_id: targetId, revision: item.revision + 1, ...(name === item.name ? {} : nameColumns(name, isFolder)) }
    await db.updateTable('drive_files').set(changes).where('id', '=', item.id).execute()
    moved.push({ ...item, ...changes })
  }
  return moved
}
