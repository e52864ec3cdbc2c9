import type { Locale } from '@cumulus/protocol'
import type { i18n as I18n, TFunction } from 'i18next'
import { use, useContext } from 'react'
import { I18nContext } from 'react-i18next'
import { useLocation } from 'react-router'
import type { Messages } from '../locales/shape'
import { addLocale } from './i18n'
import { localeFromPath } from './locale-routing'
import { loadLocaleMessages } from './messages'

/** The locale of the current page, from its path prefix. */
export function useLocale(): Locale {
  return localeFromPath(useLocation().pathname)
}

// One fixed `t` per instance and locale. Building it per call (what useTranslation with `lng`
// does) showed up as a tenth of the server's render time.
const fixedT = new WeakMap<I18n, Map<Locale, TFunction<'translation'>>>()

function translatorFor(i18n: I18n, locale: Locale): TFunction<'translation'> {
  let byLocale = fixedT.get(i18n)
  if (!byLocale) fixedT.set(i18n, (byLocale = new Map()))
  let t = byLocale.get(locale)
  if (!t) byLocale.set(locale, (t = i18n.getFixedT(locale, 'translation')))
  return t
}

/**
 * `t` in the current page's locale. The first render in a locale not loaded yet suspends until
 * its chunk arrives (a language switch), so no page shows keys or another language. Components
 * re-render on navigation (the locale is read from the location), so no i18next event
 * subscription is needed.
 */
export function useT(): { t: TFunction<'translation'>; i18n: I18n } {
  const locale = useLocale()
  const i18n = useContext(I18nContext)?.i18n
  if (!i18n) throw new Error('useT must be used inside <I18nextProvider>')
  if (!i18n.hasResourceBundle(locale, 'translation')) addLocale(i18n, locale, use(loadLocaleMessages(locale) as Promise<Messages>))
  return { t: translatorFor(i18n, locale), i18n }
}
