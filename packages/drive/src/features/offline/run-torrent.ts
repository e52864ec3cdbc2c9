import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { AppError, DriveErrors, type Locale } from '@cumulus/protocol'
import { type JobContext, JobDeferred, JobFailedPermanently } from '@cumulus/jobs'
import type { TasksTable } from '../../db/schema.js'
import type { DriveDeps } from '../../deps.js'
import {
  announceBlob,
  offlineStagingPath,
  removeOfflineStaging,
  usageOf,
  workOf,
  workLimits,
} from '../../domain/index.js'
import { EarlyGcids } from './early-gcids.js'
import { landDownload } from './land-tree.js'
import { type DownloadedFile, type TorrentDownload, TorrentEngineError, type TorrentMeta, type TorrentSource, everyByteFinished } from './torrent/index.js'

/** How often a running torrent's progress is read and written to its task. */
const PROGRESS_POLL_MS = 500
/** The shortest wait between two reads, when the end is expected sooner than PROGRESS_POLL_MS. */
const FINAL_POLL_MS = 100

/** The wait before the next read: shorter when the rest should arrive before a whole interval has passed. */
export function nextPollMs(progress: { downloadedBytes: number; totalBytes: number; bytesPerSecond: number }): number {
  if (progress.bytesPerSecond <= 0) return PROGRESS_POLL_MS
  const expectedMs = ((progress.totalBytes - progress.downloadedBytes) / progress.bytesPerSecond) * 1000
  return Math.round(Math.min(PROGRESS_POLL_MS, Math.max(FINAL_POLL_MS, expectedMs)))
}
/** How long a magnet may take to find its metadata in the swarm before the task fails. */
export const MAGNET_METADATA_TIMEOUT_MS = 90_000
/** The torrent file a run keeps beside its data, so a restart never fetches the metadata again. */
const KEPT_TORRENT = '.cumulus-source.torrent'

export interface TorrentRunInput {
  task: TasksTable
  params: Record<string, string>
  /** The magnet link, when the task was added from one. */
  magnet: string | null
  failTask(reason: string, description: string): Promise<void>
  updateTask(changes: Partial<Omit<TasksTable, 'id' | 'user_id'>>): Promise<void>
}

/** The catalogue reason a torrent failure gives its task, and whether another run may succeed. */
function classify(err: TorrentEngineError): { reason: string; retryable: boolean } {
  switch (err.code) {
    case 'engine_unavailable':
      return { reason: DriveErrors.offline_torrent_unavailable.reason, retryable: false }
    case 'metadata_timeout':
      return { reason: DriveErrors.offline_torrent_no_metadata.reason, retryable: false }
    case 'invalid_source':
    case 'invalid_selection':
      return { reason: DriveErrors.offline_source_unsupported.reason, retryable: false }
    default:
      return { reason: DriveErrors.offline_source_failed.reason, retryable: true }
  }
}

/**
 * One run of a BitTorrent task: a magnet, or a .torrent file in the caller's drive. The run keeps
 * the torrent's metadata beside its data, so a run after a crash or restart starts the engine on
 * the same folder, which re-checks the pieces on disk and fetches only the rest. When every
 * selected file is there, the torrent lands in the drive: one folder named after it (a single-file
 * torrent as that file), padding files left out.
 */
