import { randomUUID } from 'node:crypto'
import { isUtf8 } from 'node:buffer'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError, DriveErrors, FOLDER_KIND } from '@cumulus/protocol'
import { type JobContext, JobDeferred, JobFailedPermanently } from '@cumulus/jobs'
import type { Kysely } from 'kysely'
import type { DriveDatabase, FilesTable, TasksTable } from '../../db/schema.js'
import type { DriveDeps } from '../../deps.js'
import {
  addBlobRefsInBulk,
  announceBlobs,
  decompressStagingPath,
  decompressStagingRoot,
  enqueueMedia,
  enqueueThumbnail,
  insertItem,
  insertItems,
  liveFolder,
  lockUserTree,
  type NewItem,
  recordEvents,
  removeDecompressStaging,
  reserveSpace,
  retryOnNameRace,
  takeRunningSlot,
  transcodesOnArrival,
  usageOf,
  workLimits,
} from '../../domain/index.js'
import { ToolMissing } from '../../lib/tools.js'
import { withArchivePath } from './archive-files.js'
import { listArchive, singleFileName, sniffFormat } from './archive-listing.js'
import { keptListing } from './list.js'
import { archiveTree } from './archive-tree.js'
import { entrySegments } from './entry-path.js'
import { EarlyHashes } from './early-hashes.js'
import { ExtractFailed, extractArchive, regularFiles } from './extract.js'
import type { DecompressWork } from './start-decompress.js'
import { type PlannedFile, planUnpack } from './unpack-plan.js'
import { codePageOfLanguage, decodeZipName } from './zip-names.js'

export interface DecompressJobData {
  [key: string]: string
  taskId: string
  userId: string
}

export const DECOMPRESS_MAX_ATTEMPTS = 3
/** The runner renews it every third of its length while the run goes on. */
export const DECOMPRESS_LEASE_SECONDS = 60
/** Unpackings of one account that run at once; more wait as PENDING. */
const RUNNING_PER_USER = 2
const WAIT_FOR_SLOT_MS = 2000
const PROGRESS_WRITE_MS = 1000
/** Unpacking takes this share of the progress bar; storing the files (hashing) the rest. */
const UNPACK_SHARE = 80
/** Staging folders younger than this are never removed by housekeeping. */
const STAGING_GRACE_MS = 60 * 60_000
/** Pictures of one unpacking whose thumbnails are made ahead of time. */
const THUMBNAILS_AHEAD = 1000
/** Files moved into the store at once. */
const STORE_CONCURRENCY = 4
/** Files left after the tool sent to the hashing worker at once (it hashes one while the next waits). */
const HASHES_AT_ONCE = 8

export const UNPACKED_MESSAGE = 'Unpacked'


function workOfTask(row: Pick<TasksTable, 'work'>): DecompressWork {
  return JSON.parse(row.work) as DecompressWork
}

/** A failure that is the archive's (or the user's), not the server's: the task ends, no retry. */
class TaskFailed extends Error {
  constructor(
    readonly reason: string,
    description: string,
  ) {
    super(description)
  }
}

/** Ends the task in ERROR; a password that proved wrong is dropped (a retry needs a new task). */
async function failTask(deps: DriveDeps, task: TasksTable, reason: string, description: string, dropPassword = false): Promise<void> {
  const params = { ...(JSON.parse(task.params) as Record<string, string>), error_description: description.slice(0, 500) }
  const { password: _password, ...rest } = workOfTask(task)
  // Only a task still under way: a run that lost its lease must not undo another's landing.
  await deps.db
    .updateTable('drive_tasks')
    .set({ phase: 'PHASE_TYPE_ERROR', message: reason, params: JSON.stringify(params), ...(dropPassword ? { work: JSON.stringify(rest) } : {}), updated_at: deps.clock.nowMs() })
    .where('id', '=', task.id)
    .where('phase', 'in', ['PHASE_TYPE_PENDING', 'PHASE_TYPE_RUNNING'])
    .execute()
}

/** What a run unpacked: files stored as blobs, the folders to make (empty ones too), and chosen files the tool did not give. */
interface Unpacked {
  files: StoredFile[]
  folders: string[]
  missing: number
}

