import type { UploadsTable } from '../../db/schema.js'
import type { DriveDeps } from '../../deps.js'

/**
 * Shows an unfinished upload's progress on its task (PHASE_TYPE_RUNNING, percent of the bytes
 * received), after each PATCH. Leaves a task that has already ended (complete, cancelled) alone.
 */
export async function recordUploadProgress(deps: Pick<DriveDeps, 'db' | 'clock'>, upload: Pick<UploadsTable, 'user_id' | 'file_id' | 'size'>, offsetBytes: number): Promise<void> {
  if (upload.size <= 0 || offsetBytes >= upload.size) return
  await deps.db
    .updateTable('drive_tasks')
    .set({ phase: 'PHASE_TYPE_RUNNING', progress: Math.floor((offsetBytes * 100) / upload.size), updated_at: deps.clock.nowMs() })
    .where('user_id', '=', upload.user_id)
    .where('type', '=', 'upload')
    .where('file_id', '=', upload.file_id)
    .where('phase', 'in', ['PHASE_TYPE_PENDING', 'PHASE_TYPE_RUNNING'])
    .execute()
}
