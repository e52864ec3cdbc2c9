import { type KeyValueStorage, readJson, writeJson } from '../storage.js'

/** Every stored upload's key starts with this; the rest is its fingerprint. */
export const UPLOAD_KEY_PREFIX = 'cumulus.drive.upload.'
/**
 * The fingerprints stored, as a JSON array: KeyValueStorage cannot list its keys. Outside the
 * prefix, so it can never be mistaken for a fingerprint.
 */
export const UPLOAD_INDEX_KEY = 'cumulus.drive.uploads'

/** An unfinished upload, kept so that it can continue after a page reload. */
export interface StoredUpload {
  /** The key `upload()` finds it by: account, folder, size, modification time, hash and name. */
  fingerprint: string
  /** The upload's tus URL. */
  endpoint: string
  /** The drive file the upload fills (phase PENDING until the last byte). */
  fileId: string
  name: string
  /** Bytes. */
  size: number
  /** Epoch milliseconds, as given to `upload()` or read from the File. */
  lastModified: number
  /** '' for the root folder. */
  parentId: string
  /** The account that started it. */
  userId: string
  /** Epoch milliseconds. */
  createdAt: number
  /** Epoch milliseconds after which the server drops the unfinished upload; 0 when unknown. */
  expiresAt: number
}

export interface FingerprintInput {
  userId: string
  parentId: string
  name: string
  size: number
  lastModified: number
  hash?: string | undefined
}

/** The fingerprint of a file to upload: the same file for the same account and folder gets the same one. */
export function uploadFingerprint(input: FingerprintInput): string {
  return [input.userId, input.parentId, input.size, input.lastModified, input.hash ?? '', input.name].map((part) => encodeURIComponent(String(part))).join('/')
}

/** Storage with enumerable keys (localStorage); used to find records another tab added to the index concurrently. */
interface EnumerableStorage extends KeyValueStorage {
  readonly length: number
  key(index: number): string | null
}

function isEnumerable(storage: KeyValueStorage): storage is EnumerableStorage {
  const s = storage as Partial<EnumerableStorage>
  return typeof s.key === 'function' && typeof s.length === 'number'
}

/** Stored uploads in a KeyValueStorage, one key per fingerprint plus an index. */
export class UploadRecords {
  readonly #storage: KeyValueStorage
  readonly #now: () => number

  constructor(storage: KeyValueStorage, now: () => number = Date.now) {
    this.#storage = storage
    this.#now = now
  }

  /** The record of a fingerprint, or null when none is stored, it is malformed or it has expired. */
  find(fingerprint: string): StoredUpload | null {
    const record = readJson<StoredUpload>(this.#storage, UPLOAD_KEY_PREFIX + fingerprint)
    if (!isStoredUpload(record) || record.fingerprint !== fingerprint) return null
    if (record.expiresAt > 0 && record.expiresAt <= this.#now()) {
      this.remove(fingerprint)
      return null
    }
    return record
  }

  /** Stores a record, replacing any with the same fingerprint. A full or failing storage is ignored: resuming after a reload is a convenience. */
  save(record: StoredUpload): void {
    try {
      writeJson(this.#storage, UPLOAD_KEY_PREFIX + record.fingerprint, record)
      const index = this.#index()
      if (!index.includes(record.fingerprint)) writeJson(this.#storage, UPLOAD_INDEX_KEY, [...index, record.fingerprint])
    } catch {
      // QuotaExceededError, storage disabled: the upload still works, it just cannot resume after a reload.
    }
  }

  /** Removes a record. Idempotent. */
  remove(fingerprint: string): void {
    try {
      this.#storage.removeItem(UPLOAD_KEY_PREFIX + fingerprint)
      const index = this.#index()
      if (!index.includes(fingerprint)) return
      const rest = index.filter((f) => f !== fingerprint)
      if (rest.length === 0) this.#storage.removeItem(UPLOAD_INDEX_KEY)
      else writeJson(this.#storage, UPLOAD_INDEX_KEY, rest)
    } catch {
      // As in save().
    }
  }

  /** Every live record, oldest first; expired ones are removed on the way. */
  list(): StoredUpload[] {
    const fingerprints = new Set(this.#index())
    if (isEnumerable(this.#storage)) {
      try {
        for (let i = 0; i < this.#storage.length; i += 1) {
          const key = this.#storage.key(i)
          if (key?.startsWith(UPLOAD_KEY_PREFIX)) fingerprints.add(key.slice(UPLOAD_KEY_PREFIX.length))
        }
      } catch {
        // Enumeration is a bonus; the index is enough.
      }
    }
    const records: StoredUpload[] = []
    for (const fingerprint of fingerprints) {
      const record = this.find(fingerprint)
      if (record) records.push(record)
      else this.remove(fingerprint)
    }
    return records.sort((a, b) => a.createdAt - b.createdAt)
  }

  #index(): string[] {
    const index = readJson<unknown>(this.#storage, UPLOAD_INDEX_KEY)
    return Array.isArray(index) ? index.filter((f): f is string => typeof f === 'string') : []
  }
}

function isStoredUpload(value: unknown): value is StoredUpload {
  if (value === null || typeof value !== 'object') return false
  const r = value as Record<string, unknown>
  return (
    typeof r.fingerprint === 'string' &&
    typeof r.endpoint === 'string' &&
    typeof r.fileId === 'string' &&
    typeof r.size === 'number' &&
    typeof r.createdAt === 'number' &&
    typeof r.expiresAt === 'number'
  )
}
