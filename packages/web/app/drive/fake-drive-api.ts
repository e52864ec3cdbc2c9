import { ASSOCIATE_LIMIT_DEFAULT, type CreateOfflineReply, type CreateShareReply, type DriveShare, SHARE_PASS_CODE_PATTERN, SHARE_TEXTS, type ShareListReply, type DriveAbout, type DriveAssociate, type DriveAssociateList, type DriveFile, type DriveFileList, type DriveMedia, type DrivePlayback, type DriveResource, type DriveSubtitle, type DriveTask, type DriveTaskList, DriveErrors, ERROR_MESSAGES, type ErrorEntry, FILE_KIND, FOLDER_KIND, GenericErrors, type Locale, LOCALIZED_MESSAGE_TYPE, type Phase, SEARCH_LIMIT_DEFAULT, SEARCH_MATCHES, SEARCH_QUERY_MAX_CHARS, type SearchMatch } from '@cumulus/protocol'
import { IdentityError } from '@cumulus/sdk'
import type { DriveApi, DriveListInput, DrivePendingUpload, DriveSearchInput, DriveUploadHandle, DriveUploadInput, OfflineTaskInput, ShareCreateInput } from './drive-api'

/**
 * An in-memory drive behind the `DriveApi` interface, for component tests: list with filters,
 * order and cursor pages, the batch calls, and uploads the test drives by hand (progress,
 * finish, fail). Every call is recorded. Errors are the SDK's `IdentityError` with the
 * catalogue's drive reasons, so the pages localize them as they would the server's.
 */

let counter = 0

/**
 * A video's media entry (drive.md "Media and playback"): the Original plays from a content link,
 * a rendition from its playlist; `links` names the two URLs a test asserts on.
 */
export function aMedia(name: string, overrides: Partial<DriveMedia> = {}, links: { original: string; rendition: (name: string) => string } = { original: '/drive/v1/content/v1?s=orig', rendition: (n) => `/drive/v1/media/v1/${n}.m3u8?s=r` }): DriveMedia {
  const origin = name === 'Original'
  return {
    media_id: `m-${name}`,
    media_name: name,
    video: null,
    link: { url: origin ? links.original : links.rendition(name), token: '', expire: '', type: '' },
    need_more_quota: false,
    vip_types: [],
    redirect_link: '',
    icon_link: '',
    is_default: origin,
    priority: 0,
    is_origin: origin,
    resolution_name: origin ? '' : name,
    is_visible: true,
    category: origin ? 'category_origin' : 'category_transcode',
    ...overrides,
  }
}

/** A valid drive file; a test states only the fields it is about. */
export function aFile(overrides: Partial<DriveFile> & { name: string }): DriveFile {
  counter += 1
  const isFolder = overrides.kind === FOLDER_KIND
  const time = overrides.modified_time ?? new Date(Date.UTC(2026, 0, 1, 12, 0, counter % 60)).toISOString()
  return {
    kind: FILE_KIND,
    id: `f${counter.toString().padStart(6, '0')}`,
    parent_id: '',
    user_id: 'u1',
    size: isFolder ? '0' : '1024',
    revision: '1',
    file_extension: isFolder ? '' : overrides.name.includes('.') ? overrides.name.slice(overrides.name.lastIndexOf('.')) : '',
    mime_type: isFolder ? '' : 'application/octet-stream',
    file_category: 'OTHER',
    folder_type: 'NORMAL',
    hash: '',
    md5_checksum: '',
    phase: 'PHASE_TYPE_COMPLETE',
    trashed: false,
    starred: false,
    created_time: time,
    modified_time: time,
    delete_time: '',
    thumbnail_link: '',
    icon_link: '',
    web_content_link: '',
    links: {},
    medias: [],
    audit: { status: 'STATUS_OK', message: '', title: '' },
    params: {},
    space: '',
    writable: true,
    ...overrides,
  }
}

