import { AppError, type DecompressReply, GenericErrors, type Locale } from '@cumulus/protocol'
import type { Caller, DriveDeps } from '../../deps.js'
import { DECOMPRESS_QUEUE, enqueueDecompressRun, liveFolder, planOf, recordTask, requireDecompressRoom, usageOf } from '../../domain/index.js'
import { entryPath } from './entry-path.js'
import { type ArchivePart, archiveParts } from './archive-files.js'
import { readArchive, ownedArchive } from './list.js'
import { findNode, planUnpack } from './unpack-plan.js'

/** The most paths one unpack call may choose (a folder stands for all it holds). */
export const MAX_CHOSEN_PATHS = 10_000

export interface DecompressInput {
  fileId: string
  gcid: string
  password: string
  paths: string[]
  defaultParent: boolean
  parentId: string
  /** The caller's Accept-Language: the zip code page the listing used. */
  language: string
  locale: Locale
}

/** What a task of type decompress keeps in TasksTable.work. */
export interface DecompressWork {
  plan: string
  planUntilMs?: number
  locale: string
  language: string
  archiveId: string
  gcid: string
  /** The files it is read from: itself, or a RAR's volumes as they were when the task was added. */
  parts?: ArchivePart[]
  /** Kept until the run ends (the tools need it), then removed from the row. */
  password?: string
  paths: string[]
  defaultParent: boolean
  /** Where the folder of a default-parent unpacking goes, or the chosen folder ('' is the top). */
  parentId: string
  /** The folder a default-parent unpacking makes, named after the archive. */
  folderName: string
  /** Bytes unpacked so far (the progress call's task_size_completed). */
  completedBytes?: number
  /** The items the task made at the destination's top (what deleting the task with its files deletes). */
  landedIds?: string[]
  jobId?: string | null
}

const ARCHIVE_SUFFIX = /(\.part\d+)?\.(tar\.(gz|bz2|xz|zst|lz|lzma|z)|tgz|tbz2?|txz|tzst|zip|7z|rar|tar|gz|bz2|xz|zst|zipx|cab|iso|arj|lzh)$/i

/** The folder an archive unpacks into beside it: its name without the archive's suffixes (`photos.tar.gz` → `photos`). */
export function folderNameOf(archiveName: string): string {
  const stem = archiveName.replace(ARCHIVE_SUFFIX, '').trim()
  return stem === '' || stem === '.' || stem === '..' ? archiveName : stem
}

function invalid(description: string, field: string): AppError {
  return new AppError(GenericErrors.invalid_argument, { description, metadata: { field } })
}

/**
 * `POST /decompress/v1/decompress`: checks that what the caller chose fits (the quota left, the
 * operator's bound, a believable ratio) before anything is written, then records the task of
 * type `decompress` and queues its job in one transaction. A password the archive needs and
 * lacks, or an archive this server cannot read, is a status as for `list`, with HTTP 200.
 */
export async function startDecompress(deps: DriveDeps, caller: Caller, input: DecompressInput): Promise<DecompressReply> {
  const file = await ownedArchive(deps, caller.userId, input.fileId, input.gcid)
  if (input.paths.length > MAX_CHOSEN_PATHS) throw invalid(`files may choose at most ${MAX_CHOSEN_PATHS} paths`, 'files')
  const paths = [...new Set(input.paths.map((raw) => (raw === '' ? '' : (entryPath(raw) ?? '\u0000'))))]
  if (paths.includes('\u0000')) throw invalid('a path names nothing an archive can hold', 'files')
  // Choosing the top ('') chooses everything.
  const chosen = paths.includes('') ? [] : paths
  const parentId = input.defaultParent ? file.parent_id : input.parentId
  if (!input.defaultParent) await liveFolder(deps.db, caller.userId, parentId)

  const reply = (status: DecompressReply['status'], statusText: string, taskId = '', filesNum = 0): DecompressReply => ({
    status,
    status_text: statusText,
    task_id: taskId,
    files_num: filesNum,
    redirect_link: taskId ? `${deps.config.publicUrl}/decompress/${file.id}?task_id=${taskId}` : '',
  })
  const parts = await archiveParts(deps, file)
  const read = await readArchive(deps, caller.userId, parts, file.name, input.password, input.language)
  if (read.status !== 'OK') return reply(read.status, read.reason)
  for (const path of chosen) if (!findNode(read.tree, path)) throw invalid(`${path} is not in the archive`, 'files')

  const nowMs = deps.clock.nowMs()
  const plan = planOf(deps.config, caller.membership, nowMs)
  const limit = plan.limits.storageBytes
  const { usage } = await usageOf(deps.db, caller.userId)
  const planned = planUnpack(read.entries, read.tree, chosen, { freeBytes: limit - usage, maxUnpackBytes: deps.config.archive.maxUnpackBytes, maxRatio: deps.config.archive.maxRatio, archiveBytes: file.size })
  if (!planned.ok) return reply(planned.status, planned.reason)

  const folderName = folderNameOf(file.name)
  const work: DecompressWork = {
    plan: plan.name,
    ...(plan.member && caller.membership ? { planUntilMs: caller.membership.expiresAtMs } : {}),
    locale: input.locale,
    language: input.language,
    archiveId: file.id,
    gcid: file.gcid,
    parts,
    ...(input.password ? { password: input.password } : {}),
    paths: chosen,
    defaultParent: input.defaultParent,
    parentId,
    folderName,
  }
  const task = await deps.db.transaction().execute(async (trx) => {
    // Each queued unpacking will hold disk and a core: an account queues a bounded number.
    await requireDecompressRoom(trx, caller.userId)
    const task = await recordTask(trx, {
      userId: caller.userId,
      type: 'decompress',
      name: file.name,
      phase: 'PHASE_TYPE_PENDING',
      progress: 0,
      params: { file_id: file.id, gcid: file.gcid, parent_id: parentId, default_parent: String(input.defaultParent), files_num: String(planned.files.length) },
      fileName: input.defaultParent ? folderName : '',
      fileSizeBytes: planned.totalBytes,
      nowMs,
      work: work as unknown as Record<string, unknown>,
    })
    await enqueueDecompressRun(deps, trx, task)
    return task
  })
  deps.jobs.notify(DECOMPRESS_QUEUE)
  return reply('OK', '', task.id, planned.files.length)
}