export async function runTorrent(deps: DriveDeps, job: JobContext<any>, input: TorrentRunInput, maxAttempts: number): Promise<void> {
  const { task } = input
  const work = workOf(task)
  const dir = offlineStagingPath(deps.config, task.id)
  await mkdir(dir, { recursive: true })
  const kept = join(dir, KEPT_TORRENT)

  let source: TorrentSource
  const keptBytes = await readFile(kept).catch(() => null)
  if (keptBytes) source = keptBytes
  else if (work.torrentFileId) source = await torrentFileBytes(deps, task, work.torrentFileId)
  // The engine checks the trackers it names (createTrackerCheck) before it announces to any.
  else source = input.magnet ?? ''

  let download: TorrentDownload | null = null
  // The files' GCIDs, hashed as their pieces arrive, so the landing has little left to hash.
  const gcids = new EarlyGcids()
  try {
    download = await deps.torrents.start(source, { dir, ...(work.fileIndexes ? { selectedIndexes: work.fileIndexes } : {}), metadataTimeoutMs: MAGNET_METADATA_TIMEOUT_MS, signal: job.signal })
    if (!keptBytes) await writeFile(kept, download.meta.torrentFile)
    const meta = download.meta
    const limit = workLimits(deps.config, work, deps.clock.nowMs()).storageBytes
    const { usage } = await usageOf(deps.db, task.user_id)
    const selectedBytes = meta.files.filter((f) => !f.padding && download!.selectedIndexes.includes(f.index)).reduce((sum, f) => sum + f.sizeBytes, 0)
    if (selectedBytes > limit - usage) {
      await download.remove()
      await removeOfflineStaging(deps.config, task.id)
      await input.failTask(DriveErrors.offline_source_too_large.reason, `${selectedBytes} bytes do not fit the ${limit - usage} bytes left`)
      throw new JobFailedPermanently('torrent larger than the quota left')
    }
    await input.updateTask({ file_size: selectedBytes, name: work.name ?? meta.name, file_name: work.name ?? meta.name })

    for (;;) {
      if (job.signal.aborted) throw job.signal.reason
      const progress = await download.progress()
      const percent = progress.totalBytes > 0 ? Math.min(99, Math.floor((progress.downloadedBytes / progress.totalBytes) * 100)) : 0
      await input.updateTask({ progress: percent, params: JSON.stringify({ ...input.params, predict_speed: String(Math.round(progress.bytesPerSecond)) }) })
      await job.progress({ receivedBytes: progress.downloadedBytes, totalBytes: progress.totalBytes, peers: progress.peers })
      if (progress.done) break
      // Every selected byte verified and written: aria2 reports the download complete only at its
      // next one-second tick, when it decides to stop seeding; the files are ready now.
      const parts = await download.fileProgress()
      if (everyByteFinished(parts)) break
      gcids.offer(parts)
      await sleep(nextPollMs(progress), undefined, { signal: job.signal }).catch(() => undefined)
    }
    const files = await download.files()
    await download.stop()
    // Only a whole torrent stands for its info hash; a pick of its files does not.
    const whole = meta.files.filter((f) => !f.padding).every((f) => download!.selectedIndexes.includes(f.index))
    await landTorrent(deps, task, { meta, files, gcids, sourceKey: whole ? `btih:${meta.infoHash}` : null, name: work.name ?? meta.name, locale: (work.locale ?? 'en-US') as Locale })
    await rm(dir, { recursive: true, force: true })
    deps.logger.info({ task: task.id, infoHash: meta.infoHash, attempt: job.attempt }, 'offline download saved')
  } catch (err) {
    await gcids.close()
    if (job.signal.aborted) {
      // Stopping keeps the data for the next run; a deleted task's data goes with it.
      await download?.stop().catch(() => undefined)
      const stillThere = await deps.db.selectFrom('drive_tasks').select('id').where('id', '=', task.id).executeTakeFirst()
      if (!stillThere) {
        await download?.remove().catch(() => undefined)
        await removeOfflineStaging(deps.config, task.id)
      }
      throw err
    }
    if (err instanceof JobFailedPermanently) throw err
    if (err instanceof AppError) {
      await input.failTask(err.entry.reason, err.message)
      throw new JobFailedPermanently(err.message)
    }
    if (!(err instanceof TorrentEngineError)) throw err
    if (err.code === 'busy') throw new JobDeferred(5000)
    const { reason, retryable } = classify(err)
    if (!retryable || job.attempt >= maxAttempts) {
      await download?.stop().catch(() => undefined)
      if (!retryable) await removeOfflineStaging(deps.config, task.id)
      await input.failTask(reason, err.message)
      throw new JobFailedPermanently(err.message, { cause: err })
    }
    await input.updateTask({ message: `Saving (retrying: ${err.code})` })
    throw err
  }
}

/** The bytes of the caller's .torrent file the task was added from. */
async function torrentFileBytes(deps: DriveDeps, task: TasksTable, fileId: string): Promise<Uint8Array> {
  const file = await deps.db.selectFrom('drive_files').select(['gcid', 'size']).where('id', '=', fileId).where('user_id', '=', task.user_id).executeTakeFirst()
  if (!file?.gcid) throw new AppError(DriveErrors.file_not_found, { description: 'the .torrent file of this task is gone' })
  if (file.size > 16 * 1024 * 1024) throw new AppError(DriveErrors.offline_source_unsupported, { description: 'a .torrent file is at most 16 MiB' })
  const chunks: Buffer[] = []
  for await (const chunk of await deps.blobs.get(file.gcid)) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/**
 * Lands a finished torrent: each file becomes a blob (its GCID from `gcids`, mostly hashed while
 * it downloaded, then moved into the store), then one transaction creates the torrent's folder
 * tree (or its one file), takes the blob references and the space, completes the task and
 * remembers the info hash.
 */
async function landTorrent(deps: DriveDeps, task: TasksTable, input: { meta: TorrentMeta; files: DownloadedFile[]; gcids: EarlyGcids; sourceKey: string | null; name: string; locale: Locale }): Promise<void> {
  for (const file of input.files) {
    const size = (await stat(file.localPath)).size
    if (size !== file.sizeBytes) throw new TorrentEngineError('download_failed', `${file.path.join('/')} is ${size} bytes, ${file.sizeBytes} expected`)
  }
  const gcids = await input.gcids.finish(input.files)
  const stored: { file: DownloadedFile; gcid: string }[] = []
  for (const file of input.files) {
    const gcid = gcids.get(file.index) as string
    await announceBlob(deps.db, gcid, file.sizeBytes, deps.clock.nowMs())
    await deps.blobs.adopt(file.localPath, file.sizeBytes, gcid)
    stored.push({ file, gcid })
  }
  const landed = stored.map(({ file, gcid }) => ({ path: file.path, size: file.sizeBytes, gcid }))
  await landDownload(deps, task, { name: input.name, files: landed, oneFile: !input.meta.multiFile && landed.length === 1, sourceKey: input.sourceKey, locale: input.locale })
}
