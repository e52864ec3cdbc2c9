import { CLIENT_UNKNOWN_LOCALE_FALLBACK, DEFAULT_LOCALE, type Locale, matchLocale } from '../locales.js'
import { loadedMessages } from '../messages/registry.js'
import type { MessageTable } from '../messages/types.js'
import { CAPTCHA_REJECT, type ErrorDetail, LOCALIZED_MESSAGE_TYPE } from '../wire/error.js'
import { AccountErrors, GenericErrors, LocalErrors, findErrorByCode } from './catalogue.js'

/** The parts of an error the message choice reads; every field may be missing on a broken reply. */
export interface ErrorLike {
  error?: string | undefined
  error_code?: number | undefined
  error_description?: string | undefined
  details?: readonly Partial<ErrorDetail>[] | undefined
}

/** Codes at or above this have their own text; below it are the generic RPC codes. */
const FIRST_SPECIFIC_CODE = 17

// A locale whose table has not been loaded yet reads en-US (spec 9's translation fallback).
function tableFor(locale: string | null | undefined): MessageTable {
  const resolved: Locale = matchLocale(locale) ?? CLIENT_UNKNOWN_LOCALE_FALLBACK
  return loadedMessages(resolved) ?? (loadedMessages(DEFAULT_LOCALE) as MessageTable)
}

/**
 * The message a user sees for an error, in the spec's choice order (section 8):
 * 1. a localized message carried in `details`;
 * 2. the network-unreachable text;
 * 3. the captcha rejection text (captcha_invalid whose first detail reason is CAPTCHA_REJECT);
 * 4. the text for the code, for codes 17 and above;
 * 5. a default text with the error and its description in brackets.
 * Unknown locales read Simplified Chinese (spec 9). Texts come from the tables loaded with
 * `loadMessages`; a locale not loaded yet reads en-US.
 */
export function chooseErrorMessage(error: ErrorLike, locale?: string | null): string {
  const details = Array.isArray(error.details) ? error.details : []
  const wanted = matchLocale(locale) ?? CLIENT_UNKNOWN_LOCALE_FALLBACK
  const localized = details.filter(
    (d): d is Partial<ErrorDetail> & { message: string } =>
      d?.['@type'] === LOCALIZED_MESSAGE_TYPE && typeof (d as { message?: unknown }).message === 'string' && (d as { message: string }).message !== '',
  )
  const inLocale = localized.find((d) => matchLocale((d as { locale?: string }).locale) === wanted)
  const carried = inLocale ?? localized[0]
  if (carried) return carried.message

  const table = tableFor(locale)
  if (error.error_code === LocalErrors.unreachable.code || error.error === LocalErrors.unreachable.reason) {
    return table.network_unreachable
  }
  const first = details[0] as { reason?: unknown } | null | undefined
  const isCaptchaInvalid =
    error.error === AccountErrors.captcha_invalid.reason || error.error_code === AccountErrors.captcha_invalid.code
  if (isCaptchaInvalid && first?.reason === CAPTCHA_REJECT) return table.captcha_reject

  const code = error.error_code
  if (typeof code === 'number' && code >= FIRST_SPECIFIC_CODE) {
    const entry = findErrorByCode(code)
    if (entry) return table[entry.reason as keyof MessageTable]
  }
  // A broken reply may carry anything here; only strings go into the text.
  const name = typeof error.error === 'string' && error.error !== '' ? error.error : GenericErrors.unknown.reason
  const description = typeof error.error_description === 'string' ? error.error_description : ''
  const bracket = description ? `${name}: ${description}` : name
  return `${table.default} [${bracket}]`
}
