import type { DriveFile } from '@cumulus/protocol'
import type { PickedFiles } from './collect-files'
import type { DriveApi, DriveUploadHandle, DrivePendingUpload } from './drive-api'

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

interface Entry {
  item: UploadItem
  file: File
  /** null until the folders of its tree exist. */
  parentId: string | null
  handle: DriveUploadHandle | null
  cancelRequested: boolean
}

let nextKey = 1

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
  #entries: Entry[] = []
  #snapshot: readonly UploadItem[] = []
  readonly #listeners = new Set<() => void>()
  #pending: readonly DrivePendingUpload[] = []

  constructor(api: DriveApi, events: UploadEvents = {}, concurrency = UPLOAD_CONCURRENCY) {
    this.#api = api
    this.#events = events
    this.#concurrency = concurrency
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** The rows, in the order they were added; the same array until something changes. */
  items = (): readonly UploadItem[] => this.#snapshot

  /** Uploads from an earlier visit that can continue once the user picks their files again. */
  pendingFromEarlier = (): readonly DrivePendingUpload[] => this.#pending

  /** Reads the SDK's remembered uploads, leaving out those already running here. */
  async loadPendingFromEarlier(): Promise<void> {
    const stored = await this.#api.pendingUploads()
    this.#pending = stored.filter((upload) => !this.#entries.some((entry) => matches(upload, entry.file, entry.parentId)))
    this.#emit()
  }

  /** Hides the earlier uploads for this visit (the SDK still remembers them for the next). */
  dismissPendingFromEarlier(): void {
    this.#pending = []
    this.#emit()
  }

  /** Drops the earlier uploads for good: the server discards what it received of them. */
  async discardPendingFromEarlier(): Promise<void> {
    const discarded = this.#pending
    this.#pending = []
    this.#emit()
    await Promise.allSettled(discarded.map((upload) => this.#api.discardUpload(upload.fingerprint)))
  }

  /**
   * Continues earlier uploads with the files the user picked again: each picked file that
   * matches one (same name, size and last-modified time) goes back to its folder, where the SDK
   * resumes it from the server's offset. Returns how many matched.
   */
  resumeEarlier(picked: readonly File[]): number {
    let matched = 0
    const left = [...this.#pending]
    for (const file of picked) {
      const index = left.findIndex((upload) => matches(upload, file, upload.parentId ?? ''))
      if (index === -1) continue
      const [upload] = left.splice(index, 1)
      this.#add(file, file.name, upload!.parentId ?? '', upload!.parentId ?? '')
      matched += 1
    }
    this.#pending = left
    this.#emit()
    this.#pump()
    return matched
  }

  /**
   * Uploads picked or dropped files into the folder `folderId`: first the folders of a folder
   * tree (created in order, parents first), then the files. A folder that cannot be created
   * fails the files inside it with that error; the others go on.
   */
  async add(picked: PickedFiles, folderId: string): Promise<void> {
    const folderOf = new Map<string, Promise<string>>([['', Promise.resolve(folderId)]])
    const parentPath = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')))
    const entries = picked.files.map(({ file, path }) => this.#add(file, path, null, folderId))
    this.#emit()

    const create = (path: string): Promise<string> => {
      let made = folderOf.get(path)
      if (!made) {
        const name = path.slice(path.lastIndexOf('/') + 1)
        made = create(parentPath(path)).then(async (parentId) => {
          const folder = await this.#api.createFolder({ name, parentId })
          this.#events.onFolderCreated?.(folder)
          return folder.id
        })
        folderOf.set(path, made)
      }
      return made
    }
    // Parents before children, and one folder at a time: names that clash get their suffix in a
    // predictable order, and a tree of thousands of folders does not flood the server.
    const folders = [...new Set([...picked.folders, ...picked.files.map((f) => parentPath(f.path)).filter(Boolean)])].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))
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

  #add(file: File, path: string, parentId: string | null, targetFolderId: string): Entry {
    const entry: Entry = {
      file,
      parentId,
      handle: null,
      cancelRequested: false,
      item: { key: `u${nextKey++}`, name: file.name, path, sizeBytes: file.size, status: 'waiting', sentBytes: 0, bytesPerSecond: 0, error: null, targetFolderId },
    }
    this.#entries.push(entry)
    return entry
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
        this.#update(entry, { status: 'done', sentBytes: entry.item.sizeBytes, bytesPerSecond: 0 })
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
