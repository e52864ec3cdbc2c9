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
let held: Promise<unknown> | null = null
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
  const start = () => client.initialize()
  loading ??= (held ? held.then(start, start) : start())
    .then((user) => publish(snapshotOf(client, user)))
    .catch(() => publish(snapshotOf(client, client.userInfo())))
    .finally(() => {
      loading = null
    })
  return loading
}

/**
 * Makes session loads wait until `work` settles. The provider callback holds them while it
 * completes the redirect: the SDK's start-up (`initialize()`) also continues a pending provider
 * sign-in, and would take the pending state (without the code, which only the callback's URL
 * has) before the callback reads it, failing both.
 */
export function holdSessionLoads(work: Promise<unknown>): void {
  const hold: Promise<unknown> = work.then(
    () => undefined,
    () => undefined,
  )
  held = hold
  void hold.then(() => {
    if (held === hold) held = null
  })
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

/** The SDK's record of a provider sign-in in progress: not a session (see `isSessionStorageKey`). */
const PENDING_PROVIDER_KEY = `${WEB_CLIENT_ID}:pending_provider`

/**
 * Whether a storage event concerns this app's credentials (a sign-in or sign-out in another tab).
 * A provider sign-in starting in another tab is not one: reloading the session here would run the
 * SDK's start-up, which would take that tab's pending sign-in before its callback page could.
 */
export function isSessionStorageKey(key: string | null): boolean {
  return key === null || (key.startsWith(`${WEB_CLIENT_ID}:`) && key !== PENDING_PROVIDER_KEY)
}
