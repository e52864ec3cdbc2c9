import { RELOAD_GUARD_SECONDS } from '@cumulus/protocol'

/**
 * Chunk-load recovery (spec 2 and 4): when a route's code fails to load during navigation
 * (usually a new deploy replaced the hashed chunks), the app reloads the target path. A mark
 * in sessionStorage, kept for 10 seconds, stops a chunk that keeps failing from reloading forever.
 */

export const RELOAD_GUARD_KEY = 'cumulus:reload'
export const RELOAD_GUARD_MS = RELOAD_GUARD_SECONDS * 1000

export interface ReloadDeps {
  storage: Pick<Storage, 'getItem' | 'setItem'>
  now(): number
  assign(path: string): void
}

/** Reloads `path` unless a reload happened in the last 10 s. Returns whether it reloaded. */
export function reloadApp(deps: ReloadDeps, path: string): boolean {
  const now = deps.now()
  try {
    const mark = JSON.parse(deps.storage.getItem(RELOAD_GUARD_KEY) ?? 'null') as { expiresAt?: unknown } | null
    if (mark && typeof mark.expiresAt === 'number' && mark.expiresAt > now) return false
  } catch {
    // A corrupt mark is treated as none.
  }
  try {
    deps.storage.setItem(RELOAD_GUARD_KEY, JSON.stringify({ path, expiresAt: now + RELOAD_GUARD_MS }))
  } catch {
    // Without storage the guard cannot hold; reloading once is still the best recovery.
  }
  deps.assign(path)
  return true
}

const CHUNK_ERROR_PATTERNS = [
  /Failed to fetch dynamically imported module/i, // Chromium
  /error loading dynamically imported module/i, // Firefox
  /Importing a module script failed/i, // Safari
  /Unable to preload CSS/i, // Vite's CSS preload
]

/** Whether an error is a failed load of a code chunk (as opposed to a bug in the page). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : ''
  return CHUNK_ERROR_PATTERNS.some((pattern) => pattern.test(message))
}

/** The browser's reload deps. */
export function browserReloadDeps(): ReloadDeps {
  return { storage: sessionStorage, now: () => Date.now(), assign: (path) => window.location.assign(path) }
}
