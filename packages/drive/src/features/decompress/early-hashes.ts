import { constants } from 'node:fs'
import { type FileHandle, lstat, open } from 'node:fs/promises'
import { sep } from 'node:path'
import { GcidWorker } from '../../blobs/gcid-worker.js'

/** Smaller files are hashed after the tool (hashLeft): not worth holding a descriptor open for. */
const MIN_BYTES = 1024 * 1024
/** Files held open at once: each early hash keeps its file open until the walk takes it. */
const MAX_OPEN = 256
/**
 * Flushes under way at once. Each holds a thread of libuv's pool (four) until the disk has the
 * file: with no bound they took all four, and every other file operation of the process (the
 * walk after the tool, other users' requests) queued behind the disk.
 */
const FLUSHES_AT_ONCE = 2

interface Hashed {
  handle: FileHandle
  gcid: string
  size: bigint
  ctimeNs: bigint
}

/**
 * GCIDs of files the unpacking tool has finished, computed while it unpacks the rest (the hash
 * then costs no wall time). A hash is trusted only for the very file the walk finds afterwards:
 * the file is opened without following links and held open until then, so its inode cannot be
 * freed and its number reused by a file of the same name written later (an archive may name a
 * path twice), and its change time must not have moved since it was hashed (any write or time
 * change moves it). Files whose archive time is not set yet (the tool sets it as it closes
 * them) are left for the walk.
 */
export class EarlyHashes {
  readonly #hashed = new Map<string, Hashed>()
  readonly #offered = new Set<string>()
  readonly #twice = new Set<string>()
  #chain: Promise<void> = Promise.resolve()
  /** Set when the run stops or fails: nothing more is hashed. */
  #stopped = false
  /** Set when the tool has exited: no more flushes ahead (the store fsyncs what is left itself). */
  #toolDone = false
  /** Flushes under way: the store's fsync will find these files' pages clean. */
  readonly #flushes = new Set<Promise<void>>()
  /** Files waiting for a flush, oldest first, while FLUSHES_AT_ONCE run. */
  readonly #toFlush: FileHandle[] = []
  /** Hashes at idle priority on a thread of its own (gcid-worker.ts): the tool keeps the cores. */
  readonly #hasher = new GcidWorker({ idle: true })
  /** Hashes what is left after the tool, at the process's priority: that work must not wait for idle time on a busy node. */
  readonly #after = new GcidWorker({ idle: false })

