import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError, GenericErrors } from '@cumulus/protocol'
import type { Kysely, Transaction } from 'kysely'
import type { DriveConfig } from '../config.js'
import type { DriveDatabase, TasksTable } from '../db/schema.js'
import type { DriveDeps } from '../deps.js'
import { workOf } from './offline.js'
import { lockUserTree } from './tree.js'

/*
 * What the unpacking feature (features/decompress) shares with the task list (cancel, delete,
 * retry): its job queue and where a run's files live before they become blobs.
 */

/** Unpackings of one account that may wait or run at once (a start, or a retry, past it is refused). */
export const MAX_QUEUED_DECOMPRESS = 20

/** The job queue of unpacking; one job per task run, keyed by the task id. */
export const DECOMPRESS_QUEUE = 'drive.decompress'

type Db = Kysely<DriveDatabase> | Transaction<DriveDatabase>

/** The folder of every unpacking's files: under the upload staging area, on the blob store's disk (a blob is then a rename). */
export function decompressStagingRoot(config: Pick<DriveConfig, 'uploadDir'>): string {
  return join(config.uploadDir, 'decompress')
}

export function decompressStagingPath(config: Pick<DriveConfig, 'uploadDir'>, taskId: string): string {
  return join(decompressStagingRoot(config), taskId)
}

export async function removeDecompressStaging(config: Pick<DriveConfig, 'uploadDir'>, taskId: string): Promise<void> {
  await rm(decompressStagingPath(config, taskId), { recursive: true, force: true })
}

/** Queues a run of the unpacking task in the caller's transaction (the task and its job commit together). */
export async function enqueueDecompressRun(deps: Pick<DriveDeps, 'jobs'>, trx: Db, task: Pick<TasksTable, 'id' | 'user_id'>): Promise<string | null> {
  const jobId = await deps.jobs.enqueue(DECOMPRESS_QUEUE, { taskId: task.id, userId: task.user_id }, { uniqueKey: task.id, db: trx as Kysely<any> })
  if (jobId) {
    const row = await trx.selectFrom('drive_tasks').select('work').where('id', '=', task.id).executeTakeFirst()
    if (row) await trx.updateTable('drive_tasks').set({ work: JSON.stringify({ ...workOf(row), jobId }) }).where('id', '=', task.id).execute()
  }
  return jobId
}

/** Stops the task's run wherever it is and deletes what it unpacked so far. */
export async function cancelDecompressRun(deps: Pick<DriveDeps, 'jobs' | 'config'>, task: Pick<TasksTable, 'id' | 'work'>): Promise<void> {
  const { jobId } = workOf(task)
  if (jobId) await deps.jobs.cancel(DECOMPRESS_QUEUE, jobId)
  await removeDecompressStaging(deps.config, task.id)
}

/**
 * Takes the user's tree lock and refuses (resource_exhausted) when the account already has
 * MAX_QUEUED_DECOMPRESS unpackings waiting or running: a start and a retry both call it in the
 * transaction that queues one, so a burst cannot pass the bound.
 */
export async function requireDecompressRoom(trx: Db, userId: string): Promise<void> {
  await lockUserTree(trx as Kysely<DriveDatabase>, userId)
  const { n } = await trx
    .selectFrom('drive_tasks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('type', '=', 'decompress')
    .where('phase', 'in', ['PHASE_TYPE_PENDING', 'PHASE_TYPE_RUNNING'])
    .executeTakeFirstOrThrow()
  if (Number(n) >= MAX_QUEUED_DECOMPRESS) {
    throw new AppError(GenericErrors.resource_exhausted, { description: `at most ${MAX_QUEUED_DECOMPRESS} unpackings may wait or run at once`, retryAfterSeconds: 10 })
  }
}
