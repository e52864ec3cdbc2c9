import { AppError, DriveErrors } from '@cumulus/protocol'
import { sql } from 'kysely'
import type { DriveDeps } from '../deps.js'
import { planOf } from './plans.js'
import { utcDayOf } from '../lib/time.js'

/**
 * Daily download traffic (issue 13 §1): the bytes an account's files are downloaded through their
 * signed links, per UTC day, against its plan's `downloadBytesPerDay` (-1: not limited, still
 * counted for `/vip/v1/quantity/list`). A download is counted as it starts, for the bytes the
 * response will carry (the range asked for), by one conditional UPDATE: parallel downloads can
 * never pass the limit together, on SQLite or PostgreSQL. A link carries no caller, so the plan is
 * the owner's, read from identity's memberships.
 */


/**
 * Counts `bytes` of a download of `ownerId`'s file today; rejects download_limit_reached when they
 * do not fit the plan's traffic. Downloads through the owner's shares (`throughShare`) have a budget
 * of their own, the plan's size again: visitors without an account cannot use up the traffic the
 * owner needs for their own downloads.
 */
export async function meterDownload(deps: Pick<DriveDeps, 'db' | 'clock' | 'config' | 'memberships'>, ownerId: string, bytes: number, options: { throughShare?: boolean } = {}): Promise<void> {
  if (bytes <= 0) return
  const counter = options.throughShare ? `${ownerId}:shares` : ownerId
  const nowMs = deps.clock.nowMs()
  const limit = planOf(deps.config, await deps.memberships.find(ownerId), nowMs).limits.downloadBytesPerDay
  // One upsert: the day's first download inserts its bytes, later ones add theirs only while
  // they fit (the conflict's WHERE); no row back means refused.
  const fits = limit < 0 || bytes <= limit
  const counted = fits
    ? await deps.db
        .insertInto('drive_traffic_days')
        .values({ user_id: counter, day: utcDayOf(nowMs), bytes })
        .onConflict((oc) => {
          const add = oc.columns(['user_id', 'day']).doUpdateSet({ bytes: sql`drive_traffic_days.bytes + ${bytes}` })
          return limit < 0 ? add : add.where(sql<boolean>`drive_traffic_days.bytes + ${bytes} <= ${limit}`)
        })
        .returning('user_id')
        .executeTakeFirst()
    : undefined
  if (!counted) {
    throw new AppError(DriveErrors.download_limit_reached, { description: `today's download traffic of the plan (${limit} bytes) is used up`, metadata: { limit_bytes: String(limit) } })
  }
}

/** Bytes downloaded today of `userId`'s files. */
export async function trafficToday(deps: Pick<DriveDeps, 'db' | 'clock'>, userId: string): Promise<number> {
  const row = await deps.db.selectFrom('drive_traffic_days').select('bytes').where('user_id', '=', userId).where('day', '=', utcDayOf(deps.clock.nowMs())).executeTakeFirst()
  return Number(row?.bytes ?? 0)
}

/** Drops days before yesterday (housekeeping). */
export async function forgetOldTraffic(deps: Pick<DriveDeps, 'db' | 'clock'>): Promise<void> {
  await deps.db.deleteFrom('drive_traffic_days').where('day', '<', utcDayOf(deps.clock.nowMs()) - 1).execute()
}
