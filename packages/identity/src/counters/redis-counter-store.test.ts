import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { describeCounterStore } from '../../test/counter-store-suite.js'
import { randomId } from '../lib/secrets.js'
import { RedisCounterStore } from './redis-counter-store.js'

const REDIS_URL = 'redis://127.0.0.1:6379'

// Both Vitest projects run this file at once against the same Redis: every run, and every test
// in it, gets its own prefix so no two share a key.
const runPrefix = `cumulus-test:counters:${randomId(8)}:`
let tests = 0

describeCounterStore('redis', () => ({ store: new RedisCounterStore(REDIS_URL, `${runPrefix}${++tests}:`) }))

describe('RedisCounterStore', () => {
  const admin = new Redis(REDIS_URL)

  afterAll(async () => {
    const keys = await admin.keys(`${runPrefix}*`)
    if (keys.length > 0) await admin.del(...keys)
    await admin.quit()
  })

  it('stores counts under its prefix with the Redis expiry set', async () => {
    const prefix = `${runPrefix}raw:`
    const store = new RedisCounterStore(REDIS_URL, prefix)
    try {
      await store.increment('k', 90)
      await store.increment('k', 90)
      expect(await admin.get(`${prefix}k`)).toBe('2')
      const ttl = await admin.ttl(`${prefix}k`)
      expect(ttl).toBeGreaterThanOrEqual(89)
      expect(ttl).toBeLessThanOrEqual(90)
    } finally {
      await store.close()
    }
  })

  it('repairs a key that lost its expiry instead of counting it forever', async () => {
    const prefix = `${runPrefix}repair:`
    const store = new RedisCounterStore(REDIS_URL, prefix)
    try {
      await admin.set(`${prefix}k`, '4')
      const result = await store.increment('k', 30)
      expect(result).toEqual({ count: 5, ttlSeconds: 30 })
      expect(await admin.ttl(`${prefix}k`)).toBeGreaterThan(0)
    } finally {
      await store.close()
    }
  })

  it('rounds the ttl up, so a window in its last half second never reports 0 seconds left', async () => {
    const prefix = `${runPrefix}round:`
    const store = new RedisCounterStore(REDIS_URL, prefix)
    try {
      await admin.set(`${prefix}k`, '3', 'PX', 400)
      expect(await store.get('k')).toEqual({ count: 3, ttlSeconds: 1 })
      expect(await store.increment('k', 60)).toEqual({ count: 4, ttlSeconds: 1 })
    } finally {
      await store.close()
    }
  })
})
