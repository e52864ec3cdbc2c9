import { randomBytes } from 'node:crypto'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** A random id like the commercial service's ("VN…", 26 characters, ~148 bits). */
export function newId(prefix = 'V'): string {
  const bytes = randomBytes(25)
  let id = prefix
  // 256 is not a multiple of 62; the tiny bias is irrelevant for an unguessable identifier.
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length]
  return id
}

/** Ids as accepted from clients: what newId makes, give or take the prefix. */
export function isId(value: string): boolean {
  return /^[A-Za-z0-9_-]{1,64}$/.test(value)
}
