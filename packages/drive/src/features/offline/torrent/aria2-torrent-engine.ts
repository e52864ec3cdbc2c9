import { mkdir, mkdtemp, readFile, rm, rmdir } from 'node:fs/promises'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { Aria2Daemon, Aria2RpcError } from './aria2-daemon.js'
import {
  TorrentEngineError,
  everyByteFinished,
  type DownloadedFile,
  type FileProgress,
  type InspectOptions,
  type StartOptions,
  type TorrentDownload,
  type TorrentEngine,
  type TorrentMeta,
  type TorrentProgress,
  type TorrentSource,
} from './torrent-engine.js'
import { isMagnet, parseMagnet, readTorrentMeta, resolveSelection } from './torrent-source.js'
import type { TrackerCheck } from './tracker-check.js'

/** The BitTorrent engine's settings: a slice the server's config fills. */
export interface TorrentEngineConfig {
  /** The aria2c executable: a name looked up on PATH, or an absolute path. */
  aria2cPath: string
  /** Where aria2 keeps its conf file (with the RPC secret), DHT table and magnet scratch space. */
  workDir: string
  /** The mainline DHT (finds peers for magnets without trackers). Off in tests. */
  dht: boolean
  /** `host:port` of DHT routers to bootstrap from when `dht` is on and no table is saved yet. */
  dhtEntryPoints: string[]
  /** Peer exchange (ut_pex). Off in tests. */
  peerExchange: boolean
  /** Local peer discovery (BEP 14, multicast on the LAN). */
  localPeerDiscovery: boolean
  /** Port or range aria2 listens on for peers, e.g. "6881-6999"; aria2's default when null. */
  listenPort: string | null
  /** Trackers added to every torrent (aria2's `bt-tracker`), e.g. a public list. */
  extraTrackers: string[]
  /**
   * Asked about every tracker a magnet or .torrent names before aria2 may announce to it (the
   * operator's `extraTrackers` are not asked); null lets every one through. The server passes
   * createTrackerCheck with the offline downloads' address policy.
   */
  trackerCheck: TrackerCheck | null
  /** How long `start` waits for a magnet's metadata when the caller does not say. */
  metadataTimeoutMs: number
  /** Upload cap across all torrents in bytes per second; 0 for none. */
  maxUploadBytesPerSecond: number
  /** Download cap across all torrents in bytes per second; 0 for none. */
  maxDownloadBytesPerSecond: number
  /** Downloads aria2 runs at once; more wait in its queue (their progress shows 0 B/s). */
  maxConcurrentDownloads: number
}

/** Trackers of one source that are checked (the rest are dropped), and how many at once. */
const MAX_CHECKED_TRACKERS = 30
const CHECK_CONCURRENCY = 4

/** Production defaults: DHT and peer exchange on, so magnets without trackers still resolve. */
export function defaultTorrentEngineConfig(workDir: string): TorrentEngineConfig {
  return {
    aria2cPath: 'aria2c',
    workDir,
    dht: true,
    dhtEntryPoints: ['dht.transmissionbt.com:6881', 'router.bittorrent.com:6881'],
    peerExchange: true,
    localPeerDiscovery: false,
    listenPort: null,
    extraTrackers: [],
    trackerCheck: null,
    metadataTimeoutMs: 60_000,
    maxUploadBytesPerSecond: 0,
    maxDownloadBytesPerSecond: 0,
    maxConcurrentDownloads: 16,
  }
}

/** How often a magnet's metadata fetch and a stop are polled. */
const POLL_MS = 100
/** How long a forced remove may take to settle before we stop waiting for it. */
const FORGET_TIMEOUT_MS = 5_000
/** aria2's base64 .torrent and long select-file lists go in one request. */
const RPC_MAX_REQUEST_SIZE = '64M'
/** aria2's control files are written this often (seconds), so a crash loses little. */
const AUTO_SAVE_SECONDS = '10'

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function cancelled(): TorrentEngineError {
  return new TorrentEngineError('cancelled', 'The BitTorrent operation was cancelled.')
}

