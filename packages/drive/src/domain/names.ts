import { AppError, DRIVE_NAME_MAX_BYTES, DriveErrors, driveNameKey } from '@cumulus/protocol'

/**
 * Characters a name may not hold: C0 and C1 controls, and the bidirectional overrides and
 * isolates (U+202A–U+202E, U+2066–U+2069), which make "exe.txt" display as "txt.exe".
 */
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

/**
 * A name as stored: NFC-normalised (so "é" typed on macOS and Windows is one name) and trimmed.
 * Refuses empty names, "/" and control characters, "." and "..", and names over 255 bytes.
 */
export function checkName(raw: unknown): string {
  if (typeof raw !== 'string') throw new AppError(DriveErrors.file_name_empty, { description: 'name is required' })
  const name = raw.normalize('NFC').trim()
  if (name === '') throw new AppError(DriveErrors.file_name_empty, { description: 'name is empty' })
  if (name.includes('/') || FORBIDDEN.test(name) || name === '.' || name === '..') {
    throw new AppError(DriveErrors.file_name_invalid, { description: 'name contains "/" or a control character, or is "." or ".."' })
  }
  if (Buffer.byteLength(name, 'utf8') > DRIVE_NAME_MAX_BYTES) {
    throw new AppError(DriveErrors.file_name_too_long, { description: `name is longer than ${DRIVE_NAME_MAX_BYTES} bytes` })
  }
  return name
}

/**
 * The natural-order sort key of a name, compared byte-wise by both databases (protocol's
 * `driveNameKey`, which clients use too, to place new files where the server lists them).
 */
export const nameKey = driveNameKey

/** Splits "a.tar.gz" into "a.tar" and ".gz"; folders and dot-files have no extension. */
export function splitExtension(name: string): { stem: string; extension: string } {
  const dot = name.lastIndexOf('.')
  if (dot <= 0 || dot === name.length - 1) return { stem: name, extension: '' }
  return { stem: name.slice(0, dot), extension: name.slice(dot) }
}

/**
 * The first free name for a new item: "a.txt", then "a(1).txt", "a(2).txt"… as the commercial
 * service names clashes. `taken` answers for a batch of candidates at once.
 */
export async function freeName(name: string, taken: (candidates: string[]) => Promise<Set<string>>, isFolder: boolean): Promise<string> {
  const [free] = await freeNames([{ name, isFolder }], taken)
  return free as string
}

/** Candidates looked up per item per round: a folder holding "a" … "a(49)" costs one more round. */
const CANDIDATES_PER_ROUND = 50

/**
 * freeName for many new items of one folder at once, with one `taken` call per round for all of
 * them (a batch of 1,000 names costs one lookup when nothing clashes, not 1,000). Items are served
 * in order, and a name given to one is taken for the next ("a", "a" → "a", "a(1)").
 */
export async function freeNames(items: readonly { name: string; isFolder: boolean }[], taken: (candidates: string[]) => Promise<Set<string>>): Promise<string[]> {
  const result: (string | undefined)[] = items.map(() => undefined)
  const given = new Set<string>()
  const parts = items.map(({ name, isFolder }) => (isFolder ? { stem: name, extension: '' } : splitExtension(name)))
  const candidatesOf = (i: number, round: number) => {
    const { name } = items[i]!
    const { stem, extension } = parts[i]!
    const out: string[] = []
    for (let n = round * CANDIDATES_PER_ROUND; n < (round + 1) * CANDIDATES_PER_ROUND; n++) out.push(n === 0 ? name : fitName(`${stem}(${n})`, extension))
    return out
  }
  let open = items.map((_, i) => i)
  for (let round = 0; open.length > 0; round++) {
    // Round 0 asks only for the names themselves; a clash asks for its suffixes next round.
    const asked = open.map((i) => (round === 0 ? [items[i]!.name] : candidatesOf(i, round - 1)))
    const used = await taken([...new Set(asked.flat())])
    const still: number[] = []
    open.forEach((i, k) => {
      const free = asked[k]!.find((c) => !used.has(c) && !given.has(c))
      if (free === undefined) still.push(i)
      else {
        result[i] = free
        given.add(free)
      }
    })
    open = still
  }
  return result as string[]
}

/** stem + extension, with the stem cut (on a character boundary) so the whole fits 255 bytes. */
function fitName(stem: string, extension: string): string {
  let candidate = `${stem}${extension}`
  if (Buffer.byteLength(candidate, 'utf8') <= DRIVE_NAME_MAX_BYTES) return candidate
  const suffix = /\(\d+\)$/.exec(stem)?.[0] ?? ''
  let base = [...stem.slice(0, stem.length - suffix.length)]
  while (base.length > 0 && Buffer.byteLength(`${base.join('')}${suffix}${extension}`, 'utf8') > DRIVE_NAME_MAX_BYTES) base = base.slice(0, -1)
  candidate = `${base.join('')}${suffix}${extension}`
  return candidate
}
