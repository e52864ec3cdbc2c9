import { useCallback, useSyncExternalStore } from 'react'

/**
 * The web app's install offer (PWA). Chromium browsers fire `beforeinstallprompt` when the
 * page is installable; keeping the event lets a button show the browser's install dialog
 * later. Other browsers (Safari, Firefox) never fire it: the cards show instructions instead.
 */

/** Chromium's event (not in the DOM typings). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>
}

/**
 * `available`: the browser will show its install dialog on request; `installed`: the app was
 * just installed, or this page already runs as the installed app; `unsupported`: neither
 * (always on the server and during hydration).
 */
export type InstallState = 'available' | 'installed' | 'unsupported'

let deferred: BeforeInstallPromptEvent | null = null
let installed = false
const listeners = new Set<() => void>()

function publish() {
  for (const listener of listeners) listener()
}

function onBeforeInstallPrompt(event: Event) {
  // Keeps the browser's own mini-infobar away: the platform card makes the offer instead.
  event.preventDefault()
  deferred = event as BeforeInstallPromptEvent
  publish()
}

function onAppInstalled() {
  deferred = null
  installed = true
  publish()
}

// Registered when this module loads (with the route's code, before hydration), not in an
// effect: the browser may fire the event once, early, and a late listener would miss it.
if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', onBeforeInstallPrompt)
  window.addEventListener('appinstalled', onAppInstalled)
}

function runsAsInstalledApp(): boolean {
  const standaloneSafari = (navigator as Navigator & { standalone?: boolean }).standalone === true
  return standaloneSafari || (typeof matchMedia === 'function' && matchMedia('(display-mode: standalone)').matches)
}

function snapshot(): InstallState {
  if (installed || runsAsInstalledApp()) return 'installed'
  return deferred ? 'available' : 'unsupported'
}

function serverSnapshot(): InstallState {
  return 'unsupported'
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/**
 * Shows the browser's install dialog. Resolves with the visitor's choice; `unavailable` when
 * there is no install offer (the event fires at most once per offer, so a dismissed offer is
 * gone until the browser makes a new one).
 */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const event = deferred
  if (!event) return 'unavailable'
  deferred = null
  await event.prompt()
  const { outcome } = await event.userChoice
  if (outcome === 'accepted') installed = true
  publish()
  return outcome
}

/** The install state, kept current, and the action that shows the browser's dialog. */
export function useInstallPrompt(): { state: InstallState; install: () => Promise<'accepted' | 'dismissed' | 'unavailable'> } {
  const state = useSyncExternalStore(subscribe, snapshot, serverSnapshot)
  const install = useCallback(() => promptInstall(), [])
  return { state, install }
}

/** Forgets any kept offer and the installed mark (tests start from a browser without one). */
export function resetInstallPrompt(): void {
  deferred = null
  installed = false
  publish()
}
