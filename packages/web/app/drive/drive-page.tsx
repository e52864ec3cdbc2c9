import { DRIVE_DEFAULTS, type DriveFile, DriveErrors, FOLDER_KIND } from '@cumulus/protocol'
import { isIdentityError } from '@cumulus/sdk'
import { Suspense, useEffect, useMemo, useRef, useState } from 'react'
import { useNavigate, useSearchParams } from 'react-router'
import { useLocale, useT } from '../i18n/use-locale'
import { LocaleLink, pagePath } from '../navigation/locale-link'
import { PageTitle } from '../components/page-title'
import { Alert } from '../components/ui/alert'
import { lazyFrom, onDemand } from '../components/lazy/on-demand'
import { Button } from '../components/ui/button'
import { Spinner } from '../components/ui/spinner'
import { Breadcrumbs } from './breadcrumbs'
import { pickedFromDrop, pickedFromInput } from './collect-files'
import type { DriveDialog } from './drive-dialogs'
import { useDrive } from './drive-context'
import { DriveNav } from './drive-nav'
import { SkeletonRows } from './drive-skeleton'
import { DriveToolbar } from './drive-toolbar'
import { EmptyState } from './empty-state'
import type { DriveView } from './file-actions'
import { FileGrid } from './file-grid'
import { FileTiles } from './file-tiles'
import { type PathStep, rememberFolder, useFolderPath } from './folder-path'
import { SearchIcon, StarIcon, TrashIcon, UploadIcon } from './icons'
import { useElementHeight, useSiteHeaderHeight } from './layout-hooks'
import { DEFAULT_ORDER, type ListingSource } from './listing'
import { QuotaBar, useQuota } from './quota-bar'
import { Toasts, useToasts } from './toasts'
import { UploadPanel } from './upload-panel'
import { useDriveSelection } from './use-drive-selection'
import { useDriveUploads } from './use-drive-uploads'
import { useDescribeError, useErrorText } from './use-error-text'
import { takeListFocusWish, useFileActions } from './use-file-actions'
import { useFileDrop } from './use-file-drop'
import { useListing } from './use-listing'
import { usePlural } from './use-plural'
import { useRememberedLayout } from './use-remembered-layout'
import { useRememberedOrder } from './use-remembered-order'
import { SELECT_PARAM } from './reveal'
import { DriveSearchBox, ResultLocation, SearchEmpty, SearchIdle, type SearchRequest } from '../search/drive-search'
import { SearchFilterBar } from '../search/search-filter-bar'
import { cloudDownloadSearch } from '../thunder/target-folder'
import { hasFilters, NO_FILTERS, toSearchFilters, writeFilterChoice } from '../search/search-filters'

/** The preview (image, video, audio, text, PDF) is fetched when a file is first opened, not with the page. */
const PreviewDialog = lazyFrom(onDemand(() => import('./preview-dialog')), (module) => module.PreviewDialog)
/**
 * The dialogs (new folder, rename, move and copy, delete, empty trash) with Radix Dialog come when
 * first needed; pointing at or focusing the list or the toolbar fetches them ahead, so a dialog
 * opened from a menu or a key is there at once.
 */
const driveDialogs = onDemand(() => import('./drive-dialogs'))
const DriveDialogs = lazyFrom(driveDialogs, (module) => module.DriveDialogs)
const preloadDialogs = () => void driveDialogs.load().catch(() => undefined)

/** Whether an error is the drive's "no such file or folder". */
function isNotFound(error: unknown): boolean {
  return isIdentityError(error) && error.is(DriveErrors.file_not_found)
}

/** Room below the list's last row when nothing covers the bottom of the window. */
const LIST_BOTTOM_ROOM_PX = 128
/** Room between the list's last row and the top of the upload panel. */
const PANEL_CLEARANCE_PX = 16

/** The folder input's attribute React does not know by name. */
const FOLDER_INPUT = { webkitdirectory: '', directory: '' } as Record<string, string>

const NO_SEARCH: SearchRequest = Object.freeze({ query: '', filters: NO_FILTERS })

/**
 * A drive page: My drive and its folders, Starred, Trash, or search results. It composes the list (data:
 * `useListing`, `useFolderPath`, `useQuota`; selection: `useDriveSelection`), the actions
 * (`useFileActions`) and their dialogs (`DriveDialogs`), uploads by button or drop
 * (`useDriveUploads`, `useFileDrop`), the preview, the toasts and the search box. A folder's
 * URL may name an item to select (`?select=`, where a search takes the user).
 */
