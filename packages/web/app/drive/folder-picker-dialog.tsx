import type { DriveFile } from '@cumulus/protocol'
import { useEffect, useState } from 'react'
import { useT } from '../i18n/use-locale'
import { Alert } from '../components/ui/alert'
import { Button } from '../components/ui/button'
import { Spinner } from '../components/ui/spinner'
import { Breadcrumbs } from './breadcrumbs'
import { DialogShell } from './dialog-shell'
import type { DriveApi } from './drive-api'
import { type PathStep, rememberFolder } from './folder-path'
import { ChevronRightIcon, FileKindIcon, FolderPlusIcon } from './icons'
import { DEFAULT_ORDER } from './listing'
import { useDescribeError, useErrorText } from './use-error-text'
import { useListing } from './use-listing'
import { usePlural } from './use-plural'
import { NameDialog } from './name-dialog'
import { VirtualList } from './virtual-list'
import { FileName } from './file-name'

const ROW_HEIGHT = 48
const LIST_HEIGHT = 288

export interface FolderPickerDialogProps {
  api: DriveApi
  open: boolean
  onOpenChange(open: boolean): void
  /** `choose`: pick a folder for something new (where an offline download lands). */
  mode: 'move' | 'copy' | 'choose'
  /** What is being moved or copied (none for `choose`). */
  items: readonly DriveFile[]
  /** Where the picker opens (the path of the page's folder, root first). */
  startPath: readonly PathStep[]
  /** Moves or copies into the folder; a rejection keeps the dialog open with the error's text. */
  onPick(folder: PathStep): Promise<void>
  /** The pick button's text in `choose` mode, when "Save here" does not say what happens (unpacking). */
  pickLabel?: string
  /** Told of a folder made with "New folder" (the page's list may show where it went). */
  onFolderCreated?(folder: DriveFile): void
}

/**
 * "Move to", "Copy to" and "Save to" (`choose`): browses the folders (a windowed list, paged like the main one) from
 * the page's folder, with breadcrumbs back up. A folder being moved cannot be opened (it cannot
 * go inside itself), and moving to the folder the items are already in is not offered. "New
 * folder" makes one where the picker is and opens it, as Google Drive's picker does: a new user
 * with no folders yet can still move, copy or unpack into one.
 */
export function FolderPickerDialog({ api, open, onOpenChange, mode, items, startPath, onPick, pickLabel, onFolderCreated }: FolderPickerDialogProps) {
  const { t } = useT()
  const tp = usePlural()
  const describe = useDescribeError()
  const [path, setPath] = useState<readonly PathStep[]>(startPath)
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [naming, setNaming] = useState(false)

  useEffect(() => {
    if (!open) return
    setPath(startPath)
    setError(null)
    setPending(false)
    setNaming(false)
  }, [open, startPath])

  const here = path[path.length - 1] ?? { id: '', name: '' }
  const movingIds = new Set(items.map((item) => item.id))
  const alreadyHere = mode === 'move' && items.every((item) => item.parent_id === here.id)
  const intoItself = path.some((step) => movingIds.has(step.id))
  const first = items[0]
  const title = mode === 'choose' ? t('drive.picker.chooseTitle') : tp(mode === 'move' ? 'drive.picker.moveTitle' : 'drive.picker.copyTitle', items.length, { name: first?.name ?? '' })

  async function pick() {
    setPending(true)
    setError(null)
    try {
      await onPick(here)
      onOpenChange(false)
    } catch (err) {
      setError(await describe(err))
    } finally {
      setPending(false)
    }
  }

  return (
    <DialogShell
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      // "Choose a folder." under "Choose a folder" would say it twice.
      description={mode === 'choose' ? undefined : t('drive.picker.description')}
      size="md"
      testId="folder-picker"
      footer={
        <>
          <Button variant="ghost" className="sm:mr-auto" disabled={intoItself} onClick={() => setNaming(true)} data-testid="picker-new-folder">
            <FolderPlusIcon className="size-4" />
            {t('drive.toolbar.newFolder')}
          </Button>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t('common.cancel')}
          </Button>
          <Button loading={pending} disabled={alreadyHere || intoItself} onClick={() => void pick()} data-testid="picker-submit">
            {mode === 'move' ? t('drive.picker.moveHere') : mode === 'copy' ? t('drive.picker.copyHere') : (pickLabel ?? t('drive.picker.chooseHere'))}
          </Button>
        </>
      }
    >
      <Breadcrumbs
        steps={path}
        className="-mx-2 mb-2"
        renderStep={(step, className) => (
          <button type="button" className={className} onClick={() => setPath(path.slice(0, path.indexOf(step) + 1))}>
            {step.name}
          </button>
        )}
        onChoose={(step) => setPath(path.slice(0, path.indexOf(step) + 1))}
      />
      {open ? <FolderList api={api} folder={here} movingIds={movingIds} onOpen={(folder) => setPath([...path, folder])} /> : null}
      {alreadyHere ? <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">{t('drive.picker.alreadyHere')}</p> : null}
      {intoItself ? <p className="mt-2 text-xs text-amber-700 dark:text-amber-300">{t('drive.picker.intoItself')}</p> : null}
      {error ? (
        <Alert tone="error" className="mt-3">
          {error}
        </Alert>
      ) : null}
      <NameDialog
        open={naming}
        onOpenChange={setNaming}
        mode="new-folder"
        initialName={t('drive.names.newFolder.initial')}
        isFolder
        onSubmit={async (name) => {
          const folder = await api.createFolder({ name, parentId: here.id })
          rememberFolder(folder)
          onFolderCreated?.(folder)
          setPath([...path, { id: folder.id, name: folder.name }])
        }}
      />
    </DialogShell>
  )
}

