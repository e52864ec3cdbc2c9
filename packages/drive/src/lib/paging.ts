import { AppError, DRIVE_LIST_LIMIT_DEFAULT, DRIVE_LIST_LIMIT_MAX, GenericErrors } from '@cumulus/protocol'
import { type RawBuilder, sql } from 'kysely'

/*
 * Paging for the newest-first feeds (events, tasks): the cursor is the last row's
 * (created_at, id), and the next page is the rows strictly before it in that order — one index
 * range scan on (user_id, …, created_at, id) per page, never OFFSET.
 */

export interface TimeCursor {
  /** created_at of the last row of the page. */
  createdAtMs: number
  /** Its id, which breaks ties between rows of the same millisecond. */
  id: string
}

function invalid(description: string, field: string): AppError {
  return new AppError(GenericErrors.invalid_argument, { description, metadata: { field } })
}

export function encodeTimeCursor(cursor: TimeCursor, feed: string): string {
  return Buffer.from(JSON.stringify({ f: feed, t: cursor.createdAtMs, i: cursor.id })).toString('base64url')
}

/** The cursor in `token`, or invalid_argument for a token this server did not make for `feed`. */
export function decodeTimeCursor(token: string, feed: string): TimeCursor {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { f?: unknown; t?: unknown; i?: unknown }
    if (value.f === feed && typeof value.t === 'number' && Number.isSafeInteger(value.t) && typeof value.i === 'string' && value.i.length <= 128) {
      return { createdAtMs: value.t, id: value.i }
    }
  } catch {
    // fall through: not ours
  }
  throw invalid('page_token is not valid for this listing', 'page_token')
}

/** drive.md paging: default 100, a larger limit than 500 is clamped, not refused. */
export function pageLimit(raw: string | number | undefined): number {
  if (raw === undefined || raw === '') return DRIVE_LIST_LIMIT_DEFAULT
  const n = typeof raw === 'number' ? raw : Number(raw)
  if (!Number.isSafeInteger(n) || n < 1) throw invalid('limit must be a positive integer', 'limit')
  return Math.min(n, DRIVE_LIST_LIMIT_MAX)
}

/** Rows that have a creation time and an id: what a newest-first feed pages over. */
interface FeedRow {
  created_at: number
  id: string
}

/** A query builder narrowed to what newestFirstPage needs, so events and tasks share it. */
interface FeedQuery<R extends FeedRow> {
  where(expression: RawBuilder<boolean>): FeedQuery<R>
  orderBy(column: 'created_at' | 'id', direction: 'desc'): FeedQuery<R>
  limit(limit: number): FeedQuery<R>
  execute(): Promise<R[]>
}

/** One page of `query` (already filtered to the caller) newest first, from the cursor in `pageToken`. */
export async function newestFirstPage<R extends FeedRow>(query: FeedQuery<R>, feed: string, input: { limit?: string | number | undefined; pageToken?: string | undefined }): Promise<{ rows: R[]; nextPageToken: string }> {
  const limit = pageLimit(input.limit)
  const cursor = input.pageToken ? decodeTimeCursor(input.pageToken, feed) : null
  let q = query
  if (cursor) q = q.where(sql<boolean>`(${sql.ref('created_at')}, ${sql.ref('id')}) < (${cursor.createdAtMs}, ${cursor.id})`)
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute()
  let nextPageToken = ''
  if (rows.length > limit) {
    rows.length = limit
    const last = rows[limit - 1] as R
    nextPageToken = encodeTimeCursor({ createdAtMs: Number(last.created_at), id: last.id }, feed)
  }
  return { rows, nextPageToken }
}
