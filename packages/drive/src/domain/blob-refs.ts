import { type Kysely, sql } from 'kysely'
import type { DriveDatabase } from '../db/schema.js'
import { chunks } from '../lib/rows.js'

/*
 * Which files use which blob is counted in drive_blobs.ref_count, changed in the same transaction
 * as the files. The life of a blob row:
 *   - `announceBlob` before its content is stored: a row with ref_count 0 (garbage unless claimed
 *     soon), so a crash between storing the content and committing the file leaves a row that
 *     housekeeping finds, never an orphan nobody knows about;
 *   - `addBlobRef` for one file, `addBlobRefsInBulk` / `releaseBlobRefsInBulk` for many, with
 *     the files that use it;
 *   - housekeeping (features/blobs/collect-garbage-blobs.ts) claims a row that has stayed at 0
 *     for the grace period (ref_count -1), deletes the content, then the row. A row at -1 is
 *     never given new references.
 */

/** Rows at 0 younger than this are an upload in flight, not garbage. */
export const BLOB_GRACE_MS = 60 * 60_000

type Db = Kysely<DriveDatabase>

/** Records that content `gcid` is about to be stored (see above). Waits out a concurrent deletion of the same content. */
export async function announceBlob(db: Db, gcid: string, size: number, nowMs: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    await db
      .insertInto('drive_blobs')
      .values({ gcid, size, ref_count: 0, updated_at: nowMs })
      .onConflict((oc) => oc.column('gcid').doUpdateSet({ updated_at: nowMs }).where('drive_blobs.ref_count', '>=', 0))
      .execute()
    const row = await db.selectFrom('drive_blobs').select('ref_count').where('gcid', '=', gcid).executeTakeFirst()
    if (row && row.ref_count >= 0) return
    // Housekeeping is deleting this very content; it removes the row in a moment.
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`blob ${gcid} stayed claimed for deletion`)
}

/**
 * announceBlob for many contents at once: a statement per 500 rather than two per content (an
 * unpacking of thousands of files). Contents being deleted at that moment go through
 * announceBlob, which waits the deletion out.
 */
export async function announceBlobs(db: Db, blobs: ReadonlyMap<string, number>, nowMs: number): Promise<void> {
  for (const chunk of chunks([...blobs.keys()])) {
    await db
      .insertInto('drive_blobs')
      .values(chunk.map((gcid) => ({ gcid, size: blobs.get(gcid)!, ref_count: 0, updated_at: nowMs })))
      .onConflict((oc) => oc.column('gcid').doUpdateSet({ updated_at: nowMs }).where('drive_blobs.ref_count', '>=', 0))
      .execute()
    const claimed = await db.selectFrom('drive_blobs').select('gcid').where('gcid', 'in', chunk).where('ref_count', '<', 0).execute()
    for (const { gcid } of claimed) await announceBlob(db, gcid, blobs.get(gcid)!, nowMs)
  }
}

/**
 * Adds `count` references to blobs whose row exists and is not being deleted. Returns whether it
 * did (false: the content is not stored, or is being deleted).
 */
export async function addBlobRef(db: Db, gcid: string, count: number, nowMs: number, expectSize?: number): Promise<boolean> {
  let q = db.updateTable('drive_blobs').set({ ref_count: sql`ref_count + ${count}`, updated_at: nowMs }).where('gcid', '=', gcid).where('ref_count', '>=', 0)
  if (expectSize !== undefined) q = q.where('size', '=', expectSize)
  const result = await q.executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

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
 * The set-based form of `addBlobRef` for a copy of many files: the same conditional
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
