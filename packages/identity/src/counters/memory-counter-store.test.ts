import { afterEach, describe, expect, it, vi } from 'vitest'
import { describeCounterStore } from '../../test/counter-store-suite.js'
import { ManualClock } from '../lib/clock.js'
import { MemoryCounterStore } from './memory-counter-store.js'

describeCounterStore('memory', () => {
  const clock = new ManualClock()
  return { store: new MemoryCounterStore(clock), advanceSeconds: (seconds) => clock.advanceSeconds(seconds) }
})

describe('MemoryCounterStore', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('sweeps expired keys it is never asked about again', async () => {
    vi.useFakeTimers()
    const clock = new ManualClock()
    const store = new MemoryCounterStore(clock)
    await store.increment('short', 30)
    await store.increment('long', 600)
    clock.advanceSeconds(120)
    vi.advanceTimersByTime(60_000)
    const entries = (store as unknown as { entries: Map<string, unknown> }).entries
    expect([...entries.keys()]).toEqual(['long'])
    await store.close()
  })

  it('stops its sweep timer on close', async () => {
    vi.useFakeTimers()
    const store = new MemoryCounterStore(new ManualClock())
    expect(vi.getTimerCount()).toBe(1)
    await store.close()
    expect(vi.getTimerCount()).toBe(0)
  })
})
