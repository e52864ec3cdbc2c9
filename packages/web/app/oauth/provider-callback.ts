import { replace } from 'react-router'
import { localeFromPath } from '../i18n/locale-routing'
import { pagePath } from '../navigation/locale-link'
import { safeRedirectPath } from '../navigation/safe-navigation'
import { getIdentityClient } from '../session/identity-client'
import { holdSessionLoads, refreshSession } from '../session/session-store'
import { recordFailedRedirect, recordJustLinked, takeStartedProviderSignIn } from './provider-sign-in'

/** The query parameters a provider's redirect brings (RFC 6749 4.1.2 and 4.1.2.1). */
const REDIRECT_PARAMS = ['code', 'state', 'error'] as const

/**
 * The callback page's loader (`/auth/callback`, in the browser). With a provider's redirect in
 * the URL, it completes the sign-in or binding through the SDK and leaves: on success to where
 * the visitor was heading (same origin only), on failure to the callback page of the visitor's
 * language without the query (the code is single-use and stays out of the history), which then
 * shows the error. Without a redirect in the URL it does nothing; the page says what it knows.
 */
export async function providerCallbackLoader({ request }: { request: Request }): Promise<null> {
  const url = new URL(request.url)
  if (!REDIRECT_PARAMS.some((name) => url.searchParams.has(name))) return null
  const started = takeStartedProviderSignIn()
  const locale = started?.locale ?? localeFromPath(url.pathname)
  const client = getIdentityClient(locale)
  const query = url.searchParams
  const work = client.completeProviderRedirect({ code: query.get('code'), state: query.get('state'), error: query.get('error'), error_description: query.get('error_description') })
  // Before anything awaits: the layout's session start-up must not run until this is done.
  holdSessionLoads(work)
  let result
  try {
    result = await work
  } catch (error) {
    recordFailedRedirect({ error, mode: started?.mode ?? 'signin', returnTo: started?.returnTo ?? null })
    throw replace(pagePath('auth-callback', locale))
  }
  recordFailedRedirect(null)
  await refreshSession(client)
  if (result.mode === 'bind') recordJustLinked(started?.providerId ?? null)
  throw replace(safeRedirectPath(result.returnTo, window.location.origin, pagePath('account-home', locale)))
}
