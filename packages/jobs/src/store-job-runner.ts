import { setMaxListeners } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import {
  DEFAULT_QUEUE_OPTIONS,
  type EnqueueOptions,
  JobDeferred,
  JobFailedPermanently,
  type JobHandler,
  type JobInfo,
  type JobRunner,
  type Json,
  type QueueOptions,
  errorText,
} from './job-runner.js'
import type { ClaimedJob, JobStore } from './job-store.js'
import { dueSchedules, saveSchedule } from './schedules.js'

export interface StoreJobRunnerOptions {
  /** The database holding `job_schedules` (and, for SQLite, the jobs themselves). */
  db: Kysely<any>
  logger: Logger
  /** How often an idle queue looks for due jobs (default 1000 ms). An enqueue on this node wakes it at once. */
  pollIntervalMs?: number
  /** Ended jobs are kept this long for `get` (default a day: the schedules alone end thousands a day). */
  keepEndedMs?: number
  nowMs?: () => number
}

interface Registered {
  handler: JobHandler<any>
  options: Required<QueueOptions>
  running: Map<string, Running>
  wake: (() => void) | null
}

interface Running {
  job: ClaimedJob
  abort: AbortController
  done: Promise<void>
}

const PRUNE_EVERY_MS = 3600_000

/**
 * The worker loop shared by every backend: per registered queue, up to `concurrency` handlers at
 * once; each running job's lease is renewed every third of its length, and a renewal that fails
 * (cancelled elsewhere, or taken over after this node stalled) aborts the handler's signal.
 */
export class StoreJobRunner implements JobRunner {
  private readonly queues = new Map<string, Registered>()
  private readonly loops: Promise<void>[] = []
  private stopping = new AbortController()
  private started = false
  private readonly pollIntervalMs: number
  private readonly keepEndedMs: number
  private readonly now: () => number
  private lastPruneMs = 0

  constructor(
    private readonly store: JobStore,
    private readonly options: StoreJobRunnerOptions,
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000
    this.keepEndedMs = options.keepEndedMs ?? 24 * 3600_000
    this.now = options.nowMs ?? Date.now
  }

  register<T extends Json>(queue: string, handler: JobHandler<T>, options: QueueOptions = {}): void {
    if (this.started) throw new Error(`register ${queue} before start()`)
    if (this.queues.has(queue)) throw new Error(`queue ${queue} is registered twice`)
    this.queues.set(queue, { handler: handler as JobHandler<any>, options: { ...DEFAULT_QUEUE_OPTIONS, ...options }, running: new Map(), wake: null })
  }

  async enqueue<T extends Json>(queue: string, data: T, options: EnqueueOptions = {}): Promise<string | null> {
    const queueOptions = this.queues.get(queue)?.options ?? DEFAULT_QUEUE_OPTIONS
    const id = await this.store.add(
      {
        queue,
        data,
        uniqueKey: options.uniqueKey ?? null,
        runAtMs: this.now() + Math.max(0, options.delayMs ?? 0),
        maxAttempts: options.maxAttempts ?? queueOptions.maxAttempts,
        backoffMs: queueOptions.backoffMs,
        leaseSeconds: queueOptions.leaseSeconds,
      },
      options.db,
    )
    // In a transaction the job is not visible yet: the caller notifies after its commit.
    if (id && !options.db && !options.delayMs) this.queues.get(queue)?.wake?.()
    return id
  }

  notify(queue: string): void {
    this.queues.get(queue)?.wake?.()
  }

  async cancel(queue: string, jobId: string): Promise<boolean> {
    const cancelled = await this.store.cancel(queue, jobId)
    this.queues.get(queue)?.running.get(jobId)?.abort.abort(new Error('job cancelled'))
    return cancelled
  }

  get(queue: string, jobId: string): Promise<JobInfo | null> {
    return this.store.get(queue, jobId)
  }

  async schedule(queue: string, everySeconds: number, data: Json = null): Promise<void> {
    if (!(everySeconds >= 1)) throw new RangeError('a schedule runs at most once a second')
    await saveSchedule(this.options.db, { queue, everyMs: everySeconds * 1000, data, nowMs: this.now() })
  }

