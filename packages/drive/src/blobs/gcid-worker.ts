import { Worker } from 'node:worker_threads'
import { gcidBlockSize } from './gcid.js'

/**
 * GCIDs of files, computed on a worker thread of its own, off the event loop; an idle one
 * (`{ idle: true }`) runs at the lowest CPU priority (nice 19), so it takes only the time the
 * rest of the machine leaves.
 *
 * Why idle: while an unpacking tool runs (7zz decodes a 7z's LZMA2 on every core), hashing what
 * it has finished on the event loop, even throttled, took the cores from the tool and made the
 * whole unpacking slower than hashing it all afterwards. At nice 19 the hash fills only the
 * gaps the tool leaves (it waits on its writes), and the tool, at nice 10, wins the core.
 *
 * Linux gives each thread its own nice value: the worker reads its thread id from
 * /proc/thread-self and lowers its own priority (lowering needs no privilege; raising it again
 * would, so work that must not wait for idle time goes to a worker that is not idle). Where that
 * is not possible the worker still hashes, at the process's priority.
 *
 * A file is read by descriptor, which the caller keeps open (and owns) until the hash is back or
 * close() has resolved, or by path, which the worker opens without following a link.
 */

// CommonJS, evaluated: the same source runs from dist and from the TypeScript sources in tests.
// The GCID itself (drive.md): SHA-1 over the raw SHA-1 digests of `block`-byte blocks; the block
// size comes from gcid.ts, so the two cannot drift apart (gcid-worker.test.ts compares them).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { closeSync, constants, fstatSync, openSync, readSync, readlinkSync } = require('node:fs')
const { setPriority } = require('node:os')
const { createHash } = require('node:crypto')
let niced = false
if (workerData.idle) try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
  if (Number.isInteger(tid) && tid > 0) { setPriority(tid, 19); niced = true }
} catch {}
parentPort.postMessage({ ready: true, niced })
const buffer = Buffer.allocUnsafe(1024 * 1024)
parentPort.on('message', ({ id, fd, path, size, block }) => {
  let opened = null
  try {
    if (path !== undefined) {
      opened = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW)
      if (fstatSync(opened).size !== size) throw new Error('the file is not the size expected')
      fd = opened
    }
    const outer = createHash('sha1')
    let inner = createHash('sha1')
    let inBlock = 0
    for (let position = 0; position < size; ) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, size - position), position)
      if (read === 0) throw new Error('the file ended early')
      for (let offset = 0; offset < read; ) {
        const take = Math.min(block - inBlock, read - offset)
        inner.update(buffer.subarray(offset, offset + take))
        inBlock += take
        offset += take
        if (inBlock === block) { outer.update(inner.digest()); inner = createHash('sha1'); inBlock = 0 }
      }
      position += read
    }
    if (inBlock > 0) outer.update(inner.digest())
    parentPort.postMessage({ id, gcid: outer.digest('hex').toUpperCase() })
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) })
  } finally {
    if (opened !== null) closeSync(opened)
  }
})
`

interface Pending {
  resolve: (gcid: string) => void
  reject: (error: Error) => void
}

export class GcidWorker {
  #worker: Worker | null = null
  #niced: Promise<boolean> | null = null
  readonly #pending = new Map<number, Pending>()
  #nextId = 0
  #closing: Promise<void> | null = null
  readonly #idle: boolean

  constructor({ idle }: { idle: boolean }) {
    this.#idle = idle
  }

  /** The GCID of the first `sizeBytes` bytes of the open file `fd`. */
  hash(fd: number, sizeBytes: number): Promise<string> {
    return this.#send({ fd }, sizeBytes)
  }

  /** The GCID of the regular file at `path` (a link is not followed), which must be `sizeBytes` long. */
  hashPath(path: string, sizeBytes: number): Promise<string> {
    return this.#send({ path }, sizeBytes)
  }

  #send(file: { fd: number } | { path: string }, sizeBytes: number): Promise<string> {
    if (this.#closing) return Promise.reject(new Error('the hasher is closed'))
    const worker = this.#start()
    const id = this.#nextId++
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject })
      worker.postMessage({ id, ...file, size: sizeBytes, block: gcidBlockSize(sizeBytes) })
    })
  }

  /** Whether the worker runs at idle priority (false when not asked to, or where the platform does not allow it). */
  niced(): Promise<boolean> {
    // Never a new thread once closing: nothing would stop it.
    if (this.#closing) return Promise.resolve(false)
    this.#start()
    return this.#niced!
  }

  /**
   * Stops the worker now, mid-file if need be; hashes not back are refused. Every call waits for
   * the same end: when it resolves, the worker reads no descriptor any more.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const worker = this.#worker
      this.#worker = null
      if (worker) await worker.terminate()
      this.#failAll(new Error('the hasher was closed'))
    })()
    return this.#closing
  }

  #start(): Worker {
    if (this.#worker) return this.#worker
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { idle: this.#idle } })
    this.#worker = worker
    this.#niced = new Promise((resolve) => {
      const onReady = (reply: { ready?: boolean; niced?: boolean }) => {
        if (!reply.ready) return
        worker.off('message', onReady)
        resolve(reply.niced === true)
      }
      worker.on('message', onReady)
      worker.once('exit', () => resolve(false))
    })
    worker.on('message', (reply: { id?: number; gcid?: string; error?: string }) => {
      if (reply.id === undefined) return
      const pending = this.#pending.get(reply.id)
      if (!pending) return
      this.#pending.delete(reply.id)
      if (reply.error !== undefined) pending.reject(new Error(reply.error))
      else pending.resolve(reply.gcid!)
    })
    worker.on('error', (err) => this.#failAll(err))
    worker.on('exit', () => {
      if (this.#worker === worker) this.#worker = null
      this.#failAll(new Error('the hashing worker stopped'))
    })
    return worker
  }

  #failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error)
    this.#pending.clear()
  }
}
