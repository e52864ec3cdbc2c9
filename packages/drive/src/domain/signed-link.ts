import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Signed download links (drive.md, issue 5): a URL that carries its own permission, so a
 * browser `<video>` or a download manager can fetch the file without the bearer header. The
 * signature is an HMAC-SHA256 over the file id, the blob's GCID and the expiry, keyed by the
 * server secret; changing any of them, or waiting past the expiry, invalidates the link.
 */

export interface SignedLinkClaims {
  fileId: string
  gcid: string
  /** Epoch seconds after which the link no longer works. */
  expiresAtSeconds: number
  /** What the link opens: the content (default), its thumbnail, or one part of its playback (`media:…`); one never opens another. */
  purpose?: LinkPurpose
}

/** `share:<id>`: a download through a share, which works only while the share does. */
export type LinkPurpose = 'download' | 'thumbnail' | `media:${string}` | `share:${string}` | `share-thumbnail:${string}`

/** The query parameters of a signed link: `e` (expiry, epoch seconds) and `s` (signature). */
export interface SignedLinkParams {
  e: string
  s: string
}

function signatureOf(secret: string, claims: SignedLinkClaims): Buffer {
  // Fields joined by a separator none of them can contain, so no two claim sets sign alike.
  return createHmac('sha256', secret).update(`cumulus-${claims.purpose ?? 'download'}\n${claims.fileId}\n${claims.gcid}\n${claims.expiresAtSeconds}`).digest()
}

export function signLink(secret: string, claims: SignedLinkClaims): SignedLinkParams {
  return { e: String(claims.expiresAtSeconds), s: signatureOf(secret, claims).toString('base64url') }
}

export type LinkCheck = { ok: true } | { ok: false; reason: 'malformed' | 'expired' | 'bad_signature' }

/**
 * Checks a link's parameters for a file at `nowSeconds`. The signature is compared in constant
 * time; a link is valid up to and including its expiry second.
 */
export function verifyLink(secret: string, file: { fileId: string; gcid: string; purpose?: LinkPurpose }, params: Partial<SignedLinkParams>, nowSeconds: number): LinkCheck {
  if (typeof params.e !== 'string' || typeof params.s !== 'string' || !/^\d{1,12}$/.test(params.e)) return { ok: false, reason: 'malformed' }
  const expiresAtSeconds = Number(params.e)
  const expected = signatureOf(secret, { ...file, expiresAtSeconds })
  const given = Buffer.from(params.s, 'base64url')
  if (given.byteLength !== expected.byteLength || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' }
  if (nowSeconds > expiresAtSeconds) return { ok: false, reason: 'expired' }
  return { ok: true }
}