function FolderList({ api, folder, movingIds, onOpen }: { api: DriveApi; folder: PathStep; movingIds: ReadonlySet<string>; onOpen(step: PathStep): void }) {
  const { t } = useT()
  const listing = useListing(api, { kind: 'folders', folderId: folder.id }, DEFAULT_ORDER)
  const errorText = useErrorText(listing.error)

  useEffect(() => {
    for (const file of listing.files) rememberFolder(file)
  }, [listing.files])

  if (listing.loading) {
    return (
      <div className="flex items-center justify-center text-brand-600 dark:text-brand-300" style={{ height: LIST_HEIGHT }} role="status" aria-label={t('drive.list.loading')}>
        <Spinner className="size-6" />
      </div>
    )
  }
  if (listing.error && listing.files.length === 0) {
    return (
      <div style={{ minHeight: LIST_HEIGHT }}>
        <Alert tone="error">{errorText ?? t('drive.list.loadFailed')}</Alert>
        <Button variant="secondary" className="mt-3" onClick={listing.reload}>
          {t('drive.list.retry')}
        </Button>
      </div>
    )
  }
  if (listing.files.length === 0) {
    return (
      <p className="flex items-center justify-center rounded-xl border border-dashed border-slate-300 text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400" style={{ height: LIST_HEIGHT }}>
        {t('drive.picker.empty')}
      </p>
    )
  }
  return (
    <div className="rounded-xl border border-slate-200 dark:border-slate-700">
      <VirtualList
        role="list"
        aria-label={t('drive.picker.listLabel', { folder: folder.name })}
        count={listing.files.length}
        rowHeight={ROW_HEIGHT}
        scroll="self"
        height={Math.min(LIST_HEIGHT, listing.files.length * ROW_HEIGHT)}
        onRangeChange={(range) => {
          if (range.end >= listing.files.length - 20) listing.loadMore()
        }}
        renderRow={(index, style) => {
          const file = listing.files[index]!
          const blocked = movingIds.has(file.id)
          return (
            <div key={file.id} role="listitem" style={style} className="px-1 py-0.5">
              <button
                type="button"
                disabled={blocked}
                onClick={() => onOpen({ id: file.id, name: file.name })}
                aria-label={t('drive.picker.open', { name: file.name })}
                data-testid="picker-folder"
                className="flex h-full w-full items-center gap-3 rounded-lg px-2.5 text-left text-sm text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:cursor-not-allowed disabled:opacity-45 dark:text-slate-100 dark:hover:bg-slate-800"
              >
                <FileKindIcon kind="folder" className="size-5" />
                <FileName name={file.name} className="flex-1" />
                <ChevronRightIcon className="size-4 text-slate-400" />
              </button>
            </div>
          )
        }}
      />
    </div>
  )
}
