import { LOCALES, type Locale } from '@cumulus/protocol'
import i18next, { type i18n as I18n } from 'i18next'
import type { Messages } from '../locales/shape'

export const NAMESPACE = 'translation'

/**
 * An i18next instance holding the given locales' tables. No fallback language: every key
 * exists in every locale (a test checks it), and falling back would put English into a
 * Korean page unnoticed.
 */
export function createI18n(locale: Locale, tables: Partial<Record<Locale, Messages>>): I18n {
  const instance = i18next.createInstance()
  const resources = Object.fromEntries(Object.entries(tables).map(([lng, messages]) => [lng, { [NAMESPACE]: messages }]))
  void instance.init({
    lng: locale,
    supportedLngs: [...LOCALES],
    fallbackLng: false,
    resources,
    defaultNS: NAMESPACE,
    // React escapes text; i18next escaping would double-escape it.
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  })
  return instance
}

/** Adds a locale's tables to an instance once (client-side language switch). */
export function addLocale(instance: I18n, locale: Locale, messages: Messages): void {
  if (!instance.hasResourceBundle(locale, NAMESPACE)) instance.addResourceBundle(locale, NAMESPACE, messages, true, true)
}

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation'
    resources: { translation: Messages }
  }
}
