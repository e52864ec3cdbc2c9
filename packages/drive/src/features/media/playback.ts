import { AppError, DriveErrors, type DrivePlayback, FOLDER_KIND, GenericErrors, type SavePlaybackRequest } from '@cumulus/protocol'
import type { Caller, DriveDeps } from '../../deps.js'
import { findOwned } from '../../domain/index.js'
import { rfc3339 } from '../../lib/time.js'

/** Where each account stopped watching a video (`GET|PUT /drive/v1/files/{id}/playback`), to resume there. */

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
