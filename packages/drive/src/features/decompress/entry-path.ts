import { DRIVE_NAME_MAX_BYTES } from '@cumulus/protocol'
import { checkName } from '../../domain/index.js'

/** Controls and bidi overrides/isolates: dropped from every segment (names.ts refuses them). */
const DROPPED = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g
const DRIVE_LETTER = /^[A-Za-z]:$/

/**
 * The drive path an archive entry lands at, as folder and file names under the target folder, or
 * null for an entry with nothing left to name. Our own rules, whatever the unpacking tool did:
 * `\` separates like `/` (archives made on Windows); empty, `.` and `..` segments and a leading
 * drive letter are dropped, so no entry can climb out of the target (zip-slip); control and bidi
 * characters are dropped; segments are NFC and cut to the drive's name length.
 */
export function entrySegments(raw: string): string[] | null {
  const segments: string[] = []
  for (const [index, part] of raw.split(/[/\\]/).entries()) {
    const cleaned = truncateUtf8(part.replace(DROPPED, '').normalize('NFC').trim(), DRIVE_NAME_MAX_BYTES)
    if (cleaned === '' || cleaned === '.' || cleaned === '..') continue
    if (index === 0 && DRIVE_LETTER.test(cleaned)) continue
    segments.push(checkName(cleaned))
  }
  return segments.length > 0 ? segments : null
}

/** The entry's path as the listing shows it: its segments joined with `/`. */
export function entryPath(raw: string): string | null {
  return entrySegments(raw)?.join('/') ?? null
}

/** Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character. */
function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text
  let out = ''
  let bytes = 0
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8')
    if (bytes + size > maxBytes) break
    out += char
    bytes += size
  }
  return out.trim()
}
