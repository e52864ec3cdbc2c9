import { type OfflineQuotas, offlineQuotasOf } from '@cumulus/sdk'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { useSearchParams } from 'react-router'
import type { DriveApi } from '../drive/drive-api'
import { useQuota } from '../drive/quota-bar'
import { Toasts, useToasts } from '../drive/toasts'
import { findPendingLink, forgetPendingLink } from '../routes/thunder-pending-link'
import { AddDownload, type AddResult } from './add-download'
import { targetFolderOf } from './target-folder'
import { TaskList } from './task-list'
import { isActive, useOfflineTasks } from './use-offline-tasks'

/** The plan's offline counts from `about` (the drive's quota hook), read again after each change that moves them. */
function useOfflineQuotas(api: DriveApi): { quotas: OfflineQuotas | null; refresh(): void } {
  const { about, refresh } = useQuota(api)
  const quotas = useMemo(() => (about ? offlineQuotasOf(about) : null), [about])
  return { quotas, refresh }
}

/**
 * The thunder page for a signed-in user: add downloads, then follow them. A link kept on this
 * device before sign-in (thunder-pending-link) is put in the box, and forgotten once added.
 */
export function OfflineDownloads({ api }: { api: DriveApi }) {
  const list = useOfflineTasks(api)
  const counts = useOfflineQuotas(api)
  const toasts = useToasts()
  const [pendingLink, setPendingLink] = useState<string | null>(null)
  const [search] = useSearchParams()
  const initialFolder = targetFolderOf(search)

  useEffect(() => {
    setPendingLink(findPendingLink(localStorage)?.link ?? null)
  }, [])

  const notify = useCallback((text: string, tone: 'success' | 'error') => void toasts.show({ text, tone }), [toasts.show])

  // The plan's counts ("Running: 2 of 2") move when a download starts or ends, which the list's
  // polling sees, not only when one is added or removed here: read them again when it does.
  const activeIds = list.tasks
    .filter(isActive)
    .map((task) => task.id)
    .join(',')
  const refreshCounts = counts.refresh
  const seenActive = useRef<string | null>(null)
  useEffect(() => {
    // Not for the first list: the counts were just read with the page.
    if (list.loading) return
    if (seenActive.current !== null && seenActive.current !== activeIds) refreshCounts()
    seenActive.current = activeIds
  }, [activeIds, list.loading, refreshCounts])

  function onAdded(results: readonly AddResult[]) {
    for (const { reply } of results) if (reply.task) list.put(reply.task)
    forgetPendingLink(localStorage)
    setPendingLink(null)
    void list.refresh()
    counts.refresh()
  }

  // grid-cols-1 is minmax(0, 1fr): an implicit column would be as wide as the longest name on
  // one line (a file name cannot wrap), pushing the Add button past a phone's screen.
  return (
    <div className="grid grid-cols-1 gap-10 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:items-start">
      <AddDownload api={api} initialLink={pendingLink} initialFolder={initialFolder} onAdded={onAdded} notify={notify} />
      <TaskList api={api} list={list} quotas={counts.quotas} notify={notify} onCountsChanged={counts.refresh} />
      {/* In <body>: the page's hero section is its own stacking context (isolate), so toasts
          rendered inside it lay under the next sections' cards whatever their z-index. */}
      {createPortal(<Toasts toasts={toasts.toasts} onDismiss={toasts.dismiss} />, document.body)}
    </div>
  )
}
