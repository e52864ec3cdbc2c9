import type { DriveReferenceResource, DriveTask, DriveTaskType, Phase } from '@cumulus/protocol'
import type { Kysely, Transaction } from 'kysely'
import type { DriveDatabase, TasksTable } from '../db/schema.js'
import { newId } from '../lib/ids.js'
import { rfc3339 } from '../lib/time.js'
import { lockUserTree } from './tree.js'

type Db = Kysely<DriveDatabase> | Transaction<DriveDatabase>

export interface NewTask {
  userId: string
  type: DriveTaskType
  name: string
  phase: Phase
  progress: number
  params: Record<string, string>
  fileId?: string
  fileName?: string
  fileSizeBytes?: number
  nowMs: number
  /** Internal state (TasksTable.work). */
  work?: Record<string, unknown>
}

/** Stores a task row (in the caller's transaction, so the task exists exactly when its work does). */
export async function recordTask(db: Db, task: NewTask): Promise<TasksTable> {
  const row: TasksTable = {
    id: newId('T'),
    user_id: task.userId,
    type: task.type,
    name: task.name,
    phase: task.phase,
    progress: task.progress,
    params: JSON.stringify(task.params),
    file_id: task.fileId ?? '',
    file_name: task.fileName ?? '',
    file_size: task.fileSizeBytes ?? 0,
    message: '',
    statuses: '[]',
    created_at: task.nowMs,
    updated_at: task.nowMs,
    work: JSON.stringify(task.work ?? {}),
  }
  await db.insertInto('drive_tasks').values(row).execute()
  return row
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T
  } catch {
    return fallback
  }
}

/** A stored task as the wire's task object (drive.md "Task"). */
export function taskView(row: TasksTable): DriveTask {
  const statuses = parseJson<unknown[]>(row.statuses, [])
  return {
    kind: 'drive#task',
    id: row.id,
    name: row.name,
    type: row.type as DriveTaskType,
    user_id: row.user_id,
    statuses,
    status_size: statuses.length,
    params: parseJson<Record<string, string>>(row.params, {}),
    file_id: row.file_id,
    file_name: row.file_name,
    file_size: String(row.file_size),
    message: row.message,
    created_time: rfc3339(Number(row.created_at)),
    updated_time: rfc3339(Number(row.updated_at)),
    phase: row.phase as Phase,
    progress: row.progress,
    icon_link: '',
    ...(row.type === 'offline' ? { reference_resource: referenceOf(row) } : {}),
  }
}

/** What an offline task produced, as its completion recorded it (TasksTable.work.reference). */
function referenceOf(row: TasksTable): DriveReferenceResource | null {
  const reference = parseJson<{ reference?: { kind: string; id: string; name: string; size: string; mime_type: string } | null }>(row.work, {}).reference
  if (!reference) return null
  return { kind: reference.kind as DriveReferenceResource['kind'], id: reference.id, name: reference.name, size: reference.size, mime_type: reference.mime_type, thumbnail_link: '' }
}

/**
 * Takes one of the account's running slots of the task's type (the task becomes RUNNING with
 * `message`), or answers false: the slots are full (the run waits), or the task is gone. Under
 * the user's tree lock, so a burst of runs never holds more than `cap`.
 */
export async function takeRunningSlot(db: Kysely<DriveDatabase>, task: Pick<TasksTable, 'id' | 'user_id' | 'type'>, options: { cap: number; message: string; nowMs: number }): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await lockUserTree(trx, task.user_id)
    const current = await trx.selectFrom('drive_tasks').select(['phase']).where('id', '=', task.id).executeTakeFirst()
    if (!current) return false
    if (current.phase === 'PHASE_TYPE_RUNNING') return true
    const { n } = await trx
      .selectFrom('drive_tasks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', task.user_id)
      .where('type', '=', task.type)
      .where('phase', '=', 'PHASE_TYPE_RUNNING')
      .executeTakeFirstOrThrow()
    if (Number(n) >= options.cap) return false
    await trx.updateTable('drive_tasks').set({ phase: 'PHASE_TYPE_RUNNING', message: options.message, updated_at: options.nowMs }).where('id', '=', task.id).execute()
    return true
  })
}
