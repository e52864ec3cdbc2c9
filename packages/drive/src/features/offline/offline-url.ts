import { AppError, DRIVE_NAME_MAX_BYTES, DriveErrors, GenericErrors } from '@cumulus/protocol'
import { parseMagnet } from './torrent/index.js'

/** Longest source URL accepted (magnet links with many trackers run to a few KiB). */
export const OFFLINE_URL_MAX_LENGTH = 8192
/** The name of a download whose URL says nothing better. */
const FALLBACK_NAME = 'download'

function invalidUrl(description: string): AppError {
  return new AppError(GenericErrors.invalid_argument, { description, metadata: { field: 'url.url' } })
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * A name the drive accepts, made from whatever the URL carried: no "/" or control characters,
 * at most 255 bytes (cut on a character boundary), never empty, "." or "..".
 */
export function sanitizeName(raw: string): string {
  let name = raw.normalize('NFC').replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim()
  if (Buffer.byteLength(name, 'utf8') > DRIVE_NAME_MAX_BYTES) {
    const chars = [...name]
    while (chars.length > 0 && Buffer.byteLength(chars.join(''), 'utf8') > DRIVE_NAME_MAX_BYTES) chars.pop()
    name = chars.join('').trim()
  }
  return name === '' || name === '.' || name === '..' ? FALLBACK_NAME : name
}

function nameOfNetworkUrl(url: URL): string {
  const segments = url.pathname.split('/').filter(Boolean)
  const last = segments[segments.length - 1]
  return last ? decode(last) : url.hostname
}

function nameOfMagnet(link: string): string {
  const query = new URLSearchParams(link.slice(link.indexOf('?') + 1))
  const displayName = query.get('dn')
  if (displayName) return displayName
  const topic = query.get('xt') ?? ''
  const hash = /^urn:btih:([A-Za-z0-9]+)$/i.exec(topic)?.[1]
  return hash ?? FALLBACK_NAME
}

/** The name the content will be saved under, from the URL; null when the URL is not one we fetch. */
function nameOf(link: string, nested: boolean): string | null {
  const lower = link.toLowerCase()
  if (lower.startsWith('magnet:?')) return nameOfMagnet(link)
  if (lower.startsWith('ed2k://')) {
    // ed2k://|file|<name>|<size>|<hash>|/
    const parts = link.slice('ed2k://'.length).split('|')
    if (parts[1]?.toLowerCase() !== 'file' || !parts[2]) return null
    return decode(parts[2])
  }
  if (lower.startsWith('thunder://')) {
    // Thunder links wrap another URL: base64 of "AA<url>ZZ".
    if (nested) return null
    const inner = Buffer.from(link.slice('thunder://'.length), 'base64').toString('utf8')
    if (!inner.startsWith('AA') || !inner.endsWith('ZZ')) return null
    return nameOf(inner.slice(2, -2), true)
  }
  let url: URL
  try {
    url = new URL(link)
  } catch {
    return null
  }
  if (!['http:', 'https:', 'ftp:'].includes(url.protocol) || url.hostname === '') return null
  return nameOfNetworkUrl(url)
}

/**
 * Checks an offline download's source (http, https, ftp, magnet:, ed2k://, thunder://) and
 * derives the name it will be saved under. Anything else is invalid_argument.
 */
export function parseOfflineUrl(raw: unknown): { url: string; name: string } {
  if (typeof raw !== 'string') throw invalidUrl('url.url must be a string')
  const url = raw.trim()
  if (url === '') throw invalidUrl('url.url is empty')
  if (url.length > OFFLINE_URL_MAX_LENGTH) throw invalidUrl(`url.url is longer than ${OFFLINE_URL_MAX_LENGTH} characters`)
  if (/[\u0000-\u001f\u007f]/.test(url)) throw invalidUrl('url.url contains a control character')
  const name = nameOf(url, false)
  if (name === null) throw invalidUrl('url.url must be an http, https, ftp, magnet, ed2k or thunder link')
  return { url, name: sanitizeName(name) }
}

/** What a run fetches: an http(s) URL (a thunder link's inner one), or a BitTorrent source. */
export type OfflineSource =
  | { kind: 'http'; url: string; sourceKey: string }
  | { kind: 'magnet'; url: string; infoHash: string; sourceKey: string }

function unsupported(description: string): AppError {
  return new AppError(DriveErrors.offline_source_unsupported, { description, metadata: { field: 'url.url' } })
}

/**
 * What a checked link (parseOfflineUrl) is fetched as. http(s) and thunder links (unwrapped) are
 * HTTP downloads; magnets with a btih go to BitTorrent; ftp and ed2k are refused with
 * offline_source_unsupported. `sourceKey` names the content source for instant completion: the
 * URL without its fragment, or the info hash.
 */
export function offlineSource(url: string): OfflineSource {
  const lower = url.toLowerCase()
  if (lower.startsWith('thunder://')) {
    const inner = Buffer.from(url.slice('thunder://'.length), 'base64').toString('utf8').slice(2, -2)
    return offlineSource(inner)
  }
  if (lower.startsWith('magnet:?')) {
    let infoHash: string
    try {
      infoHash = parseMagnet(url).infoHash
    } catch (err) {
      throw unsupported(err instanceof Error ? err.message : 'magnet links need a BitTorrent info hash (xt=urn:btih:…)')
    }
    return { kind: 'magnet', url, infoHash, sourceKey: `btih:${infoHash}` }
  }
  if (lower.startsWith('ed2k://')) throw unsupported('ed2k links are not supported')
  const parsed = new URL(url)
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw unsupported(`${parsed.protocol.slice(0, -1)} links are not supported`)
  parsed.hash = ''
  return { kind: 'http', url: parsed.href, sourceKey: `url:${parsed.href}` }
}
