import { hmac, safeEqual } from '../../lib/secrets.js'

/**
 * Compact signed strings, `<kind>.<base64url(JSON)>.<HMAC-SHA256>`, for captcha tokens and
 * challenges. They are stateless on purpose: a token or challenge is checked without a database
 * read, and only single-use claims touch the counter store.
 *
 * The kind is covered by the MAC, so a challenge can never be presented as a token (or the
 * reverse) although both are signed with the same `deps.hmacKey`.
 */

/** Longer inputs are refused before any HMAC work, so junk headers cost nothing. */
export const MAX_SIGNED_LENGTH = 4096

export function signPayload(key: Buffer, kind: string, payload: object): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url')
  return `${kind}.${body}.${hmac(key, `${kind}.${body}`)}`
}

/** The payload of a string signed by `signPayload` with this key and kind, or null when it is not one. */
export function openSignedPayload(key: Buffer, kind: string, signed: string): Record<string, unknown> | null {
  if (signed.length > MAX_SIGNED_LENGTH) return null
  const parts = signed.split('.')
  if (parts.length !== 3) return null
  const [prefix, body, mac] = parts as [string, string, string]
  if (prefix !== kind || body === '') return null
  if (!safeEqual(mac, hmac(key, `${kind}.${body}`))) return null
  try {
    const payload: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
    return payload && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : null
  } catch {
    return null
  }
}
