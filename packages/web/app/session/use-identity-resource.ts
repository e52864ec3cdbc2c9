import type { IdentityClient } from '@cumulus/sdk'
import { useCallback, useEffect, useState } from 'react'
import { useLocale } from '../i18n/use-locale'
import { getIdentityClient } from './identity-client'

export type ResourceState<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'failed'; error: unknown }

/**
 * Something the identity service answers, loaded in the browser when the component mounts and
 * again when the page's language changes (the server words some answers, such as scopes).
 * `reload` asks again after a failure; meanwhile the state stays what it was and `reloading` is
 * true, so the page does not jump. `update` changes the loaded value in place (an app dropped
 * from the list once it is disconnected). `load` is read when a load starts, so pass a function
 * defined outside the component.
 */
export function useIdentityResource<T>(load: (client: IdentityClient) => Promise<T>): {
  state: ResourceState<T>
  reloading: boolean
  reload(): void
  update(change: (value: T) => T): void
} {
  const locale = useLocale()
  const [state, setState] = useState<ResourceState<T>>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [reloading, setReloading] = useState(false)
  useEffect(() => {
    let live = true
    load(getIdentityClient(locale))
      .then(
        (value) => live && setState({ status: 'ready', value }),
        (error: unknown) => live && setState({ status: 'failed', error }),
      )
      .finally(() => live && setReloading(false))
    return () => {
      live = false
    }
    // Not `load`: a module-level function, the same on every render (see above).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [locale, attempt])
  const reload = useCallback(() => {
    setReloading(true)
    setAttempt((n) => n + 1)
  }, [])
  const update = useCallback((change: (value: T) => T) => {
    setState((current) => (current.status === 'ready' ? { status: 'ready', value: change(current.value) } : current))
  }, [])
  return { state, reloading, reload, update }
}
