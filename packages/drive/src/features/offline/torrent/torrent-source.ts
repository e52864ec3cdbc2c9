import magnet from 'magnet-uri'
import { TorrentEngineError, type TorrentMeta, type TorrentSource } from './torrent-engine.js'
import { TorrentReader, TorrentReadStopped, type TorrentReadResult } from './torrent-reader.js'

/** A magnet link, checked: the info hash it names and the hints it carries. */
export interface MagnetLink {
  /** Hex, lower case (a base32 `btih` is converted). */
  infoHash: string
  /** `dn`, when present. */
  displayName: string | null
  /** `tr` values aria2 can use (http, https, udp), in order, without duplicates. */
  trackers: string[]
}

/** A v1 topic: `urn:btih:` and 40 hex digits or 32 base32 characters (BEP 9). */
const BTIH_TOPIC = /^urn:btih:(?:[0-9a-f]{40}|[a-z2-7]{32})$/i
const TRACKER_SCHEMES = new Set(['http:', 'https:', 'udp:'])

/**
 * The most files a torrent may list. Reading one costs about 40 times its size in memory and
 * a core while parse-torrent decodes it (on a worker: torrent-reader.ts): a 16 MiB .torrent of
 * 470,000 files took 600 MB and 8.7 s. A torrent whose metadata came from peers is no smaller.
 */
export const MAX_TORRENT_FILES = 50_000
/**
 * Every file of a torrent has its length under the key `length`, an integer: however the key's
 * own length is spelled (`6:`, `06:`, `6.0:`, all of which bencode decoders take), these bytes
 * follow. A BEP 52 hybrid torrent names each length twice or three times (its v1 list, its v2
 * tree, padding), so the count before decoding is held to a looser bound, and the files decoded
 * to the exact one.
 */
const LENGTH_KEY = Buffer.from('lengthi')
const LENGTH_KEYS_PER_FILE = 3

/** How many times `needle` occurs in `bytes`, counting past `limit` no further. */
function occurrences(bytes: Uint8Array, needle: Buffer, limit: number): number {
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let count = 0
  for (let at = haystack.indexOf(needle); at !== -1 && count <= limit; at = haystack.indexOf(needle, at + needle.length)) count++
  return count
}

function invalidSource(message: string, cause?: unknown): TorrentEngineError {
  return new TorrentEngineError('invalid_source', message, cause === undefined ? undefined : { cause })
}

function isTracker(url: string): boolean {
  try {
    return TRACKER_SCHEMES.has(new URL(url).protocol)
  } catch {
    return false
  }
}

/**
 * Checks a magnet URI and reads its info hash (with `magnet-uri`), name and trackers. Throws `invalid_source` unless it is a
 * `magnet:?` link with exactly one v1 `xt` (hex or base32 `btih`); a v2-only (`btmh`) link is
 * refused because aria2 does not speak BitTorrent v2.
 */
export function parseMagnet(uri: string): MagnetLink {
  if (!/^magnet:\?/i.test(uri)) throw invalidSource('Not a magnet link: it must start with "magnet:?".')
  const query = new URLSearchParams(uri.slice('magnet:?'.length))
  // magnet-uri matches `urn:btih:` and takes the first 40 (or 32) characters without checking
  // them, so the topic is checked here first.
  const v1Topics = query.getAll('xt').filter((topic) => /^urn:btih:/i.test(topic))
  if (v1Topics.length !== 1 || !BTIH_TOPIC.test(v1Topics[0] as string)) {
    throw invalidSource('The magnet link needs one "xt=urn:btih:" followed by a 40-digit hex or 32-character base32 info hash.')
  }
  // magnet-uri converts the hash (base32 included); it only knows a lower-case `urn:btih:`.
  let infoHash: string | undefined
  try {
    infoHash = magnet(`magnet:?xt=urn:btih:${(v1Topics[0] as string).slice('urn:btih:'.length)}`).infoHash
  } catch (cause) {
    throw invalidSource('The magnet link could not be read.', cause)
  }
  if (!infoHash || !/^[0-9a-f]{40}$/.test(infoHash)) throw invalidSource('The magnet link\'s info hash could not be read.')
  // `dn` and `tr` come from URLSearchParams, not magnet-uri: magnet-uri turns an escaped "+"
  // (%2B) in `dn` into a space ("C++" becomes "C  "), drops a `tr` whose query has an
  // unescaped "=", and throws on a broken %-escape.
  const displayName = query.get('dn')
  return {
    infoHash,
    displayName: displayName !== null && displayName.trim() !== '' ? displayName : null,
    trackers: [...new Set(query.getAll('tr').filter(isTracker))],
  }
}

/** The node's torrent reader (torrent-reader.ts): .torrent files are decoded on its workers. */
const reader = new TorrentReader()

/**
 * Reads .torrent bytes with `parse-torrent`, on a worker thread (torrent-reader.ts), into a
 * `TorrentMeta`. Padding files are those whose BEP 47 `attr` contains `p`, and BitComet's
 * `_____padding_file_…` entries. Throws `invalid_source` when the bytes are not a torrent, list
 * more than MAX_TORRENT_FILES files, or take more memory or time to decode than a read may.
 */
export async function readTorrentMeta(bytes: Uint8Array): Promise<TorrentMeta> {
  // Counted before anything is decoded: at least one `lengthi` per file (a string that happens to
  // hold it only counts more, and refuses a torrent that then is its own doing).
  const tooMany = () => invalidSource(`The torrent lists more than ${MAX_TORRENT_FILES} files, more than one download takes.`)
  if (occurrences(bytes, LENGTH_KEY, LENGTH_KEYS_PER_FILE * MAX_TORRENT_FILES) > LENGTH_KEYS_PER_FILE * MAX_TORRENT_FILES) throw tooMany()
  let result: TorrentReadResult
  try {
    result = await reader.read(bytes, MAX_TORRENT_FILES)
  } catch (cause) {
    if (cause instanceof TorrentReadStopped && cause.reason !== 'crashed') throw invalidSource('The .torrent file takes more to read than a download may (it is built to be decoded at great cost).', cause)
    throw cause
  }
  if (!result.ok) throw invalidSource(result.message)
  const { torrent } = result
  return { ...torrent, totalBytes: torrent.files.reduce((sum, file) => (file.padding ? sum : sum + file.sizeBytes), 0) }
}

/** Which kind of source this is: magnet links are strings, .torrent files bytes. */
export function isMagnet(source: TorrentSource): source is string {
  return typeof source === 'string'
}

/**
 * The indexes to fetch: the given ones (deduplicated, sorted, padding dropped) or every
 * non-padding file. Throws `invalid_selection` for an index outside the torrent or a selection
 * of nothing but padding.
 */
export function resolveSelection(meta: TorrentMeta, selectedIndexes: readonly number[] | undefined): number[] {
  const wanted = selectedIndexes && selectedIndexes.length > 0 ? selectedIndexes : meta.files.map((file) => file.index)
  const bad = wanted.find((index) => !Number.isInteger(index) || index < 1 || index > meta.files.length)
  if (bad !== undefined) throw new TorrentEngineError('invalid_selection', `File index ${bad} is not in the torrent (it has ${meta.files.length} files, numbered from 1).`)
  const chosen = [...new Set(wanted)].filter((index) => !meta.files[index - 1]?.padding).sort((a, b) => a - b)
  if (chosen.length === 0) throw new TorrentEngineError('invalid_selection', 'The selection names no file to download (only padding files).')
  return chosen
}
