/**
 * Readers for the drive replies the decompress page shows. They accept the shapes the
 * commercial service's clients use and keep only what they can read: an entry they cannot read
 * is dropped, never guessed at.
 */

/** The reply is not the kind of document this page expects (shown as an error, not as "empty"). */
export class UnexpectedReplyError extends Error {
  constructor(what: string) {
    super(`unexpected drive reply: ${what}`)
    this.name = 'UnexpectedReplyError'
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export interface ArchiveEntry {
  name: string
  /** Bytes; null when the server did not say. */
  sizeBytes: number | null
  isFolder: boolean
}

/**
 * `POST /decompress/v1/list` -> the archive's entries. The commercial reply holds them in
 * `files`, each with `filename`/`filesize` (or `name`/`size`, sizes as strings) and `kind`.
 */
export function parseArchiveEntries(body: unknown): ArchiveEntry[] {
  const files = isRecord(body) ? (body.files ?? body.entries) : undefined
  if (!Array.isArray(files)) throw new UnexpectedReplyError('no file list')
  const entries: ArchiveEntry[] = []
  for (const file of files as unknown[]) {
    if (!isRecord(file)) continue
    const name = [file.filename, file.name, file.path].find((v): v is string => typeof v === 'string' && v !== '')
    if (!name) continue
    const rawSize = file.filesize ?? file.size
    const size = typeof rawSize === 'string' && /^\d+$/.test(rawSize) ? Number(rawSize) : typeof rawSize === 'number' && Number.isFinite(rawSize) && rawSize >= 0 ? rawSize : null
    entries.push({ name, sizeBytes: size, isFolder: file.kind === 'drive#folder' })
  }
  return entries
}

/** One level of an archive as `POST /decompress/v1/list` answers it (drive.md "Decompress"). */
export interface ArchiveLevel {
  /** OK, PASS_WORD_EMPTY, PASS_WORD_ERROR, NOT_SUPPORTED, …: the answer, always with HTTP 200. */
  status: string
  currentPath: string
  title: string
  entries: (ArchiveEntry & { path: string })[]
}

/** `POST /decompress/v1/list` -> the status, where in the archive, and that level's entries. */
export function parseArchiveLevel(body: unknown): ArchiveLevel {
  if (!isRecord(body)) throw new UnexpectedReplyError('no archive listing')
  const status = typeof body.status === 'string' && body.status !== '' ? body.status : 'OK'
  const files = Array.isArray(body.files) ? (body.files as unknown[]) : []
  const entries = files.flatMap((file) => {
    const [entry] = parseArchiveEntries({ files: [file] })
    if (!entry || !isRecord(file)) return []
    return [{ ...entry, path: typeof file.path === 'string' && file.path !== '' ? file.path : entry.name }]
  })
  return {
    status,
    currentPath: typeof body.current_path === 'string' ? body.current_path : '',
    title: typeof body.title === 'string' ? body.title : '',
    entries,
  }
}
