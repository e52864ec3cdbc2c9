import type { DriveFile } from '@cumulus/protocol'
import { type MouseEvent, useEffect, useMemo, useRef, useState } from 'react'
import { Alert } from '../components/ui/alert'
import { Button } from '../components/ui/button'
import { LoadingBlock } from '../components/ui/spinner'
import { FileName } from '../drive/file-name'
import { formatBytes, sizeOf } from '../drive/format'
import { DownloadIcon, FileKindIcon, fileKind } from '../drive/icons'
import { PreviewDialog } from '../drive/preview-dialog'
import { useErrorText } from '../drive/use-error-text'
import { useThumbnail } from '../drive/use-thumbnail'
import { useLocale, useT } from '../i18n/use-locale'
import type { SharePageApi } from './share-api'
import { requireSharedFile, shareFileApi, ShareUnavailableError } from './share-file-api'
import { keepPick, takePick } from './kept-pick'
import { SavePanel } from './save-panel'
import type { ShareBrowser } from './use-share'

/**
 * A listed item's signed link is used as it is for this long; after that a download asks for a
 * fresh one first (the links expire, and a page can stay open for hours).
 */
export const LISTED_LINK_FRESH_MS = 5 * 60_000

const isFolder = (file: DriveFile) => file.kind === 'drive#folder'

export interface ShareContentsProps {
  shareId: string
  share: ShareBrowser
  api: SharePageApi
  passCodeToken: string | undefined
}

/**
 * An opened share: where in it the visitor is (breadcrumbs from the top of the share; its title
 * is the heading above, and a share of one folder would otherwise read "Photos / Photos"), the items
 * of that folder to open, preview, download and choose, and saving into one's own drive.
 */
