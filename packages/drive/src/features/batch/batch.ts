import { AppError, type BatchAction, FOLDER_KIND, GenericErrors, type TaskIdReply } from '@cumulus/protocol'
import { type Json, JobFailedPermanently } from '@cumulus/jobs'
import type { Kysely, Transaction } from 'kysely'
import type { DriveDatabase, FilesTable } from '../../db/schema.js'
import type { Caller, DriveDeps } from '../../deps.js'
import { copyTree, countTree, type Descent, deleteTrees, descentCondition, type EventType, liveFolder, lockUserTree, quotaLimit, recordEvents, recordTask, retryOnConflict, subtreeParents, trashItems } from '../../domain/index.js'
import { chunks } from '../../lib/rows.js'
import { requireItems, requireLiveItems } from './items.js'
import { moveItems, refuseIntoItself } from './move.js'
import { untrashItems } from './trash.js'

/** The most ids one batch request may name. */
export const BATCH_MAX_IDS = 1000

export const BATCH_ACTIONS = ['batchTrash', 'batchUntrash', 'batchDelete', 'batchMove', 'batchCopy', 'star', 'unstar'] as const satisfies readonly BatchAction[]

export interface BatchInput {
  ids: readonly string[]
  /** Target folder of a move or copy: '' or absent for the root. */
  toParentId?: string | null | undefined
}

type Trx = Transaction<DriveDatabase>

/**
 * Runs `work` as one transaction that owns the caller's tree, and records it as a finished batch
 * task: a new one, or `taskId`'s when a job runs a batch that was too large for its request.
 */
async function asBatchTask(deps: DriveDeps, caller: Caller, name: string, params: Record<string, string>, work: (trx: Trx, nowMs: number) => Promise<void>, taskId?: string): Promise<TaskIdReply> {
  const nowMs = deps.clock.nowMs()
  return retryOnConflict(() =>
    deps.db.transaction().execute(async (trx) => {
      await lockUserTree(trx, caller.userId)
      await work(trx, nowMs)
      if (taskId) {
        await trx.updateTable('drive_tasks').set({ phase: 'PHASE_TYPE_COMPLETE', progress: 100, message: '', updated_at: nowMs }).where('id', '=', taskId).execute()
        return { task_id: taskId }
      }
      // Done by the time the reply goes out (drive.md: "the task is complete when the reply is sent").
      const task = await recordTask(trx, { userId: caller.userId, type: 'batch', name, phase: 'PHASE_TYPE_COMPLETE', progress: 100, params, nowMs })
      return { task_id: task.id }
    }),
  )
}

/** The job queue of batches too large to run inside their request. */
export const BATCH_QUEUE = 'drive.batch'

/** Actions whose cost grows with the subtrees they touch, and the walk each follows. */
const SUBTREE_ACTIONS: Partial<Record<BatchAction, Descent>> = { batchCopy: 'live', batchTrash: 'live', batchDelete: 'all', batchUntrash: 'trashedWith' }

/**
 * Whether a batch touches more than `limit` items: counted only when it names folders (files
 * alone are at most BATCH_MAX_IDS), level by level, stopping once past the limit.
 */
async function outgrowsRequest(deps: DriveDeps, userId: string, action: BatchAction, ids: readonly string[], limit: number): Promise<boolean> {
  const descent = SUBTREE_ACTIONS[action]
  if (!descent || ids.length > limit) return descent !== undefined && ids.length > limit
  const roots = await requireItems(deps.db, userId, ids)
  const folders = roots.filter((r) => r.kind === FOLDER_KIND).map((r) => r.id)
  if (folders.length === 0) return false
  let count = roots.length
  for (const chunk of chunks(await subtreeParents(deps.db, userId, folders, descent))) {
    const { n } = await deps.db.selectFrom('drive_files').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('parent_id', 'in', chunk).where(descentCondition(descent)).executeTakeFirstOrThrow()
    count += Number(n)
    if (count > limit) return true
  }
  return false
}

