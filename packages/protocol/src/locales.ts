/** The six languages the product ships. The first is the default (no URL prefix). */
export const LOCALES = ['en-US', 'id', 'ko', 'ms', 'zh-CN', 'zh-TW'] as const
export type Locale = (typeof LOCALES)[number]
export const DEFAULT_LOCALE: Locale = 'en-US'

/** Spec 9: unknown locales fall back to Simplified Chinese text on the client side. */
export const CLIENT_UNKNOWN_LOCALE_FALLBACK: Locale = 'zh-CN'

const TRADITIONAL_REGIONS = new Set(['tw', 'hk', 'mo'])

/**
 * Whether the subtags after 'zh' ask for Traditional characters. The script wins over the
 * region ('zh-Hans-HK' is Simplified); extensions and private use (after a one-letter
 * singleton such as '-u-' or '-x-') are not read.
 */
function isTraditionalChinese(subtags: readonly string[]): boolean {
  const end = subtags.findIndex((s) => s.length === 1)
  const relevant = end === -1 ? subtags : subtags.slice(0, end)
  if (relevant.includes('hans')) return false
  if (relevant.includes('hant')) return true
  return relevant.some((s) => TRADITIONAL_REGIONS.has(s))
}

/**
 * Maps one BCP 47 tag to a product locale, or null when none fits.
 * Regional variants fold into the shipped language ('en-GB' -> 'en-US', 'zh-HK' -> 'zh-TW');
 * the legacy code 'in' is Indonesian.
 */
export function matchLocale(tag: string | null | undefined): Locale | null {
  if (typeof tag !== 'string' || tag === '') return null
  const parts = tag.trim().toLowerCase().replace(/_/g, '-').split('-')
  const language = parts[0]
  switch (language) {
    case 'en':
      return 'en-US'
    case 'id':
    case 'in':
      return 'id'
    case 'ko':
      return 'ko'
    case 'ms':
      return 'ms'
    case 'zh':
      return isTraditionalChinese(parts.slice(1)) ? 'zh-TW' : 'zh-CN'
    default:
      return null
  }
}

/**
 * Picks the best product locale from an `Accept-Language` header value, honouring q-values.
 * Returns `fallback` when nothing matches (the server's contract: en-US).
 */
export function negotiateLocale(acceptLanguage: string | null | undefined, fallback: Locale = DEFAULT_LOCALE): Locale {
  if (typeof acceptLanguage !== 'string' || acceptLanguage === '') return fallback
  const ranked = acceptLanguage
    .slice(0, 1024)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';')
      // The weight's name is case-insensitive (RFC 9110 12.4.2): 'Q=0.5' is a weight too.
      const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='))
      const quality = q === undefined ? 1 : Number.parseFloat(q.slice(2))
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index }
    })
    .filter((entry) => entry.tag !== '' && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
  for (const entry of ranked) {
    const locale = matchLocale(entry.tag)
    if (locale) return locale
  }
  return fallback
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value)
}