export function ShareContents({ shareId, share, api, passCodeToken }: ShareContentsProps) {
  const { t } = useT()
  const { path, listing } = share
  const [selection, setSelection] = useState<ReadonlySet<string>>(() => new Set())
  const [previewIndex, setPreviewIndex] = useState<number | null>(null)
  const [downloadError, setDownloadError] = useState<unknown>(null)
  const downloadErrorText = useErrorText(downloadError)
  const previewApi = useMemo(() => shareFileApi(api, shareId, passCodeToken), [api, shareId, passCodeToken])
  const files = listing.status === 'ready' ? listing.files : []
  const previewable = useMemo(() => files.filter((file) => !isFolder(file)), [files])
  const folderKey = path.map((folder) => folder.id).join('/')

  // A choice belongs to the folder it was made in (the save names that folder's ancestors); one
  // kept across a trip to sign in comes back with its folder, once it is listed.
  const listed = listing.status === 'ready'
  useEffect(() => setSelection(listed ? new Set(takePick(shareId, folderKey)) : new Set()), [shareId, folderKey, listed])

  async function downloadFresh(file: DriveFile) {
    setDownloadError(null)
    try {
      const fresh = await requireSharedFile(api, shareId, file.id, passCodeToken)
      startDownload(fresh.web_content_link, file.name)
    } catch (error) {
      if (error instanceof ShareUnavailableError && error.status !== 'OK') share.showUnavailable(error.status, error.text)
      else setDownloadError(error)
    }
  }

  const toggle = (id: string) =>
    setSelection((current) => {
      const next = new Set(current)
      if (!next.delete(id)) next.add(id)
      return next
    })
  const allChosen = files.length > 0 && files.every((file) => selection.has(file.id))
  const someChosen = !allChosen && files.some((file) => selection.has(file.id))

  return (
    <>
      <nav aria-label={t('sharePage.breadcrumb')} className="border-b border-slate-200 px-5 py-3 text-sm dark:border-slate-800">
        <ol className="flex flex-wrap items-center gap-1">
          {[t('sharePage.root'), ...path.map((folder) => folder.name)].map((name, depth) => {
            const isCurrent = depth === path.length
            return (
              <li key={depth} className="flex min-w-0 items-center gap-1">
                {depth > 0 && (
                  <span aria-hidden="true" className="text-slate-400">
                    /
                  </span>
                )}
                {isCurrent ? (
                  <span aria-current="page" className="font-semibold break-all text-slate-900 dark:text-white">
                    {name}
                  </span>
                ) : (
                  <button type="button" className="text-left break-all text-brand-700 hover:underline dark:text-brand-300" onClick={() => share.goUp(depth)}>
                    {name}
                  </button>
                )}
              </li>
            )
          })}
        </ol>
      </nav>

      {downloadError ? (
        <div className="px-4 pt-4 sm:px-5">
          <Alert tone="error">{downloadErrorText ?? t('sharePage.failed')}</Alert>
        </div>
      ) : null}

      {listing.status === 'loading' ? <LoadingBlock label={t('sharePage.loading')} /> : null}
      {listing.status === 'failed' ? <ListingFailed error={listing.error} onRetry={share.retry} /> : null}
      {listing.status === 'ready' && files.length === 0 ? (
        <p className="px-4 py-12 text-center text-slate-600 dark:text-slate-300" data-testid="share-empty">
          {path.length === 0 ? t('sharePage.list.emptyShare') : t('sharePage.list.empty')}
        </p>
      ) : null}
      {listing.status === 'ready' && files.length > 0 ? (
        <table className="w-full table-fixed text-left text-sm">
          <caption className="sr-only">{t('sharePage.list.caption')}</caption>
          <thead className="text-xs tracking-wide text-slate-600 uppercase dark:text-slate-300">
            <tr>
              <th scope="col" className="w-11 py-3 pr-1 pl-5">
                <Checkbox
                  checked={allChosen}
                  mixed={someChosen}
                  label={t('sharePage.list.selectAll')}
                  onChange={() => setSelection(allChosen ? new Set() : new Set(files.map((file) => file.id)))}
                />
              </th>
              <th scope="col" className="px-3 py-3 font-semibold">
                {t('sharePage.list.name')}
              </th>
              <th scope="col" className="hidden w-28 py-3 pr-2 pl-2 text-right font-semibold sm:table-cell">
                {t('sharePage.list.size')}
              </th>
              <th scope="col" className="w-16 py-3 pr-4 pl-1">
                <span className="sr-only">{t('sharePage.list.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {files.map((file) => (
              <ShareRow
                key={file.id}
                file={file}
                chosen={selection.has(file.id)}
                onToggle={() => toggle(file.id)}
                onOpen={() => (isFolder(file) ? share.openFolder({ id: file.id, name: file.name }) : setPreviewIndex(previewable.indexOf(file)))}
                linkFresh={Date.now() - listing.listedAt < LISTED_LINK_FRESH_MS}
                onDownloadFresh={() => void downloadFresh(file)}
              />
            ))}
          </tbody>
        </table>
      ) : null}
      {listing.status === 'ready' && listing.nextPageToken !== '' ? (
        <div className="flex flex-col items-center gap-2 border-t border-slate-100 px-4 py-4 dark:border-slate-800">
          {listing.moreError ? <ListingError error={listing.moreError} /> : null}
          <Button variant="secondary" loading={listing.loadingMore} onClick={share.loadMore}>
            {t('sharePage.list.more')}
          </Button>
        </div>
      ) : null}

      <SavePanel
        shareId={shareId}
        api={api}
        passCodeToken={passCodeToken}
        chosen={files.filter((file) => selection.has(file.id)).map((file) => file.id)}
        ancestorIds={path.map((folder) => folder.id)}
        onClearSelection={() => setSelection(new Set())}
        onLeaveToSignIn={(chosen) => keepPick(shareId, folderKey, chosen)}
        onUnavailable={share.showUnavailable}
      />

      {previewIndex !== null && previewable[previewIndex] ? (
        <PreviewDialog api={previewApi} files={previewable} index={previewIndex} onIndexChange={setPreviewIndex} onClose={() => setPreviewIndex(null)} onDownload={(file) => void downloadFresh(file)} />
      ) : null}
    </>
  )
}

/** Saves a file through the browser's own download (its progress, its folder), as a link click would. */
function startDownload(href: string, name: string): void {
  const link = document.createElement('a')
  link.href = href
  link.download = name
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
}

interface ShareRowProps {
  file: DriveFile
  chosen: boolean
  onToggle(): void
  onOpen(): void
  /** The listed link may be used as it is (else the download asks for a fresh one). */
  linkFresh: boolean
  onDownloadFresh(): void
}

