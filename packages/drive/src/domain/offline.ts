import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Kysely, Transaction } from 'kysely'
import type { DriveConfig } from '../config.js'
import type { DriveDatabase, TasksTable } from '../db/schema.js'
import type { Caller, DriveDeps } from '../deps.js'
import { FREE_PLAN_NAME, type PlanLimits, limitsOf } from './plans.js'
import { DAY_MS } from '../lib/time.js'

/*
 * What the offline-download feature shares with the task list (cancel, delete, retry) and the
 * about call (the plan's counts): the job queue, where partial data lives, and the limits.
 */

/** The job queue of offline downloads; one job per task run, keyed by the task id. */
export const OFFLINE_QUEUE = 'drive.offline'

type Db = Kysely<DriveDatabase> | Transaction<DriveDatabase>

/** A task's internal state (TasksTable.work) as the offline feature keeps it. */
export interface OfflineWork {
  /** The plan when the task was added (its name; 'novip' for free): it decides the running-task cap and the quota. */
  plan?: string
  /** When that plan's membership ended as it stood then; after it, the task has the free plan's limits. */
  planUntilMs?: number
  /** Before plans had names: true for VIP. Read for tasks added then. */
  vip?: boolean
  /** The name the user gave; absent: the name the server sends (Content-Disposition), else the URL's. */
  name?: string
  /** The language of the request that added the task: a download folder made later is named in it. */
  locale?: string
  /** The job running this task now, for cancel. */
  jobId?: string | null
  /** HTTP resume state from the fetcher (validator, total size, final URL). */
  resume?: Record<string, unknown> | null
  /** Torrent file indexes the user picked; absent for all. */
  fileIndexes?: number[]
  /** The .torrent file in the drive this task was added from. */
  torrentFileId?: string
  /** The finished task's result, for the task's reference_resource. */
  reference?: { kind: string; id: string; name: string; size: string; mime_type: string } | null
}

export function workOf(row: Pick<TasksTable, 'work'>): OfflineWork {
  try {
    const value = JSON.parse(row.work) as unknown
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as OfflineWork) : {}
  } catch {
    return {}
  }
}

/** The folder of every task's partial download: under the upload staging area. */
export function offlineStagingRoot(config: Pick<DriveConfig, 'uploadDir'>): string {
  return join(config.uploadDir, 'offline')
}

/** Where a task's partial download lives (a file for HTTP, a folder for a torrent). */
export function offlineStagingPath(config: Pick<DriveConfig, 'uploadDir'>, taskId: string): string {
  return join(offlineStagingRoot(config), taskId)
}

/** Deletes a task's partial data. Safe when there is none. */
export async function removeOfflineStaging(config: Pick<DriveConfig, 'uploadDir'>, taskId: string): Promise<void> {
  await rm(offlineStagingPath(config, taskId), { recursive: true, force: true })
}

/**
 * Queues a run of the task, in the caller's transaction: the task row and its job commit
 * together, so a task is never PENDING without a job to run it (or the reverse). At most one
 * queued run per task.
 */
export async function enqueueOfflineRun(deps: Pick<DriveDeps, 'jobs'>, trx: Db, task: Pick<TasksTable, 'id' | 'user_id'>): Promise<string | null> {
  const jobId = await deps.jobs.enqueue(OFFLINE_QUEUE, { taskId: task.id, userId: task.user_id }, { uniqueKey: task.id, db: trx as Kysely<any> })
  if (jobId) {
    const row = await trx.selectFrom('drive_tasks').select('work').where('id', '=', task.id).executeTakeFirst()
    if (row) await trx.updateTable('drive_tasks').set({ work: JSON.stringify({ ...workOf(row), jobId }) }).where('id', '=', task.id).execute()
  }
  return jobId
}

/** Stops the task's run wherever it is (queued: never runs; running: its signal aborts) and deletes its partial data. */
export async function cancelOfflineRun(deps: Pick<DriveDeps, 'jobs' | 'config'>, task: Pick<TasksTable, 'id' | 'work'>): Promise<void> {
  const { jobId } = workOf(task)
  if (jobId) await deps.jobs.cancel(OFFLINE_QUEUE, jobId)
  await removeOfflineStaging(deps.config, task.id)
}

/**
 * The limits of the plan a task was added on, while that membership runs: a task added by a
 * member and landing after the membership ended gets the free plan's (it must not fill the paid
 * quota; a renewal meanwhile is not seen here, which errs on the safe side).
 */
export function workLimits(config: Pick<DriveConfig, 'plans'>, work: OfflineWork, nowMs: number): PlanLimits {
  if (work.planUntilMs !== undefined && nowMs > work.planUntilMs) return config.plans.free
  return limitsOf(config.plans, work.plan ?? (work.vip ? 'vip' : FREE_PLAN_NAME))
}

export interface OfflineQuota {
  /** Offline tasks added today (UTC) against the plan's daily limit. */
  daily: { limit: number; usage: number }
  /** Offline tasks downloading now against the plan's cap. */
  running: { limit: number; usage: number }
}

/** The plan's offline-download counts, as the about call and the limits see them. */
export async function offlineQuota(db: Db, userId: string, limits: PlanLimits, nowMs: number): Promise<OfflineQuota> {
  const dayStartMs = nowMs - (nowMs % DAY_MS)
  const [today, running] = await Promise.all([
    db.selectFrom('drive_tasks').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('type', '=', 'offline').where('created_at', '>=', dayStartMs).executeTakeFirstOrThrow(),
    db.selectFrom('drive_tasks').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('type', '=', 'offline').where('phase', '=', 'PHASE_TYPE_RUNNING').executeTakeFirstOrThrow(),
  ])
  return {
    daily: { limit: limits.offlineTasksPerDay, usage: Number(today.n) },
    running: { limit: limits.offlineRunningTasks, usage: Number(running.n) },
  }
}
