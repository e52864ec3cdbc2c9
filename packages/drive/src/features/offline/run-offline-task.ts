import { mkdir, readdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { AppError, DriveErrors, type Locale } from '@cumulus/protocol'
import { type JobContext, JobDeferred, JobFailedPermanently } from '@cumulus/jobs'
import type { TasksTable } from '../../db/schema.js'
import type { DriveDeps } from '../../deps.js'
import {
  announceBlob,
  offlineStagingPath,
  offlineStagingRoot,
  removeOfflineStaging,
  takeRunningSlot,
  usageOf,
  workOf,
  workLimits,
} from '../../domain/index.js'
import { type DownloadProgress, type HttpDownloadDeps, type HttpResumeState, downloadHttp, readResumeState } from './http/http-download.js'
import { OfflineDownloadFailed, OfflineHttpError, OfflineUrlRefused } from './http/errors.js'
import { offlineSource } from './offline-url.js'
import { landDownload } from './land-tree.js'
import { runTorrent } from './run-torrent.js'
import { addressPolicyOf } from './source-policy.js'

export interface OfflineJobData {
  [key: string]: string
  taskId: string
  userId: string
}

/** Runs of one task before it fails for good (the runner retries a run that failed for a passing reason). */
export const OFFLINE_MAX_ATTEMPTS = 5
/** A running download holds its lease this long without a heartbeat (renewed every third of it). */
export const OFFLINE_LEASE_SECONDS = 30
/** How long a task waits for a running slot of its plan before looking again. */
const WAIT_FOR_SLOT_MS = 3000
/** Progress is written to the task at most this often. */
const PROGRESS_WRITE_MS = 1000

const SAVING_MESSAGE = 'Saving'

/** Deps of a run: the drive's, plus what a test may replace in the HTTP fetcher (a resolver, timeouts). */
export type OfflineRunDeps = DriveDeps & { http?: Partial<Omit<HttpDownloadDeps, 'addresses' | 'clock'>> }

async function loadTask(deps: DriveDeps, data: OfflineJobData): Promise<TasksTable | undefined> {
  return deps.db.selectFrom('drive_tasks').selectAll().where('id', '=', data.taskId).where('user_id', '=', data.userId).where('type', '=', 'offline').executeTakeFirst()
}

async function updateTask(deps: DriveDeps, taskId: string, changes: Partial<Omit<TasksTable, 'id' | 'user_id'>>): Promise<void> {
  await deps.db.updateTable('drive_tasks').set({ ...changes, updated_at: deps.clock.nowMs() }).where('id', '=', taskId).execute()
}

function paramsOf(row: TasksTable): Record<string, string> {
  try {
    return JSON.parse(row.params) as Record<string, string>
  } catch {
    return {}
  }
}

/** Ends the task in ERROR with the catalogue reason as its message (drive.md: "the error reason"). */
async function failTask(deps: DriveDeps, task: TasksTable, reason: string, description: string): Promise<void> {
  const params = { ...paramsOf(task), predict_speed: '0', error_description: description.slice(0, 500) }
  await updateTask(deps, task.id, { phase: 'PHASE_TYPE_ERROR', message: reason, params: JSON.stringify(params) })
}

/** The catalogue reason a failed HTTP run gives its task. */
function reasonOf(error: OfflineHttpError): string {
  if (error instanceof OfflineUrlRefused) {
    if (error.reason === 'private_address' || error.reason === 'bad_port') return DriveErrors.offline_url_refused.reason
    if (error.reason === 'too_many_redirects') return DriveErrors.offline_source_failed.reason
    return DriveErrors.offline_source_unsupported.reason
  }
  if (error instanceof OfflineDownloadFailed && error.reason === 'too_large') return DriveErrors.offline_source_too_large.reason
  return DriveErrors.offline_source_failed.reason
}

/**
 * One run of an offline download task, as the job runner calls it. Idempotent and resumable: a
 * run that died (crash, restart, lost lease) is run again, finds its partial file and resume
 * state, and continues with an HTTP Range request. A task deleted meanwhile ends the run quietly.
 */
export async function runOfflineTask(deps: OfflineRunDeps, job: JobContext<OfflineJobData>): Promise<void> {
  const task = await loadTask(deps, job.data)
  // Deleted, finished, or failed and waiting for the user's retry (which queues a new run).
  if (!task || task.phase === 'PHASE_TYPE_COMPLETE' || task.phase === 'PHASE_TYPE_ERROR') return
  const cap = workLimits(deps.config, workOf(task), deps.clock.nowMs()).offlineRunningTasks
  if (!(await takeRunningSlot(deps.db, task, { cap, message: SAVING_MESSAGE, nowMs: deps.clock.nowMs() }))) throw new JobDeferred(WAIT_FOR_SLOT_MS + Math.round(Math.random() * 1000))

  const params = paramsOf(task)
  const work = workOf(task)
  let source
  try {
    source = work.torrentFileId ? null : offlineSource(params['url'] ?? '')
  } catch (err) {
    await failTask(deps, task, err instanceof AppError ? err.entry.reason : DriveErrors.offline_source_unsupported.reason, (err as Error).message)
    throw new JobFailedPermanently((err as Error).message)
  }
  if (source === null || source.kind === 'magnet') {
    await runTorrent(deps, job, {
      task,
      params,
      magnet: source?.url ?? null,
      failTask: (reason, description) => failTask(deps, task, reason, description),
      updateTask: (changes) => updateTask(deps, task.id, changes),
    }, OFFLINE_MAX_ATTEMPTS)
    return
  }

  const stagingPath = offlineStagingPath(deps.config, task.id)
  await mkdir(dirname(stagingPath), { recursive: true })
  const limit = workLimits(deps.config, work, deps.clock.nowMs()).storageBytes
  const { usage } = await usageOf(deps.db, task.user_id)

  let lastWrite = 0
  const onProgress = (progress: DownloadProgress) => {
    const nowMs = deps.clock.nowMs()
    if (nowMs - lastWrite < PROGRESS_WRITE_MS) return
    lastWrite = nowMs
    // Never 100 before the file is in the drive.
    const percent = progress.totalBytes ? Math.min(99, Math.floor((progress.receivedBytes / progress.totalBytes) * 100)) : 0
    const next = { ...params, predict_speed: String(Math.round(progress.bytesPerSecond)) }
    void updateTask(deps, task.id, { progress: percent, params: JSON.stringify(next), ...(progress.totalBytes ? { file_size: progress.totalBytes } : {}) }).catch(() => undefined)
    void job.progress({ receivedBytes: progress.receivedBytes, totalBytes: progress.totalBytes })
  }
  const onResumeState = async (state: HttpResumeState | null) => {
    const current = await deps.db.selectFrom('drive_tasks').select('work').where('id', '=', task.id).executeTakeFirst()
    if (current) await updateTask(deps, task.id, { work: JSON.stringify({ ...workOf(current), resume: state }) })
  }

  let result
  try {
    result = await downloadHttp(
      { addresses: addressPolicyOf(deps.config.offlineAllowedNetworks), clock: deps.clock, ...deps.http },
      { url: source.url, stagingPath, expectedMaxBytes: Math.max(0, limit - usage), resume: readResumeState(work.resume ?? null), onResumeState, onProgress },
      job.signal,
    )
  } catch (err) {
    if (job.signal.aborted) throw err
    if (!(err instanceof OfflineHttpError)) throw err
    if (!err.retryable || job.attempt >= OFFLINE_MAX_ATTEMPTS) {
      // A passing failure keeps the partial file, so the user's retry resumes it.
      if (!err.retryable) await removeOfflineStaging(deps.config, task.id)
      await failTask(deps, task, reasonOf(err), err.message)
      throw new JobFailedPermanently(err.message, { cause: err })
    }
    await updateTask(deps, task.id, { message: `${SAVING_MESSAGE} (retrying: ${err.reason})` })
    throw err
  }

  await landFile(deps, task, { stagingPath, gcid: result.gcid, size: result.sizeBytes, name: work.name ?? result.fileName, sourceKey: source.sourceKey, locale: (work.locale ?? 'en-US') as Locale })
  deps.logger.info({ task: task.id, bytes: result.sizeBytes, attempt: job.attempt }, 'offline download saved')
}

/**
 * Puts a downloaded file into the drive: the staging file becomes a blob (a rename on local disk),
 * then landDownload's one transaction makes it a file of the task's folder.
 */
async function landFile(deps: DriveDeps, task: TasksTable, input: { stagingPath: string; gcid: string; size: number; name: string; sourceKey: string; locale: Locale }): Promise<void> {
  await announceBlob(deps.db, input.gcid, input.size, deps.clock.nowMs())
  await deps.blobs.adopt(input.stagingPath, input.size, input.gcid)
  try {
    await landDownload(deps, task, { name: input.name, files: [{ path: [input.name], size: input.size, gcid: input.gcid }], oneFile: true, sourceKey: input.sourceKey, locale: input.locale })
  } catch (err) {
    if (err instanceof AppError && err.entry === DriveErrors.file_space_not_enough) {
      await failTask(deps, task, DriveErrors.file_space_not_enough.reason, err.message)
      throw new JobFailedPermanently(err.message)
    }
    throw err
  }
}

/**
 * Housekeeping: deletes partial downloads whose task is gone (deleted while a node was down, or
 * erased with its account). Files of existing tasks stay, for their runs and retries.
 */
export async function removeOrphanOfflineStaging(deps: DriveDeps): Promise<number> {
  const dir = offlineStagingRoot(deps.config)
  const names = await readdir(dir).catch(() => [] as string[])
  let removed = 0
  for (let i = 0; i < names.length; i += 500) {
    const chunk = names.slice(i, i + 500)
    const live = new Set((await deps.db.selectFrom('drive_tasks').select('id').where('id', 'in', chunk).execute()).map((r) => r.id))
    for (const name of chunk) {
      if (live.has(name)) continue
      await removeOfflineStaging(deps.config, name)
      removed++
    }
  }
  return removed
}
