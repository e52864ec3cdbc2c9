import type { Locale } from '@cumulus/protocol'
import type { IdentityClient } from '@cumulus/sdk'

/**
 * The one path every provider sends the browser back to. Operators register it at each provider
 * (`<PUBLIC_URL>/auth/callback`), so it never carries a locale prefix; the callback page moves to
 * the visitor's language itself.
 */
export const PROVIDER_CALLBACK_PATH = '/auth/callback'

/**
 * What this tab remembers of a provider sign-in it started. The SDK keeps the pending sign-in
 * (its `state`) and forgets it as soon as the callback completes it, even when that fails; the
 * callback page still needs the language and where to send the visitor back, so they are kept
 * here, in the tab's own sessionStorage, which survives the trip through the provider's pages.
 */
export interface StartedProviderSignIn {
  providerId: string
  mode: 'signin' | 'bind'
  /** A path of this app, with its locale prefix. */
  returnTo: string
  locale: Locale
}

const STARTED_KEY = 'cumulus:provider-sign-in'

/**
 * Starts a sign-in (or binding) at a provider and resolves with the provider's URL to send the
 * browser to (see `leaveTo`). Rejects with the SDK's error when the server refuses.
 */
export async function startProviderSignIn(client: IdentityClient, started: StartedProviderSignIn): Promise<string> {
  const uri = await client.startProviderSignIn({
    providerId: started.providerId,
    redirectUri: `${window.location.origin}${PROVIDER_CALLBACK_PATH}`,
    mode: started.mode,
    returnTo: started.returnTo,
  })
  try {
    window.sessionStorage.setItem(STARTED_KEY, JSON.stringify(started))
  } catch {
    // Storage refused (private mode quota): the callback then speaks the path's language.
  }
  return uri
}

/** The provider sign-in this tab started, forgotten as it is read; null when none (or unreadable). */
export function takeStartedProviderSignIn(): StartedProviderSignIn | null {
  try {
    const raw = window.sessionStorage.getItem(STARTED_KEY)
    window.sessionStorage.removeItem(STARTED_KEY)
    const value = raw ? (JSON.parse(raw) as Partial<StartedProviderSignIn>) : null
    if (!value || typeof value.providerId !== 'string' || typeof value.returnTo !== 'string' || typeof value.locale !== 'string') return null
    return { providerId: value.providerId, mode: value.mode === 'bind' ? 'bind' : 'signin', returnTo: value.returnTo, locale: value.locale }
  } catch {
    return null
  }
}

/** How the last provider redirect of this page load ended, when it failed (the callback page shows it). */
export interface FailedProviderRedirect {
  error: unknown
  mode: 'signin' | 'bind'
  returnTo: string | null
}

let lastFailure: FailedProviderRedirect | null = null
let justLinked: string | null = null

export function recordFailedRedirect(failure: FailedProviderRedirect | null): void {
  lastFailure = failure
}

/** The failure the callback page shows; kept (not taken), so switching the page's language shows it again. */
export function lastFailedRedirect(): FailedProviderRedirect | null {
  return lastFailure
}

/** Notes that a binding just completed, for the account page to say so once. */
export function recordJustLinked(providerId: string | null): void {
  justLinked = providerId
}

/** The provider a binding just completed with, or null; forgets it. */
export function takeJustLinked(): string | null {
  const value = justLinked
  justLinked = null
  return value
}
