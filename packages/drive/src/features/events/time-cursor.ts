import { AppError, DRIVE_LIST_LIMIT_DEFAULT, DRIVE_LIST_LIMIT_MAX, GenericErrors } from '@cumulus/protocol'

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
