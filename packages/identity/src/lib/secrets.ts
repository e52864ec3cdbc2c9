import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'

/** A random, URL-safe identifier with `bytes` of entropy. */
export function randomId(bytes = 12): string {
  return randomBytes(bytes).toString('base64url')
}

/** A bearer secret (refresh, sudo, verification tokens): 256 bits, URL-safe. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url')
}

/** A numeric one-time code with `digits` digits, uniformly drawn. */
export function randomDigits(digits: number): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0')
}

/**
 * Secrets are stored only as SHA-256 hashes: a leaked table holds no usable token.
 * Tokens carry 256 bits of entropy, so an unsalted fast hash is enough here (unlike passwords).
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url')
}

export function hmac(key: Buffer, data: string): string {
  return createHmac('sha256', key).update(data).digest('base64url')
}

/** Constant-time string comparison; unequal lengths are compared against a same-length dummy. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  if (left.length !== right.length) {
    timingSafeEqual(left, left)
    return false
  }
  return timingSafeEqual(left, right)
}
