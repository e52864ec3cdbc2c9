import type { JobRunner } from '@cumulus/jobs'
import type { DriveDeps } from './deps.js'
import { purgeExpiredTrash } from './features/batch/purge.js'
import { BATCH_QUEUE, type BatchJobData, runBatchJob } from './features/batch/batch.js'
import { RESTORE_QUEUE, type RestoreJobData, runRestoreJob } from './features/shares/restore.js'
import { forgetOldShares } from './features/shares/owner.js'
import { collectGarbageBlobs } from './features/blobs/collect-garbage-blobs.js'
import { DECOMPRESS_QUEUE, OFFLINE_QUEUE, forgetOldPlays, forgetOldTraffic } from './domain/index.js'
import { OFFLINE_LEASE_SECONDS, OFFLINE_MAX_ATTEMPTS, type OfflineJobData, type OfflineRunDeps, removeOrphanOfflineStaging, runOfflineTask } from './features/offline/run-offline-task.js'
import { registerThumbnailJobs } from './features/thumbnails/thumbnails.js'
import { registerMediaJobs } from './features/media/media-job.js'
import { maintainUploads } from './features/uploads/cancel-upload.js'
import { failTasksWithoutRuns } from './features/tasks/tasks.js'
import { DECOMPRESS_LEASE_SECONDS, DECOMPRESS_MAX_ATTEMPTS, type DecompressJobData, removeOrphanDecompressStaging, runDecompressTask } from './features/decompress/run-decompress.js'

/**
 * The drive's periodic chores, gathered from the features that own them (composition, like
 * app.ts, so it may import features). Each is idempotent and safe on several nodes at once (every
 * deletion is claimed by a conditional update first).
 */
export async function runDriveHousekeeping(deps: DriveDeps): Promise<void> {
  // Before the collector: uploads a crash interrupted claim their announced blobs first.
  await maintainUploads(deps)
  await purgeExpiredTrash(deps)
  await removeOrphanOfflineStaging(deps)
  await failTasksWithoutRuns(deps)
  await removeOrphanDecompressStaging(deps)
  await collectGarbageBlobs(deps)
  await forgetOldPlays(deps)
  await forgetOldTraffic(deps)
  await forgetOldShares(deps)
}

/** The queue of the drive's periodic chores; the composition root schedules it. */
export const DRIVE_HOUSEKEEPING_QUEUE = 'drive.housekeeping'

/**
 * Registers the drive's job handlers on the runner: its housekeeping (unless turned off) and the
 * features' long-running work.
 */
export function registerDriveJobs(runner: JobRunner, deps: OfflineRunDeps, options: { housekeeping: boolean; offlineDownloads?: boolean }): void {
  if (options.housekeeping) runner.register(DRIVE_HOUSEKEEPING_QUEUE, () => runDriveHousekeeping(deps), { leaseSeconds: 300 })
  // One transaction per batch: a lease long enough for the largest, renewed while it runs.
  runner.register<BatchJobData>(BATCH_QUEUE, (job) => runBatchJob(deps, job.data), { concurrency: 2, maxAttempts: 3, leaseSeconds: 120 })
  // Saving a large share into one's drive: one transaction, like a batch.
  runner.register<RestoreJobData>(RESTORE_QUEUE, (job) => runRestoreJob(deps, job.data), { concurrency: 2, maxAttempts: 3, leaseSeconds: 120 })
  registerThumbnailJobs(runner, deps)
  registerMediaJobs(runner, deps)
  // Each unpacking keeps a core busy (7zz, then hashing); the per-account cap is the runs' own.
  runner.register<DecompressJobData>(DECOMPRESS_QUEUE, (job) => runDecompressTask(deps, job), { concurrency: deps.config.archive.workers, maxAttempts: DECOMPRESS_MAX_ATTEMPTS, leaseSeconds: DECOMPRESS_LEASE_SECONDS, backoffMs: 10_000 })
  if (options.offlineDownloads !== false) {
    // Per node; the per-account cap (the plan's running tasks) is held by the runs themselves.
    runner.register<OfflineJobData>(OFFLINE_QUEUE, (job) => runOfflineTask(deps, job), { concurrency: deps.config.offlineWorkers, maxAttempts: OFFLINE_MAX_ATTEMPTS, leaseSeconds: OFFLINE_LEASE_SECONDS, backoffMs: 10_000 })
  }
}
