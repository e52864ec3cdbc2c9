import { DRIVE_NAME_MAX_BYTES } from '@cumulus/protocol'
import { decodeUtf8, utf8HeaderValue } from './header-text.js'

/** The name of a download nothing better names. */
export const FALLBACK_FILE_NAME = 'download'
/** An extension longer than this is not kept whole when a long name is cut. */
const MAX_KEPT_EXTENSION_BYTES = 32

/**
 * Characters a name must not carry: C0 and C1 controls, DEL, and the invisible bidirectional
 * controls (marks, embeddings, overrides, isolates) with which "photo\u202Egpj.exe" reads
 * as "photoexe.jpg". The byte-order mark and U+FFFE/U+FFFF go too.
 */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\ufffe\uffff]/g
const SEPARATORS = /[/\\]/g
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8')

/** The longest prefix of `text`, cut between code points, that fits in `maxBytes` of UTF-8. */
function fitBytes(text: string, maxBytes: number): string {
  let bytes = 0
  let end = 0
  for (const char of text) {
    const size = utf8Bytes(char)
    if (bytes + size > maxBytes) break
    bytes += size
    end += char.length
  }
  return text.slice(0, end)
}

/** Cuts a long name to the limit, keeping a short extension ("….mp4") whole. */
function shorten(name: string): string {
  if (utf8Bytes(name) <= DRIVE_NAME_MAX_BYTES) return name
  const dot = name.lastIndexOf('.')
  const extension = dot > 0 ? name.slice(dot) : ''
  if (extension !== '' && utf8Bytes(extension) <= MAX_KEPT_EXTENSION_BYTES) {
    return `${fitBytes(name.slice(0, dot), DRIVE_NAME_MAX_BYTES - utf8Bytes(extension)).trimEnd()}${extension}`
  }
  return fitBytes(name, DRIVE_NAME_MAX_BYTES)
}

/** The sanitised name, or null when nothing usable is left ("", ".", ".."). */
function cleanName(raw: string): string | null {
  let name = raw.replace(LONE_SURROGATE, '\ufffd').normalize('NFC').replace(INVISIBLE, '').replace(SEPARATORS, '_').trim()
  // Cutting can end on a character that trims or composes differently; repeat until stable.
  for (let previous = ''; previous !== name; ) {
    previous = name
    name = shorten(name).normalize('NFC').trim()
  }
  return name === '' || name === '.' || name === '..' ? null : name
}

/**
 * A name the drive accepts (checkName) made from whatever a server or URL said: NFC, "/" and
 * "\" made "_", invisible and control characters dropped, trimmed, at most 255 bytes of UTF-8
 * (a short extension kept), never empty, "." or "..". Idempotent.
 */
export function sanitizeFileName(raw: string): string {
  return cleanName(raw) ?? FALLBACK_FILE_NAME
}

/** One `name=value` parameter: value a token or a quoted-string (RFC 9110 5.6.6). */
const PARAMETER = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g

function parameters(header: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const match of header.matchAll(PARAMETER)) {
    const name = (match[1] as string).toLowerCase()
    // Only \" and \\ are unescaped: servers put Windows paths ("C:\dir\x.zip") in quoted
    // strings unescaped, and browsers read them that way.
    const value = match[2] !== undefined ? match[2].replace(/\\(["\\])/g, '$1') : (match[3] ?? '').trim()
    // The first occurrence wins: a second filename is a smuggling attempt or a server bug.
    if (!found.has(name)) found.set(name, value)
  }
  return found
}

/** Percent-decodes to bytes (RFC 8187 ext-value); null on a malformed escape. */
function percentBytes(text: string): Buffer | null {
  const bytes: number[] = []
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i)
    if (char === 0x25) {
      const hex = text.slice(i + 1, i + 3)
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return null
      bytes.push(Number.parseInt(hex, 16))
      i += 2
    } else {
      if (char > 0x7f) return null
      bytes.push(char)
    }
  }
  return Buffer.from(bytes)
}

/** `filename*=charset'language'percent-encoded` (RFC 6266 and 8187): UTF-8 or ISO-8859-1. */
function extendedValue(value: string): string | null {
  const match = /^([^']*)'[^']*'(.*)$/.exec(value)
  if (!match) return null
  const bytes = percentBytes(match[2] as string)
  if (bytes === null) return null
  const charset = (match[1] as string).toLowerCase()
  if (charset === 'utf-8') return decodeUtf8(bytes)
  if (charset === 'iso-8859-1') return bytes.toString('latin1')
  return null
}

/** Browsers take the last component of a path in a filename ("C:\dir\x.zip", "../../x.zip"). */
function lastComponent(name: string): string {
  return name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1)
}

/**
 * The file name a Content-Disposition header gives, unsanitised: `filename*` first (it carries
 * UTF-8 properly), then `filename`; only the last path component. Null when it names none.
 */
export function contentDispositionFileName(header: string | undefined): string | null {
  if (header === undefined) return null
  const params = parameters(header)
  const extended = params.get('filename*')
  const fromExtended = extended === undefined ? null : extendedValue(extended)
  const plain = params.get('filename')
  const name = fromExtended ?? (plain === undefined ? null : utf8HeaderValue(plain))
  if (name === null) return null
  const component = lastComponent(name)
  return component.trim() === '' ? null : component
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * The name a download is saved under: Content-Disposition's, else the URL's last non-empty path
 * segment (percent-decoded), else its host; always sanitised (sanitizeFileName).
 */
export function downloadFileName(input: { contentDisposition: string | undefined; url: URL }): string {
  const fromHeader = contentDispositionFileName(input.contentDisposition)
  const named = fromHeader === null ? null : cleanName(fromHeader)
  if (named !== null) return named
  const last = input.url.pathname
    .split('/')
    .filter((segment) => segment !== '')
    .at(-1)
  const fromPath = last === undefined ? null : cleanName(percentDecoded(last))
  return fromPath ?? sanitizeFileName(input.url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, ''))
}
