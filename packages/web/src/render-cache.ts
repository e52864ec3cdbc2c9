/**
 * A small in-memory cache of server-rendered pages. The session lives in the browser, so a
 * page's HTML depends only on its URL and on the few request facts the app folds into its cache
 * key (the visitor's platform); rendering the same HTML for every visitor is wasted CPU. The app
 * decides what may be cached (`documentCacheKey` in entry.server.tsx); this class only stores.
 *
 * Entries expire after a short time, so time-dependent text (the footer's year) stays right,
 * and the cache is bounded in entries and bytes, evicting the least recently used first.
 */

/**
 * A stored page. Its HTML carries the script nonce of the render that produced it, and a nonce
 * shared by every visitor for a minute would be a nonce an attacker can read and then use in an
 * injected script: so the page is kept as the parts between the nonce's occurrences, and each
 * response joins them with a fresh nonce (`pageWithNonce`). No compressed copy is kept either,
 * since compressed bytes cannot be re-joined; the plugin compresses each response after joining.
 */
export interface CachedPage {
  status: number
  /** The response headers, without the Content-Security-Policy (it names the nonce; the plugin sets its own). */
  headers: [string, string][]
  /** The body split at every occurrence of the render's nonce. */
  parts: Buffer[]
}

/** What a page costs the byte budget. */
function pageBytes(page: CachedPage): number {
  return page.parts.reduce((sum, part) => sum + part.byteLength, 0)
}

/**
 * `body` as a nonce template: the parts between occurrences of `nonce`. The nonce is 128 random
 * bits drawn for this render, so page content (a file name, a query echoed in the page) cannot
 * contain it by chance or by design: every occurrence is one the render put there.
 */
export function splitAtNonce(body: Buffer, nonce: string): Buffer[] {
  const needle = Buffer.from(nonce)
  const parts: Buffer[] = []
  let from = 0
  for (let at = body.indexOf(needle, from); at !== -1; at = body.indexOf(needle, from)) {
    parts.push(body.subarray(from, at))
    from = at + needle.length
  }
  parts.push(body.subarray(from))
  // Copies, so the stored page holds only its own bytes and not the render's whole buffer.
  return parts.map((part) => Buffer.from(part))
}

/** The page's body with `nonce` wherever the render's nonce stood. */
export function pageWithNonce(page: CachedPage, nonce: string): Buffer {
  const needle = Buffer.from(nonce)
  const pieces: Buffer[] = []
  page.parts.forEach((part, index) => {
    if (index > 0) pieces.push(needle)
    pieces.push(part)
  })
  return Buffer.concat(pieces)
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
