import { sql } from 'kysely'
import type { DriveDeps } from '../deps.js'
import { utcDayOf } from '../lib/time.js'

/**
 * Plays and where they stopped (issue 13 §3). A play is a video whose playback the account
 * started: the first fetch of its Original through the media link, or of a rendition's playlist
 * (not the download link: a download is not a play). It is counted once per video and UTC day:
 * seeking, a reload, another quality are the same play. The plan's `playsPerDay` caps the videos
 * a day; the cap is one conditional UPDATE, so parallel first plays can never pass it (SQLite and
 * PostgreSQL alike).
 */

class PlayLimitReached extends Error {}

/** Counts a play of `fileId` today; false when it is a new video and today's count is used up (`limit` -1: none). */
export async function countPlay(deps: Pick<DriveDeps, 'db' | 'clock'>, userId: string, fileId: string, limit: number): Promise<boolean> {
  const day = utcDayOf(deps.clock.nowMs())
  // A player fetches the Original range by range: a video already played today costs one read, not a write.
  const played = await deps.db.selectFrom('drive_plays').select('file_id').where('user_id', '=', userId).where('day', '=', day).where('file_id', '=', fileId).executeTakeFirst()
  if (played) return true
  try {
    await deps.db.transaction().execute(async (trx) => {
      const added = await trx.insertInto('drive_plays').values({ user_id: userId, day, file_id: fileId }).onConflict((oc) => oc.columns(['user_id', 'day', 'file_id']).doNothing()).returning('file_id').executeTakeFirst()
      // Played already today.
      if (!added) return
      await trx.insertInto('drive_play_days').values({ user_id: userId, day, plays: 0 }).onConflict((oc) => oc.columns(['user_id', 'day']).doNothing()).execute()
      let counted = trx.updateTable('drive_play_days').set({ plays: sql`plays + 1` }).where('user_id', '=', userId).where('day', '=', day)
      if (limit >= 0) counted = counted.where('plays', '<', limit)
      const result = await counted.executeTakeFirst()
      // Rolls the play's row back with it.
      if (Number(result.numUpdatedRows) === 0) throw new PlayLimitReached()
    })
    return true
  } catch (err) {
    if (err instanceof PlayLimitReached) return false
    throw err
  }
}

/** Whether `fileId` may start playing today: played already, or today's count has room (`limit` -1: none). Counts nothing. */
export async function mayPlay(deps: Pick<DriveDeps, 'db' | 'clock'>, userId: string, fileId: string, limit: number): Promise<boolean> {
  if (limit < 0) return true
  const day = utcDayOf(deps.clock.nowMs())
  const [played, today] = await Promise.all([
    deps.db.selectFrom('drive_plays').select('file_id').where('user_id', '=', userId).where('day', '=', day).where('file_id', '=', fileId).executeTakeFirst(),
    deps.db.selectFrom('drive_play_days').select('plays').where('user_id', '=', userId).where('day', '=', day).executeTakeFirst(),
  ])
  return played !== undefined || (today?.plays ?? 0) < limit
}

/** Videos played today, for `about.quota.play_times_usage`. */
export async function playsToday(deps: Pick<DriveDeps, 'db' | 'clock'>, userId: string): Promise<number> {
  const row = await deps.db.selectFrom('drive_play_days').select('plays').where('user_id', '=', userId).where('day', '=', utcDayOf(deps.clock.nowMs())).executeTakeFirst()
  return row?.plays ?? 0
}

/** Drops the play counts of days before yesterday (housekeeping); yesterday's stay for a day that is just turning. */
export async function forgetOldPlays(deps: Pick<DriveDeps, 'db' | 'clock'>): Promise<void> {
  const before = utcDayOf(deps.clock.nowMs()) - 1
  await deps.db.deleteFrom('drive_plays').where('day', '<', before).execute()
  await deps.db.deleteFrom('drive_play_days').where('day', '<', before).execute()
}
