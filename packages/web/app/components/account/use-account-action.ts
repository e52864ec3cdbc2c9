import type { IdentityClient } from '@cumulus/sdk'
import { useCallback, useState } from 'react'
import { useLocale, useT } from '../../i18n/use-locale'
import { userErrorMessage } from '../../i18n/user-error'
import { getIdentityClient } from '../../session/identity-client'

/** A failure carries the error itself too, for the callers that act on its kind (a wait to count down). */
export type ActionResult<T> = { ok: true; value: T } | { ok: false; message: string; error: unknown }

/**
 * Runs one identity call from an event handler: tracks `pending`, and turns any failure into the
 * SDK's localized message (loading the SDK's texts for the page's locale first, so even errors the
 * SDK raises itself read in the page's language).
 */
export function useAccountAction() {
  const locale = useLocale()
  const { t } = useT()
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = useCallback(
    async <T>(action: (client: IdentityClient) => Promise<T> | T): Promise<ActionResult<T>> => {
      setPending(true)
      setError(null)
      try {
        const value = await action(getIdentityClient(locale))
        return { ok: true, value }
      } catch (err) {
        const message = await userErrorMessage(err, locale, t)
        setError(message)
        return { ok: false, message, error: err }
      } finally {
        setPending(false)
      }
    },
    [locale, t],
  )
  return { run, pending, error, setError }
}
