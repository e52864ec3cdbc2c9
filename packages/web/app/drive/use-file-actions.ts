import { type DriveFile, FOLDER_KIND } from '@cumulus/protocol'
import { useNavigate } from 'react-router'
import { useLocale } from '../i18n/use-locale'
import { pagePath } from '../navigation/locale-link'
import type { DriveApi } from './drive-api'
import type { DriveDialog } from './drive-dialogs'
import { type DriveView, type FileAction, inEachBatch } from './file-actions'
import { forgetFolder, rememberFolder } from './folder-path'
import { revealPath } from './reveal'
import type { Listing } from './use-listing'
import type { useToasts } from './toasts'
import { usePlural } from './use-plural'

/** Saves a file through a signed link and an `<a download>`, which needs no bearer and streams to disk. */
function saveFromLink(url: string, name: string): void {
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download = name
  anchor.rel = 'noopener'
  anchor.style.display = 'none'
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
}

/**
 * Set when a folder is opened from the list, so the next folder's list takes the keyboard focus
 * (its first row) once it has loaded: the row that had it is gone with the old list.
 */
let focusListOnArrival = false

/** Whether the list that just loaded should take the focus (and forgets the wish). */
export function takeListFocusWish(): boolean {
  const wished = focusListOnArrival
  focusListOnArrival = false
  return wished
}

export interface FileActionDeps {
  api: DriveApi
  view: DriveView
  listing: Listing
  quota: { refresh(): void }
  toasts: ReturnType<typeof useToasts>
  /** Opens a dialog (share, rename, move or copy, delete). */
  openDialog(dialog: NonNullable<DriveDialog>): void
  /** Opens a file in the preview. */
  preview(file: DriveFile): void
  /** Shows a failure as an error toast. */
  showError(error: unknown): void
}

/**
 * What the drive does for an action chosen from a row's menu, the toolbar or a key: the calls
 * (in batches), the list and quota kept right without a reload, and a toast (with Undo after
 * moving to the trash). Actions that need a choice first open their dialog.
 */
export function useFileActions({ api, view, listing, quota, toasts, openDialog, preview, showError }: FileActionDeps) {
  const tp = usePlural()
  const locale = useLocale()
  const navigate = useNavigate()

  function run(action: () => Promise<void>) {
    action().catch(showError)
  }

  function open(file: DriveFile) {
    if (view === 'trash') {
      // A trashed item has no working link (the server refuses it) and no folder page: say
      // where it is and offer to restore it, rather than a preview that would fail.
      openDialog({ type: 'trashed', file })
    } else if (file.kind === FOLDER_KIND) {
      rememberFolder(file)
      focusListOnArrival = true
      void navigate(pagePath('drive-folder', locale, { folderId: file.id }))
    } else {
      preview(file)
    }
  }

  /** Takes files out of the trash: the list (the trash's) loses them, the quota and a message follow. */
  async function restore(files: readonly DriveFile[]) {
    await inEachBatch(files, (batch) => api.untrash(batch))
    listing.remove(files.map((file) => file.id))
    quota.refresh()
    toasts.show({ tone: 'success', text: tp('drive.toast.restored', files.length, { name: files[0]!.name }) })
  }

  async function download(files: readonly DriveFile[]) {
    for (const file of files) {
      if (file.kind === FOLDER_KIND) continue
      saveFromLink(await api.downloadUrl(file.id), file.name)
    }
  }

  function onAction(action: FileAction, targets: DriveFile[]) {
    if (targets.length === 0) return
    const one = { name: targets[0]!.name }
    const count = targets.length
    switch (action) {
      case 'open':
        open(targets[0]!)
        return
      case 'reveal':
        void navigate(revealPath(locale, targets[0]!.parent_id, targets[0]!.id))
        return
      case 'archive':
        void navigate(pagePath('decompress-id', locale, { id: targets[0]!.id }))
        return
      case 'download':
        run(() => download(targets))
        return
      case 'share':
        openDialog({ type: 'share', files: targets })
        return
      case 'rename':
        openDialog({ type: 'rename', file: targets[0]! })
        return
      case 'move':
      case 'copy':
        openDialog({ type: action, files: targets })
        return
      case 'delete':
        openDialog({ type: 'delete', files: targets })
        return
      case 'star':
      case 'unstar':
        run(async () => {
          const starred = action === 'star'
          await inEachBatch(targets, (batch) => (starred ? api.star(batch) : api.unstar(batch)))
          for (const file of targets) listing.put({ ...file, starred })
          toasts.show({ tone: 'success', text: tp(starred ? 'drive.toast.starred' : 'drive.toast.unstarred', count, one) })
        })
        return
      case 'trash':
        run(async () => {
          await inEachBatch(targets, (batch) => api.trash(batch))
          listing.remove(targets.map((file) => file.id))
          for (const file of targets) forgetFolder(file.id)
          quota.refresh()
          toasts.show({
            tone: 'success',
            text: tp('drive.toast.trashed', count, one),
            undo: () =>
              run(async () => {
                await inEachBatch(targets, (batch) => api.untrash(batch))
                for (const file of targets) listing.put(file)
                quota.refresh()
              }),
          })
        })
        return
      case 'restore':
        run(() => restore(targets))
        return
    }
  }

  return { onAction, open, download, restore, run }
}
