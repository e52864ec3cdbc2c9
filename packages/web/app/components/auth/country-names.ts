import type { Locale } from '@cumulus/protocol'
import type { Country } from '../../countries/countries'

/**
 * Country names in the page language. The table (spec 3) has English and Simplified Chinese
 * names; Traditional Chinese, Indonesian, Korean and Malay names come from the browser's
 * `Intl.DisplayNames`, falling back to the table (English) where it does not know a region.
 */

export type RegionNames = Pick<Intl.DisplayNames, 'of'>

/** The `Intl.DisplayNames` for a locale whose names the table lacks; null for en-US and zh-CN or without Intl support. */
export function regionNamesFor(locale: Locale): RegionNames | null {
  if (locale === 'en-US' || locale === 'zh-CN') return null
  if (typeof Intl === 'undefined' || typeof Intl.DisplayNames !== 'function') return null
  try {
    return new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' })
  } catch {
    return null
  }
}

/** The name to show for a country in `locale`; `regionNames` from `regionNamesFor(locale)` (null: table names only). */
export function countryDisplayName(country: Country, locale: Locale, regionNames: RegionNames | null): string {
  const fromTable = locale === 'zh-CN' || locale === 'zh-TW' ? country.nameZh : country.nameEn
  if (!regionNames) return fromTable
  let name: string | undefined
  try {
    name = regionNames.of(country.alpha2)
  } catch {
    // An alpha-2 Intl rejects (none today) keeps the table name.
  }
  // Some engines echo the code back instead of honouring fallback: 'none'.
  return name && name !== country.alpha2 ? name : fromTable
}