/**
 * The byte ranges [start, end) of one file, `length` bytes at `offset` in the torrent's data,
 * that the pieces marked in `bitfield` (aria2's hex bitfield, piece 0 in the highest bit of the
 * first digit) cover: sorted, disjoint and merged.
 */
export function finishedRanges(bitfield: string, pieceBytes: number, offset: number, length: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  if (length <= 0 || pieceBytes <= 0) return ranges
  const has = (piece: number): boolean => {
    const digit = Number.parseInt(bitfield[piece >> 2] ?? '0', 16)
    return Number.isFinite(digit) && (digit & (8 >> (piece & 3))) !== 0
  }
  const last = Math.floor((offset + length - 1) / pieceBytes)
  for (let piece = Math.floor(offset / pieceBytes); piece <= last; piece++) {
    if (!has(piece)) continue
    const start = Math.max(piece * pieceBytes, offset) - offset
    const end = Math.min((piece + 1) * pieceBytes, offset + length) - offset
    const previous = ranges[ranges.length - 1]
    if (previous && previous[1] === start) previous[1] = end
    else ranges.push([start, end])
  }
  return ranges
}

/** The global options of the daemon's conf file. */
function daemonOptions(config: TorrentEngineConfig): Record<string, string> {
  const options: Record<string, string> = {
    'rpc-max-request-size': RPC_MAX_REQUEST_SIZE,
    'max-concurrent-downloads': String(config.maxConcurrentDownloads),
    'max-overall-upload-limit': String(config.maxUploadBytesPerSecond),
    'max-overall-download-limit': String(config.maxDownloadBytesPerSecond),
    'enable-dht': String(config.dht),
    'enable-dht6': String(config.dht),
    'enable-peer-exchange': String(config.peerExchange),
    'bt-enable-lpd': String(config.localPeerDiscovery),
    'auto-save-interval': AUTO_SAVE_SECONDS,
    // Errors go through the RPC; nothing of ours should land in aria2's own session.
    'save-session-interval': '0',
    'max-download-result': '1000',
    'follow-torrent': 'mem',
    // Otherwise aria2 writes every .torrent we add into the download's folder.
    'rpc-save-upload-metadata': 'false',
    'check-certificate': 'true',
  }
  if (config.dht) {
    options['dht-file-path'] = join(config.workDir, 'dht.dat')
    options['dht-file-path6'] = join(config.workDir, 'dht6.dat')
    const [entry] = config.dhtEntryPoints
    if (entry) options['dht-entry-point'] = entry
  }
  if (config.listenPort) {
    options['listen-port'] = config.listenPort
    options['dht-listen-port'] = config.listenPort
  }
  return options
}

interface Aria2Status {
  gid: string
  status: 'active' | 'waiting' | 'paused' | 'error' | 'complete' | 'removed'
  totalLength: string
  completedLength: string
  downloadSpeed: string
  connections: string
  errorCode?: string
  errorMessage?: string
  infoHash?: string
  dir?: string
  verifiedLength?: string
  verifyIntegrityPending?: string
  /** Hex, the first piece in the highest bit; absent before the download has its metadata. */
  bitfield?: string
  pieceLength?: string
}

interface Aria2File {
  index: string
  path: string
  length: string
  selected: string
}

/** Whether `path` lies inside `dir` (both absolute). */
function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path)
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
}

/**
 * `TorrentEngine` on aria2, one `aria2c` daemon per engine (per server process), spawned on
 * first use and again after a crash. See decision 021 for why aria2 and not an in-process client.
 */
export class Aria2TorrentEngine implements TorrentEngine {
  private daemon: Promise<Aria2Daemon> | null = null
  private closed = false
  /** Downloads this engine started, by info hash (aria2 runs one download per info hash). */
  private readonly downloads = new Map<string, Aria2Download>()
  /** Metadata fetches in flight, by info hash: aria2 refuses a second one for the same hash. */
  private readonly metadataFetches = new Map<string, Promise<TorrentMeta>>()