export interface BatchJobData {
  [key: string]: Json
  taskId: string
  userId: string
  action: string
  ids: string[]
  toParentId: string | null
  membership: Caller['membership'] & Json
}

/**
 * The job of a batch too large for its request: the same all-or-nothing transaction, run in the
 * background; its task goes PENDING → RUNNING → COMPLETE, or ERROR with the catalogue reason
 * when the items changed meanwhile (moved, deleted, no longer fitting the quota).
 */
export async function runBatchJob(deps: DriveDeps, data: BatchJobData): Promise<void> {
  const task = await deps.db.selectFrom('drive_tasks').select(['phase', 'params']).where('id', '=', data.taskId).where('user_id', '=', data.userId).executeTakeFirst()
  if (!task || task.phase === 'PHASE_TYPE_COMPLETE' || task.phase === 'PHASE_TYPE_ERROR') return
  await deps.db.updateTable('drive_tasks').set({ phase: 'PHASE_TYPE_RUNNING', updated_at: deps.clock.nowMs() }).where('id', '=', data.taskId).execute()
  const caller: Caller = { userId: data.userId, membership: data.membership }
  try {
    await runBatchWork(deps, caller, data.action as BatchAction, { ids: data.ids, toParentId: data.toParentId }, JSON.parse(task.params) as Record<string, string>, data.taskId)
  } catch (err) {
    if (!(err instanceof AppError)) throw err
    await deps.db.updateTable('drive_tasks').set({ phase: 'PHASE_TYPE_ERROR', message: err.entry.reason, updated_at: deps.clock.nowMs() }).where('id', '=', data.taskId).execute()
    throw new JobFailedPermanently(err.message)
  }
}

async function record(trx: Trx, nowMs: number, userId: string, type: EventType, rows: readonly FilesTable[]) {
  await recordEvents(trx, nowMs, userId, type, rows.map((r) => ({ id: r.id, name: r.name })))
}

/**
 * Refuses a copy of `items` that would make more than `copyMaxItems` items (all levels): a copy
 * holds every row it reads and writes in memory, and folders and empty files cost no quota, so
 * without a bound a tree doubled by copy after copy grew one job past the node's memory.
 */
async function refuseLargeCopy(deps: DriveDeps, db: Parameters<typeof countTree>[0], userId: string, items: FilesTable[]): Promise<void> {
  const limit = deps.config.copyMaxItems
  const count = await countTree(db, { userId, items }, limit)
  // invalid_argument, not resource_exhausted: the same copy never goes through, however long the caller waits.
  if (count > limit) throw new AppError(GenericErrors.invalid_argument, { description: `a copy makes at most ${limit} items (all levels); copy fewer at a time`, metadata: { field: 'ids', limit: String(limit) } })
}

/**
 * `POST /drive/v1/files:<action>`: one action on up to BATCH_MAX_IDS of the caller's items, all or
 * nothing in one transaction (an unknown id is file_not_found and nothing changes).
 */
export async function runBatch(deps: DriveDeps, caller: Caller, action: BatchAction, input: BatchInput): Promise<TaskIdReply> {
  const ids = input.ids
  if (ids.length === 0 || ids.length > BATCH_MAX_IDS) {
    throw new AppError(GenericErrors.invalid_argument, { description: `ids must name 1 to ${BATCH_MAX_IDS} items`, metadata: { field: 'ids' } })
  }
  const userId = caller.userId
  const params: Record<string, string> = { action, count: String(new Set(ids).size) }
  if (action === 'batchMove' || action === 'batchCopy') params['parent_id'] = input.toParentId ?? ''

  // A batch whose subtrees outgrow one request runs as a job; its task shows how it goes.
  if (await outgrowsRequest(deps, userId, action, ids, deps.config.batchInlineMaxItems)) {
    // A copy past its bound is refused now, not in its job later (which checks again).
    if (action === 'batchCopy') await refuseLargeCopy(deps, deps.db, userId, await requireLiveItems(deps.db, userId, ids))
    const nowMs = deps.clock.nowMs()
    const taskId = await deps.db.transaction().execute(async (trx) => {
      const task = await recordTask(trx, { userId, type: 'batch', name: action, phase: 'PHASE_TYPE_PENDING', progress: 0, params, nowMs })
      const data: BatchJobData = { taskId: task.id, userId, action, ids: [...ids], toParentId: input.toParentId ?? null, membership: caller.membership as BatchJobData['membership'] }
      await deps.jobs.enqueue(BATCH_QUEUE, data, { db: trx as Kysely<any> })
      return task.id
    })
    deps.jobs.notify(BATCH_QUEUE)
    return { task_id: taskId }
  }
  return runBatchWork(deps, caller, action, input, params)
}

