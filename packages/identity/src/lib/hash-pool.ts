import { availableParallelism } from 'node:os'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/**
 * Password hashing on worker threads of its own, one per core, shared by the whole process.
 *
 * Why not @node-rs/argon2's async calls: they run on libuv's pool (four threads), which file
 * I/O, DNS and zlib share, and argon2id is bound by memory bandwidth, so four hashes on two
 * cores each run slower than two would: measured here, the raw async calls made 175 verifies/s
 * and two worker threads 215/s. A worker is also sent its next job before it finishes the one
 * in hand, so it never waits for the event loop between two hashes.
 *
 * The workers start at the first hash and stop after IDLE_MS without one, so a node that
 * serves no sign-ins holds no threads; while idle they never keep the process alive.
 */
export type HashJob =
  | { op: 'hash'; password: string; memoryCost: number; timeCost: number; parallelism: number }
  | { op: 'verify'; encoded: string; password: string }

const IDLE_MS = 30_000
/** Jobs sent to one worker ahead of its answers: the one it runs and the one it runs next. */
const AHEAD = 2

// CommonJS, evaluated: the same source runs from dist and from the TypeScript sources in tests.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const argon2 = require(workerData.argon2)
parentPort.on('message', (job) => {
  try {
    const value = job.op === 'hash'
      ? argon2.hashSync(job.password, { algorithm: 2, memoryCost: job.memoryCost, timeCost: job.timeCost, parallelism: job.parallelism })
      : argon2.verifySync(job.encoded, job.password)
    parentPort.postMessage({ id: job.id, value })
  } catch (err) {
    parentPort.postMessage({ id: job.id, error: String(err && err.message || err) })
  }
})
`

interface Pending {
  job: HashJob
  resolve: (value: string | boolean) => void
  reject: (error: Error) => void
}

interface Slot {
  worker: Worker
  inFlight: Map<number, Pending>
}

export class HashPool {
  readonly #size: number
  readonly #argon2Path = createRequire(import.meta.url).resolve('@node-rs/argon2')
  readonly #queue: (Pending & { id: number })[] = []
  #slots: Slot[] = []
  #nextId = 0
  #idleTimer: NodeJS.Timeout | undefined

  readonly #idleMs: number

  constructor({ size = Math.max(1, Math.min(availableParallelism(), 8)), idleMs = IDLE_MS }: { size?: number; idleMs?: number } = {}) {
    this.#size = size
    this.#idleMs = idleMs
  }

  /** Worker threads running now. */
  get workers(): number {
    return this.#slots.length
  }

  run(job: HashJob): Promise<string | boolean> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, job, resolve, reject })
      this.#pump()
    })
  }

  /** Stops every worker now; jobs in flight are refused. The pool starts again on the next job. */
  async close(): Promise<void> {
    const slots = this.#slots
    this.#slots = []
    clearTimeout(this.#idleTimer)
    await Promise.all(slots.map((slot) => this.#stop(slot, new Error('the hashing pool was closed'))))
  }

  #pump(): void {
    clearTimeout(this.#idleTimer)
    while (this.#queue.length > 0) {
      let slot: Slot | undefined
      try {
        slot = this.#freeSlot()
      } catch (err) {
        // No thread could be started (out of memory or threads): the waiting jobs fail now
        // rather than wait for a worker that will not come.
        for (const pending of this.#queue.splice(0)) pending.reject(err as Error)
        break
      }
      if (!slot) break
      const pending = this.#queue.shift()!
      if (slot.inFlight.size === 0) slot.worker.ref()
      slot.inFlight.set(pending.id, pending)
      slot.worker.postMessage({ id: pending.id, ...pending.job })
    }
    if (this.#slots.every((slot) => slot.inFlight.size === 0)) {
      this.#idleTimer = setTimeout(() => void this.close(), this.#idleMs).unref()
    }
  }

  /** The least busy worker with room, starting one while the pool is below its size. */
  #freeSlot(): Slot | undefined {
    const idle = this.#slots.find((slot) => slot.inFlight.size === 0)
    if (idle) return idle
    if (this.#slots.length < this.#size) return this.#start()
    return this.#slots.filter((slot) => slot.inFlight.size < AHEAD).sort((a, b) => a.inFlight.size - b.inFlight.size)[0]
  }

  #start(): Slot {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { argon2: this.#argon2Path } })
    const slot: Slot = { worker, inFlight: new Map() }
    worker.on('message', (reply: { id: number; value?: string | boolean; error?: string }) => {
      const pending = slot.inFlight.get(reply.id)
      if (!pending) return
      slot.inFlight.delete(reply.id)
      if (slot.inFlight.size === 0) worker.unref()
      if (reply.error !== undefined) pending.reject(new Error(reply.error))
      else pending.resolve(reply.value!)
      this.#pump()
    })
    // A worker that dies (out of memory, a bug in the addon) fails its own jobs only; the next
    // job starts a new one.
    worker.on('error', (err) => void this.#retire(slot, err))
    worker.on('exit', (code) => void this.#retire(slot, new Error(`a hashing worker exited with code ${code}`)))
    this.#slots.push(slot)
    return slot
  }

  #retire(slot: Slot, error: Error): void {
    this.#slots = this.#slots.filter((s) => s !== slot)
    for (const pending of slot.inFlight.values()) pending.reject(error)
    slot.inFlight.clear()
    // Starts a worker for waiting jobs, or arms the idle timer for the workers left.
    this.#pump()
  }

  async #stop(slot: Slot, error: Error): Promise<void> {
    for (const pending of slot.inFlight.values()) pending.reject(error)
    slot.inFlight.clear()
    await slot.worker.terminate()
  }
}

let shared: HashPool | undefined

/** The process's one pool: hashing capacity is the machine's cores, whoever asks. */
export function sharedHashPool(): HashPool {
  shared ??= new HashPool()
  return shared
}
