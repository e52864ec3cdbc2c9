import type { Redis } from 'ioredis'
import type { CounterOp, CounterReading, CounterStore } from './counter-store.js'

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
// A batch: KEYS[i] with ARGV[2i-1] naming its step (i, g, d, r) and ARGV[2i] an increment's
// window. Each step is the script above of the same name, so a batch reads exactly as its calls
// one by one would; one script runs atomically. Its keys may lie in different hash slots, so a
// batch needs one Redis server (or a primary with replicas), not a Redis Cluster.
const BATCH = `
local out = {}
for i = 1, #KEYS do
  local step = ARGV[2 * i - 1]
  local key = KEYS[i]
  if step == 'i' then
    local count = redis.call('INCR', key)
    local pttl = redis.call('PTTL', key)
    if pttl < 0 then redis.call('EXPIRE', key, ARGV[2 * i]); pttl = tonumber(ARGV[2 * i]) * 1000 end
    out[i] = {count, pttl}
  elseif step == 'g' then
    local value = redis.call('GET', key)
    if value then out[i] = {tonumber(value), redis.call('PTTL', key)} else out[i] = {0, 0} end
  elseif step == 'd' then
    local count = tonumber(redis.call('GET', key) or '0')
    if count > 0 then redis.call('DECR', key) end
    out[i] = 0
  else
    redis.call('DEL', key)
    out[i] = 0
  end
end
return out
`
const STEP_CODES = { increment: 'i', get: 'g', decrement: 'd', reset: 'r' } as const

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
      redis.defineCommand('cumulusBatch', { lua: BATCH })
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

  async batch(ops: readonly CounterOp[]) {
    if (ops.length === 0) return []
    const keys = ops.map((step) => this.prefix + step.key)
    const args = ops.flatMap((step) => [STEP_CODES[step.op], step.op === 'increment' ? Math.max(1, Math.ceil(step.windowSeconds)) : 0])
    const replies = (await ((await this.redis) as unknown as Scripts).cumulusBatch(keys.length, ...keys, ...args)) as ([number, number] | 0)[]
    return ops.map((step, i): CounterReading | null => {
      const reply = replies[i]
      if (step.op !== 'increment' && step.op !== 'get') return null
      const [count, pttl] = reply as [number, number]
      return { count, ttlSeconds: ttlSecondsOf(pttl) }
    })
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
  /** Without numberOfKeys at definition, ioredis takes the key count as the first argument. */
  cumulusBatch(numberOfKeys: number, ...keysThenArgs: (string | number)[]): Promise<unknown>
}
