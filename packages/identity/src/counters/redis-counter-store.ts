import { Redis } from 'ioredis'
import type { CounterStore } from './counter-store.js'

// INCR then set the expiry only on the first increment, in one script, so the window is fixed
// and a crash between the two commands cannot leave a key without expiry.
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`
const DECREMENT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0
`

/** Counters shared by every node through Redis. Keys are namespaced by `prefix`. */
export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis

  constructor(url: string, private readonly prefix = 'cumulus:') {
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableAutoPipelining: true })
    this.redis.defineCommand('cumulusIncr', { numberOfKeys: 1, lua: INCREMENT })
    this.redis.defineCommand('cumulusDecr', { numberOfKeys: 1, lua: DECREMENT })
  }

  async increment(key: string, windowSeconds: number) {
    const [count, ttl] = (await (this.redis as unknown as Scripts).cumulusIncr(this.prefix + key, Math.max(1, Math.ceil(windowSeconds)))) as [number, number]
    return { count, ttlSeconds: ttl }
  }

  async get(key: string) {
    const [value, ttl] = await this.redis.multi().get(this.prefix + key).ttl(this.prefix + key).exec().then((r) => (r ?? []).map((x) => x[1]))
    const count = Number(value ?? 0)
    return count > 0 ? { count, ttlSeconds: Math.max(0, Number(ttl)) } : { count: 0, ttlSeconds: 0 }
  }

  async decrement(key: string) {
    await (this.redis as unknown as Scripts).cumulusDecr(this.prefix + key)
  }

  async reset(key: string) {
    await this.redis.del(this.prefix + key)
  }

  async close() {
    await this.redis.quit().catch(() => this.redis.disconnect())
  }
}

interface Scripts {
  cumulusIncr(key: string, windowSeconds: number): Promise<unknown>
  cumulusDecr(key: string): Promise<unknown>
}
