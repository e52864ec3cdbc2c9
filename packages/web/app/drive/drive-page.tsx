import { DRIVE_DEFAULTS, type DriveFile, DriveErrors, FOLDER_KIND } from '@cumulus/protocol'
import { isIdentityError } from '@cumulus/sdk'
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import { useNavigate } from 'react-router'
import { useLocale, useT } from '../i18n/use-locale'
import { LocaleLink, pagePath } from '../navigation/locale-link'
import { PageTitle } from '../components/page-title'
import { Alert } from '../components/ui/alert'
import { Button } from '../components/ui/button'
import { LoadingBlock, Spinner } from '../components/ui/spinner'
import { Breadcrumbs } from './breadcrumbs'
import { type PickedFiles, dragHasFiles, pickedFromDrop, pickedFromInput } from './collect-files'
import { ConfirmDialog } from './confirm-dialog'
import { useDrive, useDriveChanges } from './drive-context'
import { DriveNav } from './drive-nav'
import { DriveToolbar } from './drive-toolbar'
import { type DriveView, type FileAction, inBatches } from './file-actions'
import { FileGrid } from './file-grid'
import { FolderPickerDialog } from './folder-picker-dialog'
import { forgetFolder, type PathStep, rememberFolder, useFolderPath } from './folder-path'
import { FileUploadIcon, FolderUploadIcon, StarIcon, TrashIcon, UploadIcon } from './icons'
import { useElementHeight, useSiteHeaderHeight } from './layout-hooks'
import { DEFAULT_ORDER, type ListingOrder, type ListingSource } from './listing'
import { NameDialog } from './name-dialog'
import { PreviewDialog } from './preview-dialog'
import { QuotaBar, useQuota } from './quota-bar'
import { EMPTY_SELECTION, reconcile, type SelectionState } from './selection'
import { Toasts, useToasts } from './toasts'
import { isUnfinished } from './upload-manager'
import { UploadPanel } from './upload-panel'
import { useDescribeError, useErrorText } from './use-error-text'
import { useListing } from './use-listing'
import { usePlural } from './use-plural'

type DialogState =
  | { type: 'new-folder' }
  | { type: 'rename'; file: DriveFile }
  | { type: 'move' | 'copy'; files: DriveFile[] }
  | { type: 'delete'; files: DriveFile[] }
  | { type: 'empty-trash' }
  | null

/** Where the chosen sort is remembered between visits. */
const ORDER_KEY = 'cumulus-drive-order'

function useRememberedOrder(): [ListingOrder, (order: ListingOrder) => void] {
  const [order, setOrder] = useState<ListingOrder>(DEFAULT_ORDER)
  useEffect(() => {
    try {
      const stored = JSON.parse(localStorage.getItem(ORDER_KEY) ?? 'null') as ListingOrder | null
      if (stored && ['name', 'size', 'modified_time'].includes(stored.field) && ['asc', 'desc'].includes(stored.direction)) setOrder({ field: stored.field, direction: stored.direction })
    } catch {
      // Unreadable or blocked storage: the default order.
    }
  }, [])
  return [
    order,
    (next) => {
      setOrder(next)
      try {
        localStorage.setItem(ORDER_KEY, JSON.stringify(next))
      } catch {
        // Not remembered; the order still applies now.
      }
    },
  ]
}

/** Whether an error is the drive's "no such file or folder". */
function isNotFound(error: unknown): boolean {
  return isIdentityError(error) && error.is(DriveErrors.file_not_found)
}

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

/** The folder input's attribute React does not know by name. */
const FOLDER_INPUT = { webkitdirectory: '', directory: '' } as Record<string, string>

/**
 * Set when a folder is opened from the list, so the next folder's list takes the keyboard focus
 * (its first row) once it has loaded: the row that had it is gone with the old list.
 */
let focusListOnArrival = false

/** How long quota refreshes are held back while the uploads of a batch finish one after another. */
const QUOTA_REFRESH_DELAY_MS = 1_500

/**
 * A drive page: My drive and its folders, Starred, or Trash. The list, its toolbar and dialogs,
 * uploads by button or drop, the preview, the quota, and toasts after each action.
 */
