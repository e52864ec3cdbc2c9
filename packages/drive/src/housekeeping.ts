import type { DriveDeps } from './deps.js'
import { purgeExpiredTrash } from './features/batch/purge.js'
import { collectGarbageBlobs } from './features/blobs/collect-garbage-blobs.js'
import { maintainUploads } from './features/uploads/cancel-upload.js'

/**
 * The drive's periodic chores, gathered from the features that own them (composition, like
 * app.ts, so it may import features). Each is idempotent and safe on several nodes at once (every
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
