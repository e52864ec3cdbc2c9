import type { ProviderInfo } from '@cumulus/protocol'
import { useCallback, useEffect, useState } from 'react'
import { useLocale } from '../i18n/use-locale'
import { getIdentityClient } from '../session/identity-client'

export type ProvidersState = { status: 'loading' } | { status: 'ready'; providers: ProviderInfo[] } | { status: 'failed'; error: unknown }

/**
 * The identity providers the operator configured (GET /v1/auth/providers), loaded in the browser
 * when the component mounts. `reload` asks again after a failure; meanwhile the state stays what
 * it was and `reloading` is true, so the page does not jump.
 */
export function useProviders(): { state: ProvidersState; reloading: boolean; reload(): void } {
  const locale = useLocale()
  const [state, setState] = useState<ProvidersState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [reloading, setReloading] = useState(false)
  useEffect(() => {
    let live = true
    getIdentityClient(locale)
      .providers()
      .then(
        (providers) => live && setState({ status: 'ready', providers }),
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
  return { state, reloading, reload }
}
