import { AppError, OAuthErrors } from '@cumulus/protocol'
import type { RegisteredClient } from '../../config.js'

/**
 * Where the challenge page may send the browser with a fresh captcha token in the query. The
 * redirect_uri arrives in the page URL, which anyone can craft, so it must point somewhere the
 * operator registered for the client the challenge was made for (RegisteredClient.redirectUris;
 * the web app registers its own origin). Anything else is refused with invalid_request (OAuth
 * 2.0, RFC 6749 4.1.2.1: never redirect to an unregistered URI), so the page is never an open
 * redirect that hands a token to a third party. No redirect_uri at all is fine: the page then
 * posts the token to the web app that framed it.
 */

// Schemes that run code or read local data in the browser; never a redirect target.
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:'])

function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw)
  } catch {
    return null
  }
}

/**
 * Whether `candidate` is `registered` or lies under it. Compared as parsed URLs, not string
 * prefixes, so "https://app.example" does not admit "https://app.example.evil.test" and
 * "https://app.example/cb" does not admit "https://app.example/cb-evil".
 */
function isUnder(candidate: URL, registered: URL): boolean {
  if (candidate.protocol !== registered.protocol || candidate.host !== registered.host) return false
  if (candidate.username !== '' || candidate.password !== '') return false
  const base = registered.pathname
  const path = candidate.pathname
  return path === base || path.startsWith(base.endsWith('/') ? base : `${base}/`)
}

/** The redirect_uri as a URL when it lies under one of the client's registered redirect URIs, else null. */
export function allowedRedirectTarget(client: RegisteredClient, redirectUri: string): URL | null {
  if (redirectUri === '') return null
  const candidate = parseUrl(redirectUri)
  if (!candidate || FORBIDDEN_SCHEMES.has(candidate.protocol)) return null
  for (const raw of client.redirectUris) {
    const registered = parseUrl(raw)
    if (registered && !FORBIDDEN_SCHEMES.has(registered.protocol) && isUnder(candidate, registered)) return candidate
  }
  return null
}

/**
 * The redirect target for a challenge of `client`: null when no redirect_uri was given, the URL
 * when it is registered for the client, else invalid_request (4121) naming the field.
 */
export function requireRedirectTarget(client: RegisteredClient, redirectUri: string): URL | null {
  if (redirectUri === '') return null
  const target = allowedRedirectTarget(client, redirectUri)
  if (!target) throw new AppError(OAuthErrors.invalid_request, { description: 'redirect_uri is not registered for this client', metadata: { field: 'redirect_uri' } })
  return target
}

/** `target` with the captcha result in its query; existing parameters of the same names are replaced. */
export function withCaptchaResult(target: URL, result: { captchaToken: string; expiresIn: number; state: string }): string {
  const url = new URL(target)
  url.searchParams.set('captcha_token', result.captchaToken)
  url.searchParams.set('expires_in', String(result.expiresIn))
  url.searchParams.set('state', result.state)
  return url.toString()
}