  constructor(
    private readonly outDir: string,
    private readonly startedMs: number,
    private readonly signal: AbortSignal,
    /**
     * Whether a file of this content is worth flushing ahead: not when the store holds it
     * already (the staging file is then deleted, and its pages are never written), nor when the
     * store is not this disk (S3 reads the file and uploads it).
     */
    private readonly flushAhead: (gcid: string) => Promise<boolean> = async () => true,
  ) {
    // A stopped run does not wait for hashes it will never use.
    signal.addEventListener('abort', () => void Promise.all([this.#hasher.close(), this.#after.close()]).catch(() => undefined), { once: true })
  }

  /** The tool says it has finished `path`: hash it in the background (one at a time). */
  offer(path: string): void {
    if (!path.startsWith(this.outDir + sep)) return
    if (this.#offered.has(path)) {
      // Named twice: whichever is left is hashed after the tool.
      this.#twice.add(path)
      void this.#forget(path)
      return
    }
    this.#offered.add(path)
    this.#chain = this.#chain.then(() => this.#hash(path)).catch(() => undefined)
  }

  /** The tool has exited: waits for the backlog of early hashes; flushes not started are left to the store. */
  settle(): Promise<void> {
    this.#toolDone = true
    this.#toFlush.length = 0
    // Started now, the worker for the files left is up by the time the walk has found them.
    if (!this.#stopped) void this.#after.niced()
    return this.#chain
  }

  /** Stops hashing (the run failed or was stopped): the worker stops mid-file, and nothing more is hashed. */
  stop(): void {
    this.#stopped = true
    void this.#hasher.close().catch(() => undefined)
  }

  /**
   * The GCID of a file the early hashes left (small, or finished last): hashed now on a worker at
   * the process's priority, off the event loop, for the walk after the tool (which has trusted
   * the path itself).
   */
  hashLeft(path: string, sizeBytes: number): Promise<string> {
    return this.#after.hashPath(path, sizeBytes)
  }

  /** The GCID hashed early for the file now at `path`, when it is the same file, unchanged; else null. */
  async take(path: string): Promise<string | null> {
    const hashed = this.#hashed.get(path)
    if (!hashed || this.#twice.has(path)) return null
    const [held, found] = await Promise.all([hashed.handle.stat({ bigint: true }), lstat(path, { bigint: true }).catch(() => null)])
    const same = found !== null && found.isFile() && found.dev === held.dev && found.ino === held.ino && held.nlink === 1n && held.ctimeNs === hashed.ctimeNs && held.size === hashed.size
    return same ? hashed.gcid : null
  }

  /** Closes every file held open. */
  async close(): Promise<void> {
    this.#stopped = true
    // First the workers (mid-file if need be): the early one reads from descriptors closed below.
    await Promise.all([this.#hasher.close(), this.#after.close()])
    await this.#chain
    await Promise.all(this.#flushes)
    const handles = [...this.#hashed.values()].map((h) => h.handle)
    this.#hashed.clear()
    await Promise.all(handles.map((h) => h.close().catch(() => undefined)))
  }

  /** Starts the file's flush when fewer than FLUSHES_AT_ONCE run; else queues it. */
  #flushLater(handle: FileHandle): void {
    this.#toFlush.push(handle)
    this.#nextFlush()
  }

  #nextFlush(): void {
    // Once the tool is done the store fsyncs what is left itself; queued flushes are dropped.
    while (this.#flushes.size < FLUSHES_AT_ONCE && this.#toFlush.length > 0 && !this.#toolDone && !this.#stopped) {
      const flush = this.#toFlush.shift()!.datasync().catch(() => undefined)
      this.#flushes.add(flush)
      void flush.then(() => {
        this.#flushes.delete(flush)
        this.#nextFlush()
      })
    }
  }

  async #forget(path: string): Promise<void> {
    const hashed = this.#hashed.get(path)
    this.#hashed.delete(path)
    await hashed?.handle.close().catch(() => undefined)
  }

  async #hash(path: string): Promise<void> {
    if (this.#stopped || this.signal.aborted || this.#hashed.size >= MAX_OPEN) return
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => null)
    if (!handle) return
    let kept = false
    try {
      const before = await handle.stat({ bigint: true })
      if (!before.isFile() || before.nlink !== 1n || before.size < BigInt(MIN_BYTES) || before.mtimeMs > BigInt(this.startedMs - 2000)) return
      const gcid = await this.#hasher.hash(handle.fd, Number(before.size))
      if (this.#stopped || this.signal.aborted) return
      const after = await handle.stat({ bigint: true })
      // Written to, or named twice, meanwhile: left for the walk.
      if (after.ctimeNs !== before.ctimeNs || after.size !== before.size || this.#twice.has(path) || this.#hashed.has(path)) return
      this.#hashed.set(path, { handle, gcid, size: after.size, ctimeNs: after.ctimeNs })
      kept = true
      // The blob store fsyncs every file it takes (after the tool), and the baseline of a plain
      // `7zz x` never does: started now, the disk writes its pages while the tool still decodes,
      // instead of all of them at once after it. Only a head start: the store's own fsync is what
      // makes the file durable, so a failure here is of no consequence.
      if (!this.#toolDone && (await this.flushAhead(gcid).catch(() => false))) this.#flushLater(handle)
    } finally {
      if (!kept) await handle.close().catch(() => undefined)
    }
  }
}