export function DrivePage({
  view,
  folderId = '',
  accountId = '',
  trashRetentionDays = DRIVE_DEFAULTS.trashRetentionDays,
  search = NO_SEARCH,
}: {
  view: DriveView
  folderId?: string
  accountId?: string
  /** The server's TRASH_RETENTION_DAYS, which the trash view states. */
  trashRetentionDays?: number
  /** The query and filters of the search view. */
  search?: SearchRequest
}) {
  const { t } = useT()
  const tp = usePlural()
  const locale = useLocale()
  const navigate = useNavigate()
  const { api } = useDrive()
  const describe = useDescribeError()
  const [order, setOrder] = useRememberedOrder()
  const [layout, setLayout] = useRememberedLayout()
  const [searchParams, setSearchParams] = useSearchParams()
  const { query, filters: filterChoice } = search
  // "Modified in the past week" counts back from when the filter was chosen, not from each render.
  const searchFilters = useMemo(() => toSearchFilters(filterChoice, new Date()), [filterChoice.kind, filterChoice.category, filterChoice.modified, filterChoice.size])
  const source = useMemo<ListingSource>(
    () => (view === 'folder' ? { kind: 'folder', folderId } : view === 'search' ? { kind: 'search', query, filters: searchFilters } : { kind: view }),
    [view, folderId, query, searchFilters],
  )
  // Search results keep the server's order, whatever the folders' remembered one.
  const listing = useListing(api, source, view === 'search' ? DEFAULT_ORDER : order)
  const listingError = useErrorText(listing.error)
  const rootName = t('drive.nav.myDrive')
  const path = useFolderPath(api, view === 'folder' ? folderId : '', rootName)
  const quota = useQuota(api)
  const toasts = useToasts()
  const { selection, setSelection, selectedFiles } = useDriveSelection(listing.files, view === 'search' ? `search/${JSON.stringify(source)}` : `${view}/${folderId}`)
  const [dialog, setDialog] = useState<DriveDialog>(null)
  // Once a dialog has opened, the dialogs stay mounted, so closing one runs Radix's focus return.
  const [dialogsMounted, setDialogsMounted] = useState(false)
  if (dialog !== null && !dialogsMounted) setDialogsMounted(true)
  const [previewId, setPreviewId] = useState<string | null>(null)
  // The height the upload panel covers at the bottom of the window: the list keeps that much
  // room below its last row, so every row can scroll above the panel.
  const [panelHeight, setPanelHeight] = useState(0)
  const siteHeader = useSiteHeaderHeight()
  const toolbar = useRef<HTMLDivElement>(null)
  const toolbarHeight = useElementHeight(toolbar)
  const filesInput = useRef<HTMLInputElement>(null)
  const folderInput = useRef<HTMLInputElement>(null)

  function showError(error: unknown) {
    void describe(error).then((text) => toasts.show({ tone: 'error', text }))
  }

  const { uploads, startUpload } = useDriveUploads({ accountId, folderId, listing, quota, showError })
  const dragging = useFileDrop(view === 'folder', (transfer) => void pickedFromDrop(transfer).then(startUpload, showError))
  const { onAction, open, download, restore, run } = useFileActions({ api, view, listing, quota, toasts, openDialog: setDialog, preview: (file) => setPreviewId(file.id), showError })

  useEffect(() => {
    for (const file of listing.files) rememberFolder(file)
  }, [listing.files])
  useEffect(() => {
    if (listing.loading || !takeListFocusWish()) return
    document.querySelector<HTMLElement>('[data-testid="drive-row"][tabindex="0"]')?.focus({ preventScroll: true })
  }, [listing.loading, folderId])

  // `?select=id` (a search result shown in its folder): once the list has the item, select it,
  // scroll to it and give it the focus; pages are read on until it arrives.
  const revealId = view === 'folder' ? searchParams.get(SELECT_PARAM) : null
  const revealed = useRef<string | null>(null)
  useEffect(() => {
    if (revealId === null || listing.loading) return
    if (!listing.files.some((file) => file.id === revealId)) {
      if (!listing.complete && !listing.error) {
        listing.loadMore()
        return
      }
    } else {
      setSelection({ selected: new Set([revealId]), anchor: revealId, focus: revealId })
      revealed.current = revealId
    }
    setSearchParams(
      (params) => {
        params.delete(SELECT_PARAM)
        return params
      },
      { replace: true, preventScrollReset: true },
    )
  }, [revealId, listing.files, listing.loading, listing.complete, listing.error])
  // A focused row that leaves the list (trashed with the Delete key, restored, deleted) hands
  // the focus to the row that took its place, or to the new last row (the selection's focus has
  // moved there already, see `reconcile`), rather than let it fall to the page's body: a keyboard
  // user goes on from where they were.
  const filesBefore = useRef(listing.files)
  const focusBefore = useRef(selection.focus)
  useEffect(() => {
    const [before, was] = [filesBefore.current, focusBefore.current]
    filesBefore.current = listing.files
    focusBefore.current = selection.focus
    if (before === listing.files || was === null || selection.focus === null || listing.files.some((file) => file.id === was)) return
    const active = document.activeElement
    if (active && active !== document.body && active.isConnected) return
    revealed.current = selection.focus
  })
  useEffect(() => {
    const id = revealed.current
    if (id === null || selection.focus !== id) return
    const item = document.querySelector<HTMLElement>(`[data-id="${CSS.escape(id)}"]`)
    if (!item) return
    revealed.current = null
    item.scrollIntoView?.({ block: 'center' })
    item.focus({ preventScroll: true })
  })

  const previewable = useMemo(() => listing.files.filter((file) => file.kind !== FOLDER_KIND), [listing.files])
  const previewIndex = previewId === null ? -1 : previewable.findIndex((file) => file.id === previewId)
  const current: PathStep = path.steps[path.steps.length - 1] ?? { id: '', name: rootName }
  const folderMissing = view === 'folder' && (isNotFound(listing.error) || (path.status === 'error' && isNotFound(path.error)))
  const viewTitle =
    view === 'search'
      ? query === ''
        ? t('drive.search.title')
        : t('drive.search.resultsFor', { query })
      : view === 'starred'
        ? t('drive.nav.starred')
        : view === 'trash'
          ? t('drive.nav.trash')
          : folderId === ''
            ? rootName
            : path.status === 'ready'
              ? current.name
              : t('drive.title')
  const filtered = hasFilters(filterChoice)
  const changeFilters = (next: typeof filterChoice) => setSearchParams((params) => writeFilterChoice(params, next), { replace: true, preventScrollReset: true })
  const resultCount = listing.loading || listing.files.length === 0 ? '' : listing.complete ? tp('drive.search.count', listing.files.length) : tp('drive.search.countAtLeast', listing.files.length)
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
      <h1 className="flex min-w-0 items-center gap-2 px-2 text-lg font-semibold tracking-tight text-slate-900 dark:text-white">
        {view === 'starred' ? <StarIcon className="size-5 shrink-0 text-amber-500" /> : view === 'search' ? <SearchIcon className="size-5 shrink-0 text-slate-500" /> : <TrashIcon className="size-5 shrink-0 text-slate-500" />}
        <span className="truncate">{viewTitle}</span>
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
  } else if (view === 'search' && query === '') {
    content = <SearchIdle />
  } else if (listing.loading) {
    content = <SkeletonRows label={t('drive.list.loading')} />
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
  } else if (listing.files.length === 0 && view === 'search') {
    content = <SearchEmpty query={query} filtered={filtered} onClearFilters={() => changeFilters(NO_FILTERS)} />
  } else if (listing.files.length === 0) {
    content = <EmptyState view={view} onUploadFiles={() => filesInput.current?.click()} onUploadFolder={() => folderInput.current?.click()} />
  } else {
    // What the list and the grid both show and do.
    const itemsProps = {
      files: listing.files,
      view,
      label: t('drive.list.label', { folder: viewTitle }),
      selection,
      onSelectionChange: setSelection,
      complete: listing.complete,
      onLoadMore: listing.loadMore,
      onOpen: open,
      onAction,
    }
    content = (
      <>
        {view === 'search' ? (
          // Results in the server's order, each with the folder it is in (no tiles: they have no room for it).
          <FileGrid {...itemsProps} detail={(file) => <ResultLocation file={file} />} stickyTop={gridTop} />
        ) : layout === 'grid' ? (
          <FileTiles {...itemsProps} />
        ) : (
          <FileGrid {...itemsProps} order={order} onOrderChange={setOrder} stickyTop={gridTop} />
        )}
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

  const pickedFromInputOf = (input: HTMLInputElement) => {
    if (input.files) startUpload(pickedFromInput(input.files))
    input.value = ''
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
      <div className="min-w-0 flex-1" style={{ paddingBottom: Math.max(LIST_BOTTOM_ROOM_PX, panelHeight + PANEL_CLEARANCE_PX) }} data-testid="drive-main" onPointerEnter={preloadDialogs} onFocus={preloadDialogs}>
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
            onCloudDownload={() => void navigate(pagePath('thunder', locale, {}, cloudDownloadSearch(folderId)))}
            onEmptyTrash={() => setDialog({ type: 'empty-trash' })}
            hasItems={listing.files.length > 0}
            itemCount={listing.complete && !listing.loading && listing.files.length > 0 ? listing.files.length : null}
            note={view === 'trash' ? t('drive.trashNotice', { days: trashRetentionDays }) : view === 'search' ? resultCount : undefined}
            layout={layout}
            onLayoutChange={setLayout}
            search={<DriveSearchBox api={api} accountId={accountId} request={view === 'search' ? search : undefined} onError={showError} />}
            filters={view === 'search' && query !== '' ? <SearchFilterBar choice={filterChoice} onChange={changeFilters} /> : undefined}
          />
        </div>
        {content}
        <QuotaBar about={quota.about} className="mt-8 px-4 lg:hidden" />
      </div>

      <input ref={filesInput} type="file" multiple hidden data-testid="upload-files-input" onChange={(event) => pickedFromInputOf(event.target)} />
      <input ref={folderInput} type="file" hidden data-testid="upload-folder-input" {...FOLDER_INPUT} onChange={(event) => pickedFromInputOf(event.target)} />

      {dragging ? (
        <div className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-brand-600/10 p-4 backdrop-blur-[1px]" data-testid="drop-overlay">
          <div className="flex flex-col items-center gap-3 rounded-3xl border-2 border-dashed border-brand-500 bg-white/95 px-10 py-8 text-center shadow-xl dark:bg-slate-900/95">
            <UploadIcon className="size-10 text-brand-600 dark:text-brand-300" />
            <p className="text-base font-semibold text-slate-900 dark:text-white">{t('drive.upload.drop', { folder: viewTitle })}</p>
            <p className="text-sm text-slate-500 dark:text-slate-400">{t('drive.upload.dropHint')}</p>
          </div>
        </div>
      ) : null}

      {dialogsMounted ? (
        <Suspense fallback={null}>
          <DriveDialogs
            dialog={dialog}
            onClose={() => setDialog(null)}
            view={view}
            folderId={folderId}
            startPath={view === 'folder' && path.status === 'ready' ? path.steps : rootOnly(rootName)}
            listing={listing}
            quota={quota}
            toasts={toasts}
            onFolderCreated={(folder: DriveFile) => setSelection({ selected: new Set([folder.id]), anchor: folder.id, focus: folder.id })}
            onRestore={restore}
          />
        </Suspense>
      ) : null}
      {previewIndex !== -1 ? (
        <Suspense fallback={null}>
          <PreviewDialog
            api={api}
            files={previewable}
            index={previewIndex}
            onIndexChange={(index) => setPreviewId(previewable[index]?.id ?? null)}
            onClose={() => setPreviewId(null)}
            onDownload={(file) => run(() => download([file]))}
            onUnpack={(file) => onAction('archive', [file])}
          />
        </Suspense>
      ) : null}

      <UploadPanel uploads={uploads} onHeightChange={setPanelHeight} />
      <Toasts toasts={toasts.toasts} onDismiss={toasts.dismiss} raisedBy={panelHeight} />
    </div>
  )
}

const rootOnlyPaths = new Map<string, PathStep[]>()
/** The root alone as a path (one array per name, so the picker's effect does not restart). */
function rootOnly(name: string): PathStep[] {
  let path = rootOnlyPaths.get(name)
  if (!path) rootOnlyPaths.set(name, (path = [{ id: '', name }]))
  return path
}
