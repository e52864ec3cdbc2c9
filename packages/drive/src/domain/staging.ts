import { createWriteStream } from 'node:fs'
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { FileStore } from '@tus/file-store'
import { ERRORS, Upload } from '@tus/server'
import { isGcid } from '../blobs/blob-store.js'
import { GcidHasher } from '../blobs/gcid.js'

/**
 * Where unfinished uploads live: `@tus/file-store`'s layout under the upload folder, one data file
 * `<dir>/<id>` (its size is the tus offset) and one info file `<dir>/<id>.json` beside it. Both
 * are on disk, so an upload survives a restart; the database's drive_uploads row says whose it is.
 *
 * The info file also carries, outside the client's metadata, the GCID the server computed once
 * the last byte arrived: a crash after the data file became a blob still knows which blob it was.
 */

/** The tus extensions we offer. Not creation-defer-length: the quota is reserved for a known size at creation. */
export const TUS_EXTENSIONS = ['creation', 'creation-with-upload', 'termination', 'expiration'] as const

/** The info file as @tus/file-store writes it, plus our field. */
interface StagingInfo {
  id: string
  size?: number
  metadata?: Record<string, string | null>
  creation_date?: string
  /** Set by the server only (never from Upload-Metadata, which a client controls). */
  cumulus_gcid?: string
}

/** Bytes buffered before a write: socket reads are 16-64 KiB, and one system call each costs more than the copy. */
const WRITE_BUFFER_BYTES = 4 * 1024 * 1024

/** A GCID computed while the bytes arrived, valid while the upload continues from `offset`. */
interface StreamedHash {
  hasher: GcidHasher
  offset: number
  /** When bytes last arrived: a hash left this long past the uploads' expiry is dropped. */
  lastWriteMs: number
}

class StagingFileStore extends FileStore {
  /** Per upload in this process: hashing as the bytes arrive spares reading the whole file again at the end. */
  readonly streamed = new Map<string, StreamedHash>()

  constructor(
    readonly stagingDirectory: string,
    private readonly expirationMs: number,
    private readonly nowMs: () => number,
  ) {
    super({ directory: stagingDirectory, expirationPeriodInMilliseconds: expirationMs })
    this.extensions = [...TUS_EXTENSIONS]
  }

  /**
   * Drops the running hashes of uploads that took no bytes here for longer than an upload may
   * live. Most hashes go with their upload (finished, cancelled, removed), but an upload whose
   * last bytes, or whose end, went to another node leaves its hash here: nothing on this node
   * hears of it, so each new upload sweeps what has outlived the expiry.
   */
  sweepStreamed(): void {
    const cutoffMs = this.nowMs() - this.expirationMs
    for (const [id, streamed] of this.streamed) if (streamed.lastWriteMs < cutoffMs) this.streamed.delete(id)
  }


  /** tus DELETE (termination): the running hash goes with the upload. */
  override async remove(id: string): Promise<void> {
    this.streamed.delete(id)
    await super.remove(id)
  }

  /**
   * @tus/file-store's write, with large buffered writes, and the GCID computed on the way when
   * this process has seen every byte before `offset` (else the finish hashes the file, as after a
   * restart). Only bytes that reached the file are hashed: a PATCH cut short leaves a hasher
   * whose offset matches the file's size.
   */
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const upload = await this.getUpload(id)
    let streamed = this.streamed.get(id)
    if (offset === 0 && upload.size !== undefined) {
      this.sweepStreamed()
      streamed = { hasher: new GcidHasher(upload.size), offset: 0, lastWriteMs: this.nowMs() }
      this.streamed.set(id, streamed)
    } else if (!streamed || streamed.offset !== offset) {
      this.streamed.delete(id)
      streamed = undefined
    }
    const output = createWriteStream(join(this.stagingDirectory, id), { flags: 'r+', start: offset, highWaterMark: WRITE_BUFFER_BYTES })
    let received = 0
    // Chunks on their way to the file, not hashed yet. Hashed (and dropped) as soon as the file
    // has taken them, which is checked at every chunk that arrives: held until the body's end,
    // they kept a whole PATCH body in memory (1 GiB for a 1 GiB PATCH).
    const pending: Buffer[] = []
    // Hash what the file has taken (its bytesWritten), in order, once written: a cut-short PATCH
    // must not leave bytes hashed that never reached the file.
    let hashed = 0
    const hashWritten = () => {
      if (!streamed) return
      while (pending.length > 0 && hashed < output.bytesWritten) {
        const chunk = pending[0] as Buffer
        const take = Math.min(chunk.length, output.bytesWritten - hashed)
        streamed.hasher.update(take === chunk.length ? chunk : chunk.subarray(0, take))
        if (take === chunk.length) pending.shift()
        else pending[0] = chunk.subarray(take)
        hashed += take
        streamed.offset += take
      }
      streamed.lastWriteMs = this.nowMs()
    }
    const count = new Transform({
      highWaterMark: WRITE_BUFFER_BYTES,
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length
        if (streamed) {
          pending.push(chunk)
          hashWritten()
        }
        callback(null, chunk)
      },
    })
    try {
      await pipeline(readable, count, output)
    } catch {
      hashWritten()
      if (streamed && streamed.offset !== offset + output.bytesWritten) this.streamed.delete(id)
      throw ERRORS.FILE_WRITE_ERROR
    }
    hashWritten()
    if (streamed && streamed.offset !== offset + received) this.streamed.delete(id)
    return offset + received
  }
}

