import type enUS from '../locales/en-US/index'
import { useLocale, useT } from '../i18n/use-locale'

type Drive = (typeof enUS)['drive']

/** `a.b` paths of the groups in `T` that hold plural forms (`{ one, other }`). */
type PluralPaths<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends { one: string; other: string } ? `${Prefix}${K}` : T[K] extends string ? never : PluralPaths<T[K], `${Prefix}${K}.`>
}[keyof T & string]

/** A drive message with plural forms, e.g. `drive.toast.trashed`. */
export type PluralKey = `drive.${PluralPaths<Drive>}`

const rules = new Map<string, Intl.PluralRules>()

/**
 * `one` or `other`: every locale we ship uses at most these two forms for whole numbers. One item
 * is always `one`, also in languages without a singular (Chinese, Korean, Indonesian, Malay:
 * `Intl.PluralRules` says `other`): the tables' `one` texts are written for exactly one, and many
 * name the item ("“a.txt” moved to the trash") where `other` can only count.
 */
export function pluralForm(locale: string, count: number): 'one' | 'other' {
  if (count === 1) return 'one'
  let rule = rules.get(locale)
  if (!rule) rules.set(locale, (rule = new Intl.PluralRules(locale)))
  return rule.select(count) === 'one' ? 'one' : 'other'
}

/**
 * `tp('drive.toast.trashed', 3, { name })`: the plural form of the page's locale, filled in with
 * `count` and `values`. The message tables keep `{ one, other }` for every locale (the same keys
 * everywhere; a language without a singular form repeats the text).
 */
export function usePlural(): (key: PluralKey, count: number, values?: Record<string, string | number>) => string {
  const { t } = useT()
  const locale = useLocale()
  const translate = t as unknown as (key: string, values: Record<string, string | number>) => string
  // The count is written with the locale's digit grouping (100,000).
  return (key, count, values = {}) => translate(`${key}.${pluralForm(locale, count)}`, { ...values, count: count.toLocaleString(locale) })
}
