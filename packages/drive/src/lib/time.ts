/** RFC 3339 with offset (drive.md: never an empty string, except delete_time). */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00')
}

export const DAY_MS = 86_400_000

/** Days since the epoch, UTC: the day the daily limits (plays, download traffic, offline tasks) count in. */
export const utcDayOf = (ms: number): number => Math.floor(ms / DAY_MS)
