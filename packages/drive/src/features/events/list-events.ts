import type { DriveEventList } from '@cumulus/protocol'
import type { Caller, DriveDeps } from '../../deps.js'
import { EVENT_TYPES } from '../../domain/index.js'
import { newestFirstPage } from '../../lib/paging.js'
import { rfc3339 } from '../../lib/time.js'

export interface ListEventsQuery {
  limit?: string | undefined
  pageToken?: string | undefined
}

const FEED = 'events'

/** `GET /drive/v1/events`: the caller's recent activity, newest first, cursor-paged. */
export async function listEvents(deps: DriveDeps, caller: Caller, query: ListEventsQuery): Promise<DriveEventList> {
  const { rows, nextPageToken } = await newestFirstPage(deps.db.selectFrom('drive_events').selectAll().where('user_id', '=', caller.userId), FEED, query)
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
