import { afterEach, describe, expect, it } from 'vitest'
import { HashPool } from './hash-pool.js'
import { Argon2Hasher } from './hasher.js'

const PARAMS = { memoryCostKiB: 1024, timeCost: 1, parallelism: 1 }
const pools: HashPool[] = []
const newPool = (options?: ConstructorParameters<typeof HashPool>[0]) => {
  const pool = new HashPool(options)
  pools.push(pool)
  return pool
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()))
})

describe('HashPool', () => {
  it('answers many more jobs than it has workers, each with its own answer', async () => {
    const pool = newPool({ size: 2 })
    const hasher = new Argon2Hasher(PARAMS, pool)
    const encoded = await hasher.hash('right')
    const guesses = Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? 'right' : `wrong ${i}`))
    const answers = await Promise.all(guesses.map((guess) => hasher.verify(encoded, guess)))
    expect(answers).toEqual(guesses.map((guess) => guess === 'right'))
    expect(pool.workers).toBe(2)
  })

  it('hashes with the parameters asked for, a fresh salt each time', async () => {
    const hasher = new Argon2Hasher(PARAMS, newPool({ size: 1 }))
    const [a, b] = await Promise.all([hasher.hash('same'), hasher.hash('same')])
    expect(a).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/)
    expect(a).not.toBe(b)
    expect(await hasher.verify(a, 'same')).toBe(true)
  })

  it('fails a job that throws without harming the jobs around it', async () => {
    const pool = newPool({ size: 1 })
    const hasher = new Argon2Hasher(PARAMS, pool)
    const encoded = await hasher.hash('pw')
    const results = await Promise.allSettled([
      pool.run({ op: 'verify', encoded, password: 'pw' }),
      pool.run({ op: 'verify', encoded: 'not a PHC string', password: 'pw' }),
      pool.run({ op: 'hash', password: 'pw', memoryCost: 1024, timeCost: 0, parallelism: 1 }),
      pool.run({ op: 'verify', encoded, password: 'pw' }),
    ])
    expect(results[0]).toEqual({ status: 'fulfilled', value: true })
    expect(results[1]!.status).toBe('rejected')
    expect(results[2]!.status).toBe('rejected')
    expect(results[3]).toEqual({ status: 'fulfilled', value: true })
    // The hasher turns an unreadable hash into a plain mismatch.
    expect(await hasher.verify('not a PHC string', 'pw')).toBe(false)
  })

  it('stops its workers when idle and starts them again on the next job', async () => {
    const pool = newPool({ size: 2, idleMs: 20 })
    const hasher = new Argon2Hasher(PARAMS, pool)
    const encoded = await hasher.hash('pw')
    expect(pool.workers).toBeGreaterThan(0)
    await expect.poll(() => pool.workers, { timeout: 5_000, interval: 10 }).toBe(0)
    expect(await hasher.verify(encoded, 'pw')).toBe(true)
  })

  it('close() refuses the jobs in flight; the pool still serves later ones', async () => {
    const pool = newPool({ size: 1 })
    const slow = pool.run({ op: 'hash', password: 'pw', memoryCost: 64 * 1024, timeCost: 3, parallelism: 1 })
    const refused = expect(slow).rejects.toThrow(/closed/)
    await pool.close()
    await refused
    expect(await pool.run({ op: 'hash', password: 'pw', memoryCost: 1024, timeCost: 1, parallelism: 1 })).toMatch(/^\$argon2id\$/)
  })
})

describe('Argon2Hasher.verifyDecoy', () => {
  it('is false for every password, and each call costs one hash', async () => {
    const pool = newPool({ size: 2 })
    const calls: string[] = []
    const counting = { run: (job: Parameters<HashPool['run']>[0]) => (calls.push(job.op), pool.run(job)) } as unknown as HashPool
    const hasher = new Argon2Hasher(PARAMS, counting)
    for (const password of ['', 'pw', 'another']) expect(await hasher.verifyDecoy(password)).toBe(false)
    // The first call makes the decoy (one hash); the others verify against it (one each).
    expect(calls).toEqual(['hash', 'verify', 'verify'])
  })
})
