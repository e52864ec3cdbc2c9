import type { DriveFile } from '@cumulus/protocol'
import type { PickedFiles } from './collect-files'
import type { DriveApi, DriveUploadHandle, DrivePendingUpload } from './drive-api'
import { BatchRecords, type BatchFile, type KeyValueLike, type StoredBatch } from './upload-batches'

export type UploadStatus = 'waiting' | 'uploading' | 'paused' | 'done' | 'failed' | 'cancelled'

/** One file in the upload panel. Replaced (never mutated) on every change. */
export interface UploadItem {
  /** Local id of this row. */
  readonly key: string
  readonly name: string
  /** Where it goes, as shown: `photos/2024/a.jpg` inside the folder it was dropped on. */
  readonly path: string
  readonly sizeBytes: number
  readonly status: UploadStatus
  readonly sentBytes: number
  readonly bytesPerSecond: number
  /** What went wrong (`failed`), for the page to put into words. */
  readonly error: unknown
  /** The folder the upload started in (the page's folder when it was added). */
  readonly targetFolderId: string
}

/** How many files go up at once: enough to hide per-file round trips, few enough to keep each fast. */
export const UPLOAD_CONCURRENCY = 3

/** Every change the page may want to reflect outside the panel. */
export interface UploadEvents {
  /** A file finished: it now exists in the folder with id `file.parent_id`. */
  onUploaded?(file: DriveFile): void
  /** A folder of a dropped or picked folder was created. */
  onFolderCreated?(folder: DriveFile): void
}

/** What an earlier visit left unfinished, as the panel lists it. */
export type EarlierUpload =
  /** Files added together (a folder, several files); some had not started yet. */
  | { kind: 'batch'; id: string; name: string; filesLeft: number; bytesLeft: number }
  /** One upload the SDK remembers that belongs to no remembered batch. */
  | { kind: 'file'; name: string; sizeBytes: number; upload: DrivePendingUpload }

/** The batch an upload belongs to, while it runs in this tab. */
interface LiveBatch {
  batch: StoredBatch
  /** Whether `records` keeps it (a batch too large to keep is not). */
  stored: boolean
  /** Folder path -> its id once created (or being created). */
  folderOf: Map<string, Promise<string>>
}

interface Entry {
  item: UploadItem
  file: File
  /** null until the folders of its tree exist. */
  parentId: string | null
  handle: DriveUploadHandle | null
  cancelRequested: boolean
  batch: LiveBatch
  /** Its place in `batch.batch.files`. */
  index: number
}

let nextKey = 1

const parentPath = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')))
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1)