/** The batch itself, in one transaction: in its request, or in its job with the task it made. */
function runBatchWork(deps: DriveDeps, caller: Caller, action: BatchAction, input: BatchInput, params: Record<string, string>, taskId?: string): Promise<TaskIdReply> {
  const ids = input.ids
  const userId = caller.userId
  return asBatchTask(deps, caller, action, params, async (trx, nowMs) => {
    switch (action) {
      case 'batchTrash': {
        const trashed = await trashItems(trx, userId, await requireItems(trx, userId, ids), nowMs)
        return record(trx, nowMs, userId, 'TYPE_TRASH', trashed)
      }
      case 'batchUntrash': {
        const restored = await untrashItems(trx, userId, await requireItems(trx, userId, ids))
        return record(trx, nowMs, userId, 'TYPE_RESTORE', restored)
      }
      case 'batchDelete': {
        const items = await requireItems(trx, userId, ids)
        await deleteTrees(trx, userId, items.map((i) => i.id), nowMs)
        return record(trx, nowMs, userId, 'TYPE_DELETE', items)
      }
      case 'batchMove': {
        const items = await requireLiveItems(trx, userId, ids)
        const moved = await moveItems(trx, userId, items, await liveFolder(trx, userId, input.toParentId))
        return record(trx, nowMs, userId, 'TYPE_MOVE', moved)
      }
      case 'batchCopy': {
        const items = await requireLiveItems(trx, userId, ids)
        await refuseLargeCopy(deps, trx, userId, items)
        const target = await liveFolder(trx, userId, input.toParentId)
        await refuseIntoItself(trx, userId, items, target)
        const copies = await copyTree(trx, { userId, items }, { userId, folderId: target, quotaLimitBytes: quotaLimit(deps.config, caller, nowMs) }, nowMs)
        return record(trx, nowMs, userId, 'TYPE_COPY', copies)
      }
      case 'star':
      case 'unstar': {
        const items = await requireItems(trx, userId, ids)
        const starred = action === 'star' ? 1 : 0
        for (const chunk of chunks(items.filter((i) => i.starred !== starred).map((i) => i.id))) {
          await trx.updateTable('drive_files').set((eb) => ({ starred, revision: eb('revision', '+', 1) })).where('user_id', '=', userId).where('id', 'in', chunk).execute()
        }
        return
      }
    }
  }, taskId)
}

/** `PATCH /drive/v1/files/trash:empty`: deletes everything in the caller's trash for good. */
export async function emptyTrash(deps: DriveDeps, caller: Caller): Promise<TaskIdReply> {
  const userId = caller.userId
  return asBatchTask(deps, caller, 'emptyTrash', { action: 'emptyTrash' }, async (trx, nowMs) => {
    const roots = await trx.selectFrom('drive_files').select(['id', 'name']).where('user_id', '=', userId).where('trash_root', '=', 1).where('trashed', '=', 1).execute()
    await deleteTrees(trx, userId, roots.map((r) => r.id), nowMs)
    await recordEvents(trx, nowMs, userId, 'TYPE_DELETE', roots)
  })
}
