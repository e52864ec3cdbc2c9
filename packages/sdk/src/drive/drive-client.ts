import type {
  BatchAction,
  CreateFileReply,
  CreateOfflineReply,
  CreateOfflineRequest,
  CreateShareReply,
  CreateUploadRequest,
  DriveAbout,
  DriveAssociateList,
  DriveEventList,
  DriveFile,
  DriveFileList,
  DriveFilters,
  DriveOrderField,
  DrivePlayback,
  DriveSearchFilters,
  DriveResource,
  DriveSubtitleList,
  DriveTask,
  DriveTaskList,
  DriveTaskType,
  Phase,
  ResourceListReply,
  ResourceListRequest,
  RetryTaskReply,
  RetryTaskRequest,
  RestoreShareReply,
  ShareDetailReply,
  ShareFileInfoReply,
  ShareInfoReply,
  ShareListReply,
  ShareTo,
  SavePlaybackRequest,
  TaskIdReply,
  VipPrivilegeReply,
} from '@cumulus/protocol'
import { GenericErrors, LocalErrors, findErrorByReason } from '@cumulus/protocol'
import { IdentityError, wrongOptionsParam } from '../errors.js'
import type { IdentityClient } from '../identity-client.js'
import { defaultSleep } from '../options.js'
import { type KeyValueStorage, defaultStorage } from '../storage.js'
import type { QueryValue } from '../transport.js'
import { TusClient, type XhrLike, fetchSender, platformXhr, xhrSender } from './tus.js'
import { ResumableUpload, type UploadHandle, type UploadInput, byteLength, lastModifiedOf } from './upload.js'
import { type StoredUpload, UploadRecords, uploadFingerprint } from './upload-records.js'

export interface DriveClientOptions {
  /** Sends every call: its origins, retries, locale and the signed-in account's bearer. */
  identity: IdentityClient
  /** Where unfinished uploads are kept to resume after a reload; defaults to `localStorage`, else memory. */
  storage?: KeyValueStorage
  /** Bytes per tus PATCH, a positive integer (default 8 MiB). Smaller chunks lose less on a failure. */
  chunkSize?: number
  /**
   * How to create the XMLHttpRequest that sends PATCH requests, for progress within a chunk.
   * Defaults to the platform's XMLHttpRequest where there is one (browsers); `false` sends them
   * with the identity client's fetch (progress then moves chunk by chunk).
   */
  xhr?: (() => XhrLike) | false
  /**
   * Back-off in milliseconds before each retry of a failed tus request (default 1, 3, 5, 10 and
   * 20 s); its length is the number of retries. Reset after every chunk the server accepts.
   */
  retryDelays?: readonly number[]
  /** Waits between retries; defaults to setTimeout (tests pass one that returns at once). */
  sleep?: (ms: number) => Promise<void>
}

export interface ListFilesInput {
  /** The folder; '' or absent for the root, '*' for every folder (with `filters`: trash, starred). */
  parentId?: string
  /** Page size, default 100; the server clamps anything over 500. */
  limit?: number
  /** `next_page_token` of the previous page. */
  pageToken?: string
  filters?: DriveFilters
  /** Default: folders first, then by name (natural order). */
  orderBy?: DriveOrderField
  direction?: 'asc' | 'desc'
}

export interface SearchInput {
  /** What the user typed; matched against names (case, width and accents folded; pinyin for Chinese). */
  q: string
  /** Page size, default 20; the server clamps anything over 100. */
  limit?: number
  pageToken?: string
  filters?: DriveSearchFilters
}

export interface ListTasksInput {
  type?: DriveTaskType
  limit?: number
  pageToken?: string
  filters?: Record<string, unknown>
}

export interface CreateOfflineTaskInput {
  /** An http(s), magnet:, thunder:// (…) link; '' with `torrentFileId`. */
  url: string
  /** The name to save under; default: what the link says. */
  name?: string
  /** The folder the content lands in; default: the account's download folder. */
  parentId?: string
  /** A `.torrent` file in the drive to download from (our extension). */
  torrentFileId?: string
  /** For a torrent: the file indexes to fetch (the preview's leaf `id`s); default every file. */
  fileIndexes?: readonly (string | number)[]
}

