import type { UserInfo } from '@cumulus/sdk'
import { useEffect } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { useLocale } from '../i18n/use-locale'
import { REDIRECT_PARAM } from '../middleware/auth'
import { pagePath } from '../navigation/locale-link'
import { useSession } from '../session/use-session'

/**
 * The signed-in user of a page behind the `auth` middleware, or null until the session is read.
 * Signed out meanwhile (here or in another tab): to the login page, which brings the visitor back.
 */
export function useSignedInUser(): UserInfo | null {
  const session = useSession()
  const locale = useLocale()
  const location = useLocation()
  const navigate = useNavigate()
  useEffect(() => {
    if (session.status !== 'signed-out') return
    const back = `${location.pathname}${location.search}`
    void navigate(pagePath('account-login', locale, {}, `?${REDIRECT_PARAM}=${encodeURIComponent(back)}`), { replace: true })
  }, [session.status, locale, location.pathname, location.search, navigate])
  return session.status === 'signed-in' ? session.user : null
}
