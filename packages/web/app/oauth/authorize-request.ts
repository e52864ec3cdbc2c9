import { ERROR_INFO_TYPE, OAuthErrors } from '@cumulus/protocol'
import type { AuthorizeParams } from '@cumulus/sdk'

/** An authorization request as the consent page reads it from its query (GET /v1/auth/authorize passes it on unchanged). */
export interface AuthorizeRequest {
  params: AuthorizeParams
  /** OpenID Connect's `prompt` values: `consent` asks again even when granted, `none` must not ask at all. */
  prompt: string[]
}

const OPTIONAL_PARAMS = ['scope', 'state', 'code_challenge', 'code_challenge_method', 'nonce'] as const

/**
 * The request's parameters. Nothing is checked here: the server checks all of them when the page
 * asks what the request is (`authorizeInfo`), and its refusal is what the page shows. A missing
 * required parameter is sent empty, so the server names it.
 */
export function readAuthorizeRequest(query: URLSearchParams): AuthorizeRequest {
  const params: AuthorizeParams = {
    client_id: query.get('client_id') ?? '',
    response_type: query.get('response_type') ?? '',
    redirect_uri: query.get('redirect_uri') ?? '',
  }
  for (const name of OPTIONAL_PARAMS) {
    const value = query.get(name)
    if (value !== null) params[name] = value
  }
  const prompt = (query.get('prompt') ?? '').split(' ').filter((value) => value !== '')
  return { params, prompt }
}

/**
 * The redirect URI a denial sends the browser back to: the `redirect_uri` of the ErrorInfo
 * metadata of the server's `access_denied` (it carries `error=access_denied` and the `state`).
 * Null for any other error, or a denial without one.
 */
export function deniedRedirectUri(error: unknown): string | null {
  if (error === null || typeof error !== 'object') return null
  const { error: reason, details } = error as { error?: unknown; details?: unknown }
  if (reason !== OAuthErrors.access_denied.reason || !Array.isArray(details)) return null
  for (const detail of details as unknown[]) {
    const info = detail as { '@type'?: unknown; metadata?: { redirect_uri?: unknown } } | null
    if (info?.['@type'] === ERROR_INFO_TYPE && typeof info.metadata?.redirect_uri === 'string' && info.metadata.redirect_uri !== '') return info.metadata.redirect_uri
  }
  return null
}

/**
 * The error response of RFC 6749 4.1.2.1 on a redirect URI the server has already checked (what
 * `authorizeInfo` returned): `error`, the client's `state` when it sent one, and the issuer (RFC
 * 9207: the server says it adds `iss`, so clients may refuse a response without it). For
 * `prompt=none` when a page would have to be shown (OpenID Connect Core 3.1.2.6:
 * `login_required`, `consent_required`).
 */
export function errorRedirect(redirectUri: string, error: string, state: string | undefined, issuer: string): string {
  const url = new URL(redirectUri)
  url.searchParams.set('error', error)
  if (state !== undefined) url.searchParams.set('state', state)
  url.searchParams.set('iss', issuer)
  return url.href
}