/** A file unpacked and stored as a blob, ready to become a drive file. */
interface StoredFile {
  path: string
  size: number
  gcid: string
}

/**
 * One run of an unpacking task (issue 14, decision 028), as the job runner calls it: take the
 * archive's listing (kept by the start call on this node, else read again), unpack the chosen
 * entries into a staging folder (extract.ts), take the regular files whose names map to what was
 * chosen, store each as a blob (so unpacking twice stores the bytes once), then land the tree in
 * one transaction. Every failure leaves nothing behind: the staging folder goes, and blobs not
 * landed are unreferenced (the collector's). A rerun after a crash starts again from the archive.
 */
export async function runDecompressTask(deps: DriveDeps, job: JobContext<DecompressJobData>): Promise<void> {
  const task = await deps.db.selectFrom('drive_tasks').selectAll().where('id', '=', job.data.taskId).where('user_id', '=', job.data.userId).where('type', '=', 'decompress').executeTakeFirst()
  if (!task || task.phase === 'PHASE_TYPE_COMPLETE' || task.phase === 'PHASE_TYPE_ERROR') return
  if (!(await takeRunningSlot(deps.db, task, { cap: RUNNING_PER_USER, message: 'Unpacking', nowMs: deps.clock.nowMs() }))) throw new JobDeferred(WAIT_FOR_SLOT_MS + Math.round(Math.random() * 1000))
  const work = workOfTask(task)
  // A folder of this run's own: a run that lost its lease may still be busy in another.
  const staging = join(decompressStagingPath(deps.config, task.id), randomUUID())
  const outDir = join(staging, 'out')
  try {
    await mkdir(outDir, { recursive: true })
    const timings: Record<string, number> = {}
    const unpacked = await unpackAndStore(deps, job, task, work, outDir, timings)
    const landing = performance.now()
    await landUnpacked(deps, task, work, unpacked)
    timings['landMs'] = Math.round(performance.now() - landing)
    deps.logger.info({ task: task.id, files: unpacked.files.length, missing: unpacked.missing, attempt: job.attempt, ...timings }, 'archive unpacked')
  } catch (err) {
    if (job.signal.aborted) throw err
    const failure = asTaskFailure(err)
    if (failure || job.attempt >= DECOMPRESS_MAX_ATTEMPTS) {
      const { reason, message } = failure ?? { reason: 'unpack_failed', message: (err as Error).message }
      await failTask(deps, task, reason, message, reason === 'password_wrong')
      throw new JobFailedPermanently(message, { cause: err })
    }
    await deps.db.updateTable('drive_tasks').set({ message: 'Unpacking (retrying)', updated_at: deps.clock.nowMs() }).where('id', '=', task.id).where('phase', '=', 'PHASE_TYPE_RUNNING').execute()
    throw err
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

/** The reason and description a failure gives its task when it is for good, else null (a retry may help). */
function asTaskFailure(err: unknown): { reason: string; message: string } | null {
  if (err instanceof TaskFailed) return { reason: err.reason, message: err.message }
  if (err instanceof ExtractFailed) {
    const reason = err.reason === 'overrun' ? 'archive_overrun' : err.reason === 'wrong_password' ? 'password_wrong' : 'archive_damaged'
    const message = err.reason === 'overrun' ? `${err.message}: unpacking stopped and nothing was kept` : err.message
    return { reason, message }
  }
  if (err instanceof ToolMissing) return { reason: 'archive_unsupported', message: `this server cannot unpack archives of this kind (${err.tool} is not installed)` }
  if (err instanceof AppError && err.entry === DriveErrors.file_space_not_enough) return { reason: DriveErrors.file_space_not_enough.reason, message: err.message }
  return null
}

async function unpackAndStore(deps: DriveDeps, job: JobContext<DecompressJobData>, task: TasksTable, work: DecompressWork, outDir: string, timings: Record<string, number>): Promise<Unpacked> {
  let mark = performance.now()
  const lap = (name: string) => {
    const now = performance.now()
    timings[name] = Math.round(now - mark)
    mark = now
  }
  if (!(await deps.blobs.stat(work.gcid))) throw new TaskFailed('archive_gone', 'the archive was deleted before it could be unpacked')
  const total = Number(task.file_size)
  let lastWrite = 0
  const report = (percent: number, completedBytes: number, force = false) => {
    const nowMs = deps.clock.nowMs()
    if (!force && nowMs - lastWrite < PROGRESS_WRITE_MS) return
    lastWrite = nowMs
    const next = JSON.stringify({ ...work, completedBytes })
    // Only while it runs: a write that comes after the landing must not undo it (nor put the password back).
    void deps.db
      .updateTable('drive_tasks')
      .set({ progress: Math.min(99, Math.floor(percent)), work: next, updated_at: nowMs })
      .where('id', '=', task.id)
      .where('phase', '=', 'PHASE_TYPE_RUNNING')
      .execute()
      .catch(() => undefined)
    void job.progress({ percent: Math.floor(percent), completedBytes }).catch(() => undefined)
  }

  const parts = work.parts ?? [{ gcid: work.gcid, volume: null }]
  for (const part of parts) if (!(await deps.blobs.stat(part.gcid))) throw new TaskFailed('archive_gone', 'a volume of the archive was deleted before it could be unpacked')
  const limit = workLimits(deps.config, work, deps.clock.nowMs()).storageBytes
  const { usage } = await usageOf(deps.db, task.user_id)
  const blobs = deps.blobs
  const early = new EarlyHashes(outDir, Date.now(), job.signal, async (gcid) => blobs.localPath !== undefined && (await blobs.stat(gcid)) === null)
  try {
    return await unpackWith(early)
  } finally {
    await early.close()
  }

  async function unpackWith(early: EarlyHashes): Promise<Unpacked> {
    const planned = await withArchivePath(deps.blobs, parts, job.signal, async (local) => {
      const kept = keptListing(parts, task.name, work.password ?? '', work.language)
      const listed = kept ?? (await listArchive(deps.config.archive, local, work.password ?? '', { preferredCodePage: codePageOfLanguage(work.language), signal: job.signal, singleName: singleFileName(task.name) }))
      if (listed.status === 'PASS_WORD_EMPTY' || listed.status === 'PASS_WORD_ERROR') throw new TaskFailed('password_wrong', 'the password is missing or wrong')
      if (listed.status !== 'OK') throw new TaskFailed(listed.status === 'FILE_TOO_LARGE' ? 'archive_too_large' : 'archive_unsupported', 'reason' in listed ? listed.reason : 'the archive cannot be read')
      const tree = kept?.tree ?? archiveTree(listed.entries)
      // Against the space left now: another unpacking or upload may have taken what the start saw free.
      const archiveBytes = (await deps.blobs.stat(work.gcid))?.sizeBytes ?? 0
      const plan = planUnpack(listed.entries, tree, work.paths, { freeBytes: limit - usage, maxUnpackBytes: deps.config.archive.maxUnpackBytes, maxRatio: deps.config.archive.maxRatio, archiveBytes })
      if (!plan.ok) throw plan.status === 'NEED_MORE_QUOTA' ? new AppError(DriveErrors.file_space_not_enough, { description: plan.reason }) : new TaskFailed('archive_too_large', plan.reason)
      lap('listMs')
      const container = (await sniffFormat(local)) ?? listed.format
      const links = listed.entries.filter((e) => e.isLink)
      // A legacy zip's names reach 7zz only as their stored bytes, which its list files do not
      // always take: such a zip is unpacked whole, and only what was chosen lands. Its bounds
      // are then the whole archive's.
      const legacyNames = listed.entries.some((e) => e.storedName && !isUtf8(e.storedName))
      const whole = listed.entries.filter((e) => !e.isDirectory && !e.isLink)
      const wholeBytes = whole.reduce((sum, e) => sum + e.sizeBytes, 0)
      // Written whole, it must fit as if all of it were chosen: the quota left, the bounds, the ratio.
      if (legacyNames && wholeBytes > Math.min(limit - usage, deps.config.archive.maxUnpackBytes, Math.max(1024 * 1024, archiveBytes * deps.config.archive.maxRatio))) {
        throw new TaskFailed('archive_too_large', `a zip with names in a legacy code page is unpacked whole, and its ${wholeBytes} bytes do not fit`)
      }
      // Only empty folders chosen: nothing for the tool to do.
      if (plan.files.length === 0) return { ...plan, zipEncoding: listed.zipEncoding }
      const onError = (err: unknown) => {
        early.stop()
        throw err
      }
      await extractArchive(deps.config.archive, {
        archivePath: local,
        container,
        listedFormat: listed.format,
        password: work.password ?? '',
        zipEncoding: listed.zipEncoding,
        outDir,
        // Always the plan's entries by name: what the tree left out (links, names past its bounds,
        // a file shadowed by a folder of its name) is never written at all.
        names: legacyNames ? null : plan.files.map((f) => f.entry.storedName ?? f.entry.name),
        // 7zz refuses a list file with a name that is not UTF-8: such a link (a legacy zip's) is
        // left to 7zz, which keeps links inside the target, and to the walk, which skips links.
        excluded: links.map((e) => e.storedName ?? e.name).filter((name) => typeof name === 'string' || isUtf8(name)),
        rarIndexes: container === 'rar' && !listed.rarEngine ? plan.files.map((f) => f.entry.toolIndex ?? -1).filter((i) => i >= 0) : null,
        ...(listed.rarEngine ? { rarEngine: listed.rarEngine } : {}),
        // A compressed single file is written under the name the listing gave it.
        ...(listed.format === container && ['gzip', 'bzip2', 'xz', 'zstd'].includes(container) && plan.files.length === 1 ? { singleTarget: join(outDir, ...plan.files[0]!.path.split('/')) } : {}),
        maxFileBytes: (legacyNames ? whole : plan.files.map((f) => f.entry)).reduce((max, e) => Math.max(max, e.sizeBytes), 0),
        // A few KiB of slack for formats that round; a bomb is orders of magnitude past it.
        maxTotalBytes: (legacyNames ? wholeBytes : plan.totalBytes) + 64 * 1024,
        onBytes: (bytes) => report(total > 0 ? (Math.min(bytes, total) / total) * UNPACK_SHARE : 0, Math.min(bytes, total)),
        onFileWritten: (path) => early.offer(path),
        signal: job.signal,
      }).catch(onError)
      lap('extractMs')
      await early.settle()
      lap('settleMs')
      return { ...plan, zipEncoding: listed.zipEncoding }
    })

    // What the tool wrote, matched to what was chosen by our own reading of each name.
    const wanted = new Map<string, PlannedFile>(planned.files.map((f) => [f.path, f]))
    // hashedEarly: asked of the early hashes for every file at once (a failed check is a hash again).
    const found: { file: PlannedFile; path: string; size: number; hashedEarly: Promise<string | null> }[] = []
    // A legacy zip's names are on disk as stored: read in the code page the listing found.
    const nameOf = (segment: Buffer) => (isUtf8(segment) || !planned.zipEncoding ? segment.toString('utf8') : decodeZipName(segment, planned.zipEncoding))
    const readyDir = join(outDir, '..', 'ready')
    for await (const staged of regularFiles(outDir)) {
      const path = entrySegments(staged.segments.map(nameOf).join('/'))?.join('/')
      const file = path === undefined ? undefined : wanted.get(path)
      if (!file) continue
      // A file larger than its entry declares: the header lied (checked again here, after the tool).
      if (staged.size > file.entry.sizeBytes && file.entry.sizeBytes >= 0) throw new ExtractFailed('overrun', `${path} holds more than the archive declares`)
      wanted.delete(path!)
      let local = staged.path.toString('utf8')
      if (!isUtf8(staged.path)) {
        // A path that is not UTF-8 cannot be named as a string: it moves to one that can.
        await mkdir(readyDir, { recursive: true })
        local = join(readyDir, String(found.length))
        await rename(staged.path, local)
        found.push({ file, path: local, size: staged.size, hashedEarly: Promise.resolve(null) })
        continue
      }
      found.push({ file, path: local, size: staged.size, hashedEarly: early.take(local).catch(() => null) })
    }
    // The files not hashed early are hashed now (on a worker of the early hashes', at normal
    // priority); then every content is announced in a few statements, and moved into the store a
    // few at a time (the blob store's fsyncs run on libuv's pool).
    lap('walkMs')
    let hashed = 0
    let hashedEarlyBytes = 0
    const gcids: string[] = new Array(found.length)
    // A few at a time: the worker takes them in turn, and an archive of 100,000 files must not
    // post them all at once.
    let nextHash = 0
    const hashNext = async (): Promise<void> => {
      while (nextHash < found.length) {
        const at = nextHash++
        const { path, size, hashedEarly } = found[at]!
        if (job.signal.aborted) throw job.signal.reason
        const known = await hashedEarly
        if (known) hashedEarlyBytes += size
        gcids[at] = known ?? (await early.hashLeft(path, size))
        hashed += size
        report(UNPACK_SHARE + (total > 0 ? (hashed / total) * ((100 - UNPACK_SHARE) / 2) : 0), total)
      }
    }
    await Promise.all(Array.from({ length: HASHES_AT_ONCE }, hashNext))
    lap('hashMs')
    // Announced a batch at a time, just before the batch is moved into the store: a row
    // announced long before its content arrives could pass the collector's grace meanwhile.
    const stored: StoredFile[] = []
    for (let start = 0; start < found.length; start += 500) {
      const batch = found.slice(start, start + 500).map((f, k) => ({ ...f, gcid: gcids[start + k]! }))
      await announceBlobs(deps.db, new Map(batch.map((f) => [f.gcid, f.size])), deps.clock.nowMs())
      let next = 0
      const storeNext = async (): Promise<void> => {
        while (next < batch.length) {
          const { file, path, size, gcid } = batch[next++]!
          if (job.signal.aborted) throw job.signal.reason
          await deps.blobs.adopt(path, size, gcid)
          stored.push({ path: file.path, size, gcid })
          report(UNPACK_SHARE + (100 - UNPACK_SHARE) / 2 + (stored.length / found.length) * ((100 - UNPACK_SHARE) / 2), total)
        }
      }
      await Promise.all(Array.from({ length: STORE_CONCURRENCY }, storeNext))
    }
    lap('storeMs')
    timings['hashedEarlyMiB'] = Math.round(hashedEarlyBytes / 1048576)
    timings['hashedAfterMiB'] = Math.round((hashed - hashedEarlyBytes) / 1048576)
    return { files: stored, folders: planned.folders, missing: wanted.size }
  }
}

/**
 * Lands the unpacked files in one transaction: the space, a folder named after the archive beside
 * it (or the chosen folder), the archive's folders and files under it, the blob references, the
 * events, the previews' jobs and the task's completion. A destination deleted meanwhile gives way
 * to the top of the drive.
 */
async function landUnpacked(deps: DriveDeps, task: TasksTable, work: DecompressWork, unpacked: Unpacked): Promise<void> {
  const limits = workLimits(deps.config, work, deps.clock.nowMs())
  const transcode = transcodesOnArrival(deps.config, limits)
  const total = unpacked.files.reduce((sum, f) => sum + f.size, 0)
  const counts = new Map<string, number>()
  for (const f of unpacked.files) counts.set(f.gcid, (counts.get(f.gcid) ?? 0) + 1)
  const nowMs = deps.clock.nowMs()
  await retryOnNameRace(() =>
    deps.db.transaction().execute(async (trx) => {
      await lockUserTree(trx, task.user_id)
      const current = await trx.selectFrom('drive_tasks').selectAll().where('id', '=', task.id).executeTakeFirst()
      if (!current || current.phase === 'PHASE_TYPE_COMPLETE') return
      await reserveSpace(trx, task.user_id, total, limits.storageBytes)
      const userId = task.user_id
      const folderItem = (parentId: string, name: string): NewItem => ({ userId, parentId, name, kind: FOLDER_KIND, size: 0, gcid: null, phase: 'PHASE_TYPE_COMPLETE', nowMs })
      // A destination deleted meanwhile gives way to the top of the drive (never a database error).
      const destination = await liveFolder(trx, userId, work.parentId, { forInsert: true }).catch((err: unknown) => {
        if (err instanceof AppError) return null
        throw err
      })
      let top: FilesTable | null = null
      let rootId: string
      if (work.defaultParent || destination === null) {
        top = await insertItem(trx, folderItem(destination ?? '', work.folderName))
        rootId = top.id
      } else {
        rootId = destination
      }
      // Folders level by level (a level's parents exist before it), then every file, in bulk.
      const folderIds = new Map<string, string>([['', rootId]])
      const parentOf = (path: string) => folderIds.get(path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '')!
      const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1)
      const byDepth = new Map<number, string[]>()
      for (const folder of unpacked.folders) {
        const depth = folder.split('/').length
        const level = byDepth.get(depth)
        if (level) level.push(folder)
        else byDepth.set(depth, [folder])
      }
      const created: FilesTable[] = []
      for (const depth of [...byDepth.keys()].sort((a, b) => a - b)) {
        const level = byDepth.get(depth)!
        const rows = await insertItems(trx, level.map((path) => folderItem(parentOf(path), nameOf(path))))
        rows.forEach((row, i) => folderIds.set(level[i]!, row.id))
        created.push(...rows)
      }
      const fileRows = await insertItems(
        trx,
        unpacked.files.map((f): NewItem => ({ userId, parentId: parentOf(f.path), name: nameOf(f.path), kind: 'drive#file', size: f.size, gcid: f.gcid, phase: 'PHASE_TYPE_COMPLETE', nowMs })),
      )
      created.push(...fileRows)
      if (!(await addBlobRefsInBulk(trx, counts, nowMs))) throw new Error('an unpacked blob was announced but cannot take a reference')
      const shown = top ? [top] : created.filter((row) => row.parent_id === rootId)
      await recordEvents(trx as Kysely<DriveDatabase>, nowMs, userId, 'TYPE_CREATE', shown)
      // Thumbnails ahead of time for the first pictures only: an archive of 100,000 photos would
      // hold the landing (and, on SQLite, every other writer) for a job row each; the thumbnail
      // route renders the rest when they are first shown.
      let thumbnails = 0
      for (const row of fileRows) {
        if (thumbnails < THUMBNAILS_AHEAD && row.file_category === 'IMAGE') {
          await enqueueThumbnail(deps.jobs, trx, row.gcid!, row.file_category)
          thumbnails++
        } else if (row.file_category !== 'IMAGE') {
          await enqueueThumbnail(deps.jobs, trx, row.gcid!, row.file_category)
        }
        await enqueueMedia(deps.jobs, trx, row.gcid!, row.file_category, transcode)
      }
      const { password: _password, ...kept } = work
      const message = unpacked.missing > 0 ? `${UNPACKED_MESSAGE}; ${unpacked.missing} files could not be read from the archive` : UNPACKED_MESSAGE
      const params = { ...(JSON.parse(current.params) as Record<string, string>), parent_id: top?.parent_id ?? rootId }
      await trx
        .updateTable('drive_tasks')
        // landedIds: what a delete of the task with its files deletes (never a chosen folder's own content).
        .set({ phase: 'PHASE_TYPE_COMPLETE', progress: 100, message, file_id: rootId, file_name: top?.name ?? '', file_size: total, params: JSON.stringify(params), work: JSON.stringify({ ...kept, completedBytes: total, jobId: null, landedIds: shown.map((row) => row.id) }), updated_at: nowMs })
        .where('id', '=', task.id)
        .execute()
    }),
  )
}

/** Housekeeping: deletes the staging folders of unpackings whose task is gone (deleted while a node was down). */
export async function removeOrphanDecompressStaging(deps: DriveDeps): Promise<number> {
  const names = await readdir(decompressStagingRoot(deps.config)).catch(() => [] as string[])
  let removed = 0
  for (let i = 0; i < names.length; i += 500) {
    const chunk = names.slice(i, i + 500)
    const running = new Set((await deps.db.selectFrom('drive_tasks').select('id').where('id', 'in', chunk).where('phase', 'in', ['PHASE_TYPE_PENDING', 'PHASE_TYPE_RUNNING']).execute()).map((r) => r.id))
    for (const name of chunk) {
      if (running.has(name)) continue
      // A folder touched lately may belong to a run a retry just started.
      const modifiedMs = (await stat(join(decompressStagingRoot(deps.config), name)).catch(() => null))?.mtimeMs ?? 0
      if (Date.now() - modifiedMs < STAGING_GRACE_MS) continue
      await removeDecompressStaging(deps.config, name)
      removed++
    }
  }
  return removed
}
