import { checkDownloadLink, type DownloadLinkKind } from './thunder-link'

/**
 * The link a visitor pasted on the thunder page, kept in this browser until cloud download can
 * take it: across the sign-in round trip, and until the drive's offline download ships.
 */
export const PENDING_DOWNLOAD_LINK_KEY = 'cumulus:pending-download-link'

type LinkStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

/** Keeps a checked link. Returns false when storage refuses (private mode, quota). */
export function keepPendingLink(storage: LinkStorage, link: string): boolean {
  try {
    storage.setItem(PENDING_DOWNLOAD_LINK_KEY, link)
    return true
  } catch {
    return false
  }
}

/** The kept link, or null when there is none, or what is stored is no longer a valid link. */
export function findPendingLink(storage: LinkStorage): { link: string; kind: DownloadLinkKind } | null {
  let stored: string | null
  try {
    stored = storage.getItem(PENDING_DOWNLOAD_LINK_KEY)
  } catch {
    return null
  }
  if (stored === null) return null
  const check = checkDownloadLink(stored)
  return check.ok ? { link: check.link, kind: check.kind } : null
}

/** Forgets the kept link (idempotent). */
export function forgetPendingLink(storage: LinkStorage): void {
  try {
    storage.removeItem(PENDING_DOWNLOAD_LINK_KEY)
  } catch {
    // Nothing kept that could be removed.
  }
}
