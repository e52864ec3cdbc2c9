import type { Locale } from '@cumulus/protocol'

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * "15 days" in the page language. Intl's unit format picks the plural form (1 day, 15 days;
 * 15일; 15天), so the messages need no plural keys that differ between languages.
 */
export function formatDays(days: number, locale: Locale): string {
  return new Intl.NumberFormat(locale, { style: 'unit', unit: 'day', unitDisplay: 'long' }).format(days)
}

/** The date an account deleted at `deletedAtMs` is erased, formatted for the page language. */
export function formatErasureDate(deletedAtMs: number, graceDays: number, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(new Date(deletedAtMs + graceDays * DAY_MS))
}
