import { AppError, DriveErrors, type DriveTask, type DriveTaskList, type DriveTaskType, GenericErrors } from '@cumulus/protocol'
import { sql } from 'kysely'
import type { FilesTable, TasksTable } from '../../db/schema.js'
import type { Caller, DriveDeps } from '../../deps.js'
import {
  DECOMPRESS_QUEUE,
  requireDecompressRoom,
  OFFLINE_QUEUE,
  cancelDecompressRun,
  cancelOfflineRun,
  deleteTrees,
  trashItems,
  enqueueDecompressRun,
  enqueueOfflineRun,
  lockUserTree,
  recordEvents,
  removeDecompressStaging,
  removeOfflineStaging,
  retryOnConflict,
  taskView,
  workOf,
} from '../../domain/index.js'
import { isId } from '../../lib/ids.js'
import { newestFirstPage } from '../../lib/paging.js'
import { chunks } from '../../lib/rows.js'

export const TASK_TYPES = ['offline', 'upload', 'batch', 'decompress', 'restore'] as const satisfies readonly DriveTaskType[]
/** The most task ids one DELETE may name. */
export const TASKS_DELETE_MAX_IDS = 1000

/** How long a client may cache a task list before asking again (drive.md `expires_in`). */
const TASK_LIST_EXPIRES_IN_SECONDS = 60

function invalid(description: string, field: string): AppError {
  return new AppError(GenericErrors.invalid_argument, { description, metadata: { field } })
}

function taskNotFound(id: string): AppError {
  return new AppError(DriveErrors.task_not_found, { description: `no task ${id}`, metadata: { id } })
}

export interface ListTasksQuery {
  type?: string | undefined
  limit?: string | undefined
  pageToken?: string | undefined
  /** The raw `filters` JSON: `{"phase": {"eq": "..."}}` or `{"phase": {"in": "A,B"}}`; other keys are ignored. */
  filters?: string | undefined
}