function randomId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`
}

export interface UploadManagerOptions {
  concurrency?: number
  /** Where batches are remembered for resuming after a reload (localStorage); none: not remembered. */
  storage?: KeyValueLike | null
}

/**
 * The browser tab's uploads: a queue run `UPLOAD_CONCURRENCY` at a time through the SDK's
 * resumable upload, with pause, resume, cancel and retry per file. A picked or dropped folder
 * is rebuilt first (each folder created under its parent), then its files go into it.
 * Framework-free; the panel reads it with `useSyncExternalStore`.
 */
export class UploadManager {
  readonly #api: DriveApi
  readonly #events: UploadEvents
  readonly #concurrency: number
  readonly #storage: KeyValueLike | null
  #records: BatchRecords | null = null
  #entries: Entry[] = []
  #snapshot: readonly UploadItem[] = []
  readonly #listeners = new Set<() => void>()
  #earlier: readonly EarlierUpload[] = []
  /** The remembered batches behind `#earlier`'s batch rows. */
  #earlierBatches = new Map<string, { batch: StoredBatch; done: boolean[] }>()

  constructor(api: DriveApi, events: UploadEvents = {}, options: UploadManagerOptions = {}) {
    this.#api = api
    this.#events = events
    this.#concurrency = options.concurrency ?? UPLOAD_CONCURRENCY
    this.#storage = options.storage ?? null
  }

  /** The signed-in account: batches are remembered per account. */
  setAccount(account: string): void {
    this.#records = this.#storage && account ? new BatchRecords(this.#storage, account) : null
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** The rows, in the order they were added; the same array until something changes. */
  items = (): readonly UploadItem[] => this.#snapshot

  /** What earlier visits left unfinished, continued once the user picks the same files again. */
  pendingFromEarlier = (): readonly EarlierUpload[] => this.#earlier

  /**
   * Reads the remembered batches and the SDK's remembered uploads, leaving out what runs here
   * and the SDK's uploads that belong to a batch (the batch lists them).
   */
  async loadPendingFromEarlier(): Promise<void> {
    const running = new Set(this.#entries.map((entry) => entry.batch.batch.id))
    const batches = (this.#records?.list() ?? []).filter(({ batch }) => !running.has(batch.id))
    const stored = await this.#api.pendingUploads()
    const inBatch = (upload: DrivePendingUpload) =>
      batches.some(({ batch }) => batch.files.some((file) => baseName(file.path) === upload.name && file.size === Number(upload.size) && file.lastModified === upload.lastModified && batch.folders[parentPath(file.path)] === (upload.parentId ?? '')))
    const files = stored.filter((upload) => !inBatch(upload) && !this.#entries.some((entry) => matches(upload, entry.file, entry.parentId)))
    this.#earlierBatches = new Map(batches.map((remembered) => [remembered.batch.id, remembered]))
    this.#earlier = [
      ...batches.map(({ batch, done }): EarlierUpload => {
        const left = batch.files.filter((_, index) => !done[index])
        const roots = new Set(batch.files.map((file) => file.path.split('/')[0]!))
        const name = roots.size === 1 ? [...roots][0]! : baseName(left[0]!.path)
        return { kind: 'batch', id: batch.id, name, filesLeft: left.length, bytesLeft: left.reduce((sum, file) => sum + file.size, 0) }
      }),
      ...files.map((upload): EarlierUpload => ({ kind: 'file', name: upload.name, sizeBytes: Number(upload.size), upload })),
    ]
    this.#emit()
  }

  /** Hides the earlier uploads for this visit (they stay remembered for the next). */
  dismissPendingFromEarlier(): void {
    this.#earlier = []
    this.#emit()
  }

  /** Drops the earlier uploads for good: the server discards what it received of them. */
  async discardPendingFromEarlier(): Promise<void> {
    const discarded = this.#earlier
    this.#earlier = []
    this.#emit()
    for (const earlier of discarded) if (earlier.kind === 'batch') this.#records?.remove(earlier.id)
    // Every upload the SDK remembers goes too (those of the batches included), except the ones
    // running in this tab.
    const live = (upload: DrivePendingUpload) => this.#entries.some((entry) => isUnfinished(entry.item.status) && matches(upload, entry.file, entry.parentId))
    const stored = await this.#api.pendingUploads()
    await Promise.allSettled(stored.filter((upload) => !live(upload)).map((upload) => this.#api.discardUpload(upload.fingerprint)))
  }

  /**
   * Continues earlier uploads with the files (or folder) the user picked again. A picked file
   * continues a remembered batch when its path in the folder (or else its name), size and
   * modification time match a file of the batch not done yet: it goes to the folder it was meant
   * for (folders not created yet are created), and the SDK resumes it from the server's offset
   * if it had started. A picked file can also match a lone upload the SDK remembers. Returns how
   * many files matched.
   */
  async resumeEarlier(picked: PickedFiles | readonly File[]): Promise<number> {
    const files = Array.isArray(picked) ? (picked as readonly File[]).map((file) => ({ file, path: file.webkitRelativePath || file.name })) : (picked as PickedFiles).files
    const unused = new Set(files)
    let matched = 0
    const left: EarlierUpload[] = []
    const runs: Promise<void>[] = []
    for (const earlier of this.#earlier) {
      if (earlier.kind === 'file') {
        const found = [...unused].find(({ file }) => matches(earlier.upload, file, earlier.upload.parentId ?? ''))
        if (!found) {
          left.push(earlier)
          continue
        }
        unused.delete(found)
        const parentId = earlier.upload.parentId ?? ''
        const live: LiveBatch = { batch: { id: randomId(), targetFolderId: parentId, createdAt: Date.now(), folders: { '': parentId }, files: [{ path: found.file.name, size: found.file.size, lastModified: found.file.lastModified }] }, stored: false, folderOf: new Map([['', Promise.resolve(parentId)]]) }
        runs.push(this.#run(live, [{ file: found.file, index: 0 }], []))
        matched += 1
        continue
      }
      const remembered = this.#earlierBatches.get(earlier.id)
      if (!remembered) continue
      const { batch, done } = remembered
      const chosen: { file: File; index: number }[] = []
      batch.files.forEach((wanted, index) => {
        if (done[index]) return
        const same = (candidate: { file: File; path: string }) => candidate.file.size === wanted.size && candidate.file.lastModified === wanted.lastModified
        const found = [...unused].find((candidate) => candidate.path === wanted.path && same(candidate)) ?? [...unused].find((candidate) => baseName(candidate.path) === baseName(wanted.path) && same(candidate))
        if (!found) return
        unused.delete(found)
        chosen.push({ file: found.file, index })
      })
      if (chosen.length === 0) {
        left.push(earlier)
        continue
      }
      const folderOf = new Map(Object.entries(batch.folders).map(([path, id]) => [path, Promise.resolve(id)]))
      runs.push(this.#run({ batch, stored: true, folderOf }, chosen, []))
      matched += chosen.length
      // Files of the batch not picked this time stay offered.
      if (chosen.length < earlier.filesLeft) {
        const doneNow = [...done]
        for (const { index } of chosen) doneNow[index] = true
        const rest = batch.files.filter((_, index) => !doneNow[index])
        this.#earlierBatches.set(batch.id, { batch, done: doneNow })
        left.push({ ...earlier, filesLeft: rest.length, bytesLeft: rest.reduce((sum, file) => sum + file.size, 0) })
      }
    }
    this.#earlier = left
    this.#emit()
    await Promise.all(runs)
    return matched
  }

  /**
   * Uploads picked or dropped files into the folder `folderId`: first the folders of a folder
   * tree (created in order, parents first), then the files. A folder that cannot be created
   * fails the files inside it with that error; the others go on. The batch is remembered, so a
   * reload does not lose the files that had not started.
   */
  async add(picked: PickedFiles, folderId: string): Promise<void> {
    const files: BatchFile[] = picked.files.map(({ file, path }) => ({ path, size: file.size, lastModified: file.lastModified }))
    const batch: StoredBatch = { id: randomId(), targetFolderId: folderId, createdAt: Date.now(), folders: { '': folderId }, files }
    const stored = this.#records?.create(batch) ?? false
    const live: LiveBatch = { batch, stored, folderOf: new Map([['', Promise.resolve(folderId)]]) }
    await this.#run(
      live,
      picked.files.map(({ file }, index) => ({ file, index })),
      picked.folders,
    )
  }

  /** Queues files of a batch, creates the folders they (and `emptyFolders`) need, then starts them. */
  async #run(live: LiveBatch, files: { file: File; index: number }[], emptyFolders: readonly string[]): Promise<void> {
    const { batch } = live
    const entries = files.map(({ file, index }) => this.#add(file, batch.files[index]!.path, live, index))
    this.#emit()

    const create = (path: string): Promise<string> => {
      let made = live.folderOf.get(path)
      if (!made) {
        made = create(parentPath(path)).then(async (parentId) => {
          const folder = await this.#api.createFolder({ name: baseName(path), parentId })
          if (live.stored) this.#records?.setFolder(batch, path, folder.id)
          else batch.folders[path] = folder.id
          this.#events.onFolderCreated?.(folder)
          return folder.id
        })
        live.folderOf.set(path, made)
      }
      return made
    }
    // Parents before children, and one folder at a time: names that clash get their suffix in a
    // predictable order, and a tree of thousands of folders does not flood the server.
    const folders = [...new Set([...emptyFolders, ...entries.map((entry) => parentPath(entry.item.path)).filter(Boolean)])].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))
    for (const path of folders) await create(path).catch(() => undefined)

    for (const entry of entries) {
      const parent = await create(parentPath(entry.item.path)).then(
        (id) => ({ ok: true as const, id }),
        (error: unknown) => ({ ok: false as const, error }),
      )
      if (entry.cancelRequested) continue
      if (parent.ok) entry.parentId = parent.id
      else this.#update(entry, { status: 'failed', error: parent.error })
    }
    this.#emit()
    this.#pump()
  }

  pause(key: string): void {
    const entry = this.#find(key)
    if (!entry || (entry.item.status !== 'uploading' && entry.item.status !== 'waiting')) return
    entry.handle?.pause()
    this.#update(entry, { status: 'paused', bytesPerSecond: 0 })
    this.#emit()
    this.#pump()
  }

  resume(key: string): void {
    const entry = this.#find(key)
    if (!entry || entry.item.status !== 'paused') return
    if (entry.handle) {
      entry.handle.resume()
      this.#update(entry, { status: 'uploading' })
    } else {
      this.#update(entry, { status: 'waiting' })
    }
    this.#emit()
    this.#pump()
  }

  cancel(key: string): void {
    const entry = this.#find(key)
    if (!entry || entry.item.status === 'done' || entry.item.status === 'cancelled') return
    entry.cancelRequested = true
    entry.handle?.cancel()
    this.#update(entry, { status: 'cancelled', bytesPerSecond: 0 })
    this.#settled(entry)
    this.#emit()
    this.#pump()
  }

  /** Starts a failed upload again; the SDK continues from what the server already has. */
  retry(key: string): void {
    const entry = this.#find(key)
    if (!entry || entry.item.status !== 'failed' || entry.parentId === null) return
    entry.handle = null
    this.#update(entry, { status: 'waiting', error: null, bytesPerSecond: 0 })
    this.#emit()
    this.#pump()
  }

  pauseAll(): void {
    for (const entry of this.#entries) if (entry.item.status === 'uploading' || entry.item.status === 'waiting') this.pause(entry.item.key)
  }

  resumeAll(): void {
    for (const entry of this.#entries) if (entry.item.status === 'paused') this.resume(entry.item.key)
  }

  cancelAll(): void {
    for (const entry of this.#entries) if (isUnfinished(entry.item.status)) this.cancel(entry.item.key)
  }

  /** Removes the rows that are done, cancelled or failed. */
  clearFinished(): void {
    this.#entries = this.#entries.filter((entry) => isUnfinished(entry.item.status))
    this.#emit()
  }

  #add(file: File, path: string, batch: LiveBatch, index: number): Entry {
    const entry: Entry = {
      file,
      parentId: null,
      handle: null,
      cancelRequested: false,
      batch,
      index,
      item: { key: `u${nextKey++}`, name: file.name, path, sizeBytes: file.size, status: 'waiting', sentBytes: 0, bytesPerSecond: 0, error: null, targetFolderId: batch.batch.targetFolderId },
    }
    this.#entries.push(entry)
    return entry
  }

  /** A file of a batch needs nothing more (uploaded or cancelled): the remembered batch knows. */
  #settled(entry: Entry): void {
    if (entry.batch.stored) this.#records?.markDone(entry.batch.batch.id, entry.index)
  }

  #find(key: string): Entry | undefined {
    return this.#entries.find((entry) => entry.item.key === key)
  }

  #update(entry: Entry, change: Partial<UploadItem>): void {
    entry.item = { ...entry.item, ...change }
  }

  /** Starts waiting uploads whose folder exists while fewer than the limit are running. */
  #pump(): void {
    let running = this.#entries.filter((entry) => entry.item.status === 'uploading').length
    for (const entry of this.#entries) {
      if (running >= this.#concurrency) break
      if (entry.item.status !== 'waiting' || entry.parentId === null) continue
      this.#start(entry)
      running += 1
    }
    this.#emit()
  }

  #start(entry: Entry): void {
    this.#update(entry, { status: 'uploading', error: null })
    const handle = this.#api.upload({
      file: entry.file,
      name: entry.file.name,
      parentId: entry.parentId ?? '',
      onProgress: ({ sentBytes, bytesPerSecond }) => {
        if (entry.handle !== handle || entry.item.status === 'cancelled') return
        this.#update(entry, { sentBytes, bytesPerSecond })
        this.#emit()
      },
    })
    entry.handle = handle
    handle.promise.then(
      (file) => {
        if (entry.handle !== handle) return
        // The drive may have named it otherwise (`hello(1).txt` beside an existing `hello.txt`):
        // the row shows the name the file now has.
        const renamed = file.name && file.name !== entry.item.name ? { name: file.name, path: `${entry.item.path.slice(0, entry.item.path.length - entry.item.name.length)}${file.name}` } : {}
        this.#update(entry, { status: 'done', sentBytes: entry.item.sizeBytes, bytesPerSecond: 0, ...renamed })
        this.#settled(entry)
        this.#events.onUploaded?.(file)
        this.#pump()
      },
      (error: unknown) => {
        if (entry.handle !== handle) return
        if (entry.cancelRequested) return
        this.#update(entry, { status: 'failed', error, bytesPerSecond: 0 })
        this.#pump()
      },
    )
  }

  #emit(): void {
    const next = this.#entries.map((entry) => entry.item)
    const same = next.length === this.#snapshot.length && next.every((item, index) => item === this.#snapshot[index])
    if (!same) this.#snapshot = next
    for (const listener of this.#listeners) listener()
  }
}

