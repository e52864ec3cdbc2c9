import type { Kysely, Transaction } from 'kysely'
import type { DriveDatabase, FilesTable } from '../db/schema.js'
import { chunks, sumOf } from '../lib/rows.js'
import { adjustUsage } from './usage.js'
import { subtreeParents } from './tree.js'

type Db = Kysely<DriveDatabase> | Transaction<DriveDatabase>

/**
 * Moves live `items` to the trash: each becomes a trash root (what the trash view lists, what
 * retention counts from), everything live under it is trashed with it. Something under it that was
 * trashed on its own earlier stays its own trash root. `usage_in_trash` grows by the sizes that
 * went to the trash. Returns the items trashed (already trashed ones are left as they are).
 */
export async function trashItems(db: Db, userId: string, items: readonly FilesTable[], nowMs: number): Promise<FilesTable[]> {
  const roots = items.filter((item) => item.trashed === 0)
  if (roots.length === 0) return []
  const ids = roots.map((r) => r.id)
  // Roots first: a requested item under another requested one then stays a root of its own.
  let bytes = 0
  for (const chunk of chunks(ids)) {
    const rows = await db.updateTable('drive_files').set({ trashed: 1, trash_root: 1, trashed_at: nowMs }).where('user_id', '=', userId).where('id', 'in', chunk).where('trashed', '=', 0).returning(['size']).execute()
    bytes += sumOf(rows)
  }
  for (const chunk of chunks(await subtreeParents(db, userId, ids, 'live'))) {
    const rows = await db.updateTable('drive_files').set({ trashed: 1, trash_root: 0, trashed_at: nowMs }).where('user_id', '=', userId).where('parent_id', 'in', chunk).where('trashed', '=', 0).returning(['size']).execute()
    bytes += sumOf(rows)
  }
  await adjustUsage(db, userId, { inTrash: bytes })
  return roots
}