function ShareRow({ file, chosen, onToggle, onOpen, linkFresh, onDownloadFresh }: ShareRowProps) {
  const { t } = useT()
  const locale = useLocale()
  const folder = isFolder(file)
  const size = folder ? t('sharePage.list.folder') : formatBytes(sizeOf(file), locale)
  const link = file.web_content_link
  const downloadLabel = t('sharePage.list.download', { name: file.name })
  const onDownloadClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (linkFresh && link) return
    event.preventDefault()
    onDownloadFresh()
  }
  return (
    <tr className={chosen ? 'bg-brand-50/60 dark:bg-brand-900/40' : undefined} data-testid="share-row" data-name={file.name} data-id={file.id}>
      <td className="py-2 pr-1 pl-5 align-middle">
        <Checkbox checked={chosen} label={t('sharePage.list.select', { name: file.name })} onChange={onToggle} />
      </td>
      <td className="px-3 py-2">
        <div className="flex min-w-0 items-center gap-3">
          <ItemIcon file={file} />
          <div className="min-w-0 flex-1">
            <button
              type="button"
              onClick={onOpen}
              data-preview-opener
              title={folder ? undefined : t('sharePage.list.preview', { name: file.name })}
              className="block max-w-full text-left font-medium text-slate-900 hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500 dark:text-slate-100 dark:hover:text-brand-300"
            >
              <FileName name={file.name} />
            </button>
            <span className="block text-xs text-slate-600 sm:hidden dark:text-slate-300">{size}</span>
          </div>
        </div>
      </td>
      <td className="hidden py-2 pr-2 pl-2 text-right whitespace-nowrap text-slate-600 sm:table-cell dark:text-slate-300">{size}</td>
      <td className="py-2 pr-4 pl-1 text-right">
        {folder ? null : (
          <a
            href={link || '#'}
            download={file.name}
            onClick={onDownloadClick}
            aria-label={downloadLabel}
            title={downloadLabel}
            className="inline-flex size-10 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-500 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
            data-testid="share-download"
          >
            <DownloadIcon className="size-5" />
          </a>
        )}
      </td>
    </tr>
  )
}

/** The item's thumbnail when it has one that loads, else its kind's icon. */
function ItemIcon({ file }: { file: DriveFile }) {
  const thumbnail = useThumbnail(file)
  const kind = fileKind(file)
  if (thumbnail.src && (kind === 'image' || kind === 'video')) {
    return <img src={thumbnail.src} alt="" loading="lazy" onLoad={thumbnail.onLoad} onError={thumbnail.onError} className="size-9 shrink-0 rounded-md bg-slate-100 object-cover dark:bg-slate-800" />
  }
  return <FileKindIcon kind={kind} className="size-9 shrink-0" />
}

function Checkbox({ checked, mixed = false, label, onChange }: { checked: boolean; mixed?: boolean; label: string; onChange(): void }) {
  const box = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (box.current) box.current.indeterminate = mixed
  }, [mixed])
  // The box is drawn at 16 px; the label around it is the 40 px target a finger needs (WCAG 2.5.8).
  return (
    <label className="-m-2 inline-flex size-10 cursor-pointer items-center justify-center align-middle">
      <input
        ref={box}
        type="checkbox"
        className="size-4 cursor-pointer accent-brand-600"
        checked={checked}
        aria-checked={mixed ? 'mixed' : undefined}
        aria-label={label}
        onChange={onChange}
      />
    </label>
  )
}

function ListingError({ error }: { error: unknown }) {
  const { t } = useT()
  const text = useErrorText(error)
  return (
    <Alert tone="error" className="w-full">
      <p className="font-semibold">{t('sharePage.failed')}</p>
      {text ? <p className="mt-1">{text}</p> : null}
    </Alert>
  )
}

function ListingFailed({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { t } = useT()
  return (
    <div className="p-4 sm:p-6">
      <ListingError error={error} />
      <Button variant="secondary" className="mt-4" onClick={onRetry}>
        {t('sharePage.retry')}
      </Button>
    </div>
  )
}
