import { DEFAULT_LOCALE, LOCALE_COOKIE, type Locale, matchLocale } from '@cumulus/protocol'
import { useEffect, useState } from 'react'
import { Link, useLocation } from 'react-router'
import { readCookie, switchLocalePath, writeLocaleCookie } from '../i18n/locale-routing'
import { loadLocaleMessages } from '../i18n/messages'
import { useLocale } from '../i18n/use-locale'

/** The first of the browser's languages (most preferred first) that is one of the six, or null. */
export function preferredLocale(languages: readonly string[]): Locale | null {
  for (const tag of languages) {
    const locale = matchLocale(tag)
    if (locale) return locale
  }
  return null
}

/**
 * A share link names no language: the sharer cannot know the recipient's, and the browser's
 * language redirects only from the root path (spec 2). So a visitor on the unprefixed page whose
 * browser prefers another of the six, and who never chose a language here (no locale cookie), is
 * offered that language's page, written in that language. Choosing it is remembered like the
 * language switcher's choice.
 */
export function LanguageOffer() {
  const locale = useLocale()
  const location = useLocation()
  const [offer, setOffer] = useState<{ locale: Locale; text: string } | null>(null)

  useEffect(() => {
    if (locale !== DEFAULT_LOCALE || readCookie(document.cookie, LOCALE_COOKIE.name) !== null) return
    const preferred = preferredLocale(navigator.languages ?? [navigator.language])
    if (!preferred || preferred === locale) return
    let live = true
    loadLocaleMessages(preferred).then(
      (messages) => live && setOffer({ locale: preferred, text: messages.sharePage.languageOffer }),
      // Without its tables there is nothing to offer in that language; the page stays as it is.
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [locale])

  if (!offer) return null
  return (
    <p className="mb-6 flex justify-center" data-testid="share-language-offer">
      <Link
        lang={offer.locale}
        to={switchLocalePath(location.pathname, location.search, offer.locale) + location.hash}
        onClick={() => writeLocaleCookie(offer.locale)}
        className="inline-flex min-h-11 items-center gap-2 rounded-full border border-sky-200 bg-sky-50 px-4 py-2 text-sm font-medium text-sky-800 hover:bg-sky-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-200 dark:hover:bg-sky-900"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4 shrink-0" fill="none" stroke="currentColor" strokeWidth="1.8">
          <circle cx="12" cy="12" r="9" />
          <path d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z" />
        </svg>
        {offer.text}
      </Link>
    </p>
  )
}
