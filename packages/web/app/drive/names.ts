import { DRIVE_NAME_MAX_BYTES, DriveErrors } from '@cumulus/protocol'

/** The drive reasons a name can break before it is sent (the service checks the same rules). */
export type NameProblem = typeof DriveErrors.file_name_empty.reason | typeof DriveErrors.file_name_invalid.reason | typeof DriveErrors.file_name_too_long.reason

// '/' separates path segments, and control characters cannot be typed or shown reliably.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[/\u0000-\u001f\u007f]/

const encoder = new TextEncoder()

/**
 * What is wrong with a file or folder name the user typed, as the drive error reason the
 * service would answer (so the page shows the catalogue's localized text), or null when the
 * name is acceptable. Leading and trailing spaces are not part of the name (`cleanName`).
 */
export function findNameProblem(input: string): NameProblem | null {
  const name = cleanName(input)
  if (name === '') return DriveErrors.file_name_empty.reason
  if (name === '.' || name === '..' || FORBIDDEN.test(name)) return DriveErrors.file_name_invalid.reason
  if (encoder.encode(name).length > DRIVE_NAME_MAX_BYTES) return DriveErrors.file_name_too_long.reason
  return null
}

/** The name as it is sent: without the spaces around it. */
export function cleanName(input: string): string {
  return input.trim()
}

/**
 * Where the editable part of a file name ends, so a rename field selects `report.final` in
 * `report.final.pdf` and leaves the extension alone. Folders and names without an extension
 * (or only a leading dot, like `.env`) select everything.
 */
export function baseNameLength(name: string, isFolder: boolean): number {
  if (isFolder) return name.length
  const dot = name.lastIndexOf('.')
  return dot > 0 ? dot : name.length
}
