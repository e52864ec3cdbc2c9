import type { DriveDeps } from '../../deps.js'
import { purgeExpiredTrash } from '../batch/purge.js'
import { collectGarbageBlobs } from '../blobs/blob-refs.js'
import { maintainUploads } from '../uploads/cancel-upload.js'

/**
 * The drive's periodic chores. Each is idempotent and safe on several nodes at once (every
 * deletion is claimed by a conditional update first).
 */
export async function runDriveHousekeeping(deps: DriveDeps): Promise<void> {
  // Before the collector: uploads a crash interrupted claim their announced blobs first.
  await maintainUploads(deps)
  await purgeExpiredTrash(deps)
  await collectGarbageBlobs(deps)
}

export function startDriveHousekeeping(deps: DriveDeps, intervalMs = 10 * 60_000): () => void {
  const run = () => runDriveHousekeeping(deps).catch((err: unknown) => deps.logger.error({ err }, 'drive housekeeping failed'))
  void run()
  const timer = setInterval(run, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
