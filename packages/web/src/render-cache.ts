/**
 * A small in-memory cache of server-rendered pages. The session lives in the browser, so a
 * page's HTML depends only on its URL and on the few request facts the app folds into its cache
 * key (the visitor's platform); rendering the same HTML for every visitor is wasted CPU. The app
 * decides what may be cached (`documentCacheKey` in entry.server.tsx); this class only stores.
 *
 * Entries expire after a short time, so time-dependent text (the footer's year) stays right,
 * and the cache is bounded in entries and bytes, evicting the least recently used first.
 */

import type { VariantCoding } from './accept-encoding.js'

export interface CachedPage {
  status: number
  headers: [string, string][]
  body: Buffer
  /** The body compressed once when stored, so a hit costs no compression (page-encoding.ts). */
  encoded?: Partial<Record<VariantCoding, Buffer>>
}

/** What a page costs the byte budget: its body and every encoding kept beside it. */
function pageBytes(page: CachedPage): number {
  return page.body.byteLength + Object.values(page.encoded ?? {}).reduce((sum, body) => sum + body.byteLength, 0)
}

export interface RenderCacheOptions {
  ttlMs: number
  maxEntries: number
  maxBytes: number
  now?: () => number
}

export const DEFAULT_RENDER_CACHE: RenderCacheOptions = { ttlMs: 60_000, maxEntries: 1_000, maxBytes: 32 * 1024 * 1024 }

export class RenderCache {
  readonly #entries = new Map<string, CachedPage & { expiresAt: number }>()
  readonly #options: Required<RenderCacheOptions>
  #bytes = 0

  constructor(options: RenderCacheOptions = DEFAULT_RENDER_CACHE) {
    this.#options = { now: () => Date.now(), ...options }
  }

  /** The page stored under `key`, or undefined when absent or expired (an expired entry is dropped). */
  get(key: string): CachedPage | undefined {
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    if (entry.expiresAt <= this.#options.now()) {
      this.#delete(key)
      return undefined
    }
    // Map order is insertion order: re-inserting marks the entry most recently used.
    this.#entries.delete(key)
    this.#entries.set(key, entry)
    return entry
  }

  /** Stores a page, replacing one under the same key. A page larger than the whole budget is not stored. */
  set(key: string, page: CachedPage): void {
    this.#delete(key)
    const bytes = pageBytes(page)
    if (bytes > this.#options.maxBytes) return
    this.#entries.set(key, { ...page, expiresAt: this.#options.now() + this.#options.ttlMs })
    this.#bytes += bytes
    for (const [oldest] of this.#entries) {
      if (this.#entries.size <= this.#options.maxEntries && this.#bytes <= this.#options.maxBytes) break
      this.#delete(oldest)
    }
  }

  get size(): number {
    return this.#entries.size
  }

  get bytes(): number {
    return this.#bytes
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key)
    if (!entry) return
    this.#bytes -= pageBytes(entry)
    this.#entries.delete(key)
  }
}

/**
 * Whether a rendered response may be stored: a complete HTML page (200, or the 404 page) that
 * sets no cookie and does not forbid storing.
 */
export function isCacheableResponse(response: Response): boolean {
  if (response.status !== 200 && response.status !== 404) return false
  if (!response.headers.get('content-type')?.startsWith('text/html')) return false
  if (response.headers.has('set-cookie')) return false
  return !/\b(no-store|private)\b/i.test(response.headers.get('cache-control') ?? '')
}
