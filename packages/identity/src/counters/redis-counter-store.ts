import type { Redis } from 'ioredis'
import type { CounterStore } from './counter-store.js'

// INCR then set the expiry only when the key has none, in one script, so the window is fixed
// and a crash between the two commands cannot leave a key without expiry. INCR keeps an existing
// key's expiry, and a key INCR just created has none, so "no expiry" means "new window". Testing
// `count == 1` instead would restart the window of a key that was decremented back to 0.
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
local pttl = redis.call('PTTL', KEYS[1])
if pttl < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]); pttl = tonumber(ARGV[1]) * 1000 end
return {count, pttl}
`
const GET = `
local value = redis.call('GET', KEYS[1])
if not value then return {0, 0} end
return {tonumber(value), redis.call('PTTL', KEYS[1])}
`
const DECREMENT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0
`

/** Counters shared by every node through Redis. Keys are namespaced by `prefix`. */
export class RedisCounterStore implements CounterStore {
  // ioredis is loaded when a store is made, not when the package is: the one-process default
  // counts in memory and never carries it.
  private readonly redis: Promise<Redis>

  constructor(url: string, private readonly prefix = 'cumulus:', onError: (err: Error) => void = () => {}) {
    this.redis = import('ioredis').then(({ Redis }) => {
      const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableAutoPipelining: true })
      // Without a listener ioredis prints every reconnect failure to stderr; commands still reject
      // on their own, so the caller only needs to hear about it (the server logs it).
      redis.on('error', onError)
      redis.defineCommand('cumulusIncr', { numberOfKeys: 1, lua: INCREMENT })
      redis.defineCommand('cumulusGet', { numberOfKeys: 1, lua: GET })
      redis.defineCommand('cumulusDecr', { numberOfKeys: 1, lua: DECREMENT })
      return redis
    })
  }

  async increment(key: string, windowSeconds: number) {
    const [count, pttl] = (await ((await this.redis) as unknown as Scripts).cumulusIncr(this.prefix + key, Math.max(1, Math.ceil(windowSeconds)))) as [number, number]
    return { count, ttlSeconds: ttlSecondsOf(pttl) }
  }

  async get(key: string) {
    const [count, pttl] = (await ((await this.redis) as unknown as Scripts).cumulusGet(this.prefix + key)) as [number, number]
    return { count, ttlSeconds: ttlSecondsOf(pttl) }
  }

  async decrement(key: string) {
    await ((await this.redis) as unknown as Scripts).cumulusDecr(this.prefix + key)
  }

  async reset(key: string) {
    await (await this.redis).del(this.prefix + key)
  }

  async close() {
    const redis = await this.redis
    await redis.quit().catch(() => redis.disconnect())
  }
}

// Rounded up, as the memory store does: Redis' TTL rounds to the nearest second and reads 0 in a
// window's last half second, which would tell a throttled caller to retry after 0 seconds.
function ttlSecondsOf(pttlMs: number): number {
  return pttlMs > 0 ? Math.ceil(pttlMs / 1000) : 0
}

interface Scripts {
  cumulusIncr(key: string, windowSeconds: number): Promise<unknown>
  cumulusGet(key: string): Promise<unknown>
  cumulusDecr(key: string): Promise<unknown>
}