  async start(): Promise<void> {
    if (this.started) return
    this.started = true
    this.stopping = new AbortController()
    // Every loop (one per queue, and the schedule's) waits on this signal at once: as many
    // listeners as loops, a fixed number, not a leak (Node warned past ten queues).
    setMaxListeners(this.queues.size + 10, this.stopping.signal)
    for (const [queue, registered] of this.queues) this.loops.push(this.queueLoop(queue, registered))
    this.loops.push(this.scheduleLoop())
  }

  async stop(graceMs = 5000): Promise<void> {
    if (!this.started) return
    this.stopping.abort()
    const running = [...this.queues.values()].flatMap((q) => [...q.running.values()])
    for (const r of running) r.abort.abort(new Error('job runner stopping'))
    const all = Promise.all([...this.loops, ...running.map((r) => r.done)])
    const timer = sleep(graceMs, undefined, { ref: false }).then(() => 'timeout' as const)
    if ((await Promise.race([all.then(() => 'done' as const), timer])) === 'timeout') {
      this.options.logger.warn({ jobs: running.map((r) => r.job.id) }, 'jobs still running at shutdown keep their lease until it runs out')
    }
    this.loops.length = 0
    this.started = false
  }

  private async queueLoop(queue: string, registered: Registered): Promise<void> {
    const { signal } = this.stopping
    while (!signal.aborted) {
      let claimed: ClaimedJob | null = null
      if (registered.running.size < registered.options.concurrency) {
        try {
          claimed = await this.store.claim(queue, registered.options.leaseSeconds)
        } catch (err) {
          this.options.logger.error({ err, queue }, 'claiming a job failed')
        }
      }
      if (claimed && !signal.aborted) {
        this.run(queue, registered, claimed)
        continue
      }
      if (claimed) {
        // Stopping: give the job back at once rather than leaving it to its lease.
        await this.store.defer(queue, claimed, 0).catch(() => undefined)
        break
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.pollIntervalMs)
        function done() {
          clearTimeout(timer)
          registered.wake = null
          signal.removeEventListener('abort', done)
          resolve()
        }
        registered.wake = done
        signal.addEventListener('abort', done, { once: true })
      })
    }
  }

  private run(queue: string, registered: Registered, job: ClaimedJob): void {
    const abort = new AbortController()
    const { leaseSeconds } = registered.options
    let lost = false
    const beat = async (progress?: Json): Promise<boolean> => {
      if (lost) return false
      const held = await this.store.heartbeat(queue, job, leaseSeconds, progress).catch((err: unknown) => {
        this.options.logger.warn({ err, queue, job: job.id }, 'job heartbeat failed')
        return true
      })
      if (!held) {
        lost = true
        abort.abort(new Error('job cancelled or taken over'))
      }
      return held
    }
    const heartbeat = setInterval(() => void beat(), (leaseSeconds * 1000) / 3)
    heartbeat.unref()
    const done = (async () => {
      try {
        await registered.handler({ id: job.id, queue, data: job.data, attempt: job.attempt, signal: abort.signal, progress: (value) => beat(value) })
        if (!lost) await this.store.complete(queue, job)
      } catch (err) {
        if (lost) return
        if (err instanceof JobDeferred) await this.store.defer(queue, job, err.delayMs)
        else if (abort.signal.aborted && this.stopping.signal.aborted) await this.store.defer(queue, job, 0)
        else {
          this.options.logger.warn({ err, queue, job: job.id, attempt: job.attempt }, 'job failed')
          await this.store.fail(queue, job, errorText(err), err instanceof JobFailedPermanently)
        }
      }
    })()
      .catch((err: unknown) => this.options.logger.error({ err, queue, job: job.id }, 'recording a job outcome failed'))
      .finally(() => {
        clearInterval(heartbeat)
        registered.running.delete(job.id)
        registered.wake?.()
      })
    registered.running.set(job.id, { job, abort, done })
  }

  private async scheduleLoop(): Promise<void> {
    const { signal } = this.stopping
    while (!signal.aborted) {
      try {
        const nowMs = this.now()
        for (const due of await dueSchedules(this.options.db, nowMs)) {
          await this.enqueue(due.queue, due.data, { uniqueKey: `schedule:${due.queue}` })
        }
        if (nowMs - this.lastPruneMs >= PRUNE_EVERY_MS) {
          this.lastPruneMs = nowMs
          await this.store.prune(nowMs - this.keepEndedMs)
        }
      } catch (err) {
        this.options.logger.error({ err }, 'job schedule tick failed')
      }
      await sleep(this.pollIntervalMs, undefined, { signal }).catch(() => undefined)
    }
  }
}
