import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CrossTabLock, ReentrantLock } from './lock.js'
import type { LockManagerLike } from './options.js'
import { MemoryStorage } from './storage.js'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

describe('ReentrantLock', () => {
  it('runs holders one at a time, in order', async () => {
    const lock = new ReentrantLock()
    const log: string[] = []
    const task = (name: string) =>
      lock.run(async () => {
        log.push(`${name}+`)
        await sleep(10)
        log.push(`${name}-`)
      })
    const all = Promise.all([task('a'), task('b'), task('c')])
    await vi.advanceTimersByTimeAsync(30)
    await all
    expect(log).toEqual(['a+', 'a-', 'b+', 'b-', 'c+', 'c-'])
    expect(lock.locked).toBe(false)
  })

  it('lets the holder re-enter with its owner token', async () => {
    const lock = new ReentrantLock()
    const result = await lock.run((owner) => lock.run(() => lock.run(async () => 'deep', owner), owner))
    expect(result).toBe('deep')
    expect(lock.locked).toBe(false)
  })

  it('releases after a throwing holder', async () => {
    const lock = new ReentrantLock()
    await expect(lock.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    await expect(lock.run(async () => 1)).resolves.toBe(1)
  })

  it('times out a waiter after lockTimeout ms, not before', async () => {
    const lock = new ReentrantLock(100)
    const holder = lock.run(() => sleep(1000))
    let settled: unknown = 'pending'
    const waiter = lock.run(async () => 'got it').then(
      (v) => (settled = v),
      (e: unknown) => (settled = e),
    )
    await vi.advanceTimersByTimeAsync(99)
    expect(settled).toBe('pending')
    await vi.advanceTimersByTimeAsync(1)
    await waiter
    expect(settled).toMatchObject({ error: 'local_timeout', errorCode: 8002 })
    await vi.advanceTimersByTimeAsync(1000)
    await holder
    await expect(lock.run(async () => 'free')).resolves.toBe('free')
  })

  it('waits forever without a timeout', async () => {
    const lock = new ReentrantLock()
    const holder = lock.run(() => sleep(3_600_000))
    let done = false
    const waiter = lock.run(async () => {
      done = true
    })
    await vi.advanceTimersByTimeAsync(3_599_999)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await Promise.all([holder, waiter])
    expect(done).toBe(true)
  })
})

describe('CrossTabLock', () => {
  it('uses the lock manager when there is one', async () => {
    const request = vi.fn(async <T>(_name: string, fn: () => Promise<T>) => fn())
    const lock = new CrossTabLock({ name: 'web:lease', storage: new MemoryStorage(), locks: { request } as unknown as LockManagerLike, sleep })
    await expect(lock.run(async () => 7)).resolves.toBe(7)
    expect(request).toHaveBeenCalledWith('web:lease', expect.any(Function))
  })

  it('with a storage lease, a second tab waits for the first', async () => {
    const storage = new MemoryStorage()
    const tab1 = new CrossTabLock({ name: 'web:lease', storage, locks: null, sleep })
    const tab2 = new CrossTabLock({ name: 'web:lease', storage, locks: null, sleep })
    const log: string[] = []
    const first = tab1.run(async () => {
      log.push('1+')
      await sleep(500)
      log.push('1-')
    })
    const second = tab2.run(async () => {
      log.push('2+')
    })
    await vi.advanceTimersByTimeAsync(1000)
    await Promise.all([first, second])
    expect(log).toEqual(['1+', '1-', '2+'])
    expect(storage.getItem('web:lease')).toBeNull()
  })

  it('takes over a lease whose tab died', async () => {
    const storage = new MemoryStorage()
    storage.setItem('web:lease', JSON.stringify({ owner: 'dead', expires_at: Date.now() + 1000 }))
    const lock = new CrossTabLock({ name: 'web:lease', storage, locks: null, sleep, leaseMs: 5000, pollMs: 100 })
    let ran = false
    const run = lock.run(async () => {
      ran = true
    })
    await vi.advanceTimersByTimeAsync(900)
    expect(ran).toBe(false)
    await vi.advanceTimersByTimeAsync(200)
    await run
    expect(ran).toBe(true)
  })
})
