import { LOCALES, type Locale } from '@cumulus/protocol'
import { useLocation, useNavigate } from 'react-router'
import { LANGUAGE_NAMES } from '../i18n/language-names'
import { switchLocalePath, writeLocaleCookie } from '../i18n/locale-routing'
import { loadLocaleMessages } from '../i18n/messages'
import { useLocale, useT } from '../i18n/use-locale'
import { DeferredRadioMenu } from './lazy/deferred-radio-menu'
import { triggerClass } from './ui/menu-styles'

const OPTIONS = LOCALES.map((option) => ({ value: option, label: LANGUAGE_NAMES[option], lang: option }))

/**
 * Switches the page to another language: the new locale's tables load first (one small chunk),
 * then the same page opens under the new prefix. The choice is remembered in the locale cookie,
 * so the next visit to `/` opens in it. The menu (Radix) loads on the first interaction.
 */
export function LanguageSwitcher() {
  const { t } = useT()
  const locale = useLocale()
  const location = useLocation()
  const navigate = useNavigate()

  async function choose(next: Locale) {
    writeLocaleCookie(next)
    if (next === locale) return
    await loadLocaleMessages(next).catch(() => undefined)
    await navigate(switchLocalePath(location.pathname, location.search, next) + location.hash)
  }

  return (
    <DeferredRadioMenu
      // The accessible name contains the visible language name (WCAG 2.5.3, label in name).
      trigger={{ className: triggerClass, 'data-testid': 'language-switcher' }}
      label={t('common.language.label')}
      value={locale}
      options={OPTIONS}
      onValueChange={(value) => void choose(value as Locale)}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8">
        <circle cx="12" cy="12" r="9" />
        <path d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z" />
      </svg>
      <span className="sr-only">{t('common.language.changeTo')}</span>
      <span className="hidden sm:inline">{LANGUAGE_NAMES[locale]}</span>
    </DeferredRadioMenu>
  )
}
