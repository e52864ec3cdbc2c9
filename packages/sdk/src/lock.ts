import { LocalErrors } from '@cumulus/protocol'
import { IdentityError } from './errors.js'
import type { LockManagerLike } from './options.js'
import { randomUuid } from './random.js'
import type { KeyValueStorage } from './storage.js'
import { readJson, writeJson } from './storage.js'

interface Waiter {
  owner: symbol
  grant: () => void
}

/**
 * An async mutex that a holder may enter again (spec 9: "a reentrant lock guards
 * credentials"). JavaScript has no thread identity, so reentrancy is explicit: `run`
 * hands its body an owner token, and a nested `run(fn, owner)` with that token enters
 * at once instead of waiting for itself.
 */
export class ReentrantLock {
  #owner: symbol | null = null
  #depth = 0
  readonly #queue: Waiter[] = []
  readonly #timeoutMs: number | undefined

  /** `timeoutMs`: how long `run` waits before failing `local_timeout`; undefined waits forever. */
  constructor(timeoutMs?: number) {
    this.#timeoutMs = timeoutMs
  }

  /** Whether some caller holds the lock. */
  get locked(): boolean {
    return this.#owner !== null
  }

  /**
   * Runs `fn` holding the lock and releases it however `fn` ends. Pass the owner token
   * received by an enclosing `run` to re-enter. Rejects with `local_timeout` (8002) when
   * the lock is not obtained within the timeout; `fn` is then not called.
   */
  async run<T>(fn: (owner: symbol) => Promise<T> | T, owner?: symbol): Promise<T> {
    const me = owner ?? Symbol('lock-owner')
    await this.#acquire(me)
    try {
      return await fn(me)
    } finally {
      this.#release()
    }
  }

  #acquire(me: symbol): Promise<void> {
    if (this.#owner === null || this.#owner === me) {
      this.#owner = me
      this.#depth += 1
      return Promise.resolve()
    }
    return new Promise<void>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined
      const waiter: Waiter = {
        owner: me,
        grant: () => {
          if (timer !== undefined) clearTimeout(timer)
          resolve()
        },
      }
      this.#queue.push(waiter)
      if (this.#timeoutMs !== undefined) {
        timer = setTimeout(() => {
          const index = this.#queue.indexOf(waiter)
          if (index !== -1) this.#queue.splice(index, 1)
          reject(IdentityError.of(LocalErrors.local_timeout, `lock not obtained within ${this.#timeoutMs} ms`))
        }, this.#timeoutMs)
      }
    })
  }

  #release(): void {
    this.#depth -= 1
    if (this.#depth > 0) return
    this.#owner = null
    const next = this.#queue.shift()
    if (!next) return
    this.#owner = next.owner
    this.#depth = 1
    next.grant()
    // Other waiters of the same owner enter with it, as a nested call would.
    for (let i = this.#queue.length - 1; i >= 0; i -= 1) {
      const waiter = this.#queue[i]
      if (waiter && waiter.owner === next.owner) {
        this.#queue.splice(i, 1)
        this.#depth += 1
        waiter.grant()
      }
    }
  }
}

interface Lease {
  owner: string
  /** Epoch milliseconds. */
  expires_at: number
}

export interface CrossTabLockOptions {
  /** Lock name; with a storage lease, also the storage key. */
  name: string
  storage: KeyValueStorage
  /** `navigator.locks` or a stand-in; null forces the storage lease. */
  locks: LockManagerLike | null
  sleep: (ms: number) => Promise<void>
  /** How long a lease holds when its tab dies without releasing it. */
  leaseMs?: number
  /** How often a waiting tab looks at the lease again. */
  pollMs?: number
}

/** A lease outlives any refresh call; it only matters when a tab dies holding it. */
const DEFAULT_LEASE_MS = 30_000
const DEFAULT_POLL_MS = 100

/**
 * Keeps two tabs sharing storage from doing the same thing at once (refreshing the same
 * rotating refresh token, which would revoke the session). Uses the Web Locks API when
 * present; otherwise a lease in storage: write `{owner, expires_at}` when the key is free
 * or expired, read it back to confirm, poll while another tab holds it.
 */
export class CrossTabLock {
  readonly #options: Required<CrossTabLockOptions>

  constructor(options: CrossTabLockOptions) {
    this.#options = { leaseMs: DEFAULT_LEASE_MS, pollMs: DEFAULT_POLL_MS, ...options }
  }

  /** Runs `fn` while holding the cross-tab lock; releases it however `fn` ends. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const { locks, name } = this.#options
    if (locks) return locks.request(name, fn)
    const owner = randomUuid()
    await this.#takeLease(owner)
    try {
      return await fn()
    } finally {
      this.#dropLease(owner)
    }
  }

  async #takeLease(owner: string): Promise<void> {
    const { storage, name, leaseMs, pollMs, sleep } = this.#options
    for (;;) {
      const now = Date.now()
      const lease = readJson<Lease>(storage, name)
      if (!lease || typeof lease.expires_at !== 'number' || lease.expires_at <= now) {
        writeJson(storage, name, { owner, expires_at: now + leaseMs } satisfies Lease)
        // Two tabs may both have seen the lease free; the last write wins, the other polls.
        if (readJson<Lease>(storage, name)?.owner === owner) return
      }
      await sleep(pollMs)
    }
  }

  #dropLease(owner: string): void {
    const { storage, name } = this.#options
    if (readJson<Lease>(storage, name)?.owner === owner) storage.removeItem(name)
  }
}

/** `navigator.locks` when the platform has it (browsers, recent Node), else null. */
export function findLockManager(): LockManagerLike | null {
  const locks = (globalThis as { navigator?: { locks?: Partial<LockManagerLike> } }).navigator?.locks
  return locks && typeof locks.request === 'function' ? (locks as LockManagerLike) : null
}
