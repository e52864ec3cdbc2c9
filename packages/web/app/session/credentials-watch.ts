import { WEB_CLIENT_ID } from '@cumulus/protocol'
import type { KeyValueStorage } from '@cumulus/sdk'

/** The SDK's key for an account's credentials (`<client id>:credentials:<sub>`). */
const CREDENTIALS_KEY_PREFIX = `${WEB_CLIENT_ID}:credentials:`

/**
 * The storage the browser's SDK client writes to: `storage` itself, and a call of
 * `onCredentialsRemoved` after the SDK drops an account's credentials in this tab. Other tabs
 * learn of it from the storage event; this tab gets none, so without this a session ended
 * elsewhere (signed out from another device, a password reset) left the page looking signed in
 * after the SDK found the refresh token refused and cleared it: calls failing with "sign in
 * first" and nothing leading there. Called after the write, outside the SDK's own call stack.
 */
export function watchCredentials(storage: KeyValueStorage, onCredentialsRemoved: () => void): KeyValueStorage {
  return {
    getItem: (key) => storage.getItem(key),
    setItem: (key, value) => storage.setItem(key, value),
    removeItem: (key) => {
      const had = storage.getItem(key) !== null
      storage.removeItem(key)
      if (had && key.startsWith(CREDENTIALS_KEY_PREFIX)) queueMicrotask(onCredentialsRemoved)
    },
  }
}
