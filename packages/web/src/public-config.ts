/**
 * The configuration the browser may see: an explicit allow-list the server builds from its
 * config and hands to every render through React Router's load context. Nothing secret here.
 */

export const PLATFORMS = ['web', 'windows', 'macos', 'linux', 'android'] as const
export type Platform = (typeof PLATFORMS)[number]

/** A platform card's target value that means "install the web app (PWA)" instead of a URL. */
export const INSTALL_PWA_TARGET = 'pwa'

export interface WebPublicConfig {
  /**
   * Where each platform card leads: a path or URL, or `pwa` (offer to install the web app).
   * Operators point these at their own downloads (DOWNLOAD_LINK_<PLATFORM>).
   */
  platformLinks: Record<Platform, string>
  /** The native app's deep link that /toapp opens (APP_DEEP_LINK). */
  appDeepLink: string
  /** Days an account stays in cancellation review before it is erased (ACCOUNT_DELETION_GRACE_DAYS). */
  accountDeletionGraceDays: number
  /** Days trashed items stay before they are deleted for good (TRASH_RETENTION_DAYS); the trash view says so. */
  trashRetentionDays: number
}

export const DEFAULT_WEB_PUBLIC_CONFIG: WebPublicConfig = Object.freeze({
  platformLinks: Object.freeze({
    web: '/account/home',
    windows: INSTALL_PWA_TARGET,
    macos: INSTALL_PWA_TARGET,
    linux: '/newbie/guide#cli',
    android: INSTALL_PWA_TARGET,
  }),
  appDeepLink: 'cumulus://open',
  accountDeletionGraceDays: 15,
  trashRetentionDays: 10,
})
