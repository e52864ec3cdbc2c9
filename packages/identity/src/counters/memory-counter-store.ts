import type { Clock } from '../lib/clock.js'
import type { CounterOp, CounterReading, CounterStore } from './counter-store.js'

interface Entry {
  count: number
  expiresAtMs: number
}

/** Single-process counters. For several nodes, use RedisCounterStore so all nodes share the counts. */
export class MemoryCounterStore implements CounterStore {
  private readonly entries = new Map<string, Entry>()
  private readonly sweepTimer: NodeJS.Timeout

  constructor(private readonly clock: Clock) {
    // Expired entries are dropped lazily on access; the sweep bounds memory for keys never read again.
    this.sweepTimer = setInterval(() => this.sweep(), 60_000)
    this.sweepTimer.unref()
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key)
    if (entry && entry.expiresAtMs <= this.clock.nowMs()) {
      this.entries.delete(key)
      return undefined
    }
    return entry
  }

  private ttl(entry: Entry): number {
    return Math.max(1, Math.ceil((entry.expiresAtMs - this.clock.nowMs()) / 1000))
  }

  async increment(key: string, windowSeconds: number) {
    return this.incrementNow(key, windowSeconds)
  }

  async get(key: string) {
    return this.getNow(key)
  }

  async decrement(key: string) {
    this.decrementNow(key)
  }

  async reset(key: string) {
    this.entries.delete(key)
  }

  // One synchronous pass: nothing else runs in between, so the batch is atomic.
  async batch(ops: readonly CounterOp[]) {
    return ops.map((step): CounterReading | null => {
      switch (step.op) {
        case 'increment':
          return this.incrementNow(step.key, step.windowSeconds)
        case 'get':
          return this.getNow(step.key)
        case 'decrement':
          this.decrementNow(step.key)
          return null
        case 'reset':
          this.entries.delete(step.key)
          return null
      }
    })
  }

  private incrementNow(key: string, windowSeconds: number): CounterReading {
    let entry = this.live(key)
    if (!entry) {
      entry = { count: 0, expiresAtMs: this.clock.nowMs() + windowSeconds * 1000 }
      this.entries.set(key, entry)
    }
    entry.count += 1
    return { count: entry.count, ttlSeconds: this.ttl(entry) }
  }

  private getNow(key: string): CounterReading {
    const entry = this.live(key)
    return entry ? { count: entry.count, ttlSeconds: this.ttl(entry) } : { count: 0, ttlSeconds: 0 }
  }

  private decrementNow(key: string): void {
    const entry = this.live(key)
    if (entry && entry.count > 0) entry.count -= 1
  }

  async close() {
    clearInterval(this.sweepTimer)
    this.entries.clear()
  }

  private sweep() {
    const now = this.clock.nowMs()
    for (const [key, entry] of this.entries) if (entry.expiresAtMs <= now) this.entries.delete(key)
  }
}
