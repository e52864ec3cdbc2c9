import { AppError, DriveErrors, type DrivePlayback, FOLDER_KIND, GenericErrors, type SavePlaybackRequest } from '@cumulus/protocol'
import { sql } from 'kysely'
import type { Caller, DriveDeps } from '../../deps.js'
import { findOwned } from '../../domain/index.js'
import { rfc3339 } from '../../lib/time.js'

/**
 * Plays and where they stopped (issue 13 §3). A play is a video whose playback the account
 * started: the first fetch of its Original through the media link, or of a rendition's playlist
 * (not the download link: a download is not a play). It is counted once per video and UTC day:
 * seeking, a reload, another quality are the same play. The plan's `playsPerDay` caps the videos
 * a day; the cap is one conditional UPDATE, so parallel first plays can never pass it (SQLite and
 * PostgreSQL alike).
 */

const DAY_MS = 86_400_000
export const dayOf = (nowMs: number) => Math.floor(nowMs / DAY_MS)

class PlayLimitReached extends Error {}

/** Counts a play of `fileId` today; false when it is a new video and today's count is used up (`limit` -1: none). */
export async function countPlay(deps: Pick<DriveDeps, 'db' | 'clock'>, userId: string, fileId: string, limit: number): Promise<boolean> {
  const day = dayOf(deps.clock.nowMs())
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
  const day = dayOf(deps.clock.nowMs())
  const [played, today] = await Promise.all([
    deps.db.selectFrom('drive_plays').select('file_id').where('user_id', '=', userId).where('day', '=', day).where('file_id', '=', fileId).executeTakeFirst(),
    deps.db.selectFrom('drive_play_days').select('plays').where('user_id', '=', userId).where('day', '=', day).executeTakeFirst(),
  ])
  return played !== undefined || (today?.plays ?? 0) < limit
}

/** Videos played today, for `about.quota.play_times_usage`. */
export async function playsToday(deps: Pick<DriveDeps, 'db' | 'clock'>, userId: string): Promise<number> {
  const row = await deps.db.selectFrom('drive_play_days').select('plays').where('user_id', '=', userId).where('day', '=', dayOf(deps.clock.nowMs())).executeTakeFirst()
  return row?.plays ?? 0
}

/** Drops the play counts of days before yesterday (housekeeping); yesterday's stay for a day that is just turning. */
export async function forgetOldPlays(deps: Pick<DriveDeps, 'db' | 'clock'>): Promise<void> {
  const before = dayOf(deps.clock.nowMs()) - 1
  await deps.db.deleteFrom('drive_plays').where('day', '<', before).execute()
  await deps.db.deleteFrom('drive_play_days').where('day', '<', before).execute()
}

/** The longest position or length a client may store: far beyond any video (a year, in seconds). */
const MAX_SECONDS = 365 * 86_400

async function playableFile(deps: Pick<DriveDeps, 'db'>, caller: Caller, fileId: string) {
  const file = await findOwned(deps.db, caller.userId, fileId)
  if (file.kind === FOLDER_KIND) throw new AppError(DriveErrors.file_not_found, { description: 'a folder has no playback position', metadata: { id: fileId } })
  return file
}

/** `GET /drive/v1/files/{id}/playback`: where the caller stopped; position 0 when never watched. */
export async function getPlayback(deps: Pick<DriveDeps, 'db'>, caller: Caller, fileId: string): Promise<DrivePlayback> {
  const file = await playableFile(deps, caller, fileId)
  const row = await deps.db.selectFrom('drive_playback').selectAll().where('user_id', '=', caller.userId).where('file_id', '=', file.id).executeTakeFirst()
  return { kind: 'drive#playback', file_id: file.id, position_seconds: row ? row.position_ms / 1000 : 0, duration_seconds: row ? row.duration_ms / 1000 : 0, updated_time: row ? rfc3339(row.updated_at) : '' }
}

function seconds(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_SECONDS) {
    throw new AppError(GenericErrors.invalid_argument, { description: `${name} must be a number of seconds from 0 to ${MAX_SECONDS}`, metadata: { field: name } })
  }
  return Math.round(value * 1000)
}

/** `PUT /drive/v1/files/{id}/playback`: remembers where the caller stopped (the last write wins). */
export async function savePlayback(deps: Pick<DriveDeps, 'db' | 'clock'>, caller: Caller, fileId: string, input: SavePlaybackRequest): Promise<DrivePlayback> {
  const positionMs = seconds(input.position_seconds, 'position_seconds')
  const durationMs = input.duration_seconds === undefined ? 0 : seconds(input.duration_seconds, 'duration_seconds')
  const file = await playableFile(deps, caller, fileId)
  const nowMs = deps.clock.nowMs()
  const values = { user_id: caller.userId, file_id: file.id, position_ms: positionMs, duration_ms: durationMs, updated_at: nowMs }
  await deps.db
    .insertInto('drive_playback')
    .values(values)
    .onConflict((oc) => oc.columns(['user_id', 'file_id']).doUpdateSet({ position_ms: positionMs, duration_ms: durationMs, updated_at: nowMs }))
    .execute()
  return { kind: 'drive#playback', file_id: file.id, position_seconds: positionMs / 1000, duration_seconds: durationMs / 1000, updated_time: rfc3339(nowMs) }
}
