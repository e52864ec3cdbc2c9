import { FOLDER_KIND } from '@cumulus/protocol'
import { type Kysely, type RawBuilder, type Transaction, sql } from 'kysely'
import type { DriveDatabase } from '../db/schema.js'
import { chunks } from '../lib/rows.js'

type Db = Kysely<DriveDatabase> | Transaction<DriveDatabase>

/**
 * Which children a walk down the tree follows:
 * - `live`: items not in the trash (trash, move and copy leave a separately trashed child alone);
 * - `trashedWith`: items trashed together with their parent (trash_root 0), what a restore brings back;
 * - `all`: everything (deleting for good).
 */
export type Descent = 'live' | 'trashedWith' | 'all'

const DESCENT_CONDITION: Record<Descent, RawBuilder<boolean>> = {
  live: sql<boolean>`trashed = 0`,
  trashedWith: sql<boolean>`trashed = 1 and trash_root = 0`,
  all: sql<boolean>`1 = 1`,
}

/** The SQL condition on a child row that `descent` follows. */
export function descentCondition(descent: Descent): RawBuilder<boolean> {
  return DESCENT_CONDITION[descent]
}

/**
 * The parents of everything in a subtree: `rootIds` and every folder under them that `descent`
 * reaches. Whatever lies in the subtree is then `rootIds` plus the rows whose parent_id is one of
 * these, so each change to a subtree is a few set-based statements `where parent_id in (…)`.
 *
 * One query per level of folders (and per 500 folders of a level), each an index range scan on
 * (user_id, parent_id, trashed, kind_rank), never a query per file. A recursive SQL query would do
 * it in one statement, but PostgreSQL plans its join from statistics, and on a freshly filled
 * table it picked a nested loop over every row of the user for every row of the walk. `seen` ends
 * the walk even on a corrupt cycle of parents.
 */
export async function subtreeParents(db: Db, userId: string, rootIds: readonly string[], descent: Descent): Promise<string[]> {
  const seen = new Set(rootIds)
  let level = [...seen]
  while (level.length > 0) {
    const next: string[] = []
    for (const chunk of chunks(level)) {
      const folders = await db
        .selectFrom('drive_files')
        .select('id')
        .where('user_id', '=', userId)
        .where('parent_id', 'in', chunk)
        .where('kind_rank', '=', 0)
        .where(descentCondition(descent))
        .execute()
      for (const { id } of folders) {
        if (seen.has(id)) continue
        seen.add(id)
        next.push(id)
      }
    }
    level = next
  }
  return [...seen]
}

/** `folderId` and every folder above it, up to the root (for "move a folder into itself" checks). */
export async function ancestorsOf(db: Db, userId: string, folderId: string): Promise<Set<string>> {
  const above = new Set<string>()
  let current = folderId
  // One primary-key lookup per level; `above` ends the climb even on a corrupt cycle.
  while (current !== '' && !above.has(current)) {
    const row = await db.selectFrom('drive_files').select(['id', 'parent_id']).where('user_id', '=', userId).where('id', '=', current).where('kind', '=', FOLDER_KIND).executeTakeFirst()
    if (!row) break
    above.add(row.id)
    current = row.parent_id
  }
  return above
}

/**
 * Serialises changes to one user's tree: takes the row lock of the user's usage row until the
 * transaction ends. Without it two concurrent moves on PostgreSQL (A into B, B into A) could each
 * pass the "not into itself" check and together make a cycle. SQLite runs one write transaction at
 * a time anyway; there this is a no-op update.
 */
export async function lockUserTree(db: Db, userId: string): Promise<void> {
  await db.insertInto('drive_usage').values({ user_id: userId, usage: 0, usage_in_trash: 0 }).onConflict((oc) => oc.column('user_id').doNothing()).execute()
  await db.updateTable('drive_usage').set({ usage: sql`usage` }).where('user_id', '=', userId).execute()
}
