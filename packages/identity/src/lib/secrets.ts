import { createHmac, hash, randomFillSync, randomInt, timingSafeEqual } from 'node:crypto'

// Entropy is drawn from the CSPRNG 4 KiB at a time and each byte is handed out once, as Node's
// randomUUID does: one call into OpenSSL per ~100 tokens instead of one per token, which showed
// at ~10 µs per refresh on a main thread under load.
const POOL_BYTES = 4096
const pool = Buffer.alloc(POOL_BYTES)
let poolOffset = POOL_BYTES

function takeRandom(bytes: number): Buffer {
  if (bytes > POOL_BYTES) return randomFillSync(Buffer.alloc(bytes))
  if (poolOffset + bytes > POOL_BYTES) {
    randomFillSync(pool)
    poolOffset = 0
  }
  // A copy, so no caller ever holds a view of bytes a later refill overwrites.
  const out = Buffer.from(pool.subarray(poolOffset, poolOffset + bytes))
  pool.fill(0, poolOffset, poolOffset + bytes)
  poolOffset += bytes
  return out
}

/** A random, URL-safe identifier with `bytes` of entropy. */
export function randomId(bytes = 12): string {
  return takeRandom(bytes).toString('base64url')
}

/** A bearer secret (refresh, sudo, verification tokens): 256 bits, URL-safe. */
export function randomSecret(): string {
  return takeRandom(32).toString('base64url')
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
  // One-shot crypto.hash (Node >= 20.12): no Hash object, and its digest is looked up once.
  return hash('sha256', secret, 'base64url')
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
