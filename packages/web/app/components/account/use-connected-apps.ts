import type { ConnectedApp } from '@cumulus/protocol'
import { useCallback, useEffect, useState } from 'react'
import { useLocale } from '../../i18n/use-locale'
import { getIdentityClient } from '../../session/identity-client'

export type ConnectedAppsState = { status: 'loading' } | { status: 'ready'; apps: ConnectedApp[] } | { status: 'failed'; error: unknown }

/**
 * The apps the signed-in user let in (GET /v1/user/authorize/clients), loaded in the browser when
 * the component mounts and again when the page's language changes (the server words the scopes).
 * `reload` asks again after a failure; meanwhile the state stays what it was and `reloading` is
 * true, so the page does not jump. `forget` drops an app from the list once it is disconnected.
 */
export function useConnectedApps(): { state: ConnectedAppsState; reloading: boolean; reload(): void; forget(clientId: string): void } {
  const locale = useLocale()
  const [state, setState] = useState<ConnectedAppsState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [reloading, setReloading] = useState(false)
  useEffect(() => {
    let live = true
    getIdentityClient(locale)
      .connectedApps()
      .then(
        (apps) => live && setState({ status: 'ready', apps }),
        (error: unknown) => live && setState({ status: 'failed', error }),
      )
      .finally(() => live && setReloading(false))
    return () => {
      live = false
    }
  }, [locale, attempt])
  const reload = useCallback(() => {
    setReloading(true)
    setAttempt((n) => n + 1)
  }, [])
  const forget = useCallback((clientId: string) => {
    setState((current) => (current.status === 'ready' ? { status: 'ready', apps: current.apps.filter((app) => app.client.client_id !== clientId) } : current))
  }, [])
  return { state, reloading, reload, forget }
}
