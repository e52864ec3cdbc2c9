import type { IdentityClient } from '@cumulus/sdk'
import { useCallback, useState } from 'react'
import { useLocale, useT } from '../../i18n/use-locale'
import { getIdentityClient } from '../../session/identity-client'

/** A failure carries what was thrown, for callers that act on it (a wait the server asked for). */
export type CallResult<T> = { ok: true; value: T } | { ok: false; error: unknown }

/**
 * Runs identity calls for a form: which call is pending (for its button's loading animation)
 * and the last failure as a localized message. A form shows one error at a time, so every call
 * clears the previous one.
 */
export function useIdentityCall<Name extends string>() {
  const locale = useLocale()
  const { t } = useT()
  const [pending, setPending] = useState<Name | null>(null)
  const [error, setError] = useState<string | null>(null)

  const call = useCallback(
    async <T,>(name: Name, run: (client: IdentityClient) => Promise<T>): Promise<CallResult<T>> => {
      setPending(name)
      setError(null)
      try {
        return { ok: true, value: await run(getIdentityClient(locale)) }
      } catch (err) {
        // The error texts (the SDK's catalogue) load with the first failure, not with the page.
        const message = await import('../../i18n/user-error').then(
          ({ userErrorMessage }) => userErrorMessage(err, locale, t),
          () => t('common.errorPage.internalMessage'),
        )
        setError(message)
        return { ok: false, error: err }
      } finally {
        setPending(null)
      }
    },
    [locale, t],
  )

  return { pending, error, setError, call }
}
