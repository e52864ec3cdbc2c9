/**
 * The storage the SDK keeps credentials, captcha tokens and its device id in. It is the
 * synchronous part of the Web Storage API, so `localStorage` fits as it is.
 */
export interface KeyValueStorage {
  /** The stored value, or null when the key is missing. */
  getItem(key: string): string | null
  /** Stores the value, replacing any previous one. */
  setItem(key: string, value: string): void
  /** Removes the key; removing a missing key does nothing. */
  removeItem(key: string): void
}

/** An in-memory store, used when no `storage` is given and there is no `localStorage`. */
export class MemoryStorage implements KeyValueStorage {
  readonly #items = new Map<string, string>()

  getItem(key: string): string | null {
    return this.#items.get(key) ?? null
  }

  setItem(key: string, value: string): void {
    this.#items.set(key, String(value))
  }

  removeItem(key: string): void {
    this.#items.delete(key)
  }

  /** Number of stored keys (handy in tests). */
  get length(): number {
    return this.#items.size
  }
}

/** `globalThis.localStorage` when the platform has a working one, else a new MemoryStorage. */
export function defaultStorage(): KeyValueStorage {
  try {
    const local = (globalThis as { localStorage?: KeyValueStorage }).localStorage
    if (local && typeof local.getItem === 'function') return local
  } catch {
    // Reading localStorage throws in sandboxed frames and with storage disabled.
  }
  return new MemoryStorage()
}

/** Reads a JSON value; a missing key, broken JSON or a failing storage reads as null. */
export function readJson<T>(storage: KeyValueStorage, key: string): T | null {
  let raw: string | null
  try {
    raw = storage.getItem(key)
  } catch {
    return null
  }
  if (raw === null || raw === '') return null
  try {
    return JSON.parse(raw) as T
  } catch {
    return null
  }
}

export function writeJson(storage: KeyValueStorage, key: string, value: unknown): void {
  storage.setItem(key, JSON.stringify(value))
}

/** The storage keys of one client: every key starts with the client id (spec 9). */
export function storageKeys(clientId: string) {
  const prefix = `${clientId}:`
  return {
    prefix,
    credentials: (sub: string) => `${prefix}credentials:${sub}`,
    accounts: `${prefix}accounts`,
    currentAccount: `${prefix}current_account`,
    captcha: `${prefix}captcha`,
    deviceId: `${prefix}device_id`,
    refreshLease: `${prefix}refresh_lease`,
    lastRefreshAt: `${prefix}last_refresh_at`,
    pendingProvider: `${prefix}pending_provider`,
  } as const
}
export type StorageKeys = ReturnType<typeof storageKeys>
