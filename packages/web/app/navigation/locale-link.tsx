import type { ComponentProps } from 'react'
import { generatePath, Link, NavLink } from 'react-router'
import type { Locale } from '@cumulus/protocol'
import { useLocale } from '../i18n/use-locale'
import { localizePath } from '../i18n/locale-routing'
import { PAGES, type PageName } from './pages'

/** The path of a named page in a locale: `pagePath('about', 'ko')` -> `/ko/about`. */
export function pagePath(name: PageName, locale: Locale, params: Record<string, string> = {}, search = ''): string {
  return `${localizePath(generatePath(PAGES[name].path, params), locale)}${search}`
}

/** The path of a named page in the current locale. */
export function usePagePath() {
  const locale = useLocale()
  return (name: PageName, params: Record<string, string> = {}, search = '') => pagePath(name, locale, params, search)
}

type LocaleLinkProps = Omit<ComponentProps<typeof Link>, 'to'> & { page: PageName; params?: Record<string, string>; search?: string }

/** A link to a named page in the current locale. */
export function LocaleLink({ page, params, search, ...props }: LocaleLinkProps) {
  const path = usePagePath()
  return <Link to={path(page, params, search)} {...props} />
}

type LocaleNavLinkProps = Omit<ComponentProps<typeof NavLink>, 'to'> & { page: PageName; params?: Record<string, string> }

export function LocaleNavLink({ page, params, ...props }: LocaleNavLinkProps) {
  const path = usePagePath()
  return <NavLink to={path(page, params)} {...props} />
}
