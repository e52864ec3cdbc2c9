import { useEffect, useMemo, useState } from 'react'
import { onDemand, useOnDemand } from '../components/lazy/on-demand'
import { Spinner } from '../components/ui/spinner'
import type { DriveApi } from '../drive/drive-api'
import { loadDriveApi } from '../drive/drive-client'
import type { PathStep } from '../drive/folder-path'
import { useLocale, useT } from '../i18n/use-locale'

/** The drive's folder picker and the SDK's drive client arrive only when a folder is to be chosen. */
const folderPicker = onDemand(() => import('../drive/folder-picker-dialog'))

export interface FolderChooserProps {
  open: boolean
  onOpenChange(open: boolean): void
  onPick(folder: PathStep): void
  /** The picker or the drive client could not be loaded (the chooser has closed itself). */
  onFailed(): void
}

/**
 * The drive's "Choose a folder" picker (the one the drive and the downloader use), opened from
 * the top of the drive, with "Choose this folder" as its button (it sets the destination; the page's Unpack button starts). Until its code and the drive client
 * have arrived, a short status says the folders are loading.
 */
export function FolderChooser({ open, onOpenChange, onPick, onFailed }: FolderChooserProps) {
  const { t } = useT()
  const locale = useLocale()
  const [api, setApi] = useState<DriveApi | null>(null)
  const failed = () => {
    onOpenChange(false)
    onFailed()
  }
  const module = useOnDemand(folderPicker, open, failed)
  useEffect(() => {
    if (!open || api) return
    let live = true
    loadDriveApi(locale).then(
      (client) => live && setApi(client),
      () => live && failed(),
    )
    return () => {
      live = false
    }
    // `failed` is read when the load settles: a new function each render must not restart it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, api, locale])
  // The picker goes back to this path whenever it changes: one object for the page's life.
  const startPath = useMemo(() => [{ id: '', name: t('drive.nav.myDrive') }], [t])

  if (!open) return null
  if (!api || !module) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
        <Spinner className="size-4" />
        {t('drive.unpack.destination.loading')}
      </p>
    )
  }
  return (
    <module.FolderPickerDialog
      api={api}
      open
      onOpenChange={onOpenChange}
      mode="choose"
      items={[]}
      startPath={startPath}
      pickLabel={t('drive.unpack.destination.pick')}
      onPick={async (folder) => onPick(folder)}
    />
  )
}
