import { useEffect, useSyncExternalStore } from 'react'
import { useLocale } from '../i18n/use-locale'
import { getIdentityClient } from './identity-client'
import { isSessionStorageKey, loadSession, serverSessionSnapshot, sessionSnapshot, subscribeSession } from './session-store'

/** The session, loaded once per page load and kept in step with other tabs. */
export function useSession() {
  const locale = useLocale()
  const session = useSyncExternalStore(subscribeSession, sessionSnapshot, serverSessionSnapshot)
  useEffect(() => {
    const client = getIdentityClient(locale)
    if (sessionSnapshot().status === 'unknown') void loadSession(client)
    const onStorage = (event: StorageEvent) => {
      if (isSessionStorageKey(event.key)) void loadSession(client)
    }
    window.addEventListener('storage', onStorage)
    return () => window.removeEventListener('storage', onStorage)
  }, [locale])
  return session
}
