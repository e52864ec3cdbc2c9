import { WEB_CLIENT_ID } from '@cumulus/protocol'
import type { Credentials, IdentityClient, UserInfo } from '@cumulus/sdk'

/**
 * The signed-in state the pages render from. `unknown` until the browser has read its stored
 * credentials (always on the server, and during hydration), so no page flashes "signed out"
 * for a signed-in user.
 */
export interface SessionSnapshot {
  status: 'unknown' | 'signed-out' | 'signed-in'
  user: UserInfo | null
  /** Every account stored on this browser, the current one first. */
  accounts: Credentials[]
}

const UNKNOWN: SessionSnapshot = Object.freeze({ status: 'unknown', user: null, accounts: [] }) as SessionSnapshot

let snapshot: SessionSnapshot = UNKNOWN
let loading: Promise<SessionSnapshot> | null = null
const listeners = new Set<() => void>()

function publish(next: SessionSnapshot): SessionSnapshot {
  snapshot = next
  for (const listener of listeners) listener()
  return next
}

function snapshotOf(client: IdentityClient, user: UserInfo): SessionSnapshot {
  return { status: user.isLogin ? 'signed-in' : 'signed-out', user: user.isLogin ? user : null, accounts: client.accounts() }
}

/**
 * Runs the SDK's start-up (refresh expired credentials, load the profile) and publishes the
 * result. Concurrent calls share one run. A failure (offline) publishes what is stored.
 */
export function loadSession(client: IdentityClient): Promise<SessionSnapshot> {
  loading ??= client
    .initialize()
    .then((user) => publish(snapshotOf(client, user)))
    .catch(() => publish(snapshotOf(client, client.userInfo())))
    .finally(() => {
      loading = null
    })
  return loading
}

/**
 * Publishes the state after a local change (sign-in, sign-out, profile edit). A load already
 * running may have read the profile before the change, so this waits for it and loads again.
 */
export async function refreshSession(client: IdentityClient): Promise<SessionSnapshot> {
  if (loading) await loading
  return loadSession(client)
}

export function sessionSnapshot(): SessionSnapshot {
  return snapshot
}

export function serverSessionSnapshot(): SessionSnapshot {
  return UNKNOWN
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Whether a storage event concerns this app's credentials (a sign-in or sign-out in another tab). */
export function isSessionStorageKey(key: string | null): boolean {
  return key === null || key.startsWith(`${WEB_CLIENT_ID}:`)
}