function parsePhases(raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch {
    throw invalid('filters is not valid JSON', 'filters')
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw invalid('filters must be a JSON object', 'filters')
  const phase = (json as Record<string, unknown>)['phase']
  if (phase === undefined || phase === null) return undefined
  if (typeof phase !== 'object' || Array.isArray(phase)) throw invalid('filters.phase must be an object', 'filters.phase')
  const { eq, in: among } = phase as Record<string, unknown>
  const list = typeof eq === 'string' ? [eq] : typeof among === 'string' ? among.split(',') : Array.isArray(among) ? among : undefined
  if (list === undefined) return undefined
  if (list.length > 16 || list.some((p) => typeof p !== 'string' || p.length > 64)) throw invalid('filters.phase lists phases by name', 'filters.phase')
  return (list as string[]).map((p) => p.trim()).filter(Boolean)
}

/** `GET /drive/v1/tasks`: the caller's tasks of one type (offline unless told), newest first, cursor-paged. */
export async function listTasks(deps: DriveDeps, caller: Caller, query: ListTasksQuery): Promise<DriveTaskList> {
  const type = query.type ?? 'offline'
  if (!(TASK_TYPES as readonly string[]).includes(type)) throw invalid(`type must be one of ${TASK_TYPES.join(', ')}`, 'type')
  const phases = parsePhases(query.filters)
  let q = deps.db.selectFrom('drive_tasks').selectAll().where('user_id', '=', caller.userId).where('type', '=', type)
  if (phases) q = phases.length > 0 ? q.where('phase', 'in', phases) : q.where(sql<boolean>`1 = 0`)
  const { rows, nextPageToken } = await newestFirstPage(q, `tasks:${type}`, query)
  return { tasks: rows.map(taskView), next_page_token: nextPageToken, expires_in: TASK_LIST_EXPIRES_IN_SECONDS }
}

async function findOwnedTask(deps: DriveDeps, userId: string, id: string): Promise<TasksTable> {
  if (!isId(id)) throw taskNotFound(id)
  const row = await deps.db.selectFrom('drive_tasks').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()
  if (!row) throw taskNotFound(id)
  return row
}

/** `GET /drive/v1/tasks/{id}`; another user's task is task_not_found. */
export async function getTask(deps: DriveDeps, caller: Caller, id: string): Promise<DriveTask> {
  return taskView(await findOwnedTask(deps, caller.userId, id))
}

/**
 * `DELETE /drive/v1/tasks?task_ids=a,b&delete_files=bool`: forgets the caller's tasks (unknown ids
 * are ignored, so a repeated delete succeeds), and with delete_files removes their files: what
 * a task finished goes to the trash, as every other delete in the drive does (a download that
 * finished while its "cancel and delete" dialog stood open must not be lost for good), and what
 * it had not finished (a download's partial file) is deleted for good.
 */
export async function deleteTasks(deps: DriveDeps, caller: Caller, input: { taskIds: readonly string[]; deleteFiles: boolean }): Promise<Record<string, never>> {
  const ids = [...new Set(input.taskIds.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean))]
  if (ids.length === 0) throw invalid('task_ids names no task', 'task_ids')
  if (ids.length > TASKS_DELETE_MAX_IDS) throw invalid(`task_ids may name at most ${TASKS_DELETE_MAX_IDS} tasks`, 'task_ids')
  const wellFormed = ids.filter(isId)
  const userId = caller.userId
  const nowMs = deps.clock.nowMs()
  // Offline downloads stop first: a queued run never starts, a running one aborts (at once here,
  // at its next heartbeat on another node) and finds its task gone.
  // Unpackings likewise: the tool is stopped and what it wrote is deleted.
  const running: Pick<TasksTable, 'id' | 'work' | 'type'>[] = []
  for (const chunk of chunks(wellFormed)) {
    running.push(...(await deps.db.selectFrom('drive_tasks').select(['id', 'work', 'type']).where('user_id', '=', userId).where('type', 'in', ['offline', 'decompress']).where('id', 'in', chunk).execute()))
  }
  for (const task of running) await (task.type === 'offline' ? cancelOfflineRun(deps, task) : cancelDecompressRun(deps, task))
  await retryOnConflict(() => deps.db.transaction().execute(async (trx) => {
    await lockUserTree(trx, userId)
    for (const chunk of chunks(wellFormed)) {
      const tasks = await trx.selectFrom('drive_tasks').select(['id', 'type', 'file_id', 'file_name', 'work']).where('user_id', '=', userId).where('id', 'in', chunk).execute()
      // An unpacking's file_id may be a folder the user chose, which holds more than the task
      // made: what it made is in its landedIds.
      const fileIds = tasks.flatMap((t) => (t.type === 'decompress' ? landedIdsOf(t) : [t.file_id])).filter((id) => id !== '')
      if (input.deleteFiles && fileIds.length > 0) {
        // Only the caller's files: deleteTrees starts from the caller's own rows. In chunks: an
        // unpacking may have made thousands of items at a chosen folder's top.
        const existing: FilesTable[] = []
        for (const ids of chunks(fileIds)) existing.push(...(await trx.selectFrom('drive_files').selectAll().where('user_id', '=', userId).where('id', 'in', ids).execute()))
        const finished = existing.filter((f) => f.phase === 'PHASE_TYPE_COMPLETE')
        const unfinished = existing.filter((f) => f.phase !== 'PHASE_TYPE_COMPLETE')
        await recordEvents(trx, nowMs, userId, 'TYPE_TRASH', await trashItems(trx, userId, finished, nowMs))
        await deleteTrees(trx, userId, unfinished.map((f) => f.id), nowMs)
        await recordEvents(trx, nowMs, userId, 'TYPE_DELETE', unfinished)
      }
      if (tasks.length) await trx.deleteFrom('drive_tasks').where('user_id', '=', userId).where('id', 'in', tasks.map((t) => t.id)).execute()
    }
  }))
  // Again after the rows are gone: a run that was writing when it was cancelled may have left bytes.
  for (const task of running) await (task.type === 'offline' ? removeOfflineStaging(deps.config, task.id) : removeDecompressStaging(deps.config, task.id))
  return {}
}

function landedIdsOf(task: Pick<TasksTable, 'work' | 'file_id'>): string[] {
  const work = workOf(task) as { landedIds?: unknown; defaultParent?: unknown }
  if (Array.isArray(work.landedIds)) return work.landedIds.filter((id): id is string => typeof id === 'string')
  // Finished before landedIds were kept: a folder it made beside the archive is its file_id.
  return work.defaultParent === true ? [task.file_id] : []
}

export interface RetryTaskInput {
  type?: string | undefined
  createType?: string | undefined
  id: string
}

class RetryLater extends Error {}

/** The task types a retry runs again. */
const RETRYABLE = ['offline', 'decompress'] as const

/**
 * `POST /drive/v1/task {type: "offline" | "decompress", create_type: "RETRY", id}`: puts a failed
 * task back to PENDING and queues a run in the same transaction; an offline run resumes from the
 * partial data a passing failure left, an unpacking starts again from the archive. Any other
 * task is returned as it is.
 */
