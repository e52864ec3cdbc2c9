import { Worker } from 'node:worker_threads'
import { Slots } from '../../../lib/slots.js'
import type { TorrentFileEntry } from './torrent-engine.js'

/**
 * Decoding .torrent files on worker threads, never on the event loop.
 *
 * Why: parse-torrent decodes the whole bencoded file at once, synchronously. A .torrent at the
 * file cap (50,000, torrent-source.ts) took about a second of one core here, and anyone may send
 * one with a task, or a magnet's peers may: on the event loop every other request of the node
 * waited that long. On a worker the node goes on serving, the worker's heap is bounded (a file
 * built to blow up in decoding ends that worker, not the process), and a read that runs too long
 * is stopped.
 *
 * At most READERS reads run at once, each on a worker of its own. A worker is kept for the next
 * read (starting one and loading parse-torrent takes about 100 ms) and ended after IDLE_MS
 * without one; an idle worker never keeps the process alive.
 */

/** What a worker reads out of a torrent: TorrentMeta without its totals. */
export interface ReadTorrent {
  infoHash: string
  name: string
  multiFile: boolean
  files: TorrentFileEntry[]
  trackers: string[]
  torrentFile: Uint8Array
}

export type TorrentReadResult = { ok: true; torrent: ReadTorrent } | { ok: false; message: string }

export interface TorrentReaderOptions {
  /** Reads at once (default 2). */
  readers?: number
  /** The heap of each worker, in MiB (default 768). */
  heapMb?: number
  /** A read still running after this is stopped (default 30 s). */
  timeoutMs?: number
  /** A worker with no read for this long is ended (default 30 s). */
  idleMs?: number
}

