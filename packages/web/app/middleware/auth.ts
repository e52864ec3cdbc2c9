import { type ClientLoaderFunctionArgs, redirect } from 'react-router'
import { localeFromPath } from '../i18n/locale-routing'
import { pagePath } from '../navigation/locale-link'
import { getIdentityClient } from '../session/identity-client'
import { loadSession, type SessionSnapshot, sessionSnapshot } from '../session/session-store'

/** The query parameter that carries the page to return to after signing in. */
export const REDIRECT_PARAM = 'redirect'

/**
 * The `auth` route middleware (spec 2). The session lives in the browser's storage, so this
 * runs in a route's clientLoader: a signed-out visitor is sent to the login page with the page
 * they wanted in `?redirect=`, and the login page brings them back after signing in.
 * A protected route re-exports `authClientLoader` as its `clientLoader` and renders
 * `ProtectedPageFallback` (components/protected-page-fallback) as its `HydrateFallback`.
 */
export async function requireSignedIn({ request }: Pick<ClientLoaderFunctionArgs, 'request'>): Promise<SessionSnapshot> {
  const url = new URL(request.url)
  const locale = localeFromPath(url.pathname)
  const current = sessionSnapshot()
  const session = current.status === 'unknown' ? await loadSession(getIdentityClient(locale)) : current
  if (session.status !== 'signed-in') {
    throw redirect(pagePath('account-login', locale, {}, `?${REDIRECT_PARAM}=${encodeURIComponent(`${url.pathname}${url.search}`)}`))
  }
  return session
}

/** A protected route's `clientLoader`; it also runs on hydration, since the server has no session. */
export async function authClientLoader(args: Pick<ClientLoaderFunctionArgs, 'request'>): Promise<SessionSnapshot> {
  return requireSignedIn(args)
}
authClientLoader.hydrate = true as const
