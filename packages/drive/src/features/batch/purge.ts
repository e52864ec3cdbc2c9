import type { DriveDeps } from '../../deps.js'
import { deleteTrees, lockUserTree, retryOnConflict } from '../../domain/index.js'
import { DAY_MS } from '../../lib/time.js'

/** Trash roots taken per round; each user's share of a round is one transaction. */
export const PURGE_BATCH_SIZE = 200
/** Rounds per housekeeping run, so one run stays bounded; the next run carries on. */
export const PURGE_MAX_ROUNDS = 50

/**
 * Deletes for good what has lain in the trash longer than config.trashRetentionDays (drive.md:
 * "Trashed items are purged after a configurable retention"), with everything under it. Works in
 * bounded batches, oldest first. Safe on several nodes at once: each deletion re-checks its rows
 * inside its transaction and the counters follow the rows actually deleted. Returns how many trash
 * roots went.
 */
export async function purgeExpiredTrash(deps: Pick<DriveDeps, 'db' | 'clock' | 'config'>): Promise<number> {
  const nowMs = deps.clock.nowMs()
  const cutoffMs = nowMs - deps.config.trashRetentionDays * DAY_MS
  let purged = 0
  for (let round = 0; round < PURGE_MAX_ROUNDS; round++) {
    const due = await deps.db
      .selectFrom('drive_files')
      .select(['id', 'user_id'])
      .where('trash_root', '=', 1)
      .where('trashed_at', '<', cutoffMs)
      .where('trashed', '=', 1)
      .orderBy('trashed_at')
      .limit(PURGE_BATCH_SIZE)
      .execute()
    const byUser = new Map<string, string[]>()
    for (const row of due) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row.id])
    for (const [userId, candidates] of byUser) {
      purged += await retryOnConflict(() => deps.db.transaction().execute(async (trx) => {
        await lockUserTree(trx, userId)
        // Still due? It may have been restored or deleted since it was read.
        const still = await trx.selectFrom('drive_files').select('id').where('user_id', '=', userId).where('id', 'in', candidates).where('trash_root', '=', 1).where('trashed', '=', 1).where('trashed_at', '<', cutoffMs).execute()
        await deleteTrees(trx, userId, still.map((r) => r.id), nowMs)
        return still.length
      }))
    }
    if (due.length < PURGE_BATCH_SIZE) break
  }
  return purged
}
