import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import { pino } from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { JobDeferred, JobFailedPermanently, type JobInfo, type JobRunner, type JobStore, type Json, type QueueOptions, StoreJobRunner } from '../src/index.js'

/** One database with the runner's migrations; `store()` opens a store on it as one more node would. */
export interface JobBackend {
  db: Kysely<any>
  store(): Promise<JobStore>
  destroy(): Promise<void>
}

const logger = pino({ level: 'silent' })

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

function deferred<T = void>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

/**
 * The conformance suite of JobRunner: every backend (its JobStore under StoreJobRunner) must pass
 * it. Times are short (leases of 1–2 s, polls of 100 ms) so that takeovers happen within a test.
 */
export function describeJobRunner(name: string, openBackend: () => Promise<JobBackend>): void {
  describe(`JobRunner conformance: ${name}`, () => {
    let backend: JobBackend
    const opened: { runner: StoreJobRunner; store: JobStore }[] = []

    async function node(setup: (runner: JobRunner) => void = () => {}): Promise<{ runner: StoreJobRunner; store: JobStore }> {
      const store = await backend.store()
      const runner = new StoreJobRunner(store, { db: backend.db, logger, pollIntervalMs: 100 })
      setup(runner)
      await runner.start()
      const n = { runner, store }
      opened.push(n)
      return n
    }

    const state = (runner: JobRunner, queue: string, id: string, wanted: JobInfo['state']) =>
      until(`job ${id} ${wanted}`, async () => {
        const job = await runner.get(queue, id)
        return job?.state === wanted ? job : null
      })

    beforeEach(async () => {
      backend = await openBackend()
    })
    afterEach(async () => {
      for (const n of opened.splice(0)) {
        await n.runner.stop(1000)
        await n.store.close()
      }
      await backend.destroy()
    })

    it('waits on many queues at once without a listener warning (one waiter per loop is no leak)', async () => {
      const warnings: string[] = []
      const onWarning = (warning: Error) => void warnings.push(warning.name)
      process.on('warning', onWarning)
      try {
        await node((r) => {
          for (let i = 0; i < 14; i++) r.register(`queue-${i}`, async () => {})
        })
        // Several polls: every loop is asleep on the runner's stop signal at once.
        await new Promise((resolve) => setTimeout(resolve, 350))
      } finally {
        process.off('warning', onWarning)
      }
      expect(warnings).not.toContain('MaxListenersExceededWarning')
    })

    it('runs an enqueued job once, with its data, and records it as done', async () => {
      const seen: Json[] = []
      const { runner } = await node((r) => r.register('echo', async (job) => void seen.push(job.data)))
      const id = (await runner.enqueue('echo', { n: 1, s: 'ü' }))!
      const job = await state(runner, 'echo', id, 'done')
      expect(seen).toEqual([{ n: 1, s: 'ü' }])
      expect(job).toMatchObject({ id, queue: 'echo', state: 'done', data: { n: 1, s: 'ü' }, attempts: 1, lastError: null })
    })

    it('retries a failing job with backoff, counting attempts, until it succeeds', async () => {
      const attempts: number[] = []
      const { runner } = await node((r) =>
        r.register(
          'flaky',
          async (job) => {
            attempts.push(job.attempt)
            if (job.attempt < 3) throw new Error(`boom ${job.attempt}`)
          },
          { backoffMs: 1000, maxAttempts: 5 },
        ),
      )
      const id = (await runner.enqueue('flaky', null))!
      const job = await state(runner, 'flaky', id, 'done')
      expect(attempts).toEqual([1, 2, 3])
      expect(job.attempts).toBe(3)
    })

    it('fails a job for good after its attempts, or at once when the handler says it never can succeed', async () => {
      let runs = 0
      const { runner } = await node((r) => {
        r.register(
          'doomed',
          async () => {
            runs++
            throw new Error('always')
          },
          { backoffMs: 1000, maxAttempts: 2 },
        )
        r.register('hopeless', async () => {
          throw new JobFailedPermanently('bad input')
        })
      })
      const doomed = (await runner.enqueue('doomed', null))!
      const hopeless = (await runner.enqueue('hopeless', null))!
      const failed = await state(runner, 'doomed', doomed, 'failed')
      expect(runs).toBe(2)
      expect(failed.lastError).toContain('always')
      const refused = await state(runner, 'hopeless', hopeless, 'failed')
      expect(refused.attempts).toBe(1)
      expect(refused.lastError).toContain('bad input')
    })

    it('adds one queued job per unique key, however many enqueue it at once', async () => {
      const { runner } = await node()
      const ids = await Promise.all(Array.from({ length: 10 }, () => runner.enqueue('dedup', { x: 1 }, { uniqueKey: 'k1', delayMs: 60_000 })))
      expect(ids.filter((id) => id !== null)).toHaveLength(1)
      expect(await runner.enqueue('dedup', { x: 2 }, { uniqueKey: 'k2', delayMs: 60_000 })).not.toBeNull()
    })

    it('writes a job in the caller transaction: a rollback leaves none, a commit runs it', async () => {
      const ran: Json[] = []
      const { runner } = await node((r) => r.register('tx', async (job) => void ran.push(job.data)))
      await expect(
        backend.db.transaction().execute(async (trx) => {
          await runner.enqueue('tx', 'rolled back', { db: trx })
          throw new Error('abort the transaction')
        }),
      ).rejects.toThrow('abort the transaction')
      const id = await backend.db.transaction().execute((trx) => runner.enqueue('tx', 'committed', { db: trx }))
      runner.notify('tx')
      await state(runner, 'tx', id!, 'done')
      await sleep(300)
      expect(ran).toEqual(['committed'])
    })

    it('keeps a delayed job until its time', async () => {
      let ran = 0
      const { runner } = await node((r) => r.register('later', async () => void ran++))
      const id = (await runner.enqueue('later', null, { delayMs: 60_000 }))!
      await sleep(600)
      expect(ran).toBe(0)
      expect((await runner.get('later', id))?.state).toBe('queued')
      const soon = (await runner.enqueue('later', null, { delayMs: 300 }))!
      await state(runner, 'later', soon, 'done')
      expect(ran).toBe(1)
    })

    it('stores progress while a job runs', async () => {
      const release = deferred()
      const { runner } = await node((r) =>
        r.register('progress', async (job) => {
          expect(await job.progress({ percent: 42 })).toBe(true)
          await release.promise
        }),
      )
      const id = (await runner.enqueue('progress', null))!
      const running = await until('progress stored', async () => {
        const job = await runner.get('progress', id)
        return job?.state === 'active' && job.progress !== null ? job : null
      })
      expect(running.progress).toEqual({ percent: 42 })
      release.resolve()
      await state(runner, 'progress', id, 'done')
    })

    it('cancels a queued job before it runs and aborts a running one', async () => {
      const started = deferred()
      let abortedWith: unknown = null
      let ranQueued = 0
      const { runner } = await node((r) => {
        r.register('long', async (job) => {
          started.resolve()
          await new Promise<void>((resolve) => job.signal.addEventListener('abort', () => resolve(), { once: true }))
          abortedWith = job.signal.reason
        })
        r.register('never', async () => void ranQueued++)
      })
      const queued = (await runner.enqueue('never', null, { delayMs: 60_000 }))!
      expect(await runner.cancel('never', queued)).toBe(true)
      expect((await runner.get('never', queued))?.state).toBe('cancelled')
      expect(await runner.cancel('never', queued)).toBe(false)

      const id = (await runner.enqueue('long', null))!
      await started.promise
      expect(await runner.cancel('long', id)).toBe(true)
      await until('the handler saw the abort', async () => abortedWith !== null)
      await sleep(300)
      expect((await runner.get('long', id))?.state).toBe('cancelled')
      expect(ranQueued).toBe(0)
    })

    it('a job cancelled from another node aborts at its next heartbeat', async () => {
      const started = deferred()
      const aborted = deferred()
      const worker = await node((r) =>
        r.register(
          'remote-cancel',
          async (job) => {
            started.resolve()
            await new Promise<void>((resolve) => job.signal.addEventListener('abort', () => resolve(), { once: true }))
            aborted.resolve()
          },
          { leaseSeconds: 1 },
        ),
      )
      const other = await node()
      const id = (await worker.runner.enqueue('remote-cancel', null))!
      await started.promise
      expect(await other.runner.cancel('remote-cancel', id)).toBe(true)
      await aborted.promise
      expect((await other.runner.get('remote-cancel', id))?.state).toBe('cancelled')
    })

    it('takes over the job of a worker that died, once its lease runs out', async () => {
      const crashed = await backend.store()
      const { runner } = await node()
      const id = (await runner.enqueue('takeover', { file: 'x' }, { maxAttempts: 5 }))!
      // A worker claims it and dies: no heartbeat, no outcome.
      const claimed = await crashed.claim('takeover', 1)
      expect(claimed?.id).toBe(id)
      await crashed.close()
      const attempts: number[] = []
      await node((r) => r.register('takeover', async (job) => void attempts.push(job.attempt), { leaseSeconds: 1, backoffMs: 1000 }))
      await state(runner, 'takeover', id, 'done')
      expect(attempts).toEqual([2])
    })

    it('never lets a worker that lost its lease complete the run another took over', async () => {
      const stale = await backend.store()
      const { runner } = await node()
      const id = (await runner.enqueue('fenced', null))!
      const first = (await stale.claim('fenced', 1))!
      expect(first.id).toBe(id)
      const second = await until('the expired lease taken over', () => stale.claim('fenced', 30), 20_000)
      expect(second.id).toBe(id)
      expect(await stale.heartbeat('fenced', first, 30)).toBe(false)
      await stale.complete('fenced', first)
      expect((await runner.get('fenced', id))?.state).toBe('active')
      expect(await stale.heartbeat('fenced', second, 30)).toBe(true)
      await stale.complete('fenced', second)
      expect((await runner.get('fenced', id))?.state).toBe('done')
      await stale.close()
    })

    it('runs a deferred job again later without counting an attempt', async () => {
      const attempts: number[] = []
      const { runner } = await node((r) =>
        r.register('busy', async (job) => {
          attempts.push(job.attempt)
          if (attempts.length === 1) throw new JobDeferred(200)
        }),
      )
      const id = (await runner.enqueue('busy', null))!
      await state(runner, 'busy', id, 'done')
      expect(attempts).toEqual([1, 1])
    })

    it('holds per-node concurrency, runs every job once, and shares the work between nodes', async () => {
      const runs = new Map<string, number>()
      const active = { a: 0, b: 0, maxA: 0, maxB: 0 }
      const handler = (who: 'a' | 'b') => async (job: { data: Json }) => {
        active[who]++
        active[who === 'a' ? 'maxA' : 'maxB'] = Math.max(active[who === 'a' ? 'maxA' : 'maxB'], active[who])
        runs.set(String(job.data), (runs.get(String(job.data)) ?? 0) + 1)
        await sleep(150)
        active[who]--
      }
      const options: QueueOptions = { concurrency: 2 }
      const a = await node((r) => r.register('shared', handler('a'), options))
      const b = await node((r) => r.register('shared', handler('b'), options))
      const ids = await Promise.all(Array.from({ length: 16 }, (_, i) => a.runner.enqueue('shared', `job-${i}`)))
      for (const id of ids) await state(b.runner, 'shared', id!, 'done')
      expect([...runs.values()].every((n) => n === 1)).toBe(true)
      expect(runs.size).toBe(16)
      expect(active.maxA).toBeLessThanOrEqual(2)
      expect(active.maxB).toBeLessThanOrEqual(2)
      expect(active.maxA).toBeGreaterThan(0)
      expect(active.maxB).toBeGreaterThan(0)
    })

    it('runs a schedule every period, once per period across nodes', async () => {
      const ticks: string[] = []
      const a = await node((r) => r.register('tick', async () => void ticks.push('a')))
      const b = await node((r) => r.register('tick', async () => void ticks.push('b')))
      await a.runner.schedule('tick', 1)
      await b.runner.schedule('tick', 1)
      await until('three ticks', async () => ticks.length >= 3)
      const started = Date.now()
      await sleep(1500)
      const perSecond = ticks.length / ((Date.now() - started + 3000) / 1000)
      expect(perSecond).toBeLessThanOrEqual(2)
    })

    it('gives a running job back when the node stops, so another node finishes it', async () => {
      const started = deferred()
      const a = await node((r) =>
        r.register('handover', async (job) => {
          started.resolve()
          await new Promise<void>((resolve) => job.signal.addEventListener('abort', () => resolve(), { once: true }))
          throw new Error('stopped')
        }),
      )
      const id = (await a.runner.enqueue('handover', null))!
      await started.promise
      await a.runner.stop(2000)
      const finished: number[] = []
      const b = await node((r) => r.register('handover', async (job) => void finished.push(job.attempt)))
      await state(b.runner, 'handover', id, 'done')
      expect(finished).toEqual([1])
    })
  })
}
