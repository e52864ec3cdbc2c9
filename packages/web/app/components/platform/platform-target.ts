import type { Locale } from '@cumulus/protocol'
import { matchPath } from 'react-router'
import { INSTALL_PWA_TARGET } from '../../../src/public-config'
import { localizePath } from '../../i18n/locale-routing'
import { PAGES } from '../../navigation/pages'

/** Where a platform card leads, decided from its configured value (`platformLinks[platform]`). */
export type PlatformTarget =
  /** A page of this app, in the current locale: a client-side link. */
  | { kind: 'page'; to: string }
  /** Another path on this server (a file to download): a plain link, the browser fetches it. */
  | { kind: 'path'; href: string }
  /** Another site (an app store, a release page). */
  | { kind: 'external'; href: string }
  /** Install the web app (PWA). */
  | { kind: 'pwa' }
  /** A value that is none of these: the card offers nothing rather than a broken link. */
  | { kind: 'invalid' }

/**
 * Classifies a configured card target. A path that is one of the app's pages is localized
 * (`/newbie/guide#cli` -> `/ko/newbie/guide#cli`); any other path is used as given; http(s)
 * URLs are external; `pwa` installs the web app. Other schemes (`javascript:`, `data:`) and
 * protocol-relative `//host` values are refused.
 */
export function resolvePlatformTarget(value: string, locale: Locale): PlatformTarget {
  const target = value.trim()
  if (target === INSTALL_PWA_TARGET) return { kind: 'pwa' }
  if (target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\')) {
    const { pathname, rest } = splitPath(target)
    const isPage = Object.values(PAGES).some((page) => matchPath({ path: page.path, end: true }, pathname) !== null)
    return isPage ? { kind: 'page', to: `${localizePath(pathname, locale)}${rest}` } : { kind: 'path', href: target }
  }
  let url: URL
  try {
    url = new URL(target)
  } catch {
    return { kind: 'invalid' }
  }
  if ((url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '') return { kind: 'external', href: url.href }
  return { kind: 'invalid' }
}

/** `/a/b?x#y` -> `{ pathname: '/a/b', rest: '?x#y' }`. */
function splitPath(path: string): { pathname: string; rest: string } {
  const at = path.search(/[?#]/)
  return at === -1 ? { pathname: path, rest: '' } : { pathname: path.slice(0, at), rest: path.slice(at) }
}