  constructor(readonly config: TorrentEngineConfig) {}

  /** The running daemon, spawning one when there is none or the last one died. */
  async requireDaemon(): Promise<Aria2Daemon> {
    if (this.closed) throw new TorrentEngineError('not_running', 'The BitTorrent engine is closed.')
    const current = this.daemon && (await this.daemon.catch(() => null))
    if (current?.alive) return current
    const starting = Aria2Daemon.start({ aria2cPath: this.config.aria2cPath, workDir: this.config.workDir, options: daemonOptions(this.config) })
    this.daemon = starting
    starting.catch(() => {
      if (this.daemon === starting) this.daemon = null
    })
    return starting
  }

  async inspect(source: TorrentSource, options: InspectOptions): Promise<TorrentMeta> {
    if (!isMagnet(source)) return readTorrentMeta(source)
    return this.fetchMetadata(source, options.timeoutMs, options.signal)
  }

  private async fetchMetadata(uri: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<TorrentMeta> {
    const link = parseMagnet(uri)
    if (signal?.aborted) throw cancelled()
    const running = this.downloads.get(link.infoHash)
    if (running) return running.meta
    let fetch = this.metadataFetches.get(link.infoHash)
    if (!fetch) {
      fetch = this.fetchMetadataOnce(uri, link.infoHash, link.trackers, timeoutMs, signal).finally(() => this.metadataFetches.delete(link.infoHash))
      this.metadataFetches.set(link.infoHash, fetch)
    }
    if (!signal) return fetch
    // A second caller shares the first one's fetch but keeps its own cancellation.
    return new Promise<TorrentMeta>((resolvePromise, reject) => {
      const onAbort = () => reject(cancelled())
      signal.addEventListener('abort', onAbort, { once: true })
      fetch.then(resolvePromise, reject).finally(() => signal.removeEventListener('abort', onAbort))
    })
  }

  private async fetchMetadataOnce(uri: string, infoHash: string, trackers: string[], timeoutMs: number, signal: AbortSignal | undefined): Promise<TorrentMeta> {
    const daemon = await this.requireDaemon()
    await mkdir(this.config.workDir, { recursive: true, mode: 0o700 })
    const scratch = await mkdtemp(join(this.config.workDir, 'metadata-'))
    let gid: string | null = null
    try {
      gid = await daemon.call<string>('aria2.addUri', [uri], {
        dir: scratch,
        'bt-metadata-only': 'true',
        'bt-save-metadata': 'true',
        'follow-torrent': 'false',
        ...(await this.trackerOptions(trackers)),
      })
      const deadline = Date.now() + timeoutMs
      for (;;) {
        if (signal?.aborted) throw cancelled()
        const status = await daemon.call<Aria2Status>('aria2.tellStatus', gid, ['status', 'errorCode', 'errorMessage'])
        if (status.status === 'complete') break
        if (status.status === 'error' || status.status === 'removed') {
          throw new TorrentEngineError('download_failed', `aria2 could not fetch the magnet's metadata: ${status.errorMessage ?? status.status}`)
        }
        if (Date.now() >= deadline) {
          throw new TorrentEngineError(
            'metadata_timeout',
            `No peer sent the metadata of magnet ${infoHash} within ${Math.round(timeoutMs / 1000)} s: the link may be dead (no seeders) or its trackers unreachable.`,
          )
        }
        await sleep(POLL_MS)
      }
      const torrentFile = await readFile(join(scratch, `${infoHash}.torrent`)).catch((cause: unknown) => {
        throw new TorrentEngineError('engine_failed', 'aria2 fetched the metadata but did not save it.', { cause })
      })
      return await readTorrentMeta(new Uint8Array(torrentFile))
    } finally {
      if (gid !== null && daemon.alive) await this.forget(daemon, gid)
      await rm(scratch, { recursive: true, force: true })
    }
  }

  /**
   * aria2's tracker options for a download: every tracker the source names is dropped (`*`, which
   * also empties a .torrent's own announce list), then those the check allows and the operator's
   * extras are added back. aria2 applies `bt-exclude-tracker` before `bt-tracker`.
   */
  private async trackerOptions(named: string[]): Promise<Record<string, string>> {
    const check = this.config.trackerCheck
    // At most MAX_CHECKED_TRACKERS, CHECK_CONCURRENCY at a time: each may resolve a host name on
    // libuv's threadpool, which a .torrent listing thousands of slow names must not fill.
    const unique = [...new Set(named)].slice(0, check ? MAX_CHECKED_TRACKERS : undefined)
    let allowed: string[] = unique
    if (check) {
      allowed = []
      for (let i = 0; i < unique.length; i += CHECK_CONCURRENCY) {
        const checked = await Promise.all(unique.slice(i, i + CHECK_CONCURRENCY).map((url) => check(url)))
        for (const url of checked) if (url !== null) allowed.push(url)
      }
    }
    // aria2 separates trackers with commas; a URL with a comma would split, so it is left out.
    const usable = [...new Set([...allowed, ...this.config.extraTrackers])].filter((url) => !url.includes(','))
    return {
      ...(check ? { 'bt-exclude-tracker': '*' } : {}),
      ...(usable.length > 0 ? { 'bt-tracker': usable.join(',') } : {}),
    }
  }

  /** Removes a download and its result from aria2, whatever state it is in. */
  async forget(daemon: Aria2Daemon, gid: string): Promise<void> {
    await daemon.call('aria2.forceRemove', gid).catch(() => undefined)
    const deadline = Date.now() + FORGET_TIMEOUT_MS
    while (Date.now() < deadline) {
      const status = await daemon.call<Aria2Status>('aria2.tellStatus', gid, ['status']).catch(() => null)
      if (!status || !['active', 'waiting', 'paused'].includes(status.status)) break
      await sleep(POLL_MS)
    }
    await daemon.call('aria2.removeDownloadResult', gid).catch(() => undefined)
  }

  async start(source: TorrentSource, options: StartOptions): Promise<TorrentDownload> {
    const dir = resolve(options.dir)
    const trackers = isMagnet(source) ? parseMagnet(source).trackers : []
    const meta = isMagnet(source)
      ? await this.fetchMetadata(source, options.metadataTimeoutMs ?? this.config.metadataTimeoutMs, options.signal)
      : await readTorrentMeta(source)
    const selectedIndexes = resolveSelection(meta, options.selectedIndexes)
    if (options.signal?.aborted) throw cancelled()

    const daemon = await this.requireDaemon()
    const existing = this.downloads.get(meta.infoHash)
    if (existing) {
      if (existing.daemon === daemon && existing.dir === dir && !existing.stopped) return existing
      if (existing.dir !== dir && !existing.stopped) {
        throw new TorrentEngineError('busy', `The torrent ${meta.infoHash} is already downloading into another folder; wait for it or stop it first.`)
      }
      this.downloads.delete(meta.infoHash)
    }

    await mkdir(dir, { recursive: true })
    let gid: string
    try {
      gid = await daemon.call<string>('aria2.addTorrent', Buffer.from(meta.torrentFile).toString('base64'), [], {
        dir,
        'select-file': selectedIndexes.join(','),
        // Data already on disk (a resumed job) is re-hashed, so whatever a crash left half
        // written is fetched again rather than trusted.
        'check-integrity': 'true',
        'seed-time': '0',
        'bt-remove-unselected-file': 'true',
        'file-allocation': 'none',
        ...(await this.trackerOptions([...trackers, ...meta.trackers])),
      })
    } catch (error) {
      if (error instanceof Aria2RpcError) {
        throw new TorrentEngineError('download_failed', `aria2 refused the torrent: ${error.message}`, { cause: error })
      }
      throw error
    }
    const files = await daemon.call<Aria2File[]>('aria2.getFiles', gid)
    const outside = files.find((file) => !isInside(dir, resolve(file.path)))
    if (outside) {
      await this.forget(daemon, gid)
      throw new TorrentEngineError('invalid_source', `The torrent names a file outside its folder (${outside.path}).`)
    }
    const first = files[0]
    const topLevel = first ? (relative(dir, resolve(first.path)).split(sep)[0] ?? null) : null
    const download = new Aria2Download(this, daemon, gid, dir, meta, selectedIndexes, topLevel)
    this.downloads.set(meta.infoHash, download)
    return download
  }

  /** Called by a download once it is out of aria2. */
  released(download: Aria2Download): void {
    if (this.downloads.get(download.meta.infoHash) === download) this.downloads.delete(download.meta.infoHash)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    for (const download of this.downloads.values()) download.stopped = true
    this.downloads.clear()
    const daemon = this.daemon && (await this.daemon.catch(() => null))
    this.daemon = null
    await daemon?.close()
  }
}

class Aria2Download implements TorrentDownload {
  stopped = false
  private paddingDiscarded = false
  private layout: Map<number, { localPath: string; offset: number; sizeBytes: number }> | null = null
  private readonly totalBytes: number