// CommonJS, evaluated: the same source runs from dist and from the TypeScript sources in tests.
// parse-torrent is ESM only; its URL is resolved by the module below and passed in.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const loading = import(workerData.parseTorrent)
const utf8 = new TextDecoder('utf-8', { fatal: false })
const text = (value) => (value instanceof Uint8Array ? utf8.decode(value) : null)
const dict = (value) => (value !== null && typeof value === 'object' && !(value instanceof Uint8Array) && !Array.isArray(value) ? value : null)
// BitComet's padding files predate BEP 47 and carry no attr; their names give them away.
const BITCOMET_PADDING = /^_____padding_file_/
function pathOf(entry) {
  const raw = entry['path.utf-8'] ?? entry['path']
  if (!Array.isArray(raw)) return null
  const parts = raw.map(text)
  return parts.every((part) => part !== null) ? parts : null
}
async function read(bytes, maxFiles) {
  const { default: parseTorrent, toTorrentFile } = await loading
  let parsed
  try {
    parsed = await parseTorrent(bytes)
  } catch {
    return { ok: false, message: 'The .torrent file could not be read (it is not a bencoded torrent with an info dictionary).' }
  }
  const info = parsed.info
  const name = text(info['name.utf-8']) ?? text(info['name']) ?? parsed.name
  const list = Array.isArray(info['files']) ? info['files'] : null
  if (list && list.length > maxFiles) return { ok: false, message: 'The torrent lists more than ' + maxFiles + ' files, more than one download takes.' }
  const files = []
  if (list) {
    for (let i = 0; i < list.length; i++) {
      const entry = dict(list[i])
      const path = entry && pathOf(entry)
      const sizeBytes = entry && entry['length']
      if (!entry || !path || path.length === 0 || typeof sizeBytes !== 'number') return { ok: false, message: "The .torrent file's entry " + (i + 1) + ' has no path or length.' }
      const attr = text(entry['attr']) ?? ''
      files.push({ index: i + 1, path, sizeBytes, padding: attr.includes('p') || BITCOMET_PADDING.test(path[path.length - 1]) })
    }
  } else {
    files.push({ index: 1, path: [name], sizeBytes: parsed.length, padding: false })
  }
  // What aria2 gets, and what a job keeps: the info dictionary and the announce list only. A
  // .torrent's web seeds (url-list, httpseeds) would be fetched by aria2 from any address, and
  // its DHT nodes contacted: they are the user's input, so they are left out (the trackers are
  // checked separately). Same info dictionary, same info hash. Copied: toTorrentFile's buffer may
  // be a view of a shared pool, which cannot be transferred.
  const torrentFile = new Uint8Array(toTorrentFile({ info, announce: parsed.announce ?? [], urlList: [] }))
  return { ok: true, torrent: { infoHash: parsed.infoHash, name, multiFile: list !== null, files, trackers: parsed.announce ?? [], torrentFile } }
}
parentPort.on('message', ({ bytes, maxFiles }) => {
  read(bytes, maxFiles).then(
    (result) => parentPort.postMessage(result, result.ok ? [result.torrent.torrentFile.buffer] : []),
    (err) => parentPort.postMessage({ failed: String((err && err.message) || err) }),
  )
})
`

/** Why a read ended without the worker's answer: told apart so the caller can say which. */
export class TorrentReadStopped extends Error {
  override readonly name = 'TorrentReadStopped'
  constructor(
    readonly reason: 'memory' | 'timeout' | 'crashed',
    message: string,
  ) {
    super(message)
  }
}

export class TorrentReader {
  readonly #slots: Slots
  readonly #heapMb: number
  readonly #timeoutMs: number
  readonly #idleMs: number
  readonly #parseTorrent = import.meta.resolve('parse-torrent')
  readonly #idle: Worker[] = []
  #idleTimer: NodeJS.Timeout | undefined

  constructor(options: TorrentReaderOptions = {}) {
    this.#slots = new Slots(options.readers ?? 2)
    this.#heapMb = options.heapMb ?? 768
    this.#timeoutMs = options.timeoutMs ?? 30_000
    this.#idleMs = options.idleMs ?? 30_000
  }

  /** Reads `bytes` (a .torrent) on a worker; a torrent listing more than `maxFiles` files is refused. */
  read(bytes: Uint8Array, maxFiles: number): Promise<TorrentReadResult> {
    return this.#slots.run(() => this.#readOnWorker(bytes, maxFiles))
  }

  /** Ends the idle workers (a read under way keeps its own until it is done). */
  async close(): Promise<void> {
    clearTimeout(this.#idleTimer)
    await Promise.all(this.#idle.splice(0).map((worker) => worker.terminate()))
  }

  async #readOnWorker(bytes: Uint8Array, maxFiles: number): Promise<TorrentReadResult> {
    clearTimeout(this.#idleTimer)
    const worker = this.#idle.pop() ?? new Worker(WORKER_SOURCE, { eval: true, workerData: { parseTorrent: this.#parseTorrent }, resourceLimits: { maxOldGenerationSizeMb: this.#heapMb } })
    worker.ref()
    let reply: TorrentReadResult | { failed: string }
    try {
      reply = await new Promise((resolve, reject) => {
        const done = () => {
          clearTimeout(timer)
          worker.off('message', onMessage).off('error', onError).off('exit', onExit)
        }
        const onMessage = (message: TorrentReadResult | { failed: string }) => {
          done()
          resolve(message)
        }
        const onError = (err: Error & { code?: string }) => {
          done()
          reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new TorrentReadStopped('memory', 'reading the torrent took more memory than a read may') : new TorrentReadStopped('crashed', err.message))
        }
        const onExit = (code: number) => {
          done()
          reject(new TorrentReadStopped('crashed', `the torrent reader exited (${code})`))
        }
        const timer = setTimeout(() => {
          done()
          reject(new TorrentReadStopped('timeout', `reading the torrent took more than ${this.#timeoutMs} ms`))
        }, this.#timeoutMs)
        worker.on('message', onMessage).on('error', onError).on('exit', onExit)
        worker.postMessage({ bytes, maxFiles })
      })
    } catch (err) {
      // Out of memory, stopped or dead: that worker is not used again.
      void worker.terminate().catch(() => undefined)
      throw err
    }
    worker.unref()
    this.#idle.push(worker)
    clearTimeout(this.#idleTimer)
    this.#idleTimer = setTimeout(() => void this.close(), this.#idleMs).unref()
    // A failure inside the worker that is not the torrent's (parse-torrent failed to load): the server's.
    if ('failed' in reply) throw new Error(`the torrent reader failed: ${reply.failed}`)
    return reply
  }
}