export function DrivePage({
  view,
  folderId = '',
  accountId = '',
  trashRetentionDays = DRIVE_DEFAULTS.trashRetentionDays,
}: {
  view: DriveView
  folderId?: string
  accountId?: string
  /** The server's TRASH_RETENTION_DAYS, which the trash view states. */
  trashRetentionDays?: number
}) {
  const { t } = useT()
  const tp = usePlural()
  const locale = useLocale()
  const navigate = useNavigate()
  const { api, uploads } = useDrive()
  const describe = useDescribeError()
  const [order, setOrder] = useRememberedOrder()
  const source = useMemo<ListingSource>(() => (view === 'folder' ? { kind: 'folder', folderId } : { kind: view }), [view, folderId])
  const listing = useListing(api, source, order, locale)
  const listingError = useErrorText(listing.error)
  const rootName = t('drive.nav.myDrive')
  const path = useFolderPath(api, view === 'folder' ? folderId : '', rootName)
  const quota = useQuota(api)
  const toasts = useToasts()
  const [selection, setSelection] = useState<SelectionState>(EMPTY_SELECTION)
  const [dialog, setDialog] = useState<DialogState>(null)
  const [previewId, setPreviewId] = useState<string | null>(null)
  const [dragging, setDragging] = useState(false)
  const siteHeader = useSiteHeaderHeight()
  const toolbar = useRef<HTMLDivElement>(null)
  const toolbarHeight = useElementHeight(toolbar)
  const filesInput = useRef<HTMLInputElement>(null)
  const folderInput = useRef<HTMLInputElement>(null)
  const quotaTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  // Only whether the upload panel is on screen (toasts move above it on phones), not every progress tick.
  const panelShown = useSyncExternalStore(uploads.subscribe, () => uploads.items().length > 0 || uploads.pendingFromEarlier().length > 0, () => false)

  const ids = useMemo(() => listing.files.map((file) => file.id), [listing.files])
  const previousIds = useRef<readonly string[]>(ids)
  useEffect(() => {
    setSelection((current) => reconcile(current, previousIds.current, ids))
    previousIds.current = ids
    for (const file of listing.files) rememberFolder(file)
  }, [ids, listing.files])
  useEffect(() => setSelection(EMPTY_SELECTION), [view, folderId])
  useEffect(() => {
    uploads.setAccount(accountId)
    void uploads.loadPendingFromEarlier().catch(() => undefined)
  }, [uploads, accountId])
  useEffect(() => () => clearTimeout(quotaTimer.current), [])
  useEffect(() => {
    if (!focusListOnArrival || listing.loading) return
    focusListOnArrival = false
    document.querySelector<HTMLElement>('[data-testid="drive-row"][tabindex="0"]')?.focus({ preventScroll: true })
  }, [listing.loading, folderId])

  function refreshQuotaSoon() {
    clearTimeout(quotaTimer.current)
    quotaTimer.current = setTimeout(quota.refresh, QUOTA_REFRESH_DELAY_MS)
  }

  useDriveChanges((change) => {
    if (change.type === 'folder-created') rememberFolder(change.folder)
    listing.put(change.type === 'uploaded' ? change.file : change.folder)
    if (change.type !== 'uploaded') return
    // The last upload of a batch shows the new usage at once; before that, at most every 1.5 s.
    if (uploads.items().some((item) => isUnfinished(item.status))) refreshQuotaSoon()
    else {
      clearTimeout(quotaTimer.current)
      quota.refresh()
    }
  })

  // Files dropped anywhere on the page go into the folder shown. The listeners stay for the
  // page's life (re-adding them on each render would lose count of nested drag-enters), and
  // reach the current folder through a ref.
  const onDrop = useRef<(transfer: DataTransfer) => void>(() => undefined)
  onDrop.current = (transfer) => void pickedFromDrop(transfer).then(startUpload, showError)
  useEffect(() => {
    if (view !== 'folder') return
    let depth = 0
    const enter = (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer)) return
      event.preventDefault()
      depth += 1
      setDragging(true)
    }
    const over = (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer)) return
      event.preventDefault()
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy'
    }
    const leave = () => {
      depth = Math.max(0, depth - 1)
      if (depth === 0) setDragging(false)
    }
    const drop = (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer) || !event.dataTransfer) return
      event.preventDefault()
      depth = 0
      setDragging(false)
      onDrop.current(event.dataTransfer)
    }
    window.addEventListener('dragenter', enter)
    window.addEventListener('dragover', over)
    window.addEventListener('dragleave', leave)
    window.addEventListener('drop', drop)
    return () => {
      window.removeEventListener('dragenter', enter)
      window.removeEventListener('dragover', over)
      window.removeEventListener('dragleave', leave)
      window.removeEventListener('drop', drop)
    }
  }, [view])

  function showError(error: unknown) {
    void describe(error).then((text) => toasts.show({ tone: 'error', text }))
  }

  function startUpload(picked: PickedFiles) {
    if (picked.files.length === 0 && picked.folders.length === 0) return
    uploads.add(picked, folderId).catch(showError)
  }

  async function inEachBatch(files: readonly DriveFile[], call: (ids: string[]) => Promise<unknown>) {
    for (const batch of inBatches(files.map((file) => file.id))) await call(batch)
  }

  function run(action: () => Promise<void>) {
    action().catch(showError)
  }

  function open(file: DriveFile) {
    if (file.kind === FOLDER_KIND) {
      rememberFolder(file)
      focusListOnArrival = true
      void navigate(pagePath('drive-folder', locale, { folderId: file.id }))
    } else {
      setPreviewId(file.id)
    }
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
      case 'download':
        run(() => download(targets))
        return
      case 'rename':
        setDialog({ type: 'rename', file: targets[0]! })
        return
      case 'move':
      case 'copy':
        setDialog({ type: action, files: targets })
        return
      case 'delete':
        setDialog({ type: 'delete', files: targets })
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
        run(async () => {
          await inEachBatch(targets, (batch) => api.untrash(batch))
          listing.remove(targets.map((file) => file.id))
          quota.refresh()
          toasts.show({ tone: 'success', text: tp('drive.toast.restored', count, one) })
        })
        return
    }
  }

  const selectedFiles = useMemo(() => listing.files.filter((file) => selection.selected.has(file.id)), [listing.files, selection.selected])
  const previewable = useMemo(() => listing.files.filter((file) => file.kind !== FOLDER_KIND), [listing.files])
  const previewIndex = previewId === null ? -1 : previewable.findIndex((file) => file.id === previewId)
  const current: PathStep = path.steps[path.steps.length - 1] ?? { id: '', name: rootName }
  const folderMissing = view === 'folder' && (isNotFound(listing.error) || (path.status === 'error' && isNotFound(path.error)))
  const viewTitle = view === 'starred' ? t('drive.nav.starred') : view === 'trash' ? t('drive.nav.trash') : folderId === '' ? rootName : path.status === 'ready' ? current.name : t('drive.title')
  const gridTop = siteHeader + toolbarHeight

  const heading =
    view === 'folder' ? (
      <Breadcrumbs
        steps={folderId !== '' && path.status !== 'ready' ? [] : path.steps}
        label={t('drive.breadcrumb.label')}
        headingLevel={1}
        renderStep={(step, className) => (
          <LocaleLink page={step.id === '' ? 'drive' : 'drive-folder'} params={step.id === '' ? {} : { folderId: step.id }} className={className}>
            {step.name}
          </LocaleLink>
        )}
        onChoose={(step) => void navigate(step.id === '' ? pagePath('drive', locale) : pagePath('drive-folder', locale, { folderId: step.id }))}
      />
    ) : (
      <h1 className="flex items-center gap-2 px-2 text-lg font-semibold tracking-tight text-slate-900 dark:text-white">
        {view === 'starred' ? <StarIcon className="size-5 text-amber-500" /> : <TrashIcon className="size-5 text-slate-500" />}
        {viewTitle}
      </h1>
    )

  let content
  if (folderMissing) {
    content = (
      <div role="status" className="mx-auto max-w-md px-4 py-16 text-center">
        <p className="text-lg font-semibold text-slate-900 dark:text-white">{t('drive.notFound.title')}</p>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{t('drive.notFound.text')}</p>
        <LocaleLink page="drive" className="mt-6 inline-flex h-11 items-center rounded-xl bg-brand-600 px-5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500">
          {t('drive.notFound.back')}
        </LocaleLink>
      </div>
    )
  } else if (listing.loading) {
    content = <LoadingBlock label={t('drive.list.loading')} />
  } else if (listing.error && listing.files.length === 0) {
    content = (
      <div className="px-3 py-6 sm:px-0">
        <Alert tone="error">
          <p className="font-semibold">{t('drive.list.loadFailed')}</p>
          {listingError ? <p className="mt-1">{listingError}</p> : null}
        </Alert>
        <Button variant="secondary" className="mt-4" onClick={listing.reload}>
          {t('drive.list.retry')}
        </Button>
      </div>
    )
  } else if (listing.files.length === 0) {
    content = <EmptyState view={view} onUploadFiles={() => filesInput.current?.click()} onUploadFolder={() => folderInput.current?.click()} />
  } else {
    content = (
      <>
        <FileGrid
          files={listing.files}
          view={view}
          label={t('drive.list.label', { folder: viewTitle })}
          selection={selection}
          onSelectionChange={setSelection}
          order={order}
          onOrderChange={setOrder}
          complete={listing.complete}
          onLoadMore={listing.loadMore}
          onOpen={open}
          onAction={onAction}
          stickyTop={gridTop}
        />
        {listing.loadingMore ? (
          <div role="status" className="flex items-center justify-center gap-2 py-4 text-sm text-slate-500 dark:text-slate-400">
            <Spinner className="size-4" />
            {t('drive.list.loadingMore')}
          </div>
        ) : null}
        {listing.error ? (
          <div className="flex flex-wrap items-center gap-3 px-3 py-4 sm:px-0">
            <p role="alert" className="text-sm text-red-700 dark:text-red-300">
              {listingError ?? t('drive.list.loadFailed')}
            </p>
            <Button variant="secondary" onClick={listing.loadMore}>
              {t('drive.list.retry')}
            </Button>
          </div>
        ) : null}
      </>
    )
  }

  return (
    <div className="mx-auto flex w-full max-w-[90rem] gap-6 sm:px-4 lg:px-6" data-testid="drive-page" data-view={view}>
      <PageTitle title={viewTitle} description={t('drive.description')} />
      <aside className="hidden w-60 shrink-0 lg:block">
        <div className="sticky space-y-6 pt-4" style={{ top: siteHeader }}>
          <DriveNav current={view} layout="column" />
          <QuotaBar about={quota.about} className="px-4" />
        </div>
      </aside>
      <div className="min-w-0 flex-1 pb-32">
        <div className="lg:hidden">
          <DriveNav current={view} layout="row" />
        </div>
        <div ref={toolbar} className="sticky z-30 bg-white px-2 pt-1 sm:px-0 dark:bg-slate-950" style={{ top: siteHeader }}>
          <DriveToolbar
            view={view}
            heading={heading}
            selected={selectedFiles}
            onAction={onAction}
            onClearSelection={() => setSelection((s) => ({ ...s, selected: new Set() }))}
            order={order}
            onOrderChange={setOrder}
            onNewFolder={() => setDialog({ type: 'new-folder' })}
            onUploadFiles={() => filesInput.current?.click()}
            onUploadFolder={() => folderInput.current?.click()}
            onEmptyTrash={() => setDialog({ type: 'empty-trash' })}
            hasItems={listing.files.length > 0}
            itemCount={listing.complete && !listing.loading && listing.files.length > 0 ? listing.files.length : null}
            note={view === 'trash' ? t('drive.trashNotice', { days: trashRetentionDays }) : undefined}
          />
        </div>
        {content}
        <QuotaBar about={quota.about} className="mt-8 px-4 lg:hidden" />
      </div>

      <input
        ref={filesInput}
        type="file"
        multiple
        hidden
        data-testid="upload-files-input"
        onChange={(event) => {
          if (event.target.files) startUpload(pickedFromInput(event.target.files))
          event.target.value = ''
        }}
      />
      <input
        ref={folderInput}
        type="file"
        hidden
        data-testid="upload-folder-input"
        {...FOLDER_INPUT}
        onChange={(event) => {
          if (event.target.files) startUpload(pickedFromInput(event.target.files))
          event.target.value = ''
        }}
      />

      {dragging ? (
        <div className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-brand-600/10 p-4 backdrop-blur-[1px]" data-testid="drop-overlay">
          <div className="flex flex-col items-center gap-3 rounded-3xl border-2 border-dashed border-brand-500 bg-white/95 px-10 py-8 text-center shadow-xl dark:bg-slate-900/95">
            <UploadIcon className="size-10 text-brand-600 dark:text-brand-300" />
            <p className="text-base font-semibold text-slate-900 dark:text-white">{t('drive.upload.drop', { folder: viewTitle })}</p>
            <p className="text-sm text-slate-500 dark:text-slate-400">{t('drive.upload.dropHint')}</p>
          </div>
        </div>
      ) : null}

      <NameDialog
        open={dialog?.type === 'new-folder'}
        onOpenChange={(isOpen) => !isOpen && setDialog(null)}
        mode="new-folder"
        initialName={t('drive.names.newFolder.initial')}
        isFolder
        onSubmit={async (name) => {
          const folder = await api.createFolder({ name, parentId: folderId })
          rememberFolder(folder)
          listing.put(folder)
          setSelection({ selected: new Set([folder.id]), anchor: folder.id, focus: folder.id })
          toasts.show({ tone: 'success', text: t('drive.toast.folderCreated', { name: folder.name }) })
        }}
      />
      <NameDialog
        open={dialog?.type === 'rename'}
        onOpenChange={(isOpen) => !isOpen && setDialog(null)}
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
        onOpenChange={(isOpen) => !isOpen && setDialog(null)}
        mode={dialog?.type === 'copy' ? 'copy' : 'move'}
        items={dialog?.type === 'move' || dialog?.type === 'copy' ? dialog.files : []}
        startPath={view === 'folder' && path.status === 'ready' ? path.steps : ROOT_ONLY(rootName)}
        onPick={async (folder) => {
          if (dialog?.type !== 'move' && dialog?.type !== 'copy') return
          const files = dialog.files
          const one = { name: files[0]!.name, folder: folder.name }
          if (dialog.type === 'move') {
            await inEachBatch(files, (batch) => api.move(batch, folder.id))
            for (const file of files) rememberFolder({ ...file, parent_id: folder.id })
            if (view === 'folder' && folder.id !== folderId) listing.remove(files.map((file) => file.id))
            toasts.show({ tone: 'success', text: tp('drive.toast.moved', files.length, one) })
          } else {
            await inEachBatch(files, (batch) => api.copy(batch, folder.id))
            if (view === 'folder' && folder.id === folderId) listing.reload()
            quota.refresh()
            toasts.show({ tone: 'success', text: tp('drive.toast.copied', files.length, one) })
          }
        }}
      />
      <ConfirmDialog
        open={dialog?.type === 'delete'}
        onOpenChange={(isOpen) => !isOpen && setDialog(null)}
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
        onOpenChange={(isOpen) => !isOpen && setDialog(null)}
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
      {previewIndex !== -1 ? (
        <PreviewDialog
          api={api}
          files={previewable}
          index={previewIndex}
          onIndexChange={(index) => setPreviewId(previewable[index]?.id ?? null)}
          onClose={() => setPreviewId(null)}
          onDownload={(file) => run(() => download([file]))}
        />
      ) : null}

      <UploadPanel uploads={uploads} />
      <Toasts toasts={toasts.toasts} onDismiss={toasts.dismiss} raised={panelShown} />
    </div>
  )
}

