import { useRef } from 'react'
import { useLocation } from 'react-router'
import { REDIRECT_PARAM } from '../middleware/auth'
import { FOLDER_PATH_PARAM, formatFolderPath, parseFolderPath } from '../share-page/folder-path'
import type { SessionSnapshot } from '../session/session-store'
import { useSession } from '../session/use-session'
import { useT } from '../i18n/use-locale'
import { LocaleLink, LocaleNavLink } from '../navigation/locale-link'
import { ColorModeSwitcher } from './color-mode-switcher'
import { LanguageSwitcher } from './language-switcher'
import { Logo } from './logo'
import { useScrollRow } from './ui/use-scroll-row'

type SessionStatus = SessionSnapshot['status']

// One line each: on a phone the row under the bar scrolls sideways rather than growing a second
// line ("Unduhan awan", "Muat turun awan").
const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `shrink-0 whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium transition-colors ${isActive ? 'text-brand-600 dark:text-brand-300' : 'text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white'}`

const PRIMARY_PAGES = [
  { page: 'thunder', label: 'common.nav.thunder' },
  { page: 'newbie-guide', label: 'common.nav.guide' },
  { page: 'about', label: 'common.nav.about' },
] as const

/** The main sections; shown inline on wide screens and as a scrolling row under the bar on phones. */
function PrimaryLinks() {
  const { t } = useT()
  return PRIMARY_PAGES.map(({ page, label }) => (
    <LocaleNavLink key={page} page={page} className={navLinkClass}>
      {t(label)}
    </LocaleNavLink>
  ))
}

/**
 * Sign in, or the account link, once the session is known. The session lives only in the
 * browser, so the server (and the first render in the browser, which must match it) knows
 * neither: until then a blank of the same size holds the place, so a signed-in user never sees
 * "Sign in" flash, nor a signed-out one the account link.
 */
function SessionLinks({ status }: { status: SessionStatus }) {
  const { t } = useT()
  const { pathname, search } = useLocation()
  // A visitor who signs in from a share page comes back to the share (to save it), in the
  // folder they were in; nothing else of the address goes along (a `?pwd=` code must not).
  const isSharePage = /^(\/[A-Za-z-]+)?\/s\/[^/]+$/.test(pathname)
  const folderPath = isSharePage ? parseFolderPath(new URLSearchParams(search).get(FOLDER_PATH_PARAM)) : []
  const back = folderPath.length > 0 ? `${pathname}?${FOLDER_PATH_PARAM}=${formatFolderPath(folderPath)}` : pathname
  if (status === 'unknown') return <span className="ml-1 inline-block h-9 w-20" aria-hidden="true" data-testid="session-pending" />
  if (status === 'signed-in') {
    return (
      <LocaleLink page="account-home" className="ml-1 inline-flex h-9 items-center rounded-lg px-3 text-sm font-medium whitespace-nowrap text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800" data-testid="header-account">
        {t('common.nav.account')}
      </LocaleLink>
    )
  }
  return (
    <LocaleLink page="account-login" {...(isSharePage ? { search: `?${REDIRECT_PARAM}=${encodeURIComponent(back)}` } : {})} className="ml-1 inline-flex h-9 items-center rounded-lg bg-brand-600 px-3.5 text-sm font-semibold whitespace-nowrap text-white shadow-sm hover:bg-brand-700" data-testid="header-sign-in">
      {t('common.nav.signIn')}
    </LocaleLink>
  )
}

export function SiteHeader() {
  const { t } = useT()
  const session = useSession()
  const { pathname } = useLocation()
  const phoneRow = useRef<HTMLElement>(null)
  const phoneRowStyle = useScrollRow(phoneRow, { key: pathname })
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/70 bg-white/85 backdrop-blur dark:border-slate-800 dark:bg-slate-950/85">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:rounded-lg focus:bg-brand-600 focus:px-3 focus:py-2 focus:text-white">
        {t('common.nav.skipToContent')}
      </a>
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 sm:px-6">
        <LocaleLink page="index" className="mr-2 flex items-center gap-2 rounded-lg font-semibold tracking-tight" aria-label={t('common.appName')}>
          <Logo className="size-8" />
          {/* Under 360 px the logo alone names the site (the link's label): the bar keeps room for a long "Sign in". */}
          <span className="text-lg max-[359px]:hidden">{t('common.appName')}</span>
        </LocaleLink>
        <nav aria-label={t('common.nav.primary')} className="hidden items-center md:flex">
          <PrimaryLinks />
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <LanguageSwitcher />
          <ColorModeSwitcher />
          {/* Drive for everyone: signed-out visitors reach the sign-in page through the auth middleware and come back. On phones the link sits in the row under the bar. */}
          <LocaleNavLink page="drive" end={false} prefetch="intent" className={({ isActive }) => `ml-1 hidden h-9 items-center rounded-lg px-3 text-sm font-medium hover:bg-slate-100 md:inline-flex dark:hover:bg-slate-800 ${isActive ? 'text-brand-600 dark:text-brand-300' : 'text-slate-700 dark:text-slate-200'}`} data-testid="header-drive">
            {t('drive.title')}
          </LocaleNavLink>
          <SessionLinks status={session.status} />
        </div>
      </div>
      <nav ref={phoneRow} style={phoneRowStyle} aria-label={t('common.nav.primary')} className="flex gap-1 overflow-x-auto border-t border-slate-100 px-3 md:hidden dark:border-slate-800">
        <LocaleNavLink page="drive" end={false} prefetch="intent" className={navLinkClass} data-testid="header-drive-phone">
          {t('drive.title')}
        </LocaleNavLink>
        <PrimaryLinks />
      </nav>
    </header>
  )
}
