import { AppError, type DecompressProgress, DriveErrors, type Phase } from '@cumulus/protocol'
import type { Caller, DriveDeps } from '../../deps.js'
import { isId } from '../../lib/ids.js'

/** How soon a client should ask again: often while the task runs, rarely once it ended. */
const RUNNING_EXPIRES_IN = 1
const ENDED_EXPIRES_IN = 60

/** `GET /decompress/v1/progress?task_id`: the caller's unpacking task as the progress bar reads it. */
export async function decompressProgress(deps: Pick<DriveDeps, 'db'>, caller: Caller, taskId: string): Promise<DecompressProgress> {
  const row = isId(taskId)
    ? await deps.db.selectFrom('drive_tasks').selectAll().where('id', '=', taskId).where('user_id', '=', caller.userId).where('type', '=', 'decompress').executeTakeFirst()
    : undefined
  if (!row) throw new AppError(DriveErrors.task_not_found, { description: `no unpacking task ${taskId}`, metadata: { id: taskId } })
  const params = parse<Record<string, string>>(row.params, {})
  const work = parse<{ completedBytes?: number }>(row.work, {})
  const phase = row.phase as Phase
  const ended = phase === 'PHASE_TYPE_COMPLETE' || phase === 'PHASE_TYPE_ERROR'
  return {
    progress: row.progress,
    phase,
    file_id: phase === 'PHASE_TYPE_COMPLETE' ? row.file_id : '',
    task_size: String(row.file_size),
    task_size_completed: String(phase === 'PHASE_TYPE_COMPLETE' ? row.file_size : Math.min(Number(work.completedBytes ?? 0), Number(row.file_size))),
    expires_in: ended ? ENDED_EXPIRES_IN : RUNNING_EXPIRES_IN,
    error_description: phase === 'PHASE_TYPE_ERROR' ? (params['error_description'] ?? row.message) : '',
  }
}

function parse<T>(text: string, fallback: T): T {
  try {
    const value = JSON.parse(text) as unknown
    return typeof value === 'object' && value !== null ? (value as T) : fallback
  } catch {
    return fallback
  }
}
