import { DRIVE_DEFAULTS } from '@cumulus/protocol'

/** The part of Web Storage the records need (localStorage, or a fake in tests). */
export interface KeyValueLike {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/** One file of a batch: where it goes inside the folder it was added to, and how to know it again. */
export interface BatchFile {
  path: string
  size: number
  lastModified: number
}

/**
 * Files added together (a picked or dropped folder, a handful of files), remembered so that after
 * a reload the whole batch can go on, not only the files that had started: the SDK remembers
 * an upload once it has begun, but a folder's later files have not begun yet.
 */
export interface StoredBatch {
  id: string
  /** The folder the batch was added to. */
  targetFolderId: string
  /** Epoch milliseconds. */
  createdAt: number
  /** Folder path inside the batch -> drive folder id, for the folders created so far ('' -> target). */
  folders: Record<string, string>
  files: BatchFile[]
}

export interface RememberedBatch {
  batch: StoredBatch
  /** `done[i]`: file i is uploaded or was cancelled; nothing more to do for it. */
  done: boolean[]
}

/**
 * Batches larger than this are not remembered (localStorage holds a few MB per site); their
 * running uploads can still resume through the SDK's own records.
 */
export const MAX_REMEMBERED_FILES = 5_000

/** A batch is forgotten when the server would have dropped its unfinished uploads anyway. */
const BATCH_TTL_MS = DRIVE_DEFAULTS.uploadExpirySeconds * 1000

const PREFIX = 'cumulus-drive-batch'

/**
 * The batches of one account in a key-value storage: an index of ids, each batch's description
 * (written once, and when a folder is created), and its done flags as a string of `0`/`1` (written
 * as each file finishes: a small write, even for thousands of files). A full or failing storage
 * is ignored: resuming after a reload is a convenience.
 */
export class BatchRecords {
  readonly #storage: KeyValueLike
  readonly #indexKey: string
  readonly #now: () => number

  constructor(storage: KeyValueLike, account: string, now: () => number = Date.now) {
    this.#storage = storage
    this.#indexKey = `${PREFIX}es:${account}`
    this.#now = now
  }

  /** The account's unfinished batches, oldest first; expired or unreadable ones are dropped. */
  list(): RememberedBatch[] {
    const out: RememberedBatch[] = []
    for (const id of this.#ids()) {
      const batch = this.#read<StoredBatch>(`${PREFIX}:${id}`)
      if (!batch || !Array.isArray(batch.files) || batch.createdAt + BATCH_TTL_MS <= this.#now()) {
        this.remove(id)
        continue
      }
      const flags = this.#get(`${PREFIX}-done:${id}`) ?? ''
      const done = batch.files.map((_, index) => flags[index] === '1')
      if (done.every(Boolean)) this.remove(id)
      else out.push({ batch, done })
    }
    return out
  }

  /** Remembers a new batch (not when it is too large to keep). Returns whether it was stored. */
  create(batch: StoredBatch): boolean {
    if (batch.files.length === 0 || batch.files.length > MAX_REMEMBERED_FILES) return false
    if (!this.#set(`${PREFIX}:${batch.id}`, JSON.stringify(batch))) return false
    this.#set(`${PREFIX}-done:${batch.id}`, '0'.repeat(batch.files.length))
    this.#set(this.#indexKey, JSON.stringify([...this.#ids().filter((id) => id !== batch.id), batch.id]))
    return true
  }

  /** Notes a folder of the batch once it exists on the server. */
  setFolder(batch: StoredBatch, path: string, folderId: string): void {
    batch.folders[path] = folderId
    this.#set(`${PREFIX}:${batch.id}`, JSON.stringify(batch))
  }

  /** Marks file `index` done (uploaded or cancelled); a batch with every file done is forgotten. */
  markDone(id: string, index: number): void {
    const key = `${PREFIX}-done:${id}`
    const flags = this.#get(key)
    if (flags === null || index >= flags.length) return
    const next = `${flags.slice(0, index)}1${flags.slice(index + 1)}`
    if (next.includes('0')) this.#set(key, next)
    else this.remove(id)
  }

  /** Forgets a batch (finished, or discarded by the user). */
  remove(id: string): void {
    this.#del(`${PREFIX}:${id}`)
    this.#del(`${PREFIX}-done:${id}`)
    const ids = this.#ids()
    if (ids.includes(id)) this.#set(this.#indexKey, JSON.stringify(ids.filter((other) => other !== id)))
  }

  #ids(): string[] {
    const ids = this.#read<unknown>(this.#indexKey)
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : []
  }

  #read<T>(key: string): T | null {
    const raw = this.#get(key)
    if (raw === null) return null
    try {
      return JSON.parse(raw) as T
    } catch {
      return null
    }
  }

  #get(key: string): string | null {
    try {
      return this.#storage.getItem(key)
    } catch {
      return null
    }
  }

  #set(key: string, value: string): boolean {
    try {
      this.#storage.setItem(key, value)
      return true
    } catch {
      return false
    }
  }

  #del(key: string): void {
    try {
      this.#storage.removeItem(key)
    } catch {
      // Storage gone: nothing to forget.
    }
  }
}