  constructor(
    private readonly engine: Aria2TorrentEngine,
    readonly daemon: Aria2Daemon,
    private readonly gid: string,
    readonly dir: string,
    readonly meta: TorrentMeta,
    readonly selectedIndexes: readonly number[],
    /** The torrent's folder or file directly under `dir`, as aria2 named it. */
    private readonly topLevel: string | null,
  ) {
    this.totalBytes = selectedIndexes.reduce((sum, index) => sum + (meta.files[index - 1]?.sizeBytes ?? 0), 0)
  }

  private requireRunning(): void {
    if (this.stopped) throw new TorrentEngineError('not_running', 'The download was stopped.')
    if (!this.daemon.alive) {
      throw new TorrentEngineError('engine_failed', `${this.daemon.exitReason ?? 'aria2 stopped'}; start the download again to continue from disk.`)
    }
  }

  async progress(): Promise<TorrentProgress> {
    this.requireRunning()
    const status = await this.daemon.call<Aria2Status>('aria2.tellStatus', this.gid, [
      'status',
      'completedLength',
      'downloadSpeed',
      'connections',
      'errorCode',
      'errorMessage',
      'verifiedLength',
      'verifyIntegrityPending',
    ])
    if (status.status === 'error') {
      throw new TorrentEngineError('download_failed', `aria2 gave up on the torrent: ${status.errorMessage ?? `error ${status.errorCode}`}`)
    }
    if (status.status === 'removed') throw new TorrentEngineError('not_running', 'The download was removed from aria2.')
    const done = status.status === 'complete'
    if (done && !this.paddingDiscarded) await this.discardPadding()
    return {
      // Pieces that straddle an unselected or padding file count whole in aria2's figure.
      downloadedBytes: done ? this.totalBytes : Math.min(Number(status.completedLength), this.totalBytes),
      totalBytes: this.totalBytes,
      bytesPerSecond: done ? 0 : Number(status.downloadSpeed),
      peers: Number(status.connections),
      checking: status.verifyIntegrityPending === 'true' || status.verifiedLength !== undefined,
      done,
    }
  }

