/**
 * The bridge the Android app injects into its web view (spec 4: "inside the Android app,
 * user info comes from the native host, then an authorization code is exchanged").
 */
export interface AndroidHostBridge {
  /** The signed-in user as a JSON string (camelCase fields of `UserInfo`), or '' when signed out. */
  getUserInfo(): string
  /** The device id of the app install. */
  getDeviceId(): string
  /** An authorization code for this client, for the scope asked (`pan user offline`). */
  getAuthorizationCode(scope: string): Promise<string> | string
  /** Receives analytics events; `json` is the event's params. */
  trackEvent?(name: string, json: string): void
}

declare global {
  // eslint-disable-next-line no-var
  var CumulusAndroid: AndroidHostBridge | undefined
}

function isBridge(value: unknown): value is AndroidHostBridge {
  const v = value as Partial<AndroidHostBridge> | null | undefined
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.getUserInfo === 'function' &&
    typeof v.getDeviceId === 'function' &&
    typeof v.getAuthorizationCode === 'function'
  )
}

/** The bridge given as an option, else the one on `globalThis.CumulusAndroid`, else null. */
export function findAndroidHost(option?: AndroidHostBridge | null): AndroidHostBridge | null {
  if (option) return option
  const global = (globalThis as { CumulusAndroid?: unknown }).CumulusAndroid
  return isBridge(global) ? global : null
}

/** The host's user info parsed; broken or empty JSON reads as null. */
export function readHostUserInfo(host: AndroidHostBridge): Record<string, unknown> | null {
  try {
    const raw = host.getUserInfo()
    if (typeof raw !== 'string' || raw === '') return null
    const parsed: unknown = JSON.parse(raw)
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The host's device id, or null when it has none or the call fails. */
export function readHostDeviceId(host: AndroidHostBridge): string | null {
  try {
    const id = host.getDeviceId()
    return typeof id === 'string' && id !== '' ? id : null
  } catch {
    return null
  }
}
