import { AppError, DriveErrors } from '@cumulus/protocol'
import { type Kysely, sql } from 'kysely'
import type { DriveConfig } from '../config.js'
import type { DriveDatabase } from '../db/schema.js'
import type { Caller } from '../deps.js'
import { planOf } from './plans.js'

/** The caller's storage limit: their plan's while the membership runs, else the free plan's. */
export function quotaLimit(config: DriveConfig, caller: Caller, nowMs: number): number {
  return planOf(config, caller.membership, nowMs).limits.storageBytes
}

async function ensureRow(db: Kysely<DriveDatabase>, userId: string) {
  await db.insertInto('drive_usage').values({ user_id: userId, usage: 0, usage_in_trash: 0 }).onConflict((oc) => oc.column('user_id').doNothing()).execute()
}

/**
 * Counts `bytes` more against the quota, or refuses with file_space_not_enough when they do not
 * fit. One conditional UPDATE, so two concurrent uploads can never both squeeze past the limit.
 */
export async function reserveSpace(db: Kysely<DriveDatabase>, userId: string, bytes: number, limit: number): Promise<void> {
  if (bytes <= 0) return
  await ensureRow(db, userId)
  const result = await db
    .updateTable('drive_usage')
    .set({ usage: sql`usage + ${bytes}` })
    .where('user_id', '=', userId)
    .where(sql<boolean>`usage + ${bytes} <= ${limit}`)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) === 0) {
    throw new AppError(DriveErrors.file_space_not_enough, { description: `${bytes} more bytes do not fit the ${limit}-byte quota`, metadata: { limit: String(limit) } })
  }
}

/** Adjusts the counters (negative to release); never below zero. */
export async function adjustUsage(db: Kysely<DriveDatabase>, userId: string, delta: { usage?: number; inTrash?: number }): Promise<void> {
  const usage = delta.usage ?? 0
  const inTrash = delta.inTrash ?? 0
  if (usage === 0 && inTrash === 0) return
  await ensureRow(db, userId)
  await db
    .updateTable('drive_usage')
    .set({
      usage: sql`case when usage + ${usage} < 0 then 0 else usage + ${usage} end`,
      usage_in_trash: sql`case when usage_in_trash + ${inTrash} < 0 then 0 else usage_in_trash + ${inTrash} end`,
    })
    .where('user_id', '=', userId)
    .execute()
}

/**
 * The caller's counters as `GET /drive/v1/about` shows them: everything counted (`usage`), the
 * part in the trash, and the part reserved by unfinished uploads outside the trash (a trashed
 * upload counts as trash, so the parts never overlap). One statement, so the three come from one
 * snapshot: an upload finishing or being dropped changes its drive_uploads row and the counter in
 * one transaction, and the sum never disagrees with `usage`.
 */
export async function usageOf(db: Kysely<DriveDatabase>, userId: string): Promise<{ usage: number; inTrash: number; inUploads: number }> {
  const row = await db
    .selectFrom('drive_usage')
    .select(['usage', 'usage_in_trash'])
    .select((eb) =>
      eb
        .selectFrom('drive_uploads')
        .innerJoin('drive_files', 'drive_files.id', 'drive_uploads.file_id')
        .select(sql<number | string | null>`sum(drive_uploads.size)`.as('bytes'))
        .where('drive_uploads.user_id', '=', userId)
        .where('drive_files.trashed', '=', 0)
        .as('usage_in_uploads'),
    )
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return { usage: Number(row?.usage ?? 0), inTrash: Number(row?.usage_in_trash ?? 0), inUploads: Number(row?.usage_in_uploads ?? 0) }
}
