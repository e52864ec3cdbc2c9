/** RFC 3339 with offset (drive.md: never an empty string, except delete_time). */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00')
}
