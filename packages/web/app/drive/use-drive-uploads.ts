import { useEffect, useRef } from 'react'
import type { PickedFiles } from './collect-files'
import { useDrive, useDriveChanges } from './drive-context'
import { rememberFolder } from './folder-path'
import { isUnfinished } from './upload-manager'
import type { Listing } from './use-listing'

/** How long quota refreshes are held back while the uploads of a batch finish one after another. */
const QUOTA_REFRESH_DELAY_MS = 1_500

/**
 * The page's side of uploads: the account the upload manager works for (and the unfinished
 * uploads of an earlier visit), finished files and created folders shown in the list as they
 * arrive, the quota refreshed after them, and `startUpload` for picked or dropped files.
 */
export function useDriveUploads({ accountId, folderId, listing, quota, showError }: { accountId: string; folderId: string; listing: Listing; quota: { refresh(): void }; showError(error: unknown): void }) {
  const { uploads } = useDrive()
  const quotaTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)

  useEffect(() => {
    uploads.setAccount(accountId)
    void uploads.loadPendingFromEarlier().catch(() => undefined)
  }, [uploads, accountId])
  useEffect(() => () => clearTimeout(quotaTimer.current), [])

  useDriveChanges((change) => {
    if (change.type === 'folder-created') rememberFolder(change.folder)
    listing.put(change.type === 'uploaded' ? change.file : change.folder)
    if (change.type !== 'uploaded') return
    // The last upload of a batch shows the new usage at once; before that, at most every 1.5 s.
    clearTimeout(quotaTimer.current)
    if (uploads.items().some((item) => isUnfinished(item.status))) quotaTimer.current = setTimeout(quota.refresh, QUOTA_REFRESH_DELAY_MS)
    else quota.refresh()
  })

  function startUpload(picked: PickedFiles) {
    if (picked.files.length === 0 && picked.folders.length === 0) return
    uploads.add(picked, folderId).catch(showError)
  }

  return { uploads, startUpload }
}
