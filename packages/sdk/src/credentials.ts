import {
  CREDENTIAL_EXPIRY_LONG_THRESHOLD_SECONDS,
  CREDENTIAL_EXPIRY_MARGIN_LONG_SECONDS,
  CREDENTIAL_EXPIRY_MARGIN_SHORT_SECONDS,
  type TokenReply,
} from '@cumulus/protocol'
import { type KeyValueStorage, type StorageKeys, readJson, storageKeys, writeJson } from './storage.js'

/** Spec 3: stored credentials. `expires_at` is epoch milliseconds. */
export interface Credentials {
  access_token: string
  refresh_token: string
  token_type: string
  expires_in: number
  /** Epoch milliseconds after which the access token is treated as expired (margin included). */
  expires_at: number
  sub: string
  scope?: string
}

/**
 * Spec 4: when the reply gives no `expires_at`, it is `expires_in` minus 120 s when
 * `expires_in` is at least 600 s, else minus 30 s, counted from `nowMs`.
 */
export function computeExpiresAt(expiresInSeconds: number, nowMs: number): number {
  const margin =
    expiresInSeconds >= CREDENTIAL_EXPIRY_LONG_THRESHOLD_SECONDS ? CREDENTIAL_EXPIRY_MARGIN_LONG_SECONDS : CREDENTIAL_EXPIRY_MARGIN_SHORT_SECONDS
  return nowMs + (expiresInSeconds - margin) * 1000
}

/** Spec 4: expired when there is no access token or `expires_at` is missing or past. */
export function isExpired(credentials: Partial<Credentials> | null | undefined, nowMs: number): boolean {
  if (!credentials || typeof credentials.access_token !== 'string' || credentials.access_token === '') return true
  return typeof credentials.expires_at !== 'number' || !(credentials.expires_at > nowMs)
}

/** Credentials from a token reply, with `expires_at` filled when missing. */
export function credentialsFromToken(reply: TokenReply & { expires_at?: number }, nowMs: number): Credentials {
  const expiresIn = Number(reply.expires_in) || 0
  return {
    access_token: reply.access_token,
    refresh_token: reply.refresh_token ?? '',
    token_type: reply.token_type ?? 'Bearer',
    expires_in: expiresIn,
    expires_at: typeof reply.expires_at === 'number' ? reply.expires_at : computeExpiresAt(expiresIn, nowMs),
    sub: reply.sub,
    ...(reply.scope === undefined ? {} : { scope: reply.scope }),
  }
}

function isEmpty(credentials: Partial<Credentials> | null | undefined): boolean {
  return !credentials || (!credentials.access_token && !credentials.refresh_token)
}

/**
 * Credentials of several accounts of one client in a KeyValueStorage: each account under
 * `<clientId>:credentials:<sub>`, the list of subs under `<clientId>:accounts`, the
 * current sub under `<clientId>:current_account`. Not locked: callers hold the
 * client's credentials lock when they read-modify-write.
 */
export class CredentialStore {
  readonly #storage: KeyValueStorage
  readonly #keys: StorageKeys

  constructor(storage: KeyValueStorage, clientId: string) {
    this.#storage = storage
    this.#keys = storageKeys(clientId)
  }

  /** The current account's credentials, or null when none is selected or stored. */
  current(): Credentials | null {
    const sub = this.currentSub()
    return sub === null ? null : this.get(sub)
  }

  /** The sub of the current account, or null. */
  currentSub(): string | null {
    const sub = this.#storage.getItem(this.#keys.currentAccount)
    return sub === null || sub === '' ? null : sub
  }

  /** One account's credentials, or null when it is not stored. */
  get(sub: string): Credentials | null {
    const stored = readJson<Credentials>(this.#storage, this.#keys.credentials(sub))
    return stored && typeof stored === 'object' ? stored : null
  }

  /** Every stored account, current first. */
  list(): Credentials[] {
    const current = this.currentSub()
    const subs = this.#subs()
    const ordered = current !== null && subs.includes(current) ? [current, ...subs.filter((s) => s !== current)] : subs
    return ordered.map((s) => this.get(s)).filter((c): c is Credentials => c !== null)
  }

  /**
   * Stores credentials and makes their account current (computing `expires_at` when
   * missing). Empty credentials (null, or neither token) clear the current account's
   * credentials and the current-account marker (spec 4).
   */
  set(credentials: Partial<Credentials> | null | undefined, nowMs: number = Date.now()): Credentials | null {
    if (isEmpty(credentials)) {
      const current = this.currentSub()
      if (current !== null) this.remove(current)
      this.#storage.removeItem(this.#keys.currentAccount)
      return null
    }
    const c = credentials as Partial<Credentials>
    const sub = c.sub ?? this.currentSub() ?? ''
    const expiresIn = Number(c.expires_in) || 0
    const full: Credentials = {
      access_token: c.access_token ?? '',
      refresh_token: c.refresh_token ?? '',
      token_type: c.token_type ?? 'Bearer',
      expires_in: expiresIn,
      expires_at: typeof c.expires_at === 'number' ? c.expires_at : computeExpiresAt(expiresIn, nowMs),
      sub,
      ...(c.scope === undefined ? {} : { scope: c.scope }),
    }
    writeJson(this.#storage, this.#keys.credentials(sub), full)
    const subs = this.#subs()
    if (!subs.includes(sub)) writeJson(this.#storage, this.#keys.accounts, [...subs, sub])
    this.#storage.setItem(this.#keys.currentAccount, sub)
    return full
  }

  /** Makes a stored account current; returns false (changing nothing) when it is not stored. */
  switchTo(sub: string): boolean {
    if (this.get(sub) === null) return false
    this.#storage.setItem(this.#keys.currentAccount, sub)
    return true
  }

  /** Removes one account; when it is the current one, the marker goes too. Idempotent. */
  remove(sub: string): void {
    this.#storage.removeItem(this.#keys.credentials(sub))
    const subs = this.#subs().filter((s) => s !== sub)
    if (subs.length === 0) this.#storage.removeItem(this.#keys.accounts)
    else writeJson(this.#storage, this.#keys.accounts, subs)
    if (this.currentSub() === sub) this.#storage.removeItem(this.#keys.currentAccount)
  }

  #subs(): string[] {
    const subs = readJson<unknown>(this.#storage, this.#keys.accounts)
    return Array.isArray(subs) ? subs.filter((s): s is string => typeof s === 'string') : []
  }
}