export function aFolder(overrides: Partial<DriveFile> & { name: string }): DriveFile {
  return aFile({ ...overrides, kind: FOLDER_KIND })
}

/**
 * The error the SDK throws for a drive refusal: the catalogue entry with the localized message
 * the server puts in `details` (in `locale`, as the server answers the client's Accept-Language).
 */
export function driveError(entry: ErrorEntry, locale: Locale = 'en-US'): IdentityError {
  const message = ERROR_MESSAGES[locale][entry.reason as keyof (typeof ERROR_MESSAGES)['en-US']]
  return new IdentityError({ error: entry.reason, errorCode: entry.code, status: entry.status, details: [{ '@type': LOCALIZED_MESSAGE_TYPE, locale, message }] })
}

/** Case, width and accents folded, roughly as the server compares names (no pinyin here). */
function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()
}

/** How a name matches a folded query (drive.md "Search"), and where; null when it does not. */
function matchName(name: string, query: string): { match: SearchMatch; start: number } | null {
  const folded = fold(name)
  if (folded === query) return { match: 'exact', start: 0 }
  if (folded.startsWith(query)) return { match: 'prefix', start: 0 }
  const word = folded.search(new RegExp(`(?<=[\\s._()-])${query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))
  if (word !== -1) return { match: 'word', start: word }
  const start = folded.indexOf(query)
  return start === -1 ? null : { match: 'substring', start }
}

/** A valid offline task; a test states only the fields it is about. */
export function aTask(overrides: Partial<DriveTask> & { name: string }): DriveTask {
  counter += 1
  const time = new Date(Date.UTC(2026, 0, 1, 12, 0, counter % 60)).toISOString()
  return {
    kind: 'drive#task',
    id: `t${counter.toString().padStart(6, '0')}`,
    type: 'offline',
    user_id: 'u1',
    statuses: [],
    status_size: 0,
    params: { url: `https://example.org/${encodeURIComponent(overrides.name)}` },
    file_id: '',
    file_name: overrides.name,
    file_size: '0',
    message: '',
    created_time: time,
    updated_time: time,
    phase: 'PHASE_TYPE_PENDING',
    progress: 0,
    icon_link: '',
    reference_resource: null,
    ...overrides,
  }
}

/** A previewed resource: a single file, or with `children` a torrent's tree. */
export function aResource(overrides: Partial<DriveResource> & { name: string }, children?: DriveResource[]): DriveResource {
  counter += 1
  return {
    kind: 'drive#resource',
    id: `r${counter}`,
    file_size: children ? String(children.reduce((sum, c) => sum + Number(c.file_size), 0)) : '1024',
    file_count: children ? children.reduce((sum, c) => sum + (c.is_dir ? c.file_count : 1), 0) : 1,
    meta: { url: '', icon_link: '', status: 'OK' },
    is_dir: children !== undefined,
    dir: children ? { resources: children } : null,
    ...overrides,
  }
}

/** The text the server gives a share to copy (drive.md "Shares"), in English. */
function shareTextOf(title: string, url: string, passCode: string): string {
  const texts = SHARE_TEXTS['en-US']
  const text = texts.shareText.replace('{title}', title).replace('{url}', url)
  return passCode === '' ? text : `${text}\n${texts.passCodeLine.replace('{code}', passCode)}`
}

/** A valid share as its owner sees it; a test states only the fields it is about. */
export function aShare(overrides: Partial<DriveShare> & { title: string }): DriveShare {
  counter += 1
  const shareId = overrides.share_id ?? `s${counter.toString().padStart(6, '0')}`
  const url = overrides.share_url ?? `http://127.0.0.1/s/${shareId}`
  const passCode = overrides.pass_code ?? ''
  return {
    share_id: shareId,
    share_url: url,
    share_to: passCode === '' ? 'publiclink' : 'encryptedlink',
    pass_code_option: passCode === '' ? 'NOT_REQUIRED' : 'REQUIRED',
    pass_code: passCode,
    file_num: '1',
    file_id: `f${counter}`,
    file_kind: FILE_KIND,
    file_category: 'OTHER',
    thumbnail_link: '',
    icon_link: '',
    expiration_days: '-1',
    expiration_at: null,
    expiration_left_seconds: '-1',
    create_time: new Date(Date.UTC(2026, 0, 1, 12, 0, counter % 60)).toISOString(),
    share_status: 'OK',
    share_status_text: '',
    view_count: '0',
    restore_count: '0',
    download_count: '0',
    share_text: shareTextOf(overrides.title, url, passCode),
    ...overrides,
  }
}

/** An upload the test finishes or fails by hand. */
export interface FakeUpload {
  input: DriveUploadInput
  state: 'uploading' | 'paused' | 'done' | 'failed' | 'cancelled'
  progress(sentBytes: number, bytesPerSecond?: number): void
  finish(): DriveFile
  fail(error: unknown): void
}

export class FakeDriveApi implements DriveApi {
  readonly files = new Map<string, DriveFile>()
  readonly calls: { name: string; args: unknown[] }[] = []
  readonly uploads: FakeUpload[] = []
  pending: DrivePendingUpload[] = []
  quota: { limit: number; usage: number; inTrash: number; inUploads?: number } = { limit: 10 * 1024 ** 3, usage: 0, inTrash: 0 }
  /** Offline tasks, newest first. */
  tasks: DriveTask[] = []
  /** The plan's offline counts `about()` reports; null leaves `quotas` empty. */
  offlineQuota: { dailyLimit: number; dailyUsage: number; runningLimit: number; runningUsage: number } | null = null
  /** What `previewResources` answers per link, and per torrent file id. */
  readonly previews = new Map<string, DriveResource | DriveResource[]>()
  /** Links whose content is already known: adding them completes at once. */
  readonly known = new Set<string>()
  /** Saved playback positions by file id (seconds; absent: never watched). */
  readonly playbacks = new Map<string, { positionSeconds: number; durationSeconds: number }>()
  /** Text tracks by video id. */
  readonly subtitleTracks = new Map<string, DriveSubtitle[]>()
  /** The account's shares, newest first. */
  shares: DriveShare[] = []
  /** Makes the next call of that name reject with this error. */
  readonly failures = new Map<string, unknown>()

  constructor(files: DriveFile[] = []) {
    for (const file of files) this.files.set(file.id, file)
  }

  #record(name: string, args: unknown[]): void {
    this.calls.push({ name, args })
    const failure = this.failures.get(name)
    if (failure !== undefined) {
      this.failures.delete(name)
      throw failure
    }
  }

  callsOf(name: string): unknown[][] {
    return this.calls.filter((call) => call.name === name).map((call) => call.args)
  }

  #need(id: string): DriveFile {
    const file = this.files.get(id)
    if (!file) throw driveError(DriveErrors.file_not_found)
    return file
  }

  #free(name: string, parentId: string): string {
    const taken = (candidate: string) => [...this.files.values()].some((f) => f.parent_id === parentId && !f.trashed && f.name === candidate)
    if (!taken(name)) return name
    const dot = name.lastIndexOf('.')
    const [base, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, '']
    for (let n = 1; ; n += 1) if (!taken(`${base}(${n})${ext}`)) return `${base}(${n})${ext}`
  }

  async list(input: DriveListInput): Promise<DriveFileList> {
    this.#record('list', [input])
    const parent = input.parentId ?? ''
    const filters = input.filters ?? {}
    let files = [...this.files.values()].filter((file) => {
      if (parent !== '*' && file.parent_id !== parent) return false
      if (filters.trashed && file.trashed !== filters.trashed.eq) return false
      if (filters.starred && file.starred !== filters.starred.eq) return false
      if (filters.kind && file.kind !== filters.kind.eq) return false
      if (filters.phase && file.phase !== filters.phase.eq) return false
      return true
    })
    const direction = input.direction === 'desc' ? -1 : 1
    const collator = new Intl.Collator('en', { numeric: true })
    files = files.sort((a, b) => {
      const rank = (f: DriveFile) => (f.kind === FOLDER_KIND ? 0 : 1)
      if (rank(a) !== rank(b)) return rank(a) - rank(b)
      let result = 0
      if (input.orderBy === 'size') result = Number(a.size) - Number(b.size)
      else if (input.orderBy === 'modified_time') result = a.modified_time.localeCompare(b.modified_time)
      if (result === 0) result = collator.compare(a.name, b.name)
      return result * direction
    })
    const start = Number(input.pageToken ?? '0')
    const limit = input.limit ?? 100
    const page = files.slice(start, start + limit)
    return { kind: 'drive#fileList', files: page, next_page_token: start + limit < files.length ? String(start + limit) : '', version: '' }
  }

  /** The live items matching `q`, best first, as the server's search ranks them (without pinyin). */
  #matches(q: string, filters: DriveSearchInput['filters'] = {}): { file: DriveFile; match: SearchMatch; start: number }[] {
    const query = fold(q.trim())
    if (query === '' || q.length > SEARCH_QUERY_MAX_CHARS) throw driveError(GenericErrors.invalid_argument)
    const categories = filters.file_category ? (Array.isArray(filters.file_category.in) ? filters.file_category.in : filters.file_category.in.split(',')) : null
    const rank = SEARCH_MATCHES as readonly string[]
    return [...this.files.values()]
      .filter((file) => !file.trashed && file.phase === 'PHASE_TYPE_COMPLETE')
      .filter((file) => (!filters.kind || file.kind === filters.kind.eq) && (!categories || categories.includes(file.file_category)))
      .flatMap((file) => {
        const found = matchName(file.name, query)
        return found ? [{ file, ...found }] : []
      })
      .sort((a, b) => rank.indexOf(a.match) - rank.indexOf(b.match) || a.file.name.localeCompare(b.file.name))
  }

  /** Where an item is, as search results say it ("/" for the root, "/Movies/2024"). */
  #pathOf(file: DriveFile): string {
    const names: string[] = []
    for (let id = file.parent_id; id !== ''; id = this.files.get(id)?.parent_id ?? '') names.unshift(this.files.get(id)?.name ?? '?')
    return `/${names.join('/')}`
  }

  async search(input: DriveSearchInput): Promise<DriveFileList> {
    this.#record('search', [input])
    const found = this.#matches(input.q, input.filters)
    const start = Number(input.pageToken ?? '0')
    const limit = input.limit ?? SEARCH_LIMIT_DEFAULT
    const files = found.slice(start, start + limit).map(({ file, match }) => ({ ...file, params: { path: this.#pathOf(file), parent_name: this.files.get(file.parent_id)?.name ?? '', match } }))
    return { kind: 'drive#fileList', files, next_page_token: start + limit < found.length ? String(start + limit) : '', version: '' }
  }

  async associate(q: string, options: { limit?: number } = {}): Promise<DriveAssociateList> {
    this.#record('associate', [q, options])
    const associates = this.#matches(q)
      .slice(0, options.limit ?? ASSOCIATE_LIMIT_DEFAULT)
      .map(({ file, match, start }): DriveAssociate => ({ text: file.name, highlight: [[start, start + fold(q.trim()).length]], file_id: file.id, kind: file.kind, file_category: file.file_category, path: this.#pathOf(file), match }))
    return { associates }
  }

  async get(id: string): Promise<DriveFile> {
    this.#record('get', [id])
    return this.#need(id)
  }

  async createFolder({ name, parentId = '' }: { name: string; parentId?: string }): Promise<DriveFile> {
    this.#record('createFolder', [{ name, parentId }])
    const folder = aFolder({ name: this.#free(name, parentId), parent_id: parentId })
    this.files.set(folder.id, folder)
    return folder
  }

  upload(input: DriveUploadInput): DriveUploadHandle {
    this.calls.push({ name: 'upload', args: [input] })
    let settle!: { resolve(file: DriveFile): void; reject(error: unknown): void }
    const promise = new Promise<DriveFile>((resolve, reject) => (settle = { resolve, reject }))
    promise.catch(() => undefined)
    const upload: FakeUpload = {
      input,
      state: 'uploading',
      progress: (sentBytes, bytesPerSecond = 1024) => input.onProgress?.({ sentBytes, totalBytes: input.file.size, bytesPerSecond }),
      finish: () => {
        const file = aFile({ name: this.#free(input.name, input.parentId ?? ''), parent_id: input.parentId ?? '', size: String(input.file.size) })
        this.files.set(file.id, file)
        upload.state = 'done'
        settle.resolve(file)
        return file
      },
      fail: (error) => {
        upload.state = 'failed'
        settle.reject(error)
      },
    }
    this.uploads.push(upload)
    return {
      promise,
      pause: () => {
        upload.state = 'paused'
      },
      resume: () => {
        upload.state = 'uploading'
      },
      cancel: () => {
        upload.state = 'cancelled'
        settle.reject(driveError(DriveErrors.file_upload_incomplete))
      },
    }
  }

  pendingUploads(): DrivePendingUpload[] {
    this.#record('pendingUploads', [])
    return this.pending
  }

  async discardUpload(fingerprint: string): Promise<void> {
    this.#record('discardUpload', [fingerprint])
    this.pending = this.pending.filter((upload) => upload.fingerprint !== fingerprint)
  }

  async downloadUrl(id: string): Promise<string> {
    this.#record('downloadUrl', [id])
    this.#need(id)
    return `http://127.0.0.1/drive/v1/content/${id}?e=1&s=sig`
  }

  async rename(id: string, name: string): Promise<DriveFile> {
    this.#record('rename', [id, name])
    const file = this.#need(id)
    if ([...this.files.values()].some((f) => f.id !== id && f.parent_id === file.parent_id && !f.trashed && f.name === name)) throw driveError(DriveErrors.file_duplicated_name)
    const renamed = { ...file, name }
    this.files.set(id, renamed)
    return renamed
  }

  #each(name: string, ids: string[], change: (file: DriveFile) => DriveFile | null, ...more: unknown[]): { taskId: string } {
    this.#record(name, [ids, ...more])
    for (const id of ids) {
      const next = change(this.#need(id))
      if (next) this.files.set(id, next)
      else this.files.delete(id)
    }
    return { taskId: `t${this.calls.length}` }
  }

  async star(ids: string[]) {
    return this.#each('star', ids, (file) => ({ ...file, starred: true }))
  }

  async unstar(ids: string[]) {
    return this.#each('unstar', ids, (file) => ({ ...file, starred: false }))
  }

  async move(ids: string[], toParentId: string) {
    return this.#each('move', ids, (file) => ({ ...file, parent_id: toParentId }), toParentId)
  }

  async copy(ids: string[], toParentId: string) {
    const result = this.#each('copy', ids, (file) => file, toParentId)
    for (const id of ids) {
      const copy = aFile({ ...this.#need(id), name: this.#free(this.#need(id).name, toParentId), parent_id: toParentId })
      this.files.set(copy.id, copy)
    }
    return result
  }

  async trash(ids: string[]) {
    return this.#each('trash', ids, (file) => ({ ...file, trashed: true }))
  }

  async untrash(ids: string[]) {
    return this.#each('untrash', ids, (file) => ({ ...file, trashed: false }))
  }

  async delete(ids: string[]) {
    return this.#each('delete', ids, () => null)
  }

  async emptyTrash() {
    this.#record('emptyTrash', [])
    for (const [id, file] of this.files) if (file.trashed) this.files.delete(id)
    return { taskId: 'empty' }
  }

  async about(): Promise<DriveAbout> {
    this.#record('about', [])
    return {
      kind: 'drive#about',
      quota: { kind: 'drive#quota', limit: String(this.quota.limit), usage: String(this.quota.usage), usage_in_trash: String(this.quota.inTrash), ...(this.quota.inUploads === undefined ? {} : { usage_in_uploads: String(this.quota.inUploads) }), play_times_limit: '-1', play_times_usage: '0', is_unlimited: false },
      expires_at: '',
      quotas: this.offlineQuota
        ? {
            offline_daily: { kind: 'drive#quota', limit: String(this.offlineQuota.dailyLimit), usage: String(this.offlineQuota.dailyUsage) },
            offline_running: { kind: 'drive#quota', limit: String(this.offlineQuota.runningLimit), usage: String(this.offlineQuota.runningUsage) },
          }
        : {},
    }
  }

  async createOfflineTask(input: OfflineTaskInput): Promise<CreateOfflineReply> {
    this.#record('createOfflineTask', [input])
    const preview = this.previews.get(input.torrentFileId ?? input.url)
    const name = input.name ?? (Array.isArray(preview) ? preview[0]?.name : preview?.name) ?? (input.url.split('/').pop() || input.url)
    if (this.known.has(input.url)) {
      const file = aFile({ name, parent_id: input.parentId ?? '' })
      this.files.set(file.id, file)
      return { upload_type: 'UPLOAD_TYPE_URL', url: { kind: 'upload#url' }, file, task: null }
    }
    const task = aTask({ name, params: { url: input.url, ...(input.parentId === undefined ? {} : { parent_id: input.parentId }) } })
    this.tasks = [task, ...this.tasks]
    return { upload_type: 'UPLOAD_TYPE_URL', url: { kind: 'upload#url' }, file: null, task }
  }

  async previewResources(source: readonly string[] | { torrentFileId: string }): Promise<DriveResource[]> {
    this.#record('previewResources', [source])
    if (!Array.isArray(source)) {
      const found = this.previews.get((source as { torrentFileId: string }).torrentFileId)
      return found === undefined ? [] : Array.isArray(found) ? found : [found]
    }
    return (source as readonly string[]).map((url) => {
      const found = this.previews.get(url)
      const resource = found === undefined ? aResource({ name: url.split('/').pop() || url }) : Array.isArray(found) ? found[0]! : found
      return { ...resource, meta: { ...resource.meta, url } }
    })
  }

  async listTasks(input: { phases?: readonly Phase[]; limit?: number; pageToken?: string }): Promise<DriveTaskList> {
    this.#record('listTasks', [input])
    const phases = input.phases ?? []
    const tasks = this.tasks.filter((task) => phases.length === 0 || phases.includes(task.phase))
    const start = Number(input.pageToken ?? '0')
    const limit = input.limit ?? 100
    return { tasks: tasks.slice(start, start + limit), next_page_token: start + limit < tasks.length ? String(start + limit) : '', expires_in: 60 }
  }

  #needTask(id: string): DriveTask {
    const task = this.tasks.find((t) => t.id === id)
    if (!task) throw driveError(DriveErrors.task_not_found)
    return task
  }

  async getTask(id: string): Promise<DriveTask> {
    this.#record('getTask', [id])
    return this.#needTask(id)
  }

  async deleteTasks(ids: readonly string[], options: { deleteFiles?: boolean }): Promise<void> {
    this.#record('deleteTasks', [ids, options])
    const gone = this.tasks.filter((task) => ids.includes(task.id))
    if (options.deleteFiles) for (const task of gone) this.files.delete(task.file_id)
    this.tasks = this.tasks.filter((task) => !ids.includes(task.id))
  }

  async retryTask(id: string): Promise<DriveTask> {
    this.#record('retryTask', [id])
    const task = this.#needTask(id)
    if (task.phase === 'PHASE_TYPE_COMPLETE') return task
    return this.updateTask(id, { phase: 'PHASE_TYPE_PENDING', progress: 0, message: '' })
  }

  async playback(id: string): Promise<DrivePlayback> {
    this.#record('playback', [id])
    this.#need(id)
    return this.#playbackOf(id)
  }

  async savePlayback(id: string, input: { positionSeconds: number; durationSeconds?: number }, options: { keepalive?: boolean } = {}): Promise<DrivePlayback> {
    this.#record('savePlayback', [id, input, options])
    this.#need(id)
    this.playbacks.set(id, { positionSeconds: input.positionSeconds, durationSeconds: input.durationSeconds ?? this.playbacks.get(id)?.durationSeconds ?? 0 })
    return this.#playbackOf(id)
  }

  #playbackOf(id: string): DrivePlayback {
    const saved = this.playbacks.get(id)
    return { kind: 'drive#playback', file_id: id, position_seconds: saved?.positionSeconds ?? 0, duration_seconds: saved?.durationSeconds ?? 0, updated_time: saved ? '2026-01-01T12:00:00.000Z' : '' }
  }

  async subtitles(id: string) {
    this.#record('subtitles', [id])
    this.#need(id)
    return { kind: 'drive#subtitleList' as const, subtitles: this.subtitleTracks.get(id) ?? [] }
  }

  /** Shares as the server does: live items only, the owner's code checked, a generated one otherwise. */
  async createShare(input: ShareCreateInput): Promise<CreateShareReply> {
    this.#record('createShare', [input])
    if (input.fileIds.length === 0) throw driveError(GenericErrors.invalid_argument)
    const files = input.fileIds.map((id) => this.#need(id))
    if (files.some((file) => file.trashed)) throw driveError(DriveErrors.file_not_found)
    if (input.customPassCode !== undefined && !SHARE_PASS_CODE_PATTERN.test(input.customPassCode)) throw driveError(DriveErrors.share_pass_code_invalid)
    const locked = Boolean(input.passCode || input.customPassCode)
    const passCode = locked ? (input.customPassCode ?? `k${(this.shares.length + 1).toString().padStart(3, '0')}`) : ''
    const days = input.expirationDays ?? -1
    const title = input.title ?? (files.length === 1 ? files[0]!.name : SHARE_TEXTS['en-US'].titleMore.replace('{name}', files[0]!.name).replace('{count}', String(files.length - 1)))
    const share = aShare({
      title,
      pass_code: passCode,
      file_num: String(files.length),
      file_id: files[0]!.id,
      file_kind: files[0]!.kind,
      file_category: files[0]!.file_category,
      expiration_days: String(days),
      expiration_at: days === -1 ? null : new Date(Date.UTC(2026, 0, 1 + days, 12)).toISOString(),
      expiration_left_seconds: days === -1 ? '-1' : String(days * 86_400),
    })
    this.shares = [share, ...this.shares]
    return { share_id: share.share_id, share_url: share.share_url, pass_code: share.pass_code, share_text: share.share_text, share_list: [share] }
  }

  async listShares(input: { limit?: number; pageToken?: string }): Promise<ShareListReply> {
    this.#record('listShares', [input])
    const start = Number(input.pageToken || '0')
    const limit = input.limit ?? 100
    return { data: this.shares.slice(start, start + limit), next_page_token: start + limit < this.shares.length ? String(start + limit) : '' }
  }

  async deleteShares(ids: readonly string[]): Promise<void> {
    this.#record('deleteShares', [ids])
    this.shares = this.shares.filter((share) => !ids.includes(share.share_id))
  }

  /** Changes a task as the server's job runner would (progress, phase, message). */
  updateTask(id: string, changes: Partial<DriveTask>): DriveTask {
    const next = { ...this.#needTask(id), ...changes }
    this.tasks = this.tasks.map((task) => (task.id === id ? next : task))
    return next
  }
}