// @tus/file-store creates the folder from its constructor and throws any error from the callback,
// where nothing can catch it: a data folder removed meanwhile (a server closed just after it
// started) crashed the process. Staging creates the folder itself, as a promise its methods
// await. (The method is private in the typings, hence not an override.)
Object.defineProperty(StagingFileStore.prototype, 'checkOrCreateDirectory', { value: () => {} })

export class StagingArea {
  /** The tus data store over this folder (the tus server writes PATCH bodies through it). */
  readonly store: FileStore
  readonly #ready: Promise<unknown>

  constructor(
    readonly directory: string,
    expirationMs: number,
    /** The tus layer's clock (real time: tus stamps uploads with it too); tests pass their own. */
    nowMs: () => number = Date.now,
  ) {
    this.#ready = mkdir(directory, { recursive: true })
    this.store = new StagingFileStore(directory, expirationMs, nowMs)
  }

  /** Running hashes held in this process (one per upload receiving bytes here). */
  get runningHashes(): number {
    return (this.store as StagingFileStore).streamed.size
  }

  /**
   * The GCID computed while the bytes of upload `id` arrived, when this process saw all
   * `sizeBytes` of them in order; null otherwise (then the file must be hashed). Forgets it.
   */
  takeStreamedGcid(id: string, sizeBytes: number): string | null {
    const streamed = (this.store as StagingFileStore).streamed.get(id)
    ;(this.store as StagingFileStore).streamed.delete(id)
    return streamed && streamed.offset === sizeBytes ? streamed.hasher.digest() : null
  }

  /** Creates an empty upload `id` of `sizeBytes`, created at `createdAtMs` (tus reports its expiry from that). */
  async create(id: string, sizeBytes: number, metadata: Record<string, string>, createdAtMs: number): Promise<void> {
    await this.#ready
    await this.store.create(new Upload({ id, size: sizeBytes, offset: 0, metadata, creation_date: new Date(createdAtMs).toISOString() }))
  }

  dataPath(id: string): string {
    return join(this.directory, id)
  }

  #infoPath(id: string): string {
    return join(this.directory, `${id}.json`)
  }

  /** Bytes received so far, or null when the data file is gone (adopted as a blob, or removed). */
  async offsetOf(id: string): Promise<number | null> {
    try {
      return (await stat(this.dataPath(id))).size
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
  }

  /** The GCID recorded by `recordGcid`, or null. */
  async recordedGcid(id: string): Promise<string | null> {
    const info = await this.#readInfo(id)
    const gcid = info?.cumulus_gcid
    return typeof gcid === 'string' && isGcid(gcid) ? gcid : null
  }

  /** Notes the content's GCID in the info file before the data file is handed to the blob store. */
  async recordGcid(id: string, gcid: string): Promise<void> {
    const info = await this.#readInfo(id)
    if (!info) throw new Error(`upload ${id} has no info file`)
    await writeFile(this.#infoPath(id), JSON.stringify({ ...info, cumulus_gcid: gcid }))
  }

  /** Removes whatever is left of upload `id` (data and info files). Idempotent. */
  async remove(id: string): Promise<void> {
    // The running hash of its bytes too: kept past the upload, one per cancelled or expired upload
    // stayed for the process's life.
    ;(this.store as StagingFileStore).streamed.delete(id)
    await rm(this.dataPath(id), { force: true })
    await rm(this.#infoPath(id), { force: true })
  }

  /**
   * Every upload id with a file here, with the newest modification time of its files: the
   * housekeeping compares them with the database to find leftovers of crashes.
   */
  async list(): Promise<Map<string, number>> {
    await this.#ready
    const found = new Map<string, number>()
    for (const entry of await readdir(this.directory, { withFileTypes: true })) {
      if (!entry.isFile()) continue
      const id = entry.name.endsWith('.json') ? entry.name.slice(0, -'.json'.length) : entry.name
      let modifiedMs: number
      try {
        modifiedMs = (await stat(join(this.directory, entry.name))).mtimeMs
      } catch {
        continue
      }
      found.set(id, Math.max(found.get(id) ?? 0, modifiedMs))
    }
    return found
  }

  async #readInfo(id: string): Promise<StagingInfo | null> {
    try {
      return JSON.parse(await readFile(this.#infoPath(id), 'utf8')) as StagingInfo
    } catch {
      return null
    }
  }
}

const areas = new Map<string, StagingArea>()

/** The staging area of the drive's upload folder (one per folder, shared by the routes and housekeeping). */
export function stagingOf(config: { uploadDir: string; uploadExpirySeconds: number }): StagingArea {
  let area = areas.get(config.uploadDir)
  if (!area) {
    area = new StagingArea(config.uploadDir, config.uploadExpirySeconds * 1000)
    areas.set(config.uploadDir, area)
  }
  return area
}
