/**
 * The BitTorrent half of offline download, as the job handler sees it (decision 021). One
 * engine per server process; the aria2 implementation lives in `aria2-torrent-engine.ts`.
 *
 * A source is a magnet URI or the bytes of a .torrent file. File indexes are 1-based, in the
 * order of the torrent's file list (padding files included), as in BEP 53 and aria2's
 * `--select-file`.
 */

/** One entry of a torrent's file list. */
export interface TorrentFileEntry {
  /** 1-based position in the torrent's file list (padding files count). */
  index: number
  /**
   * Path inside the torrent, one element per folder level. For a multi-file torrent the
   * elements under the torrent's folder (the folder itself is `TorrentMeta.name`); for a
   * single-file torrent one element, the file's name (= `TorrentMeta.name`).
   */
  path: string[]
  sizeBytes: number
  /** BEP 47 padding file (attr contains 'p'): zeros for piece alignment, never shown or saved. */
  padding: boolean
}

/** What a torrent is, read from its metadata (the info dictionary). */
export interface TorrentMeta {
  /** Hex, lower case, 40 characters (v1 info hash). */
  infoHash: string
  /** The torrent's name: the folder it lands in, or the file for a single-file torrent. */
  name: string
  /** True when the torrent is a folder (an info dictionary with `files`), even of one file. */
  multiFile: boolean
  files: TorrentFileEntry[]
  /** Sum of the sizes of the files that are not padding. */
  totalBytes: number
  /** The trackers the .torrent names (`announce`, `announce-list`), as written. */
  trackers: string[]
  /**
   * The .torrent file (info dictionary plus the trackers we know of). A job keeps it so that a
   * restart resumes without fetching the metadata from the swarm again.
   */
  torrentFile: Uint8Array
}

export interface InspectOptions {
  /** How long to wait for the metadata of a magnet (ignored for .torrent bytes). */
  timeoutMs: number
  signal?: AbortSignal
}

export interface StartOptions {
  /**
   * The folder the download writes into; the torrent lands in `dir/<name>` (its folder, or its
   * file). The job owns it: starting again with the same source and `dir` continues from what
   * is on disk (pieces are re-verified), which is how a job resumes after a restart.
   */
  dir: string
  /** 1-based file indexes to fetch; omitted or empty means every non-padding file. */
  selectedIndexes?: number[]
  /** How long to wait for a magnet's metadata; the engine's default when omitted. */
  metadataTimeoutMs?: number
  signal?: AbortSignal
}

export interface TorrentProgress {
  /** Verified bytes of the selected files on disk. */
  downloadedBytes: number
  /** Bytes of the selected files (padding and unselected files excluded). */
  totalBytes: number
  bytesPerSecond: number
  /** Peers connected now. */
  peers: number
  /** True while the engine re-checks data already on disk (after a restart). */
  checking: boolean
  /**
   * True once every selected file is complete on disk; the engine no longer seeds it, and no
   * padding or unselected file is left in the torrent's folder.
   */
  done: boolean
}

/** A selected file once the download is done: where it is on disk. */
export interface DownloadedFile {
  index: number
  /** Path inside the torrent, as in `TorrentFileEntry.path`. */
  path: string[]
  sizeBytes: number
  /** Absolute path on disk, always inside `StartOptions.dir`. */
  localPath: string
}

/** A selected file while its download runs: where it is being written and which of its bytes are final there. */
export interface FileProgress {
  index: number
  sizeBytes: number
  /** Absolute path on disk, always inside `StartOptions.dir`. */
  localPath: string
  /**
   * Byte ranges [start, end) of the file that are verified and written out: sorted, disjoint,
   * merged. An empty file has [[0, 0]] once it is on disk, none before.
   */
  finished: Array<[number, number]>
}

/** Whether every byte of each file in `parts` is finished on disk (an empty file: once it is there, [[0, 0]]). */
export function everyByteFinished(parts: readonly FileProgress[]): boolean {
  return parts.every(({ sizeBytes, finished }) => finished.some(([start, end]) => start === 0 && end === sizeBytes))
}

/** A download the engine is running. */
export interface TorrentDownload {
  readonly meta: TorrentMeta
  /** The selected, non-padding file indexes this download fetches. */
  readonly selectedIndexes: readonly number[]
  /**
   * Where the download stands. Rejects with `TorrentEngineError` `download_failed` when the
   * engine gave up on it (disk full, bad data), `engine_failed` when the engine process died
   * (start again to resume), and `not_running` once stopped or removed.
   */
  progress(): Promise<TorrentProgress>
  /**
   * The selected non-padding files, where each is being written and which of its bytes are final
   * there now: pieces the engine verified against the torrent's hashes and wrote to the file
   * (not held in a cache). Those bytes do not change while the download runs, so a caller may
   * read and hash them before the rest arrives. Rejects as `progress()` does.
   */
  fileProgress(): Promise<FileProgress[]>
  /**
   * The selected non-padding files and their place on disk, once every byte of them is finished:
   * when `fileProgress()` shows each file whole, which may be a second before `progress()` says
   * done (aria2 decides to stop seeding on its one-second tick). Rejects with `not_running` before.
   */
  files(): Promise<DownloadedFile[]>
  /**
   * Takes the download out of the engine and keeps its data, so a later `start` with the same
   * source and `dir` continues. Idempotent; resolves also when the engine process is gone.
   */
  stop(): Promise<void>
  /**
   * `stop()`, then deletes what the download wrote in `dir`: the torrent's folder (or file) and
   * aria2's control file. Files outside them in `dir` are left alone. Idempotent.
   */
  remove(): Promise<void>
}

export interface TorrentEngine {
  /**
   * The name, size and file tree of a source before adding it. For .torrent bytes this reads
   * the file (no network); for a magnet it fetches the metadata from the swarm and rejects with
   * `metadata_timeout` after `timeoutMs`. Rejects with `invalid_source` for anything that is
   * neither, `engine_unavailable` when a magnet needs the engine and it is not installed, and
   * `cancelled` when `signal` aborts.
   */
  inspect(source: TorrentSource, options: InspectOptions): Promise<TorrentMeta>
  /**
   * Starts (or continues, from what is on disk in `dir`) fetching the selected files. A magnet's
   * metadata is fetched first, as in `inspect`. Starting a torrent that is already running in
   * this engine into the same `dir` returns that download (a job may run more than once); into
   * another `dir` it rejects with `busy`. Rejects with `invalid_selection` when an index is
   * out of range or names only padding, and as `inspect` does.
   */
  start(source: TorrentSource, options: StartOptions): Promise<TorrentDownload>
  /** Stops every download (keeping data on disk) and ends the engine process. Idempotent. */
  close(): Promise<void>
}

/** A magnet URI (`magnet:?xt=urn:btih:…`) or the bytes of a .torrent file. */
export type TorrentSource = string | Uint8Array

export type TorrentEngineErrorCode =
  /** The engine is not installed; the message says what to install. */
  | 'engine_unavailable'
  /** The engine process died or did not answer; starting again resumes from disk. */
  | 'engine_failed'
  | 'invalid_source'
  | 'invalid_selection'
  | 'metadata_timeout'
  | 'download_failed'
  | 'busy'
  | 'not_running'
  | 'cancelled'

/**
 * The one error the engine throws. `message` is English and says what happened and, where the
 * operator or user can act, what to do; the job handler copies it into the task's `message`.
 */
export class TorrentEngineError extends Error {
  readonly code: TorrentEngineErrorCode

  constructor(code: TorrentEngineErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'TorrentEngineError'
    this.code = code
  }
}
