import { AppError, type BatchAction, GenericErrors, type TaskIdReply } from '@cumulus/protocol'
import type { Transaction } from 'kysely'
import type { DriveDatabase, FilesTable } from '../../db/schema.js'
import type { Caller, DriveDeps } from '../../deps.js'
import { deleteTrees, type EventType, liveFolder, lockUserTree, quotaLimit, recordEvents, recordTask, retryOnConflict } from '../../domain/index.js'
import { chunks } from '../../lib/rows.js'
import { copyItems } from './copy.js'
import { requireItems, requireLiveItems } from './items.js'
import { moveItems } from './move.js'
import { trashItems, untrashItems } from './trash.js'

/** The most ids one batch request may name. */
export const BATCH_MAX_IDS = 1000

export const BATCH_ACTIONS = ['batchTrash', 'batchUntrash', 'batchDelete', 'batchMove', 'batchCopy', 'star', 'unstar'] as const satisfies readonly BatchAction[]

export interface BatchInput {
  ids: readonly string[]
  /** Target folder of a move or copy: '' or absent for the root. */
  toParentId?: string | null | undefined
}

type Trx = Transaction<DriveDatabase>

/** Runs `work` as one transaction that owns the caller's tree, and records it as a finished batch task. */
async function asBatchTask(deps: DriveDeps, caller: Caller, name: string, params: Record<string, string>, work: (trx: Trx, nowMs: number) => Promise<void>): Promise<TaskIdReply> {
  const nowMs = deps.clock.nowMs()
  return retryOnConflict(() =>
    deps.db.transaction().execute(async (trx) => {
      await lockUserTree(trx, caller.userId)
      await work(trx, nowMs)
      // Done by the time the reply goes out (drive.md: "the task is complete when the reply is sent").
      const task = await recordTask(trx, { userId: caller.userId, type: 'batch', name, phase: 'PHASE_TYPE_COMPLETE', progress: 100, params, nowMs })
      return { task_id: task.id }
    }),
  )
}

async function record(trx: Trx, nowMs: number, userId: string, type: EventType, rows: readonly FilesTable[]) {
  await recordEvents(trx, nowMs, userId, type, rows.map((r) => ({ id: r.id, name: r.name })))
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
        const target = await liveFolder(trx, userId, input.toParentId)
        const copies = await copyItems(trx, userId, items, target, quotaLimit(deps.config, caller, nowMs), nowMs)
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
  })
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