  /**
   * aria2 does not know BEP 47: it writes the zeros of a padding file that shares a piece with
   * a wanted file. `bt-remove-unselected-file` deletes those files at the end; this removes what
   * is left (the file if still there, and its emptied folders, `.pad/` usually).
   */
  private async discardPadding(): Promise<void> {
    const root = this.topLevel ? join(this.dir, this.topLevel) : null
    const onDisk = await this.daemon.call<Aria2File[]>('aria2.getFiles', this.gid)
    for (const file of onDisk) {
      const entry = this.meta.files[Number(file.index) - 1]
      const path = resolve(file.path)
      if (!entry?.padding || !root || !isInside(root, path)) continue
      await rm(path, { force: true })
      // rmdir only removes empty folders; stop at the first one that is not.
      for (let folder = dirname(path); isInside(root, folder); folder = dirname(folder)) {
        if (!(await rmdir(folder).then(() => true, () => false))) break
      }
    }
    this.paddingDiscarded = true
  }

  /**
   * From aria2's bitfield: a piece is marked there once verified, and aria2 writes a piece's
   * cached blocks out when the piece completes (BtPieceMessage::onNewPiece flushes its write
   * cache), so what the bitfield covers is in the file. A test reads it back while a download runs.
   */
  async fileProgress(): Promise<FileProgress[]> {
    this.requireRunning()
    const status = await this.daemon.call<Aria2Status>('aria2.tellStatus', this.gid, ['status', 'bitfield', 'pieceLength', 'errorCode', 'errorMessage'])
    if (status.status === 'error') {
      throw new TorrentEngineError('download_failed', `aria2 gave up on the torrent: ${status.errorMessage ?? `error ${status.errorCode}`}`)
    }
    if (status.status === 'removed') throw new TorrentEngineError('not_running', 'The download was removed from aria2.')
    const layout = await this.fileLayout()
    const pieceBytes = Number(status.pieceLength ?? 0)
    return this.selectedIndexes.map((index) => {
      const file = layout.get(index)
      if (!file || !isInside(this.dir, file.localPath)) throw new TorrentEngineError('engine_failed', `aria2 did not report where file ${index} is.`)
      const finished: Array<[number, number]> =
        // An empty file has no piece to show it: it counts as there once aria2 says complete.
        status.status === 'complete' ? [[0, file.sizeBytes]] : finishedRanges(status.bitfield ?? '', pieceBytes, file.offset, file.sizeBytes)
      return { index, sizeBytes: file.sizeBytes, localPath: file.localPath, finished }
    })
  }

