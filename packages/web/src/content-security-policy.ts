import { randomBytes } from 'node:crypto'

/**
 * The security headers of the web app's responses (decision 016). Pages get a Content Security
 * Policy whose scripts run only with this response's nonce: React Router's `<Scripts>`,
 * `<ScrollRestoration>`, its streamed data and the colour-mode script in `<head>` carry it, and
 * `'strict-dynamic'` extends the trust to the modules those scripts import (route chunks), so no
 * host list is needed and an injected `<script>` or `<script src>` without the nonce never runs.
 */

/** Bytes of randomness in a nonce: 128 bits, as CSP 3 recommends; a fresh one for every response. */
const NONCE_BYTES = 16

/** A fresh script nonce (base64, as CSP's nonce-source grammar allows). */
export function newNonce(): string {
  return randomBytes(NONCE_BYTES).toString('base64')
}

/**
 * The CSP of an HTML page. Styles allow 'unsafe-inline': React writes `style` attributes (the
 * virtual list's row offsets, progress bars) and a nonce cannot cover attributes; style
 * injection cannot run script, and the script policy is what stops XSS. `object-src 'none'`
 * (no plugins), `base-uri 'none'` (an injected `<base>` cannot re-point relative script URLs),
 * `frame-ancestors 'none'` (no clickjacking; the captcha page, served by identity, names its own
 * embedders) and `form-action 'self'` (an injected form cannot post a password elsewhere).
 */
export function pageContentSecurityPolicy(nonce: string): string {
  return [
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ')
}

/** Headers every response of the web plugin carries (pages, data requests, static files). */
export const WEB_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
})

/** Whether a response is an HTML document, which the CSP governs. */
export function isHtml(contentType: string | null | undefined): boolean {
  return /^\s*text\/html\b/i.test(contentType ?? '')
}
