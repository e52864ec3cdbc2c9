import { randomInt } from 'node:crypto'

/**
 * Codes people type (activation and invite codes) in Crockford's base 32: digits and upper-case
 * letters without I, L, O and U, so a code read aloud or retyped is not misread.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** `length` random characters (5 bits each). */
export function randomCode(length: number): string {
  let code = ''
  for (let i = 0; i < length; i += 1) code += ALPHABET[randomInt(ALPHABET.length)]
  return code
}

/**
 * A code as typed, made canonical: upper case, spaces and dashes dropped, and the letters
 * Crockford reads as digits (I and L as 1, O as 0) mapped. Null unless `length` characters of
 * the alphabet are left.
 */
export function normaliseCode(input: string, length: number): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0')
  if (code.length !== length) return null
  for (const char of code) if (!ALPHABET.includes(char)) return null
  return code
}