export interface SavePlaybackInput {
  /** Where the viewer is, in seconds; 0 to start over next time. */
  positionSeconds: number
  /** The video's length in seconds, when known. */
  durationSeconds?: number
}

/** What to preview: links, or a `.torrent` file already in the drive. */
export type PreviewSource = readonly string[] | { torrentFileId: string }

export interface ListOfflineTasksInput {
  type?: 'offline'
  /** Only tasks in these phases; absent or empty: every phase. */
  phases?: readonly Phase[]
  limit?: number
  pageToken?: string
}

export interface CreateShareInput {
  fileIds: readonly string[]
  /** true: a pass code is needed to open the link (generated unless `customPassCode`). */
  passCode?: boolean
  customPassCode?: string
  /** Days until the link stops working; -1 (default) never. */
  expirationDays?: number
  title?: string
}

/** Where a share is opened from: the share, the pass-code token once a code was given, and the paging. */
export interface OpenShareInput {
  shareId: string
  passCode?: string
  passCodeToken?: string
  pageToken?: string
}

export interface RestoreShareInput {
  shareId: string
  passCodeToken?: string
  /** What to save; absent: the whole share. */
  fileIds?: readonly string[]
  /** The share's folders from its top level down to where `fileIds` are. */
  ancestorIds?: readonly string[]
  /** The caller's folder to save into; absent: the localized "Pack From Shared" folder. */
  parentId?: string
}

export interface TaskResult {
  taskId: string
  /** The task once complete; null when the server named no task to follow. */
  task: DriveTask | null
}

export interface TaskWaitOptions {
  /** Told of the task each time it is read while it runs (its `progress`, 0..100). */
  onProgress?: (task: DriveTask) => void
  /** Stops waiting (the task itself goes on); the wait rejects with `cancelled`. */
  signal?: AbortSignal
  /** Gives up (with `local_timeout`; the task goes on) after this long; default 30 minutes. */
  timeoutMs?: number
}

/** Pauses between reads of a task that is still running: quick at first, then every 2 s. */
const TASK_POLL_DELAYS_MS: readonly number[] = [100, 250, 500, 1000, 2000]
const TASK_WAIT_TIMEOUT_MS = 30 * 60_000
/** Failed reads of a task in a row (the network, a 5xx) before the wait gives up. */
const TASK_READ_RETRIES = 3

export const DEFAULT_CHUNK_SIZE = 8 * 1024 * 1024
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = Object.freeze([1000, 3000, 5000, 10_000, 20_000])

const FILES = '/drive/v1/files'
const TASKS = '/drive/v1/tasks'
const fileUrl = (id: string) => `${FILES}/${encodeURIComponent(id)}`

/**
 * The drive client (drive.md): files and folders, resumable uploads over tus 1.0, batch
 * operations, tasks, quota and activity, for the identity client's signed-in account. Every
 * failure is an IdentityError, so `errorMessage()` localizes drive errors as well.
 */
export class DriveClient {
  readonly #identity: IdentityClient
  readonly #records: UploadRecords
  readonly #tus: TusClient
  readonly #chunkSizeBytes: number
  readonly #retryDelaysMs: readonly number[]
  readonly #sleep: (ms: number) => Promise<void>
  /** Fingerprints of the uploads running in this client: a second upload of the same file must not share their tus resource. */
  readonly #active = new Set<string>()

