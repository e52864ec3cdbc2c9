import type { Locale } from '@cumulus/protocol'
import { useCallback, useState } from 'react'
import { useNavigate, useSearchParams } from 'react-router'
import { useLocale } from '../../i18n/use-locale'
import { REDIRECT_PARAM } from '../../middleware/auth'
import { pagePath } from '../../navigation/locale-link'
import type { PageName } from '../../navigation/pages'
import { safeRedirectPath } from '../../navigation/safe-navigation'
import { getIdentityClient } from '../../session/identity-client'
import { refreshSession } from '../../session/session-store'

/**
 * What happens after any successful sign-in or sign-up on the login page: publish the new
 * session, then go where the visitor was heading (`?redirect=`, same origin only: an external
 * URL there would make this page an open redirect) or else to `fallback`: the account page after
 * a sign-in, the drive after a sign-up (a new account comes to use the drive, not to read its
 * empty profile).
 * `finishing` stays true until the navigation, so the page keeps its form (with the button
 * still loading) instead of flashing the "already signed in" panel in between.
 */
export function useFinishSignIn() {
  const locale = useLocale()
  const navigate = useNavigate()
  const [searchParams] = useSearchParams()
  const [finishing, setFinishing] = useState(false)
  const finish = useCallback(
    async (fallback: PageName = 'account-home') => {
      setFinishing(true)
      await refreshSession(getIdentityClient(locale))
      await navigate(signInReturnPath(searchParams, locale, fallback), { replace: true })
    },
    [locale, navigate, searchParams],
  )
  return { finishing, finish }
}

/** Where a sign-in from the login page leads: `?redirect=` (same origin only), else `fallback` in `locale`. Browser only. */
export function signInReturnPath(searchParams: URLSearchParams, locale: Locale, fallback: PageName = 'account-home'): string {
  return safeRedirectPath(searchParams.get(REDIRECT_PARAM), window.location.origin, pagePath(fallback, locale))
}
