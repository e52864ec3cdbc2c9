import type { IdentityDeps } from '../../deps.js'
import { normalizeEmail, normalizePhone, parseUsername } from '../../lib/identifiers.js'
import { hmac } from '../../lib/secrets.js'

/**
 * The target of a captcha-protected call: the account or address it acts on. Captcha init reads
 * it from `meta` (identity.md "Captcha": `username`, `email` or `phone_number`), the protected
 * call from its body, which uses the same three field names; both go through `targetIdentifiers`,
 * so "Ann@Example.com " at init and "ann@example.com" in the call are one target.
 */

/**
 * The account identifiers named by `fields` (`username`, `email`, `phone_number` strings),
 * normalised exactly as sign-in normalises them for its lockout counter, in that order, without
 * duplicates. Anything else (no object, other keys, non-strings, blanks) names nothing.
 */
export function targetIdentifiers(fields: unknown): string[] {
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return []
  const record = fields as Record<string, unknown>
  const out = new Set<string>()
  const text = (key: string) => {
    const value = record[key]
    return typeof value === 'string' && value.trim() !== '' ? value : undefined
  }
  const username = text('username')
  if (username !== undefined) out.add(parseUsername(username)?.value ?? username.trim().toLowerCase())
  const email = text('email')
  if (email !== undefined) out.add(normalizeEmail(email) ?? email.trim().toLowerCase())
  const phone = text('phone_number')
  if (phone !== undefined) out.add(normalizePhone(phone) ?? phone.trim())
  return [...out]
}

/**
 * What a token or challenge carries for each target: a keyed hash, so the address itself never
 * travels in (or can be read from) a token, and a client cannot forge a binding it was not issued.
 */
export function targetBindings(deps: Pick<IdentityDeps, 'hmacKey'>, identifiers: readonly string[]): string[] {
  return identifiers.map((id) => hmac(deps.hmacKey, `captcha-target\u0000${id}`).slice(0, 22))
}

/**
 * Whether a call naming `requested` targets may use a token bound to `bound`: every target the call
 * names is one the token was issued for, and a call that names none needs a token bound to none
 * (so a token for one address is never good for another, nor for an unnamed one).
 */
export function targetsMatch(bound: readonly string[], requested: readonly string[]): boolean {
  if (requested.length === 0) return bound.length === 0
  return requested.every((binding) => bound.includes(binding))
}