  /** Each file's place on disk and in the torrent's data, read once: neither changes while the download runs. */
  private async fileLayout(): Promise<Map<number, { localPath: string; offset: number; sizeBytes: number }>> {
    if (this.layout) return this.layout
    const onDisk = await this.daemon.call<Aria2File[]>('aria2.getFiles', this.gid)
    const layout = new Map<number, { localPath: string; offset: number; sizeBytes: number }>()
    let offset = 0
    for (const file of [...onDisk].sort((a, b) => Number(a.index) - Number(b.index))) {
      const sizeBytes = Number(file.length)
      layout.set(Number(file.index), { localPath: resolve(file.path), offset, sizeBytes })
      offset += sizeBytes
    }
    this.layout = layout
    return layout
  }

  async files(): Promise<DownloadedFile[]> {
    const parts = await this.fileProgress()
    if (!everyByteFinished(parts)) throw new TorrentEngineError('not_running', 'The download is not complete yet.')
    return parts.map(({ index, sizeBytes, localPath }) => {
      const entry = this.meta.files[index - 1]
      if (!entry) throw new TorrentEngineError('engine_failed', `aria2 reports a file ${index} the torrent does not have.`)
      return { index, path: entry.path, sizeBytes, localPath }
    })
  }

  async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    this.engine.released(this)
    if (this.daemon.alive) await this.engine.forget(this.daemon, this.gid)
  }

  async remove(): Promise<void> {
    await this.stop()
    if (this.topLevel === null || this.topLevel === '' || this.topLevel === '..') return
    await rm(join(this.dir, this.topLevel), { recursive: true, force: true })
    await rm(join(this.dir, `${this.topLevel}.aria2`), { force: true })
  }
}

/** A BitTorrent engine on aria2 with these settings; nothing is spawned until first use. */
export function createTorrentEngine(config: TorrentEngineConfig): TorrentEngine {
  return new Aria2TorrentEngine(config)
}
