import type { Locale } from '@cumulus/protocol'
import { COUNTRIES, type Country } from '../../countries/countries'

/** A country with a calling code, the only kind a phone number can belong to. */
export type PhoneCountry = Country & { callingCode: string }

export const PHONE_COUNTRIES: readonly PhoneCountry[] = COUNTRIES.filter((c): c is PhoneCountry => c.callingCode !== null)

/** The country a phone field starts on, from the page language. */
export const DEFAULT_PHONE_COUNTRY: Record<Locale, string> = { 'en-US': 'US', id: 'ID', ko: 'KR', ms: 'MY', 'zh-CN': 'CN', 'zh-TW': 'TW' }

// Calling codes shared by several regions: the one a pasted "+1…" or "+7…" most likely means.
const MAIN_COUNTRY_OF_CODE: Record<string, string> = { '1': 'US', '7': 'RU', '39': 'IT', '44': 'GB', '47': 'NO', '61': 'AU', '212': 'MA', '262': 'RE', '290': 'SH', '358': 'FI', '590': 'GP', '599': 'CW' }

// Italy and its enclaves keep the leading 0 of fixed lines in the international form (+39 06…);
// everywhere else a leading 0 is the national trunk prefix and is dropped (UK 07… → +44 7…).
const KEEPS_LEADING_ZERO = new Set(['IT', 'SM', 'VA'])

export function findPhoneCountry(alpha2: string): PhoneCountry | undefined {
  return PHONE_COUNTRIES.find((c) => c.alpha2 === alpha2)
}

/**
 * The E.164 value of what the user typed in the number box: `+<calling code><digits>`, or ''
 * when no digit was typed. Separators are ignored; a national trunk 0 is dropped. A number
 * typed with its own leading `+` is taken as already international.
 */
export function toE164(country: PhoneCountry, typed: string): string {
  const digits = typed.replace(/\D/g, '')
  if (digits === '') return ''
  if (typed.trim().startsWith('+')) return `+${digits}`
  const national = KEEPS_LEADING_ZERO.has(country.alpha2) ? digits : digits.replace(/^0/, '')
  return `+${country.callingCode}${national}`
}

/**
 * Splits an E.164 value into a country and the national digits. The `preferred` country wins
 * when its calling code matches (+1 is shared by the US, Canada and the Caribbean); otherwise the
 * longest matching code. Null when no calling code matches.
 */
export function splitE164(e164: string, preferred?: string): { country: PhoneCountry; national: string } | null {
  const digits = e164.replace(/\D/g, '')
  if (!e164.trim().startsWith('+') || digits === '') return null
  const current = preferred ? findPhoneCountry(preferred) : undefined
  if (current && digits.startsWith(current.callingCode)) return { country: current, national: digits.slice(current.callingCode.length) }
  // Calling codes are prefix-free (ITU E.164), so at most one length of code matches.
  for (let length = 1; length <= 3; length += 1) {
    const code = digits.slice(0, length)
    const matching = PHONE_COUNTRIES.filter((c) => c.callingCode === code)
    if (matching.length === 0) continue
    const country = matching.find((c) => c.alpha2 === MAIN_COUNTRY_OF_CODE[code]) ?? matching[0]!
    return { country, national: digits.slice(length) }
  }
  return null
}
