/**
 * The items a visitor chose before leaving to sign in (to save them), kept for this tab only
 * (sessionStorage) and taken once on return: the address brings back the folder (`?path=`),
 * this brings back the choice made in it.
 */
const KEY_PREFIX = 'cumulus:share-pick:'

/** At most this many ids are kept; a larger choice is made again after signing in. */
const MAX_KEPT = 1000

interface KeptPick {
  folderKey: string
  ids: string[]
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage
  } catch {
    return null
  }
}

/** Keeps the choice made in the folder `folderKey` (its path's ids joined) of `shareId`. */
export function keepPick(shareId: string, folderKey: string, ids: readonly string[]): void {
  try {
    if (ids.length === 0 || ids.length > MAX_KEPT) storage()?.removeItem(KEY_PREFIX + shareId)
    else storage()?.setItem(KEY_PREFIX + shareId, JSON.stringify({ folderKey, ids: [...ids] } satisfies KeptPick))
  } catch {
    // A full storage only costs choosing again.
  }
}

/** The choice kept for `shareId` in the folder `folderKey`, removed as it is taken; [] when none. */
export function takePick(shareId: string, folderKey: string): string[] {
  const store = storage()
  const raw = store?.getItem(KEY_PREFIX + shareId)
  if (!raw) return []
  try {
    const kept = JSON.parse(raw) as Partial<KeptPick>
    if (kept.folderKey !== folderKey || !Array.isArray(kept.ids)) return []
    store?.removeItem(KEY_PREFIX + shareId)
    return kept.ids.filter((id): id is string => typeof id === 'string')
  } catch {
    store?.removeItem(KEY_PREFIX + shareId)
    return []
  }
}
