import { classifyUsername, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@cumulus/protocol'

/**
 * The shared pattern check (spec 2) of the login, sign-up, recovery and unregister forms.
 * Each `check*` is pure: it returns `null` when the value is acceptable, else the i18n key of
 * the message to show (translate it with `t(key, PATTERN_VALUES)`). The rules mirror the
 * identity service's (packages/identity/src/lib/identifiers.ts, password-policy.ts) so a value
 * that passes here is not refused by the server for its shape; the server stays the authority.
 *
 *   const error = checkEmail(email)
 *   <TextField error={error ? t(error, PATTERN_VALUES) : null} />
 */

export type PatternMessageKey =
  | 'auth.patterns.emailRequired'
  | 'auth.patterns.emailInvalid'
  | 'auth.patterns.phoneRequired'
  | 'auth.patterns.phoneInvalid'
  | 'auth.patterns.usernameRequired'
  | 'auth.patterns.usernameInvalid'
  | 'auth.patterns.passwordRequired'
  | 'auth.patterns.passwordTooShort'
  | 'auth.patterns.passwordTooLong'
  | 'auth.patterns.passwordBlank'
  | 'auth.patterns.passwordMismatch'
  | 'auth.patterns.codeRequired'
  | 'auth.patterns.codeInvalid'

/** The number of digits in a verification code (identity.md: "a 6-digit code"). */
export const CODE_LENGTH = 6

/** The values the pattern messages interpolate ("at least {{min}} characters"). */
export const PATTERN_VALUES = Object.freeze({ min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH, digits: CODE_LENGTH })

// RFC 5321 limits: 64 characters before the @, 254 in all.
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/
const MAX_EMAIL_LENGTH = 254
// E.164: a plus, a country code that does not start with 0, at most 15 digits in all.
const E164 = /^\+[1-9]\d{5,14}$/
const USERNAME = /^[A-Za-z0-9_.-]{3,64}$/
const CODE = new RegExp(`^\\d{${CODE_LENGTH}}$`)

/** An e-mail address; surrounding spaces are ignored (the service trims them too). */
export function checkEmail(value: string): PatternMessageKey | null {
  const email = value.trim()
  if (email === '') return 'auth.patterns.emailRequired'
  return email.length <= MAX_EMAIL_LENGTH && EMAIL.test(email) ? null : 'auth.patterns.emailInvalid'
}

/** A phone number in E.164 form (`+<calling code><number>`, what PhoneField produces). */
export function checkPhone(e164: string): PatternMessageKey | null {
  const phone = e164.trim()
  if (phone === '' || phone === '+') return 'auth.patterns.phoneRequired'
  return E164.test(phone) ? null : 'auth.patterns.phoneInvalid'
}

/**
 * The sign-in identifier, classified by the rule the SDK and the server share (protocol's
 * classifyUsername, spec 5): a leading `+` is a phone number, an `@` an e-mail address, anything
 * else a plain username. Spaces, dashes and brackets inside a phone number are allowed
 * ("+1 (415) 555-0100"); `normalizeUsername` removes them.
 */
export function checkUsername(value: string): PatternMessageKey | null {
  const username = value.trim()
  if (username === '') return 'auth.patterns.usernameRequired'
  switch (classifyUsername(username)) {
    case 'phone_number':
      return checkPhone(normalizeUsername(username)) === null ? null : 'auth.patterns.phoneInvalid'
    case 'email':
      return checkEmail(username)
    case 'username':
      return USERNAME.test(username) ? null : 'auth.patterns.usernameInvalid'
  }
}

/** The identifier as it is sent: trimmed, and a phone number without its separators. */
export function normalizeUsername(value: string): string {
  const username = value.trim()
  return classifyUsername(username) === 'phone_number' ? username.replace(/[\s\-().]/g, '') : username
}

/**
 * A password the service will store: PASSWORD_MIN_LENGTH to PASSWORD_MAX_LENGTH characters
 * (counted as code points, as the server does, so an emoji is one), not only spaces.
 */
export function checkPassword(value: string): PatternMessageKey | null {
  if (value === '') return 'auth.patterns.passwordRequired'
  const lengthChars = [...value].length
  if (lengthChars < PASSWORD_MIN_LENGTH) return 'auth.patterns.passwordTooShort'
  if (lengthChars > PASSWORD_MAX_LENGTH) return 'auth.patterns.passwordTooLong'
  return value.trim() === '' ? 'auth.patterns.passwordBlank' : null
}

/**
 * A password typed to prove who you are (sign-in, unregister): only required. Length rules are
 * not applied, so an account whose password predates a rule change can still sign in.
 */
export function checkPasswordEntered(value: string): PatternMessageKey | null {
  return value === '' ? 'auth.patterns.passwordRequired' : null
}

/** The repeated new password matches the first one. */
export function checkPasswordConfirmation(password: string, confirmation: string): PatternMessageKey | null {
  if (confirmation === '') return 'auth.patterns.passwordRequired'
  return password === confirmation ? null : 'auth.patterns.passwordMismatch'
}

/** A verification code: exactly CODE_LENGTH ASCII digits (spaces around are ignored). */
export function checkCode(value: string): PatternMessageKey | null {
  const code = value.trim()
  if (code === '') return 'auth.patterns.codeRequired'
  return CODE.test(code) ? null : 'auth.patterns.codeInvalid'
}
