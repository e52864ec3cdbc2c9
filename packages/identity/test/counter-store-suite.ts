import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { CounterReading, CounterStore } from '../src/counters/counter-store.js'

export interface CounterStoreFixture {
  store: CounterStore
  /**
   * Moves the store's clock forward. Given only by backends whose time the test controls
   * (the memory store on a ManualClock); the expiry tests run only then, since tests never sleep.
   */
  advanceSeconds?: (seconds: number) => void
}

const WINDOW_SECONDS = 60
const LONGER_WINDOW_SECONDS = 3600
const BURST = 50

/**
 * The CounterStore contract (src/counters/counter-store.ts), run against one backend.
 * `factory` is called before every test and must return a store with no keys from earlier tests
 * (a fresh instance, or a fresh key prefix); the suite closes it after the test.
 */
export function describeCounterStore(name: string, factory: () => CounterStoreFixture | Promise<CounterStoreFixture>): void {
  describe(`CounterStore conformance: ${name}`, () => {
    let fixture: CounterStoreFixture
    let store: CounterStore

    beforeEach(async () => {
      fixture = await factory()
      store = fixture.store
    })

    afterEach(async () => {
      await store.close()
    })

    it('applies calls in the order they were made, without waiting for each', async () => {
      // Issued at once, as checkPassword does: the reads see exactly the writes made before them.
      const results = await Promise.all([
        store.increment('ordered', WINDOW_SECONDS),
        store.increment('ordered', WINDOW_SECONDS),
        store.get('ordered'),
        store.decrement('ordered'),
        store.get('ordered'),
        store.reset('ordered'),
        store.get('ordered'),
        store.increment('ordered', WINDOW_SECONDS),
      ])
      expect(results.map((r) => (r ? r.count : null))).toEqual([1, 2, 2, null, 1, null, 0, 1])
    })

    /** Redis rounds TTL to whole seconds and a second may tick between calls: allow one second of slack. */
    function expectTtlNear(ttlSeconds: number, expected: number) {
      expect(ttlSeconds).toBeLessThanOrEqual(expected)
      expect(ttlSeconds).toBeGreaterThanOrEqual(expected - 1)
    }

    describe('increment', () => {
      it('starts an absent key at 1 with the whole window left', async () => {
        const result = await store.increment('absent', WINDOW_SECONDS)
        expect(result.count).toBe(1)
        expectTtlNear(result.ttlSeconds, WINDOW_SECONDS)
      })

      it('counts up by one on each call', async () => {
        const counts: number[] = []
        for (let i = 0; i < 5; i++) counts.push((await store.increment('up', WINDOW_SECONDS)).count)
        expect(counts).toEqual([1, 2, 3, 4, 5])
        expect((await store.get('up')).count).toBe(5)
      })

      it('does not extend the window on later increments, even when they ask for a longer one', async () => {
        await store.increment('fixed', WINDOW_SECONDS)
        const later = await store.increment('fixed', LONGER_WINDOW_SECONDS)
        expect(later.count).toBe(2)
        expectTtlNear(later.ttlSeconds, WINDOW_SECONDS)
        expectTtlNear((await store.get('fixed')).ttlSeconds, WINDOW_SECONDS)
      })

      it('keeps keys independent', async () => {
        await store.increment('a', WINDOW_SECONDS)
        await store.increment('a', WINDOW_SECONDS)
        const b = await store.increment('b', LONGER_WINDOW_SECONDS)
        expect(b.count).toBe(1)
        expectTtlNear(b.ttlSeconds, LONGER_WINDOW_SECONDS)
        expect((await store.get('a')).count).toBe(2)
      })

      it('hands out the distinct counts 1..n to a parallel burst', async () => {
        const results = await Promise.all(Array.from({ length: BURST }, () => store.increment('burst', WINDOW_SECONDS)))
        const counts = results.map((r) => r.count).sort((x, y) => x - y)
        expect(counts).toEqual(Array.from({ length: BURST }, (_, i) => i + 1))
        for (const r of results) expectTtlNear(r.ttlSeconds, WINDOW_SECONDS)
        expect((await store.get('burst')).count).toBe(BURST)
      })
    })

    describe('get', () => {
      it('gives count 0 and ttl 0 for an absent key, without creating it', async () => {
        expect(await store.get('never')).toEqual({ count: 0, ttlSeconds: 0 })
        const first = await store.increment('never', WINDOW_SECONDS)
        expect(first.count).toBe(1)
      })

      it('reads without mutating', async () => {
        await store.increment('read', WINDOW_SECONDS)
        await store.increment('read', WINDOW_SECONDS)
        const first = await store.get('read')
        const second = await store.get('read')
        expect(first.count).toBe(2)
        expect(second.count).toBe(2)
        expectTtlNear(first.ttlSeconds, WINDOW_SECONDS)
        expectTtlNear(second.ttlSeconds, WINDOW_SECONDS)
        expect((await store.increment('read', WINDOW_SECONDS)).count).toBe(3)
      })
    })

    describe('decrement', () => {
      it('subtracts one and floors at 0', async () => {
        await store.increment('down', WINDOW_SECONDS)
        await store.increment('down', WINDOW_SECONDS)
        await store.decrement('down')
        expect((await store.get('down')).count).toBe(1)
        await store.decrement('down')
        await store.decrement('down')
        await store.decrement('down')
        expect((await store.get('down')).count).toBe(0)
        expect((await store.increment('down', WINDOW_SECONDS)).count).toBe(1)
      })

      it('is a no-op for an absent key: it neither creates the key nor goes negative', async () => {
        await store.decrement('ghost')
        expect(await store.get('ghost')).toEqual({ count: 0, ttlSeconds: 0 })
        const next = await store.increment('ghost', LONGER_WINDOW_SECONDS)
        expect(next.count).toBe(1)
        expectTtlNear(next.ttlSeconds, LONGER_WINDOW_SECONDS)
      })

      it('keeps the window of a key released back to 0', async () => {
        // Sign-in reserves an attempt and releases it on success; the release must not let the
        // next increment start a fresh (longer) window.
        await store.increment('released', WINDOW_SECONDS)
        await store.decrement('released')
        const released = await store.get('released')
        expect(released.count).toBe(0)
        expectTtlNear(released.ttlSeconds, WINDOW_SECONDS)
        const next = await store.increment('released', LONGER_WINDOW_SECONDS)
        expect(next.count).toBe(1)
        expectTtlNear(next.ttlSeconds, WINDOW_SECONDS)
      })

      it('never drops below 0 under a parallel burst', async () => {
        for (let i = 0; i < 10; i++) await store.increment('drain', WINDOW_SECONDS)
        await Promise.all(Array.from({ length: 30 }, () => store.decrement('drain')))
        expect((await store.get('drain')).count).toBe(0)
        expect((await store.increment('drain', WINDOW_SECONDS)).count).toBe(1)
      })

      it('balances a parallel burst of increments and decrements', async () => {
        for (let i = 0; i < BURST; i++) await store.increment('mixed', WINDOW_SECONDS)
        await Promise.all(Array.from({ length: BURST }, (_, i) => (i % 2 === 0 ? store.increment('mixed', WINDOW_SECONDS) : store.decrement('mixed'))))
        expect((await store.get('mixed')).count).toBe(BURST)
      })
    })

    describe('reset', () => {
      it('removes the key, so the next increment starts a new window at 1', async () => {
        await store.increment('gone', WINDOW_SECONDS)
        await store.increment('gone', WINDOW_SECONDS)
        await store.reset('gone')
        expect(await store.get('gone')).toEqual({ count: 0, ttlSeconds: 0 })
        const next = await store.increment('gone', LONGER_WINDOW_SECONDS)
        expect(next.count).toBe(1)
        expectTtlNear(next.ttlSeconds, LONGER_WINDOW_SECONDS)
      })

      it('is a no-op for an absent key and leaves other keys alone', async () => {
        await store.increment('kept', WINDOW_SECONDS)
        await store.reset('absent')
        expect(await store.get('absent')).toEqual({ count: 0, ttlSeconds: 0 })
        expect((await store.get('kept')).count).toBe(1)
      })
    })

    describe('batch', () => {
      it('applies its steps in order, each reading as the single call would', async () => {
        const readings = await store.batch([
          { op: 'increment', key: 'b', windowSeconds: WINDOW_SECONDS },
          { op: 'increment', key: 'b', windowSeconds: LONGER_WINDOW_SECONDS },
          { op: 'get', key: 'b' },
          { op: 'decrement', key: 'b' },
          { op: 'get', key: 'b' },
          { op: 'reset', key: 'b' },
          { op: 'get', key: 'b' },
          { op: 'increment', key: 'b', windowSeconds: LONGER_WINDOW_SECONDS },
          { op: 'get', key: 'other' },
          { op: 'decrement', key: 'absent' },
        ])
        expect(readings.map((r) => (r ? r.count : null))).toEqual([1, 2, 2, null, 1, null, 0, 1, 0, null])
        expectTtlNear(readings[0]!.ttlSeconds, WINDOW_SECONDS)
        // The second increment kept the first one's window.
        expectTtlNear(readings[1]!.ttlSeconds, WINDOW_SECONDS)
        expect(readings[6]!.ttlSeconds).toBe(0)
        // After the reset, a new window of the length asked for.
        expectTtlNear(readings[7]!.ttlSeconds, LONGER_WINDOW_SECONDS)
        expect(await store.get('b')).toEqual(readings[7])
        expect(await store.get('absent')).toEqual({ count: 0, ttlSeconds: 0 })
      })

      it('answers an empty batch with no readings', async () => {
        expect(await store.batch([])).toEqual([])
      })

      it('is atomic: no call of a parallel burst lands between two steps of a batch', async () => {
        // Each batch takes a place and gives it back. Run whole, every batch sees only its own
        // place; a step of another batch landing in between would read 2.
        const results = await Promise.all(
          Array.from({ length: BURST }, () =>
            store.batch([
              { op: 'increment', key: 'atomic', windowSeconds: WINDOW_SECONDS },
              { op: 'get', key: 'atomic' },
              { op: 'decrement', key: 'atomic' },
            ]),
          ),
        )
        expect(results.map(([taken, seen]) => [taken!.count, seen!.count])).toEqual(Array.from({ length: BURST }, () => [1, 1]))
        expect((await store.get('atomic')).count).toBe(0)
      })

      it('gives the same counts as the same calls made one by one, for any sequence', async () => {
        const step = fc.oneof(
          fc.record({ op: fc.constant('increment' as const), key: fc.constantFrom('x', 'y', 'z'), windowSeconds: fc.constantFrom(WINDOW_SECONDS, LONGER_WINDOW_SECONDS) }),
          fc.record({ op: fc.constantFrom('get' as const, 'decrement' as const, 'reset' as const), key: fc.constantFrom('x', 'y', 'z') }),
        )
        let run = 0
        await fc.assert(
          fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (ops) => {
            run += 1
            // Two namespaces of one store: the batch in one, the single calls in the other.
            const batched = await store.batch(ops.map((o) => ({ ...o, key: `p${run}:${o.key}` })))
            const single: (CounterReading | null)[] = []
            for (const o of ops) {
              const key = `q${run}:${o.key}`
              if (o.op === 'increment') single.push(await store.increment(key, o.windowSeconds))
              else if (o.op === 'get') single.push(await store.get(key))
              else if (o.op === 'decrement') single.push(await store.decrement(key).then(() => null))
              else single.push(await store.reset(key).then(() => null))
            }
            expect(batched.map((r) => r?.count ?? null)).toEqual(single.map((r) => r?.count ?? null))
            batched.forEach((r, i) => {
              if (r && single[i]) expect(Math.abs(r.ttlSeconds - single[i]!.ttlSeconds)).toBeLessThanOrEqual(1)
            })
          }),
          { numRuns: 40 },
        )
      })
    })

    describe('expiry', () => {
      it('gives every counted key an expiry within its window', async () => {
        // Backends on real time (Redis) cannot be moved forward without sleeping; that the key
        // carries its expiry is what makes it vanish, so check the ttl here.
        await store.increment('expiring', WINDOW_SECONDS)
        const { ttlSeconds } = await store.get('expiring')
        expect(ttlSeconds).toBeGreaterThan(0)
        expectTtlNear(ttlSeconds, WINDOW_SECONDS)
      })

      it('counts the ttl down as time passes and keeps the count until the last second', async (context) => {
        const advance = fixture.advanceSeconds
        if (!advance) return context.skip()
        await store.increment('tick', WINDOW_SECONDS)
        advance(20)
        expect(await store.get('tick')).toEqual({ count: 1, ttlSeconds: WINDOW_SECONDS - 20 })
        expect(await store.increment('tick', WINDOW_SECONDS)).toEqual({ count: 2, ttlSeconds: WINDOW_SECONDS - 20 })
        advance(WINDOW_SECONDS - 20 - 1)
        expect(await store.get('tick')).toEqual({ count: 2, ttlSeconds: 1 })
      })

      it('forgets the key once the window has passed, and the next increment opens a new window', async (context) => {
        const advance = fixture.advanceSeconds
        if (!advance) return context.skip()
        await store.increment('window', WINDOW_SECONDS)
        await store.increment('window', WINDOW_SECONDS)
        advance(WINDOW_SECONDS)
        expect(await store.get('window')).toEqual({ count: 0, ttlSeconds: 0 })
        expect(await store.increment('window', WINDOW_SECONDS)).toEqual({ count: 1, ttlSeconds: WINDOW_SECONDS })
      })

      it('does not resurrect an expired key on decrement', async (context) => {
        const advance = fixture.advanceSeconds
        if (!advance) return context.skip()
        await store.increment('stale', WINDOW_SECONDS)
        advance(WINDOW_SECONDS + 1)
        await store.decrement('stale')
        expect(await store.get('stale')).toEqual({ count: 0, ttlSeconds: 0 })
        expect((await store.increment('stale', WINDOW_SECONDS)).count).toBe(1)
      })
    })
  })
}
