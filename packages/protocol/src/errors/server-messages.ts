import { DEFAULT_LOCALE, type Locale } from '../locales.js'
import { ERROR_MESSAGES } from '../messages/index.js'
import type { MessageTable } from '../messages/types.js'

/** The server's text for a reason in a locale (en-US when the locale is not one of the six). */
export function messageForReason(reason: string, locale: Locale): string | null {
  // Own keys only: 'constructor' or 'toString' are not reasons, whatever the prototype holds.
  const lookUp = (table: MessageTable | undefined): string | null => {
    if (table === undefined || !Object.hasOwn(table, reason)) return null
    const text = (table as unknown as Record<string, unknown>)[reason]
    return typeof text === 'string' ? text : null
  }
  return lookUp(ERROR_MESSAGES[locale]) ?? lookUp(ERROR_MESSAGES[DEFAULT_LOCALE])
}
