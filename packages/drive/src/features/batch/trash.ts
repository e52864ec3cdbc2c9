import { FOLDER_KIND } from '@cumulus/protocol'
import { type Kysely, type Transaction, sql } from 'kysely'
import type { DriveDatabase, FilesTable } from '../../db/schema.js'
import { adjustUsage, descentCondition, freeName, nameColumns, subtreeParents, takenNames } from '../../domain/index.js'
import { chunks, sumOf } from '../../lib/rows.js'

type Db = Kysely<DriveDatabase> | Transaction<DriveDatabase>

/** Where a restored item goes: its old folder while that is a live folder, else the root folder. */
async function restoreTarget(db: Db, userId: string, parentId: string): Promise<string> {
  if (parentId === '') return ''
  const parent = await db.selectFrom('drive_files').select(['id']).where('user_id', '=', userId).where('id', '=', parentId).where('trashed', '=', 0).where('kind', '=', FOLDER_KIND).executeTakeFirst()
  return parent ? parent.id : ''
}

/**
 * Gives a suffix to items that are about to come back together and share a name in one folder.
 * Only possible when an item was renamed while it lay in the trash; the unique index on live names
 * would otherwise refuse the whole restore.
 */
async function separateClashingNames(db: Db, userId: string, parents: readonly string[]): Promise<void> {
  for (const chunk of chunks(parents)) {
    const clashes = await db
      .selectFrom('drive_files')
      .select(['parent_id', 'name'])
      .where('user_id', '=', userId)
      .where('parent_id', 'in', chunk)
      .where(descentCondition('trashedWith'))
      .groupBy(['parent_id', 'name'])
      .having(sql<number>`count(*)`, '>', 1)
      .execute()
    for (const clash of clashes) {
      const rows = await db
        .selectFrom('drive_files')
        .selectAll()
        .where('user_id', '=', userId)
        .where('parent_id', '=', clash.parent_id)
        .where('name', '=', clash.name)
        .where(descentCondition('trashedWith'))
        .orderBy('created_at')
        .orderBy('id')
        .execute()
      for (const row of rows.slice(1)) {
        const isFolder = row.kind === FOLDER_KIND
        // Any sibling counts as taken here (live ones cannot exist under a trashed folder).
        const name = await freeName(row.name, async (candidates) => {
          const taken = await db.selectFrom('drive_files').select('name').where('user_id', '=', userId).where('parent_id', '=', clash.parent_id).where('name', 'in', candidates).execute()
          return new Set(taken.map((t) => t.name))
        }, isFolder)
        await db.updateTable('drive_files').set(nameColumns(name, isFolder)).where('id', '=', row.id).execute()
      }
    }
  }
}

/**
 * Brings trashed `items` back with everything that was trashed with them. Each goes back to its
 * folder while that is live, else to the root folder; a name taken there meanwhile gets a suffix.
 * `usage_in_trash` shrinks by what came back. Returns the items restored, as they are now.
 */
export async function untrashItems(db: Db, userId: string, items: readonly FilesTable[]): Promise<FilesTable[]> {
  // Parents before children: a folder restored in the same request is a live target for its child.
  let pending = items.filter((item) => item.trashed === 1)
  const ordered: FilesTable[] = []
  while (pending.length > 0) {
    const waiting = new Set(pending.map((p) => p.id))
    const ready = pending.filter((p) => !waiting.has(p.parent_id))
    // Only a corrupt cycle of parents leaves nothing ready; take them as they come then.
    const next = ready.length > 0 ? ready : pending
    ordered.push(...next)
    const done = new Set(next.map((p) => p.id))
    pending = pending.filter((p) => !done.has(p.id))
  }

  const restored: FilesTable[] = []
  let inTrash = 0
  for (const requested of ordered) {
    // Read it again: restoring an earlier item of the request may have brought this one back already.
    const item = await db.selectFrom('drive_files').selectAll().where('id', '=', requested.id).executeTakeFirst()
    if (!item || item.trashed === 0) continue
    const isFolder = item.kind === FOLDER_KIND
    const target = await restoreTarget(db, userId, item.parent_id)
    const name = await freeName(item.name, (c) => takenNames(db, userId, target, c), isFolder)
    const parents = await subtreeParents(db, userId, [item.id], 'trashedWith')
    await separateClashingNames(db, userId, parents)
    let underBytes = 0
    for (const chunk of chunks(parents)) {
      const rows = await db.updateTable('drive_files').set({ trashed: 0, trash_root: 0, trashed_at: null }).where('user_id', '=', userId).where('parent_id', 'in', chunk).where(descentCondition('trashedWith')).returning(['size']).execute()
      underBytes += sumOf(rows)
    }
    const changes = { trashed: 0, trash_root: 0, trashed_at: null, parent_id: target, revision: item.revision + 1, ...(name === item.name ? {} : nameColumns(name, isFolder)) }
    await db.updateTable('drive_files').set(changes).where('id', '=', item.id).execute()
    inTrash += Number(item.size) + underBytes
    restored.push({ ...item, ...changes })
  }
  await adjustUsage(db, userId, { inTrash: -inTrash })
  return restored
}
