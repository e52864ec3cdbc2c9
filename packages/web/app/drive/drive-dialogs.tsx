import { type DriveFile, FOLDER_KIND } from '@cumulus/protocol'
import { useT } from '../i18n/use-locale'
import { ConfirmDialog } from './confirm-dialog'
import { useDrive } from './drive-context'
import type { DriveView } from './file-actions'
import { inEachBatch } from './file-actions'
import { FolderPickerDialog } from './folder-picker-dialog'
import { type PathStep, rememberFolder } from './folder-path'
import { NameDialog } from './name-dialog'
import { ShareDialog } from './share-dialog'
import type { useToasts } from './toasts'
import type { Listing } from './use-listing'
import { usePlural } from './use-plural'

const NO_FILES: DriveFile[] = []

/** The one dialog a drive page may have open. */
export type DriveDialog =
  | { type: 'new-folder' }
  | { type: 'rename'; file: DriveFile }
  | { type: 'move' | 'copy'; files: DriveFile[] }
  | { type: 'delete'; files: DriveFile[] }
  | { type: 'share'; files: DriveFile[] }
  | { type: 'empty-trash' }
  /** An item of the trash was opened: it says so and offers to restore it (a trashed file's link is refused). */
  | { type: 'trashed'; file: DriveFile }
  | null

export interface DriveDialogsProps {
  dialog: DriveDialog
  onClose(): void
  view: DriveView
  /** The folder shown ('' for the root; only for the folder view). */
  folderId: string
  /** Where "Move to" and "Copy to" start browsing. */
  startPath: readonly PathStep[]
  listing: Listing
  quota: { refresh(): void }
  toasts: ReturnType<typeof useToasts>
  /** A folder was created here (the page selects it). */
  onFolderCreated(folder: DriveFile): void
  /** Restores items from the trash (the list, quota and message kept right); rejects on failure. */
  onRestore(files: DriveFile[]): Promise<void>
}

/** New folder, rename, move to, copy to, share, delete forever, empty trash and restore to open, with what each does when confirmed. */
export function DriveDialogs({ dialog, onClose, view, folderId, startPath, listing, quota, toasts, onFolderCreated, onRestore }: DriveDialogsProps) {
  const { t } = useT()
  const tp = usePlural()
  const { api } = useDrive()
  const closeOn = (isOpen: boolean) => !isOpen && onClose()
  return (
    <>
      <NameDialog
        open={dialog?.type === 'new-folder'}
        onOpenChange={closeOn}
        mode="new-folder"
        initialName={t('drive.names.newFolder.initial')}
        isFolder
        onSubmit={async (name) => {
          const folder = await api.createFolder({ name, parentId: folderId })
          rememberFolder(folder)
          listing.put(folder)
          onFolderCreated(folder)
          toasts.show({ tone: 'success', text: t('drive.toast.folderCreated', { name: folder.name }) })
        }}
      />
      <NameDialog
        open={dialog?.type === 'rename'}
        onOpenChange={closeOn}
        mode="rename"
        initialName={dialog?.type === 'rename' ? dialog.file.name : ''}
        isFolder={dialog?.type === 'rename' && dialog.file.kind === FOLDER_KIND}
        onSubmit={async (name) => {
          if (dialog?.type !== 'rename') return
          const renamed = await api.rename(dialog.file.id, name)
          rememberFolder(renamed)
          listing.put(renamed)
          toasts.show({ tone: 'success', text: t('drive.toast.renamed', { name: renamed.name }) })
        }}
      />
      <FolderPickerDialog
        api={api}
        open={dialog?.type === 'move' || dialog?.type === 'copy'}
        onOpenChange={closeOn}
        mode={dialog?.type === 'copy' ? 'copy' : 'move'}
        items={dialog?.type === 'move' || dialog?.type === 'copy' ? dialog.files : []}
        startPath={startPath}
        onFolderCreated={listing.put}
        onPick={async (folder) => {
          if (dialog?.type !== 'move' && dialog?.type !== 'copy') return
          const files = dialog.files
          const one = { name: files[0]!.name, folder: folder.name }
          if (dialog.type === 'move') {
            await inEachBatch(files, (batch) => api.move(batch, folder.id))
            for (const file of files) rememberFolder({ ...file, parent_id: folder.id })
            // Search results say which folder each is in: searched again, they say the new one.
            if (view === 'search') listing.reload()
            else if (view === 'folder' && folder.id !== folderId) listing.remove(files.map((file) => file.id))
            toasts.show({ tone: 'success', text: tp('drive.toast.moved', files.length, one) })
          } else {
            await inEachBatch(files, (batch) => api.copy(batch, folder.id))
            // The copies are results too, when searching.
            if (view === 'search' || (view === 'folder' && folder.id === folderId)) listing.reload()
            quota.refresh()
            toasts.show({ tone: 'success', text: tp('drive.toast.copied', files.length, one) })
          }
        }}
      />
      <ShareDialog api={api} open={dialog?.type === 'share'} onOpenChange={closeOn} files={dialog?.type === 'share' ? dialog.files : NO_FILES} />
      <ConfirmDialog
        open={dialog?.type === 'delete'}
        onOpenChange={closeOn}
        title={dialog?.type === 'delete' ? tp('drive.confirm.deleteTitle', dialog.files.length, { name: dialog.files[0]!.name }) : ''}
        text={t('drive.confirm.deleteText')}
        confirmLabel={t('drive.confirm.deleteSubmit')}
        onConfirm={async () => {
          if (dialog?.type !== 'delete') return
          const files = dialog.files
          await inEachBatch(files, (batch) => api.delete(batch))
          listing.remove(files.map((file) => file.id))
          quota.refresh()
          toasts.show({ tone: 'success', text: tp('drive.toast.deleted', files.length, { name: files[0]!.name }) })
        }}
      />
      <ConfirmDialog
        open={dialog?.type === 'empty-trash'}
        onOpenChange={closeOn}
        title={t('drive.confirm.emptyTitle')}
        text={t('drive.confirm.emptyText')}
        confirmLabel={t('drive.confirm.emptySubmit')}
        onConfirm={async () => {
          await api.emptyTrash()
          listing.reload()
          quota.refresh()
          toasts.show({ tone: 'success', text: t('drive.toast.trashEmptied') })
        }}
      />
      <ConfirmDialog
        open={dialog?.type === 'trashed'}
        onOpenChange={closeOn}
        title={dialog?.type === 'trashed' ? t('drive.confirm.trashedTitle', { name: dialog.file.name }) : ''}
        text={dialog?.type === 'trashed' && dialog.file.kind === FOLDER_KIND ? t('drive.confirm.trashedFolderText') : t('drive.confirm.trashedFileText')}
        confirmLabel={t('drive.actions.restore')}
        tone="primary"
        onConfirm={async () => {
          if (dialog?.type === 'trashed') await onRestore([dialog.file])
        }}
      />
    </>
  )
}