export async function retryTask(deps: DriveDeps, caller: Caller, input: RetryTaskInput): Promise<{ task: DriveTask }> {
  if (input.createType !== 'RETRY') throw invalid('create_type must be RETRY', 'create_type')
  if (input.type !== undefined && !(RETRYABLE as readonly string[]).includes(input.type)) throw invalid('only offline and decompress tasks can be retried', 'type')
  const row = await findOwnedTask(deps, caller.userId, input.id)
  if (!(RETRYABLE as readonly string[]).includes(row.type) || (input.type !== undefined && input.type !== row.type)) throw taskNotFound(input.id)
  // Only a failed task is run again; a pending or running one already has its run, a finished one needs none.
  if (row.phase !== 'PHASE_TYPE_ERROR') return { task: taskView(row) }
  const changes = { phase: 'PHASE_TYPE_PENDING', progress: 0, message: '', updated_at: deps.clock.nowMs() }
  // Read before the transaction: the runner may share its database connection (SQLite).
  const previous = workOf(row).jobId
  const existing = previous ? await deps.jobs.get(row.type === 'offline' ? OFFLINE_QUEUE : DECOMPRESS_QUEUE, previous) : null
  const retried = await deps.db.transaction().execute(async (trx) => {
    if (row.type === 'decompress') {
      // A retry queues an unpacking again: the account's bound on queued ones holds here too.
      await requireDecompressRoom(trx, caller.userId)
    }
    const updated = await trx.updateTable('drive_tasks').set(changes).where('id', '=', row.id).where('user_id', '=', caller.userId).where('phase', '=', 'PHASE_TYPE_ERROR').executeTakeFirst()
    // A concurrent retry won: it queued the run.
    if (Number(updated.numUpdatedRows) === 0) return false
    const jobId = await (row.type === 'offline' ? enqueueOfflineRun(deps, trx, row) : enqueueDecompressRun(deps, trx, row))
    if (jobId !== null) return true
    // The task's job is still there. Queued, it will run the task; still closing the failed run,
    // it will not: the task then stays failed (rolled back), for a later retry to queue it,
    // rather than pending with no job.
    if (existing?.state !== 'queued') throw new RetryLater()
    return true
  }).catch((err: unknown) => {
    if (err instanceof RetryLater) return false
    throw err
  })
  if (retried) deps.jobs.notify(row.type === 'offline' ? OFFLINE_QUEUE : DECOMPRESS_QUEUE)
  const current = retried ? undefined : await deps.db.selectFrom('drive_tasks').selectAll().where('id', '=', row.id).executeTakeFirst()
  return { task: taskView(current ?? { ...row, ...changes }) }
}

/** A task not touched for this long while PENDING or RUNNING is looked at by failTasksWithoutRuns. */
const QUIET_TASK_MS = 10 * 60_000
/** The tasks looked at per housekeeping pass. */
const QUIET_TASKS_PER_PASS = 500

/**
 * Housekeeping: a download or unpacking left PENDING or RUNNING whose job has ended (a runner
 * that gave up on it past its attempts without the handler's word, a crash between the two) or
 * is gone would wait for ever, holding one of its account's running slots. It ends in ERROR
 * with a word to retry it. Tasks waiting for a slot keep a queued job and are left alone.
 */
export async function failTasksWithoutRuns(deps: DriveDeps): Promise<number> {
  const nowMs = deps.clock.nowMs()
  const quiet = await deps.db
    .selectFrom('drive_tasks')
    .select(['id', 'type', 'work', 'params'])
    .where('type', 'in', ['offline', 'decompress'])
    .where('phase', 'in', ['PHASE_TYPE_PENDING', 'PHASE_TYPE_RUNNING'])
    .where('updated_at', '<', nowMs - QUIET_TASK_MS)
    .limit(QUIET_TASKS_PER_PASS)
    .execute()
  let failed = 0
  for (const task of quiet) {
    const jobId = workOf(task).jobId
    const job = jobId ? await deps.jobs.get(task.type === 'offline' ? OFFLINE_QUEUE : DECOMPRESS_QUEUE, jobId) : null
    if (job && (job.state === 'queued' || job.state === 'active')) continue
    let params: Record<string, string> = {}
    try {
      params = JSON.parse(task.params) as Record<string, string>
    } catch {
      params = {}
    }
    const description = 'the task stopped without finishing; retry it'
    const updated = await deps.db
      .updateTable('drive_tasks')
      .set({ phase: 'PHASE_TYPE_ERROR', message: 'run_lost', params: JSON.stringify({ ...params, error_description: description }), updated_at: nowMs })
      .where('id', '=', task.id)
      .where('phase', 'in', ['PHASE_TYPE_PENDING', 'PHASE_TYPE_RUNNING'])
      .where('updated_at', '<', nowMs - QUIET_TASK_MS)
      .executeTakeFirst()
    failed += Number(updated.numUpdatedRows)
  }
  return failed
}