  /** Throws `wrong options param: <name>` for a bad option. */
  constructor(options: DriveClientOptions) {
    if (options === null || typeof options !== 'object') throw wrongOptionsParam('options')
    const identity = options.identity
    if (!identity || typeof identity.request !== 'function') throw wrongOptionsParam('identity')
    const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE
    if (!Number.isSafeInteger(chunkSize) || chunkSize <= 0) throw wrongOptionsParam('chunkSize')
    const retryDelays = options.retryDelays ?? DEFAULT_RETRY_DELAYS_MS
    if (!Array.isArray(retryDelays) || retryDelays.some((ms) => typeof ms !== 'number' || !(ms >= 0))) throw wrongOptionsParam('retryDelays')
    this.#identity = identity
    this.#records = new UploadRecords(options.storage ?? defaultStorage())
    this.#chunkSizeBytes = chunkSize
    this.#retryDelaysMs = [...retryDelays]
    this.#sleep = options.sleep ?? defaultSleep
    const createXhr = options.xhr === undefined ? platformXhr() : options.xhr || null
    this.#tus = new TusClient({
      send: fetchSender((input, init) => identity.rawFetch(input, init)),
      ...(createXhr ? { sendPatch: xhrSender(createXhr) } : {}),
      authorization: () => identity.authorization(),
      refreshAuthorization: async (used) => {
        try {
          const fresh = `Bearer ${(await identity.refresh()).access_token}`
          return fresh === used ? null : fresh
        } catch {
          return null
        }
      },
    })
  }

  // ---- files ---------------------------------------------------------------------------

  /** One page of a folder's items (or of a filtered view with `parentId: '*'`). */
  list(input: ListFilesInput = {}): Promise<DriveFileList> {
    return this.#call<DriveFileList>('GET', FILES, {
      query: {
        parent_id: input.parentId,
        limit: input.limit,
        page_token: input.pageToken,
        filters: input.filters === undefined ? undefined : JSON.stringify(input.filters),
        order_by: input.orderBy,
        direction: input.direction,
      },
    })
  }

  /**
   * The caller's live files and folders whose names match `q`, best first (exact, prefix, word
   * prefix, substring, pinyin); each result's `params.path` is the folder it is in.
   */
  search(input: SearchInput): Promise<DriveFileList> {
    return this.#call<DriveFileList>('GET', '/drive/v1/search', {
      query: { q: input.q, limit: input.limit, page_token: input.pageToken, filters: input.filters === undefined ? undefined : JSON.stringify(input.filters) },
    })
  }

  /** Suggestions as the user types: names with the matched ranges to highlight. */
  associate(q: string, options: { limit?: number } = {}): Promise<DriveAssociateList> {
    return this.#call<DriveAssociateList>('GET', '/drive/v1/search/associate', { query: { q, limit: options.limit } })
  }

  /** One file or folder with fresh download links; `file_not_found` when missing or not the caller's. */
  get(id: string): Promise<DriveFile> {
    return this.#call<DriveFile>('GET', fileUrl(id))
  }

  /** Creates a folder; a name already taken gets a suffix (`a(1)`). */
  async createFolder({ name, parentId }: { name: string; parentId?: string }): Promise<DriveFile> {
    const reply = await this.#call<CreateFileReply>('POST', FILES, { body: { kind: 'drive#folder', name, parent_id: parentId ?? '' } })
    return reply.file as DriveFile
  }

  /** Renames; `file_duplicated_name` when the folder already has that name. */
  rename(id: string, name: string): Promise<DriveFile> {
    return this.#call<DriveFile>('PATCH', fileUrl(id), { body: { name } })
  }

  /** Stars or unstars one item. */
  setStarred(id: string, starred: boolean): Promise<DriveFile> {
    return this.#call<DriveFile>('PATCH', fileUrl(id), { body: { starred } })
  }

  /** A fresh signed download URL (`web_content_link` of a new `get()`), absolute. */
  async downloadUrl(id: string): Promise<string> {
    const file = await this.get(id)
    return file.web_content_link === '' ? '' : this.#absolute(file.web_content_link)
  }

  // ---- video playback (drive.md "Media and playback") ------------------------------------

  /** Where the caller stopped watching a video (`position_seconds` 0 when never watched); `file_not_found` when missing. */
  playback(id: string): Promise<DrivePlayback> {
    return this.#call<DrivePlayback>('GET', `${fileUrl(id)}/playback`)
  }

  /**
   * Remembers where the caller is in a video (per account and file; the last save wins) and
   * returns the stored position. With `keepalive` the request outlives the page, for a save
   * sent as it closes (`pagehide`); such a save is not retried.
   */
  savePlayback(id: string, input: SavePlaybackInput, options: { keepalive?: boolean } = {}): Promise<DrivePlayback> {
    const body: SavePlaybackRequest = { position_seconds: input.positionSeconds }
    if (input.durationSeconds !== undefined) body.duration_seconds = input.durationSeconds
    return this.#call<DrivePlayback>('PUT', `${fileUrl(id)}/playback`, { body, ...(options.keepalive ? { keepalive: true } : {}) })
  }

  /** A video's text tracks (inside it, and subtitle files beside it), each a signed WebVTT URL made absolute. */
  async subtitles(id: string): Promise<DriveSubtitleList> {
    const reply = await this.#call<DriveSubtitleList>('GET', `${fileUrl(id)}/subtitles`)
    return { ...reply, subtitles: (reply.subtitles ?? []).map((subtitle) => ({ ...subtitle, url: subtitle.url === '' ? '' : this.#absolute(subtitle.url) })) }
  }

  // ---- batch operations ------------------------------------------------------------------

  // Each resolves once its task is complete: most are when the server replies, but a tree too
  // large for one request runs as a job on the server, and the promise follows it.

  star(ids: string[], options?: TaskWaitOptions): Promise<TaskResult> {
    return this.#batch('star', ids, undefined, options)
  }

  unstar(ids: string[], options?: TaskWaitOptions): Promise<TaskResult> {
    return this.#batch('unstar', ids, undefined, options)
  }

  /** Moves into `toParentId` ('' for the root); `file_move_or_copy_to_cur` for a folder into itself or below. */
  move(ids: string[], toParentId: string, options?: TaskWaitOptions): Promise<TaskResult> {
    return this.#batch('batchMove', ids, toParentId, options)
  }

  copy(ids: string[], toParentId: string, options?: TaskWaitOptions): Promise<TaskResult> {
    return this.#batch('batchCopy', ids, toParentId, options)
  }

  trash(ids: string[], options?: TaskWaitOptions): Promise<TaskResult> {
    return this.#batch('batchTrash', ids, undefined, options)
  }

  untrash(ids: string[], options?: TaskWaitOptions): Promise<TaskResult> {
    return this.#batch('batchUntrash', ids, undefined, options)
  }

  /** Deletes for good (no trash). */
  delete(ids: string[], options?: TaskWaitOptions): Promise<TaskResult> {
    return this.#batch('batchDelete', ids, undefined, options)
  }

  /** Deletes everything in the trash for good. */
  async emptyTrash(options?: TaskWaitOptions): Promise<TaskResult> {
    const reply = await this.#call<TaskIdReply>('PATCH', `${FILES}/trash:empty`)
    return this.#settled(reply.task_id, options)
  }

  async #batch(action: BatchAction, ids: string[], toParentId: string | undefined, options: TaskWaitOptions | undefined): Promise<TaskResult> {
    const body = toParentId === undefined ? { ids } : { ids, to: { parent_id: toParentId } }
    const reply = await this.#call<TaskIdReply>('POST', `${FILES}:${action}`, { body })
    return this.#settled(reply.task_id, options)
  }

  async #settled(taskId: string | undefined, options: TaskWaitOptions | undefined): Promise<TaskResult> {
    if (typeof taskId !== 'string' || taskId === '') return { taskId: '', task: null }
    return { taskId, task: await this.waitForTask(taskId, options) }
  }

  /**
   * Reads a task until it is complete and resolves with it; rejects with the task's catalogue
   * error (its `params.error`, else its `message`) when it ends in PHASE_TYPE_ERROR.
   */
  async waitForTask(taskId: string, options: TaskWaitOptions = {}): Promise<DriveTask> {
    const deadline = Date.now() + (options.timeoutMs ?? TASK_WAIT_TIMEOUT_MS)
    const cancelled = () => IdentityError.of(GenericErrors.cancelled, 'stopped waiting for the task')
    let failures = 0
    for (let round = 0; ; round += 1) {
      if (options.signal?.aborted) throw cancelled()
      let task: DriveTask
      try {
        task = await this.getTask(taskId)
        failures = 0
      } catch (error) {
        // The operation itself went through: a lost read (the network, a 5xx) is tried again
        // rather than reported as its failure; an answer (the task is gone) is final.
        const transient = error instanceof IdentityError && (error.status === 0 || error.status >= 500)
        if (!transient || ++failures > TASK_READ_RETRIES) throw error
        await this.#pause(TASK_POLL_DELAYS_MS[Math.min(round, TASK_POLL_DELAYS_MS.length - 1)]!, options.signal, cancelled)
        continue
      }
      if (task.phase === 'PHASE_TYPE_COMPLETE') return task
      if (task.phase === 'PHASE_TYPE_ERROR') throw taskFailure(task)
      options.onProgress?.(task)
      if (Date.now() >= deadline) throw IdentityError.of(LocalErrors.local_timeout, `task ${taskId} is still ${task.phase}`)
      await this.#pause(TASK_POLL_DELAYS_MS[Math.min(round, TASK_POLL_DELAYS_MS.length - 1)]!, options.signal, cancelled)
    }
  }

  /** The client's pause, cut short (with `cancelled`) when the signal aborts. */
  async #pause(ms: number, signal: AbortSignal | undefined, cancelled: () => Error): Promise<void> {
    if (!signal) return this.#sleep(ms)
    if (signal.aborted) throw cancelled()
    let onAbort: (() => void) | undefined
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(cancelled())
      signal.addEventListener('abort', onAbort, { once: true })
    })
    try {
      await Promise.race([this.#sleep(ms), aborted])
    } finally {
      signal.removeEventListener('abort', onAbort!)
    }
  }

  // ---- uploads -------------------------------------------------------------------------

  /**
   * Uploads a file: creates it (`POST /drive/v1/files`, resumable over tus), then sends it in
   * chunks, resuming from the server's offset after a failure (a few retries with back-off).
   * When the server already has the content (`hash` given) the file completes at once and no
   * byte is sent. An unfinished upload of the same file (same account, folder, name, size and
   * modification time) stored by an earlier page continues where it stopped.
   */
  upload(input: UploadInput): UploadHandle {
    const userId = this.#identity.credentials()?.sub ?? ''
    const lastModified = lastModifiedOf(input)
    const size = byteLength(input.file)
    // Without a modification time or hash, two different contents of one name and size look
    // alike; resuming the wrong one would mix their bytes.
    const identifiable = lastModified !== undefined || Boolean(input.hash)
    const fingerprint = identifiable
      ? uploadFingerprint({ userId, parentId: input.parentId ?? '', name: input.name, size, lastModified: lastModified ?? 0, hash: input.hash })
      : undefined
    const own = fingerprint !== undefined && !this.#active.has(fingerprint) ? fingerprint : undefined
    if (own !== undefined) this.#active.add(own)
    return new ResumableUpload(
      {
        tus: this.#tus,
        create: (body: CreateUploadRequest) => this.#call<CreateFileReply>('POST', FILES, { body }),
        getFile: (id) => this.get(id),
        records: own === undefined ? null : this.#records,
        resolveUrl: (endpoint) => this.#absolute(endpoint),
        chunkSizeBytes: this.#chunkSizeBytes,
        retryDelaysMs: this.#retryDelaysMs,
        sleep: this.#sleep,
        now: Date.now,
        userId,
        onSettled: () => {
          if (own !== undefined) this.#active.delete(own)
        },
      },
      input,
      own,
    )
  }

  /** The signed-in account's unfinished uploads stored by this or an earlier page, oldest first (for a "resume" list). */
  pendingUploads(): StoredUpload[] {
    const userId = this.#identity.credentials()?.sub ?? ''
    return this.#records.list().filter((record) => record.userId === userId)
  }

  /** Forgets a stored upload locally; the server drops the unfinished file when it expires. See `discardUpload`. */
  forgetUpload(fingerprint: string): void {
    this.#records.remove(fingerprint)
  }

  /** Discards a stored upload on the server too (tus DELETE), then forgets it. Idempotent. */
  async discardUpload(fingerprint: string): Promise<void> {
    const record = this.#records.find(fingerprint)
    if (record) await this.#tus.terminate(record.endpoint)
    this.#records.remove(fingerprint)
  }

  // ---- offline downloads (drive.md "Offline download") -----------------------------------

  /**
   * Adds an offline download: `POST /drive/v1/files` with `upload_type: UPLOAD_TYPE_URL`. When
   * the server already knew the content the reply's `file` is set and `task` is null or
   * complete ("instant completion"). Refusals: `task_daily_create_limit_vip` past the plan's
   * daily count, `file_space_not_enough` when the known size does not fit, `invalid_argument`
   * for a link the server does not fetch.
   */
  createOfflineTask(input: CreateOfflineTaskInput): Promise<CreateOfflineReply> {
    const files = input.fileIndexes?.map(String)
    const body: CreateOfflineRequest = {
      kind: 'drive#file',
      upload_type: 'UPLOAD_TYPE_URL',
      url: files === undefined ? { url: input.url } : { url: input.url, files },
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.parentId === undefined ? {} : { parent_id: input.parentId }),
      ...(input.torrentFileId === undefined ? {} : { params: { torrent_file_id: input.torrentFileId } }),
    }
    return this.#call<CreateOfflineReply>('POST', FILES, { body })
  }

  /**
   * What links, or a `.torrent` file in the drive, would download (`POST /drive/v1/resource/list`):
   * one resource per link, in order, each with its name, size, file count and `meta.status`
   * ("OK" or the reason it is refused); a torrent's file tree is in `dir.resources`.
   */
  async previewResources(source: PreviewSource, options: { pageSize?: number } = {}): Promise<DriveResource[]> {
    const body: ResourceListRequest = isLinkList(source) ? { urls: source.join('\n') } : { torrent_file_id: source.torrentFileId }
    if (options.pageSize !== undefined) body.page_size = options.pageSize
    const reply = await this.#call<ResourceListReply>('POST', '/drive/v1/resource/list', { body })
    return reply.list?.resources ?? []
  }

  /** One page of offline tasks, newest first, optionally only those in `phases`. */
  listTasks(input: ListOfflineTasksInput = {}): Promise<DriveTaskList> {
    const phases = input.phases ?? []
    return this.tasks({
      type: input.type ?? 'offline',
      ...(input.limit === undefined ? {} : { limit: input.limit }),
      ...(input.pageToken === undefined ? {} : { pageToken: input.pageToken }),
      ...(phases.length === 0 ? {} : { filters: { phase: { in: phases.join(',') } } }),
    })
  }

  /**
   * Puts a failed offline task back in the queue (`POST /drive/v1/task`, `create_type: RETRY`)
   * and returns it as it is now; a finished task comes back unchanged. `task_not_found` when missing.
   */
  async retryTask(id: string): Promise<DriveTask> {
    const body: RetryTaskRequest = { type: 'offline', create_type: 'RETRY', id }
    const reply = await this.#call<RetryTaskReply | DriveTask>('POST', '/drive/v1/task', { body })
    // Some servers answer with the task itself rather than `{task}`.
    return 'task' in reply ? reply.task : reply
  }

  // ---- account-wide ----------------------------------------------------------------------

  /** Quota and usage, and the plan's offline-download counts (`quotas`; see `offlineQuotasOf`). */
  about(): Promise<DriveAbout> {
    return this.#call<DriveAbout>('GET', '/drive/v1/about')
  }

  /** Recent activity, newest first. */
  events(input: { limit?: number; pageToken?: string } = {}): Promise<DriveEventList> {
    return this.#call<DriveEventList>('GET', '/drive/v1/events', { query: { limit: input.limit, page_token: input.pageToken } })
  }

  tasks(input: ListTasksInput = {}): Promise<DriveTaskList> {
    return this.#call<DriveTaskList>('GET', TASKS, {
      query: {
        type: input.type,
        limit: input.limit,
        page_token: input.pageToken,
        filters: input.filters === undefined ? undefined : JSON.stringify(input.filters),
      },
    })
  }

  /** One task; `task_not_found` when missing. */
  getTask(id: string): Promise<DriveTask> {
    return this.#call<DriveTask>('GET', `${TASKS}/${encodeURIComponent(id)}`)
  }

  /**
   * Deletes tasks (cancelling those still running); with `deleteFiles`, the files they produced
   * as well: finished ones go to the trash, a running download's partial file is deleted for
   * good. Unknown ids are ignored, so deleting twice succeeds.
   */
  async deleteTasks(ids: readonly string[], options: { deleteFiles?: boolean } = {}): Promise<void> {
    await this.#call('DELETE', TASKS, { query: { task_ids: ids.join(','), delete_files: options.deleteFiles } })
  }

  // ---- shares (drive.md "Shares") --------------------------------------------------------

  /** Shares the caller's items as one link; with `passCode`, the link asks for a code. */
  createShare(input: CreateShareInput): Promise<CreateShareReply> {
    const shareTo: ShareTo = input.passCode || input.customPassCode ? 'encryptedlink' : 'publiclink'
    return this.#call<CreateShareReply>('POST', '/drive/v1/share', {
      body: {
        file_ids: [...input.fileIds],
        share_to: shareTo,
        pass_code_option: shareTo === 'encryptedlink' ? 'REQUIRED' : 'NOT_REQUIRED',
        expiration_days: input.expirationDays ?? -1,
        ...(input.customPassCode ? { custom_pass_code: input.customPassCode } : {}),
        ...(input.title ? { title: input.title } : {}),
      },
    })
  }

  /** One page of the caller's shares, newest first, with their counts. */
  listShares(input: { limit?: number; pageToken?: string } = {}): Promise<ShareListReply> {
    return this.#call<ShareListReply>('GET', '/drive/v1/share/list', { query: { limit: input.limit, page_token: input.pageToken } })
  }

  /** Cancels shares: their links stop working at once. Unknown ids are ignored. */
  async deleteShares(ids: readonly string[]): Promise<void> {
    await this.#call('POST', '/drive/v1/share:batchDelete', { body: { ids: [...ids] } })
  }

  /**
   * Opens a share (no account needed): its status, and when OK its top-level items. Give the
   * pass code once; the reply's `pass_code_token` opens the share from then on.
   */
  openShare(input: OpenShareInput): Promise<ShareInfoReply> {
    return this.#public<ShareInfoReply>('/drive/v1/share', {
      share_id: input.shareId,
      pass_code: input.passCode,
      pass_code_token: input.passCodeToken,
      page_token: input.pageToken,
    })
  }

  /** One page of a folder inside a share. */
  shareFolder(input: { shareId: string; parentId: string; passCodeToken?: string; pageToken?: string }): Promise<ShareDetailReply> {
    return this.#public<ShareDetailReply>('/drive/v1/share/detail', {
      share_id: input.shareId,
      parent_id: input.parentId,
      pass_code_token: input.passCodeToken,
      page_token: input.pageToken,
    })
  }

  /** One item of a share with fresh download links (they stop working when the share does). */
  shareFile(input: { shareId: string; fileId: string; passCodeToken?: string }): Promise<ShareFileInfoReply> {
    return this.#public<ShareFileInfoReply>('/drive/v1/share/file_info', { share_id: input.shareId, file_id: input.fileId, pass_code_token: input.passCodeToken })
  }

  /** Saves a share (or chosen items of it) into the caller's drive; the reply's task follows a large save. */
  restoreShare(input: RestoreShareInput): Promise<RestoreShareReply> {
    return this.#call<RestoreShareReply>('POST', '/drive/v1/share/restore', {
      body: {
        share_id: input.shareId,
        pass_code_token: input.passCodeToken ?? '',
        file_ids: [...(input.fileIds ?? [])],
        ancestor_ids: [...(input.ancestorIds ?? [])],
        parent_id: input.parentId ?? '',
        specify_parent_id: input.parentId !== undefined,
      },
    })
  }

  /** The account's membership. */
  async vip(): Promise<VipPrivilegeReply['data']> {
    const reply = await this.#call<VipPrivilegeReply>('GET', '/drive/v1/privilege/vip')
    return reply.data
  }

  /** A call that needs no account (a share's pages): sent without the bearer, so a visitor's missing or stale session does not matter. */
  #public<T>(path: string, query: Record<string, QueryValue>): Promise<T> {
    return this.#identity.request<T>('GET', path, { query, auth: false })
  }

  #call<T>(method: string, path: string, options: { query?: Record<string, QueryValue>; body?: unknown; keepalive?: boolean } = {}): Promise<T> {
    return this.#identity.request<T>(method, path, { ...options, auth: true })
  }

  /** A URL the server gave, made absolute against the origin that answered last. */
  #absolute(url: string): string {
    return new URL(url, `${this.#identity.origin}/`).href
  }
}

function isLinkList(source: PreviewSource): source is readonly string[] {
  return Array.isArray(source)
}

/** The error a failed task ends with: its catalogue reason, its English detail as the description. */
function taskFailure(task: DriveTask): IdentityError {
  const params = (task.params ?? {}) as Record<string, unknown>
  const reason = typeof params['error'] === 'string' && params['error'] !== '' ? params['error'] : task.message
  const entry = findErrorByReason(reason) ?? GenericErrors.failed_precondition
  const description = typeof params['error_description'] === 'string' ? params['error_description'] : task.message
  return IdentityError.of(entry, description)
}
