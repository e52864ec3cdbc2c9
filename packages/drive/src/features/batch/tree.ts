import { type Kysely, type RawBuilder, type Transaction, sql } from 'kysely'
import type { DriveDatabase } from '../../db/schema.js'

type Db = Kysely<DriveDatabase> | Transaction<DriveDatabase>

/**
 * Which children a walk down the tree follows:
 * - `live`: items not in the trash (trash, move and copy leave a separately trashed child alone);
 * - `trashedWith`: items trashed together with their parent (trash_root 0), what a restore brings back;
 * - `all`: everything (deleting for good).
 */
export type Descent = 'live' | 'trashedWith' | 'all'

const DESCENT_CONDITION: Record<Descent, RawBuilder<unknown>> = {
  live: sql`and f.trashed = 0`,
  trashedWith: sql`and f.trashed = 1 and f.trash_root = 0`,
  all: sql``,
}

/**
 * A subquery of the ids of `rootIds` (the caller's) and everything under them that `descent`
 * reaches: one recursive query over parent_id, the same on SQLite and PostgreSQL, each step an
 * index range scan on (user_id, parent_id). UNION, not UNION ALL, so even a corrupt cycle of
 * parents ends the walk instead of looping forever.
 */
export function subtreeIds(userId: string, rootIds: readonly string[], descent: Descent): RawBuilder<string> {
  if (rootIds.length === 0) return sql<string>`(select id from drive_files where 1 = 0)`
  return sql<string>`(with recursive tree(id) as (
    select id from drive_files where user_id = ${userId} and id in (${sql.join(rootIds)})
    union
    select f.id from drive_files f join tree t on f.parent_id = t.id where f.user_id = ${userId} ${DESCENT_CONDITION[descent]}
  ) select id from tree)`
}

/** `folderId` and every folder above it, up to the root (for "move a folder into itself" checks). */
export async function ancestorsOf(db: Db, userId: string, folderId: string): Promise<Set<string>> {
  if (folderId === '') return new Set()
  const { rows } = await sql<{ id: string }>`with recursive up(id, parent_id) as (
    select id, parent_id from drive_files where user_id = ${userId} and id = ${folderId}
    union
    select f.id, f.parent_id from drive_files f join up u on f.id = u.parent_id where f.user_id = ${userId}
  ) select id from up`.execute(db)
  return new Set(rows.map((r) => r.id))
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

/** Splits `items` into chunks small enough for one statement's bound parameters (SQLite and PostgreSQL). */
export function chunks<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
