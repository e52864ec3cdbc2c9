import { FOLDER_KIND } from '@cumulus/protocol'
import type { Kysely, Transaction } from 'kysely'
import type { DriveDatabase, FilesTable } from '../db/schema.js'
import { addBlobRefsInBulk, countByGcid } from './blob-refs.js'
import { takenNames } from './items.js'
import { freeNames, nameKey } from './names.js'
import { searchColumns } from './search-text.js'
import { subtreeParents } from './tree.js'
import { reserveSpace } from './usage.js'
import { newId } from '../lib/ids.js'
import { chunks } from '../lib/rows.js'

type Db = Kysely<DriveDatabase> | Transaction<DriveDatabase>

/** An unfinished upload has no content to share yet; a copy skips it. */
function isUnfinishedFile(row: FilesTable): boolean {
  return row.kind !== FOLDER_KIND && (row.phase !== 'PHASE_TYPE_COMPLETE' || row.gcid === null)
}

/** Where a copy goes: an account's live folder, and that account's quota. */
export interface CopyTarget {
  userId: string
  folderId: string
  quotaLimitBytes: number
}

/** The items a copy reads: live rows of `userId` and what is live under them. */
export interface CopySource {
  userId: string
  items: readonly FilesTable[]
}

/** How many items a copy of `items` would make (the items and everything live under them), counting past `limit` no further. */
export async function countTree(db: Db, source: CopySource, limit = Number.POSITIVE_INFINITY): Promise<number> {
  let count = source.items.length
  const folders = source.items.filter((i) => i.kind === FOLDER_KIND).map((i) => i.id)
  if (folders.length === 0) return count
  for (const chunk of chunks(await subtreeParents(db, source.userId, folders, 'live'))) {
    const { n } = await db.selectFrom('drive_files').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', source.userId).where('parent_id', 'in', chunk).where('trashed', '=', 0).executeTakeFirstOrThrow()
    count += Number(n)
    if (count > limit) return count
  }
  return count
}

/**
 * Copies live `items` of `source.userId`, folders with everything live under them, into the live
 * folder `target.folderId` of `target.userId` (the same account for a copy, another one when a
 * share is saved). The caller checks that a folder is not copied into itself.
 * Instant: a copied file is a new row sharing the original's blob (one more reference), no byte
 * is read or written. The whole copy's size is reserved against the quota before anything is
 * stored (file_space_not_enough otherwise). Copies keep the original's name (a suffix when the
 * target has it already) and modified_time; they are not starred. Returns the top-level copies.
 *
 * Set-based so a tree of 10,000 files stays a handful of statements: a read per level of folders,
 * chunked multi-row inserts, and blob references added per group of blobs.
 */
export async function copyTree(db: Db, source: CopySource, target: CopyTarget, nowMs: number): Promise<FilesTable[]> {
  const { items } = source
  const { userId, folderId: targetId, quotaLimitBytes } = target
  const tree: FilesTable[] = []
  for (const chunk of chunks(await subtreeParents(db, source.userId, items.map((i) => i.id), 'live'))) {
    tree.push(...(await db.selectFrom('drive_files').selectAll().where('user_id', '=', source.userId).where('parent_id', 'in', chunk).where('trashed', '=', 0).execute()))
  }
  const childrenOf = new Map<string, FilesTable[]>()
  for (const row of tree) {
    const siblings = childrenOf.get(row.parent_id)
    if (siblings) siblings.push(row)
    else childrenOf.set(row.parent_id, [row])
  }

  const copies: FilesTable[] = []
  const tops: FilesTable[] = []
  const copyOf = (source: FilesTable, parentId: string, name: string): FilesTable => ({
    ...source,
    id: newId(),
    user_id: userId,
    parent_id: parentId,
    name,
    ...(name === source.name ? {} : { name_key: nameKey(name), ...searchColumns(name) }),
    folder_type: 'NORMAL',
    starred: 0,
    trashed: 0,
    trash_root: 0,
    trashed_at: null,
    revision: 1,
    upload_id: null,
    created_at: nowMs,
  })

  // Every top-level name in one lookup (per round of suffixes), not one per item.
  const sources = items.filter((item) => !isUnfinishedFile(item))
  const names = await freeNames(
    sources.map((item) => ({ name: item.name, isFolder: item.kind === FOLDER_KIND })),
    (candidates) => takenNames(db, userId, targetId, candidates),
  )
  for (const [index, item] of sources.entries()) {
    const name = names[index] as string
    const top = copyOf(item, targetId, name)
    copies.push(top)
    tops.push(top)
    // Depth-first through the original tree; `seen` ends the walk even on a corrupt cycle of parents.
    const seen = new Set([item.id])
    const stack: [FilesTable, string][] = [[item, top.id]]
    while (stack.length > 0) {
      const [source, copyId] = stack.pop() as [FilesTable, string]
      for (const child of childrenOf.get(source.id) ?? []) {
        if (seen.has(child.id) || isUnfinishedFile(child)) continue
        seen.add(child.id)
        const copy = copyOf(child, copyId, child.name)
        copies.push(copy)
        if (child.kind === FOLDER_KIND) stack.push([child, copy.id])
      }
    }
  }
  if (copies.length === 0) return []

  let totalBytes = 0
  for (const copy of copies) totalBytes += Number(copy.size)
  await reserveSpace(db, userId, totalBytes, quotaLimitBytes)
  // 22 columns a row: 500 rows stay well under SQLite's and PostgreSQL's bound-parameter limits.
  for (const chunk of chunks(copies, 500)) await db.insertInto('drive_files').values(chunk).execute()
  if (!(await addBlobRefsInBulk(db, countByGcid(copies), nowMs))) {
    // A live file always holds a reference to its blob, so this is a broken invariant, not a user error.
    throw new Error('a copied file refers to a blob that is missing or being deleted')
  }
  return tops
}