/** Waiting, running or paused: something the user may still be waiting for. */
export function isUnfinished(status: UploadStatus): boolean {
  return status === 'waiting' || status === 'uploading' || status === 'paused'
}

/** Whether a remembered upload is this file going into this folder (the SDK's own matching). */
function matches(upload: DrivePendingUpload, file: File, parentId: string | null): boolean {
  return upload.name === file.name && Number(upload.size) === file.size && (upload.lastModified === undefined || upload.lastModified === file.lastModified) && (parentId === null || (upload.parentId ?? '') === parentId)
}

/** Totals for the panel's header. */
export function uploadTotals(items: readonly UploadItem[]): { active: number; done: number; failed: number; paused: number; totalBytes: number; sentBytes: number; bytesPerSecond: number } {
  let active = 0
  let done = 0
  let failed = 0
  let paused = 0
  let totalBytes = 0
  let sentBytes = 0
  let bytesPerSecond = 0
  for (const item of items) {
    if (item.status === 'done') done += 1
    else if (item.status === 'failed') failed += 1
    else if (item.status === 'paused') paused += 1
    if (item.status === 'waiting' || item.status === 'uploading') active += 1
    if (item.status !== 'cancelled') {
      totalBytes += item.sizeBytes
      sentBytes += item.status === 'done' ? item.sizeBytes : item.sentBytes
    }
    if (item.status === 'uploading') bytesPerSecond += item.bytesPerSecond
  }
  return { active, done, failed, paused, totalBytes, sentBytes, bytesPerSecond }
}
