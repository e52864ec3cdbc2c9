import { classifyUsername } from '@cumulus/protocol'

/** Normalising the addresses people type, so "Ann@Example.com " and "ann@example.com" are one account. */

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/
const MAX_EMAIL_LENGTH = 254
// E.164: a plus, a country code that does not start with 0, at most 15 digits in all.
const E164 = /^\+[1-9]\d{5,14}$/
const USERNAME = /^[A-Za-z0-9_.-]{3,64}$/

export function normalizeEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase()
  return email.length <= MAX_EMAIL_LENGTH && EMAIL.test(email) ? email : null
}

/** Accepts "+86 138-0013-8000" and "+8613800138000" alike; returns E.164 or null. */
export function normalizePhone(raw: string): string | null {
  const phone = raw.trim().replace(/[\s\-().]/g, '')
  return E164.test(phone) ? phone : null
}

export function normalizeUsername(raw: string): string | null {
  const username = raw.trim()
  return USERNAME.test(username) ? username.toLowerCase() : null
}

/** A sign-in username, normalised, with the kind that decides which column it matches. */
export type ParsedUsername = { kind: 'phone' | 'email' | 'username'; value: string }

/**
 * A sign-in username classified by the shared rule (protocol's classifyUsername, spec 5) and
 * normalised for its kind; null when it is not a valid value of that kind.
 */
export function parseUsername(raw: string): ParsedUsername | null {
  switch (classifyUsername(raw)) {
    case 'phone_number': {
      const value = normalizePhone(raw)
      return value ? { kind: 'phone', value } : null
    }
    case 'email': {
      const value = normalizeEmail(raw)
      return value ? { kind: 'email', value } : null
    }
    case 'username': {
      const value = normalizeUsername(raw)
      return value ? { kind: 'username', value } : null
    }
  }
}
