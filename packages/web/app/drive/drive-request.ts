import { GenericErrors, type Locale, LocalErrors } from '@cumulus/protocol'
import { errorMessage, type IdentityClient, isIdentityError } from '@cumulus/sdk'
import { useCallback, useEffect, useState } from 'react'
import { useLocale } from '../i18n/use-locale'
import { getIdentityClient } from '../session/identity-client'
import { useSession } from '../session/use-session'

/**
 * The request helper of the decompress pages (spec 2). It calls the drive API
 * (protocol/drive.md) through the SDK's `request()`, with the usual headers, retries and the
 * bearer token when someone is signed in, and turns the answer into what the page shows.
 * Pages never show anything the server did not send: no placeholder results.
 */

/** One drive call. `path` starts with `/drive/v1/` or `/decompress/v1/`. */
export interface DriveCall {
  method: 'GET' | 'POST' | 'DELETE'
  path: string
  query?: Record<string, string | number | undefined>
  body?: unknown
}

/** What a page shows for a drive call. */
export type DriveViewState<T> =
  /** Nothing asked yet. */
  | { status: 'idle' }
  /** Waiting for the session to be known or for the answer. */
  | { status: 'loading' }
  | { status: 'ready'; data: T }
  /** This server has no such drive endpoint yet (the feature arrives in a later release). */
  | { status: 'unavailable' }
  /** The drive wants a signed-in user. */
  | { status: 'sign-in-required' }
  /** The file or archive asked for does not exist (or is not the user's). */
  | { status: 'not-found' }
  /** No server answered (offline, server down). */
  | { status: 'offline' }
  /** Any other error, with its message in the page's language. */
  | { status: 'error'; message: string }

/** The settled outcome of a call: its JSON body, or what it threw. */
export type DriveOutcome = { ok: true; body: unknown } | { ok: false; error: unknown }

/**
 * Maps a call's outcome to the view state. `parse` turns the reply body into the page's data
 * (it may drop entries it cannot read, never add any); a body it cannot read at all makes it
 * throw, which shows as an error rather than as made-up content.
 *
 * - A drive reason naming a missing item (`file_not_found`, drive.md) -> `not-found`. Checked
 *   first: it shares code 5 with the generic `not_found`.
 * - 404 `not_found` (the server's answer for an API path it does not serve) and 501
 *   `unimplemented`: the drive is not on this server yet -> `unavailable`.
 * - 401 `unauthenticated`, or the SDK's own "not signed in" -> `sign-in-required`.
 * - `unreachable` -> `offline`; anything else -> `error`.
 */
export function toDriveViewState<T>(outcome: DriveOutcome, parse: (body: unknown) => T, locale: Locale): DriveViewState<T> {
  if (outcome.ok) {
    try {
      return { status: 'ready', data: parse(outcome.body) }
    } catch (error) {
      return { status: 'error', message: errorMessage(error, locale) }
    }
  }
  const { error } = outcome
  if (!isIdentityError(error)) return { status: 'error', message: errorMessage(error, locale) }
  if (error.error.endsWith('_not_found')) return { status: 'not-found' }
  if (error.is(GenericErrors.not_found) || error.is(GenericErrors.unimplemented)) return { status: 'unavailable' }
  if (error.is(GenericErrors.unauthenticated)) return { status: 'sign-in-required' }
  if (error.is(LocalErrors.unreachable)) return { status: 'offline' }
  return { status: 'error', message: errorMessage(error, locale) }
}

/** Sends one drive call and settles it into an outcome (never rejects). */
export async function sendDriveCall(client: Pick<IdentityClient, 'request'>, call: DriveCall, options: { auth: boolean; signal?: AbortSignal }): Promise<DriveOutcome> {
  try {
    const body = await client.request(call.method, call.path, { query: call.query, body: call.body, auth: options.auth, signal: options.signal })
    return { ok: true, body }
  } catch (error) {
    return { ok: false, error }
  }
}

/**
 * Runs `call` once the session is known (signed in: with the bearer token; signed out: without,
 * so the server itself says whether the feature exists or wants a sign-in) and again whenever
 * the call or the session changes. `null` means nothing to ask (`idle`). `attempt` re-runs the
 * same call (a "Try again" button increments it).
 */
export function useDriveRequest<T>(call: DriveCall | null, parse: (body: unknown) => T, attempt = 0): DriveViewState<T> {
  const locale = useLocale()
  const session = useSession()
  const [state, setState] = useState<DriveViewState<T>>(call ? { status: 'loading' } : { status: 'idle' })
  const key = call ? JSON.stringify(call) : null
  const signedIn = session.status === 'signed-in'
  const sessionKnown = session.status !== 'unknown'
  useEffect(() => {
    if (key === null) {
      setState({ status: 'idle' })
      return
    }
    setState({ status: 'loading' })
    if (!sessionKnown) return
    const controller = new AbortController()
    void sendDriveCall(getIdentityClient(locale), JSON.parse(key) as DriveCall, { auth: signedIn, signal: controller.signal }).then((outcome) => {
      if (!controller.signal.aborted) setState(toDriveViewState(outcome, parse, locale))
    })
    return () => controller.abort()
    // `parse` is a module-level function at every call site; the call is compared by value.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, locale, signedIn, sessionKnown, attempt])
  return state
}

/** Sends one call now and settles it into a view state (never rejects). */
export type SendDriveCall = <T>(call: DriveCall, parse: (body: unknown) => T, signal?: AbortSignal) => Promise<DriveViewState<T>>

/**
 * One-shot calls for what the user does on a page (unpack, cancel, retry) and for polling: the
 * same client, token and error mapping as `useDriveRequest`, sent when the page says. `ready`
 * is false until the session is known (a call sent before would go without the token).
 */
export function useDriveCall(): { send: SendDriveCall; ready: boolean } {
  const locale = useLocale()
  const session = useSession()
  const signedIn = session.status === 'signed-in'
  const send = useCallback<SendDriveCall>(
    async (call, parse, signal) => toDriveViewState(await sendDriveCall(getIdentityClient(locale), call, { auth: signedIn, signal }), parse, locale),
    [locale, signedIn],
  )
  return { send, ready: session.status !== 'unknown' }
}
