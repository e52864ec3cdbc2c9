import { type Kysely, type Transaction, sql } from 'kysely'
import type { DriveDatabase } from '../../db/schema.js'
import { chunks } from './tree.js'

type Db = Kysely<DriveDatabase> | Transaction<DriveDatabase>

/** How many of `rows` use each blob. */
export function countByGcid(rows: readonly { gcid: string | null }[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const { gcid } of rows) if (gcid) counts.set(gcid, (counts.get(gcid) ?? 0) + 1)
  return counts
}

/** Groups blobs by how many references change, so one UPDATE covers every blob with the same count. */
function byCount(counts: ReadonlyMap<string, number>): Map<number, string[]> {
  const groups = new Map<number, string[]>()
  for (const [gcid, count] of counts) {
    const group = groups.get(count)
    if (group) group.push(gcid)
    else groups.set(count, [gcid])
  }
  return groups
}

/**
 * The set-based form of blob-refs.ts `addBlobRef` for a copy of many files: the same conditional
 * update (never onto a blob being deleted, ref_count -1), but one statement per chunk of blobs that
 * gain the same number of references rather than one per blob, so copying 10,000 distinct files
 * is a handful of statements. Returns false when some blob could not take its references (the
 * caller's transaction must then fail).
 */
export async function addBlobRefsInBulk(db: Db, counts: ReadonlyMap<string, number>, nowMs: number): Promise<boolean> {
  for (const [count, gcids] of byCount(counts)) {
    for (const chunk of chunks(gcids)) {
      const result = await db
        .updateTable('drive_blobs')
        .set({ ref_count: sql`ref_count + ${count}`, updated_at: nowMs })
        .where('gcid', 'in', chunk)
        .where('ref_count', '>=', 0)
        .executeTakeFirst()
      if (Number(result.numUpdatedRows) !== chunk.length) return false
    }
  }
  return true
}

/** Drops references of files deleted for good, clamped at 0; a blob left at 0 becomes garbage for housekeeping after its grace period (updated_at). */
export async function releaseBlobRefsInBulk(db: Db, counts: ReadonlyMap<string, number>, nowMs: number): Promise<void> {
  for (const [count, gcids] of byCount(counts)) {
    for (const chunk of chunks(gcids)) {
      await db
        .updateTable('drive_blobs')
        .set({ ref_count: sql`case when ref_count - ${count} < 0 then 0 else ref_count - ${count} end`, updated_at: nowMs })
        .where('gcid', 'in', chunk)
        .where('ref_count', '>', 0)
        .execute()
    }
  }
}
