import { browserReloadDeps, reloadApp, type ReloadDeps } from './reload-guard'

/**
 * Spec 2: a chunk-load failure during navigation reloads the TARGET path. React Router handles a
 * route module that fails to import by calling `location.reload()` itself, before the navigation
 * commits, which would reload the page the user is leaving. So the app remembers where a
 * navigation is going and turns that reload into a load of the target (guarded by the 10 s
 * reload mark). When the guard holds, the reload is cancelled and the error page is shown.
 *
 * This needs the Navigation API (to see and cancel the reload); browsers without it keep React
 * Router's reload of the current page, and `redirectAfterChunkReload` then moves on to the target.
 */

const PENDING_KEY = 'cumulus:navigating'
/** How long a remembered navigation target stays meaningful for the start-up fallback. */
const PENDING_TTL_MS = 10_000

let pendingTarget: string | null = null
let failedTarget: string | null = null
const listeners = new Set<() => void>()

/** Records the path a navigation is loading (null when idle). Called synchronously on every router state change. */
export function setPendingNavigation(path: string | null, storage: Pick<Storage, 'setItem' | 'removeItem'> | null = safeSessionStorage()): void {
  if (path === pendingTarget) return
  pendingTarget = path
  try {
    if (path) storage?.setItem(PENDING_KEY, JSON.stringify({ path, at: Date.now() }))
    else storage?.removeItem(PENDING_KEY)
  } catch {
    // Storage disabled: only the Navigation API path works.
  }
}

/** The path of a navigation whose chunk failed while the reload guard held, else null. */
export function chunkFailure(): string | null {
  return failedTarget
}

export function clearChunkFailure(): void {
  if (failedTarget === null) return
  failedTarget = null
  for (const listener of listeners) listener()
}

export function subscribeChunkFailure(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

interface NavigateEventLike extends Event {
  navigationType: string
}

/**
 * Decides what a reload requested during a navigation should do. Returns 'allow' to let it
 * happen, 'target' when the target was loaded instead, 'blocked' when the guard stopped it.
 */
export function handleReloadDuringNavigation(deps: ReloadDeps, target: string | null, currentPath: string): 'allow' | 'target' | 'blocked' {
  if (!target || target === currentPath) return 'allow'
  return reloadApp(deps, target) ? 'target' : 'blocked'
}

/** Installs the Navigation API listener. Call once in the browser, before hydration. */
export function installChunkReloadRedirect(deps: ReloadDeps = browserReloadDeps()): void {
  const navigation = (window as unknown as { navigation?: EventTarget }).navigation
  navigation?.addEventListener('navigate', (event) => {
    const navigate = event as NavigateEventLike
    if (navigate.navigationType !== 'reload' || !navigate.cancelable) return
    const outcome = handleReloadDuringNavigation(deps, pendingTarget, `${location.pathname}${location.search}`)
    if (outcome === 'allow') return
    event.preventDefault()
    if (outcome === 'blocked') {
      failedTarget = pendingTarget
      for (const listener of listeners) listener()
    }
  })
}

/**
 * The start-up fallback for browsers without the Navigation API: after a reload that happened
 * while a navigation was loading, continue to its target (once per guard period).
 */
export function redirectAfterChunkReload(deps: ReloadDeps = browserReloadDeps()): boolean {
  if ((window as unknown as { navigation?: unknown }).navigation) return false
  const storage = safeSessionStorage()
  try {
    const raw = storage?.getItem(PENDING_KEY)
    storage?.removeItem(PENDING_KEY)
    const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined
    if (!raw || entry?.type !== 'reload') return false
    const { path, at } = JSON.parse(raw) as { path?: unknown; at?: unknown }
    if (typeof path !== 'string' || typeof at !== 'number' || Date.now() - at > PENDING_TTL_MS) return false
    return handleReloadDuringNavigation(deps, path, `${location.pathname}${location.search}`) === 'target'
  } catch {
    return false
  }
}

function safeSessionStorage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage
  } catch {
    return null
  }
}
