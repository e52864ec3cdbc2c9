import { AppError, DriveErrors } from '@cumulus/protocol'
import type { Kysely, Transaction } from 'kysely'
import type { DriveDatabase, FilesTable } from '../../db/schema.js'
import { isId } from '../../lib/ids.js'
import { chunks } from '../../lib/rows.js'

type Db = Kysely<DriveDatabase> | Transaction<DriveDatabase>

export function fileNotFound(id: string): AppError {
  return new AppError(DriveErrors.file_not_found, { description: `no file ${id}`, metadata: { id } })
}

/**
 * The caller's items `ids` (duplicates dropped, request order kept), or file_not_found naming the
 * first id that is not theirs: a batch is all or nothing. Another user's item is "not found".
 */
export async function requireItems(db: Db, userId: string, ids: readonly string[]): Promise<FilesTable[]> {
  const unique = [...new Set(ids)]
  const malformed = unique.find((id) => !isId(id))
  if (malformed !== undefined) throw fileNotFound(malformed)
  const byId = new Map<string, FilesTable>()
  for (const chunk of chunks(unique)) {
    // By primary key alone, owner checked here (see findOwned: a plan that must not depend on statistics).
    const rows = await db.selectFrom('drive_files').selectAll().where('id', 'in', chunk).execute()
    for (const row of rows) if (row.user_id === userId) byId.set(row.id, row)
  }
  return unique.map((id) => {
    const row = byId.get(id)
    if (!row) throw fileNotFound(id)
    return row
  })
}

/** Like requireItems, but items in the trash count as not found (they cannot be moved or copied). */
export async function requireLiveItems(db: Db, userId: string, ids: readonly string[]): Promise<FilesTable[]> {
  const rows = await requireItems(db, userId, ids)
  const trashed = rows.find((r) => r.trashed === 1)
  if (trashed) throw fileNotFound(trashed.id)
  return rows
}
