import type { RegisteredClient } from '../../config.js'

/**
 * Where the challenge page may send the browser with a fresh captcha token in the query. The
 * redirect_uri arrives in the page URL, which anyone can craft, so it must point somewhere the
 * operator trusts: under one of the client's registered redirect URIs, or on this service's own
 * origin (the web app). Anything else yields null and the page falls back to postMessage: never
 * an open redirect that hands a token to a third party.
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

/** The redirect_uri as a URL when it is allowed for this client, else null. */
export function allowedRedirectTarget(publicUrl: string, client: RegisteredClient, redirectUri: string): URL | null {
  if (redirectUri === '') return null
  const candidate = parseUrl(redirectUri)
  if (!candidate || FORBIDDEN_SCHEMES.has(candidate.protocol)) return null
  const own = parseUrl(publicUrl)
  if (own && isUnder(candidate, new URL(own.origin))) return candidate
  for (const raw of client.redirectUris) {
    const registered = parseUrl(raw)
    if (registered && !FORBIDDEN_SCHEMES.has(registered.protocol) && isUnder(candidate, registered)) return candidate
  }
  return null
}

/** `target` with the captcha result in its query; existing parameters of the same names are replaced. */
export function withCaptchaResult(target: URL, result: { captchaToken: string; expiresIn: number; state: string }): string {
  const url = new URL(target)
  url.searchParams.set('captcha_token', result.captchaToken)
  url.searchParams.set('expires_in', String(result.expiresIn))
  url.searchParams.set('state', result.state)
  return url.toString()
}