const rootOnly = new Map<string, PathStep[]>()
/** The root alone as a path (one array per name, so the picker's effect does not restart). */
function ROOT_ONLY(name: string): PathStep[] {
  let path = rootOnly.get(name)
  if (!path) rootOnly.set(name, (path = [{ id: '', name }]))
  return path
}

function EmptyState({ view, onUploadFiles, onUploadFolder }: { view: DriveView; onUploadFiles(): void; onUploadFolder(): void }) {
  const { t } = useT()
  const texts =
    view === 'starred'
      ? { title: t('drive.empty.starredTitle'), text: t('drive.empty.starredText') }
      : view === 'trash'
        ? { title: t('drive.empty.trashTitle'), text: t('drive.empty.trashText') }
        : { title: t('drive.empty.folderTitle'), text: t('drive.empty.folderText') }
  return (
    <div className="mx-3 mt-4 flex flex-col items-center rounded-3xl border-2 border-dashed border-slate-200 px-6 py-16 text-center sm:mx-0 dark:border-slate-800" data-testid="drive-empty">
      <span className="inline-flex size-16 items-center justify-center rounded-full bg-brand-50 text-brand-600 dark:bg-brand-900/40 dark:text-brand-300" aria-hidden="true">
        {view === 'starred' ? <StarIcon className="size-8" /> : view === 'trash' ? <TrashIcon className="size-8" /> : <UploadIcon className="size-8" />}
      </span>
      <p className="mt-5 text-lg font-semibold text-slate-900 dark:text-white">{texts.title}</p>
      <p className="mt-1.5 max-w-sm text-sm text-slate-600 dark:text-slate-300">{texts.text}</p>
      {view === 'folder' ? (
        <div className="mt-6 flex flex-wrap justify-center gap-2">
          <Button variant="secondary" onClick={onUploadFiles}>
            <FileUploadIcon />
            {t('drive.toolbar.uploadFiles')}
          </Button>
          <Button variant="secondary" onClick={onUploadFolder}>
            <FolderUploadIcon />
            {t('drive.toolbar.uploadFolder')}
          </Button>
        </div>
      ) : null}
    </div>
  )
}
