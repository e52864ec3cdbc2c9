import type { DriveEventList } from '@cumulus/protocol'
import { sql } from 'kysely'
import type { Caller, DriveDeps } from '../../deps.js'
import { rfc3339 } from '../../lib/time.js'
import { EVENT_TYPES } from './events.js'
import { decodeTimeCursor, encodeTimeCursor, pageLimit } from './time-cursor.js'

export interface ListEventsQuery {
  limit?: string | undefined
  pageToken?: string | undefined
}

const FEED = 'events'

/** `GET /drive/v1/events`: the caller's recent activity, newest first, cursor-paged. */
export async function listEvents(deps: DriveDeps, caller: Caller, query: ListEventsQuery): Promise<DriveEventList> {
  const limit = pageLimit(query.limit)
  const cursor = query.pageToken ? decodeTimeCursor(query.pageToken, FEED) : null
  let q = deps.db.selectFrom('drive_events').selectAll().where('user_id', '=', caller.userId)
  if (cursor) q = q.where(sql<boolean>`(${sql.ref('created_at')}, ${sql.ref('id')}) < (${cursor.createdAtMs}, ${cursor.id})`)
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute()

  let nextPageToken = ''
  if (rows.length > limit) {
    rows.length = limit
    const last = rows[limit - 1]
    if (last) nextPageToken = encodeTimeCursor({ createdAtMs: Number(last.created_at), id: last.id }, FEED)
  }
  return {
    events: rows.map((row) => ({
      type: row.type,
      type_name: EVENT_TYPES[row.type as keyof typeof EVENT_TYPES] ?? row.type,
      file_id: row.file_id,
      file_name: row.file_name,
      created_time: rfc3339(Number(row.created_at)),
    })),
    next_page_token: nextPageToken,
  }
}
