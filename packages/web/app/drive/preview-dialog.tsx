import * as Dialog from '@radix-ui/react-dialog'
import type { DriveFile } from '@cumulus/protocol'
import { type KeyboardEvent, Suspense, useEffect, useRef, useState } from 'react'
import { lazyFrom, onDemand } from '../components/lazy/on-demand'
import { useLocale, useT } from '../i18n/use-locale'
import { Spinner } from '../components/ui/spinner'
import type { DriveApi } from './drive-api'
import { formatBytes, sizeOf } from './format'
import { ChevronLeftIcon, ChevronRightIcon, CloseIcon, DownloadIcon, FileKindIcon, fileKind, isPreviewable } from './icons'
import { useErrorText } from './use-error-text'
import { FileName } from './file-name'

/** The video player (its menus, and hls.js behind it on demand) in a chunk of its own: images and text need none of it. */
const VideoPlayer = lazyFrom(onDemand(() => import('./player/video-player')), (module) => module.VideoPlayer)

/** A text preview reads at most this much (a Range request): enough to read, never a whole log file. */
export const TEXT_PREVIEW_BYTES = 1024 * 1024

/**
 * The signed link with `disposition=inline`, so the browser shows the file (a PDF in a frame)
 * instead of saving it. The signature covers the file and the expiry, not the disposition.
 */
export function inlineLink(link: string): string {
  const url = new URL(link, window.location.href)
  url.searchParams.set('disposition', 'inline')
  return url.toString()
}

type Loaded = { status: 'loading' } | { status: 'ready'; url: string; text?: string; truncated?: boolean } | { status: 'error'; error: unknown }

/** The link (and, for text, the first MiB) of one file. */
function usePreviewContent(api: DriveApi, file: DriveFile): Loaded {
  const [state, setState] = useState<{ id: string; loaded: Loaded }>({ id: '', loaded: { status: 'loading' } })
  useEffect(() => {
    let live = true
    setState({ id: file.id, loaded: { status: 'loading' } })
    const kind = fileKind(file)
    // A kind the dialog cannot show needs no link: it offers the download instead. The video
    // player reads the video's detail itself (its renditions and transcode).
    if (!isPreviewable(kind) || kind === 'video') {
      setState({ id: file.id, loaded: { status: 'ready', url: '' } })
      return
    }
    ;(async () => {
      const url = inlineLink(await api.downloadUrl(file.id))
      if (kind !== 'text') return { status: 'ready' as const, url }
      // The server honours Range (drive.md), so only the start of a big file travels.
      const response = await fetch(url, { headers: { Range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` } })
      if (!response.ok) throw new Error(`preview: HTTP ${response.status}`)
      const bytes = new Uint8Array(await response.arrayBuffer()).subarray(0, TEXT_PREVIEW_BYTES)
      return { status: 'ready' as const, url, text: new TextDecoder('utf-8').decode(bytes), truncated: sizeOf(file) > TEXT_PREVIEW_BYTES }
    })().then(
      (loaded) => live && setState({ id: file.id, loaded }),
      (error: unknown) => live && setState({ id: file.id, loaded: { status: 'error', error } }),
    )
    return () => {
      live = false
    }
  }, [api, file])
  return state.id === file.id ? state.loaded : { status: 'loading' }
}

export interface PreviewDialogProps {
  api: DriveApi
  /** The files one can step through (the list's files, folders left out, in its order). */
  files: readonly DriveFile[]
  index: number
  onIndexChange(index: number): void
  onClose(): void
  onDownload(file: DriveFile): void
  /** Given for the user's own drive: an archive is offered to be looked into and unpacked (the decompress page). */
  onUnpack?(file: DriveFile): void
}

const barButton =
  'inline-flex size-10 items-center justify-center rounded-full text-white/85 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-white disabled:opacity-30'

/**
 * Closing a preview puts the focus on the item of the file shown last (the arrow keys may have
 * stepped on from the one opened), so a keyboard user goes on from there: the item itself when it
 * takes the focus (the drive's rows), else its `data-preview-opener` (the share page's name). Left to
 * Radix, it fell on the page's body: the dialog is unmounted with the preview, not closed.
 */
function returnFocus(event: Event, fileId: string | undefined): void {
  if (!fileId) return
  const item = document.querySelector<HTMLElement>(`[data-id="${CSS.escape(fileId)}"]`)
  const target = item?.hasAttribute('tabindex') ? item : item?.querySelector<HTMLElement>('[data-preview-opener]')
  if (!target) return
  event.preventDefault()
  target.focus()
}

/**
 * The full-screen preview: images, video (player/video-player.tsx) and audio (streamed by the
 * browser with Range requests from the signed link), the first MiB of a text file, and PDFs in
 * the browser's own viewer; any other kind offers its download. Left and right (buttons or arrow
 * keys) step through the list's other files.
 */
export function PreviewDialog({ api, files, index, onIndexChange, onClose, onDownload, onUnpack }: PreviewDialogProps) {
  const { t } = useT()
  const locale = useLocale()
  const file = files[index]
  const hasPrevious = index > 0
  const hasNext = index < files.length - 1
  // The video the dialog opened on takes the focus, for its shortcuts; one reached by stepping
  // leaves the focus where it was, so the arrow keys go on stepping.
  const [openedOn] = useState(() => file?.id)
  // The file shown last: closing goes back to its item in the list (see returnFocus).
  const shown = useRef(file?.id)
  shown.current = file?.id ?? shown.current

  function onKeyDown(event: KeyboardEvent) {
    // Arrow keys in a player seek; elsewhere they step through the files.
    const target = event.target as HTMLElement
    if (target.tagName === 'VIDEO' || target.tagName === 'AUDIO' || target.tagName === 'INPUT' || target.closest('[data-video-player]')) return
    if (event.key === 'ArrowLeft' && hasPrevious) {
      event.preventDefault()
      onIndexChange(index - 1)
    } else if (event.key === 'ArrowRight' && hasNext) {
      event.preventDefault()
      onIndexChange(index + 1)
    }
  }

  return (
    <Dialog.Root open={!!file} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950" />
        <Dialog.Content aria-describedby={undefined} onKeyDown={onKeyDown} onCloseAutoFocus={(event) => returnFocus(event, shown.current)} className="fixed inset-0 z-50 flex flex-col text-white outline-none" data-testid="preview-dialog">
          {file ? (
            <>
              <div className="flex h-16 shrink-0 items-center gap-2 px-3 sm:px-5">
                <FileKindIcon kind={fileKind(file)} className="size-6" />
                <Dialog.Title className="min-w-0 flex-1 text-base font-medium">
                  <FileName name={file.name} />
                </Dialog.Title>
                {files.length > 1 ? (
                  <span className="hidden text-sm text-white/70 tabular-nums sm:inline" data-testid="preview-position">
                    {t('drive.preview.position', { index: (index + 1).toLocaleString(locale), count: files.length.toLocaleString(locale) })}
                  </span>
                ) : null}
                <button type="button" className={barButton} aria-label={t('drive.preview.download')} title={t('drive.preview.download')} onClick={() => onDownload(file)}>
                  <DownloadIcon />
                </button>
                <Dialog.Close className={barButton} aria-label={t('drive.preview.close')}>
                  <CloseIcon />
                </Dialog.Close>
              </div>
              <div className="relative flex min-h-0 flex-1 flex-col">
                <div className="flex min-h-0 flex-1 items-center justify-center px-2 pb-4 sm:px-16">
                  <PreviewBody key={file.id} api={api} file={file} autoFocus={file.id === openedOn} onDownload={() => onDownload(file)} {...(onUnpack ? { onUnpack: () => onUnpack(file) } : {})} />
                </div>
                {files.length > 1 ? (
                  // On a phone the steps are a row under the file, clear of a video and its
                  // controls; from `sm` up they sit at the sides, in the margins the body leaves.
                  <div className="flex shrink-0 items-center justify-between gap-2 px-3 pb-3 sm:pointer-events-none sm:absolute sm:inset-x-4 sm:top-1/2 sm:-translate-y-1/2 sm:p-0" data-testid="preview-steps">
                    {hasPrevious ? (
                      <button type="button" className={`${barButton} bg-black/40 sm:pointer-events-auto`} aria-label={t('drive.preview.previous')} onClick={() => onIndexChange(index - 1)}>
                        <ChevronLeftIcon />
                      </button>
                    ) : (
                      <span className="size-10" aria-hidden="true" />
                    )}
                    <span className="text-sm text-white/70 tabular-nums sm:hidden">{t('drive.preview.position', { index: (index + 1).toLocaleString(locale), count: files.length.toLocaleString(locale) })}</span>
                    {hasNext ? (
                      <button type="button" className={`${barButton} bg-black/40 sm:pointer-events-auto`} aria-label={t('drive.preview.next')} onClick={() => onIndexChange(index + 1)}>
                        <ChevronRightIcon />
                      </button>
                    ) : (
                      <span className="size-10" aria-hidden="true" />
                    )}
                  </div>
                ) : null}
              </div>
            </>
          ) : (
            <Dialog.Title className="sr-only">{t('drive.preview.loading')}</Dialog.Title>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

function PreviewBody({ api, file, autoFocus, onDownload, onUnpack }: { api: DriveApi; file: DriveFile; autoFocus: boolean; onDownload(): void; onUnpack?(): void }) {
  const { t } = useT()
  const locale = useLocale()
  const loaded = usePreviewContent(api, file)
  const errorText = useErrorText(loaded.status === 'error' ? loaded.error : null)
  const [mediaFailed, setMediaFailed] = useState(false)
  const kind = fileKind(file)

  if (loaded.status === 'loading') {
    return (
      <div role="status" className="flex flex-col items-center gap-3 text-white/80">
        <Spinner className="size-8" />
        <span className="text-sm">{t('drive.preview.loading')}</span>
      </div>
    )
  }
  if (loaded.status === 'error' || mediaFailed) {
    return (
      <p role="alert" className="max-w-md rounded-xl bg-white/10 px-4 py-3 text-center text-sm">
        {t('drive.preview.failed')}
        {errorText ? <span className="mt-1 block text-white/70">{errorText}</span> : null}
      </p>
    )
  }
  const { url } = loaded
  switch (kind) {
    case 'image':
      return <img src={url} alt={file.name} className="max-h-full max-w-full rounded object-contain shadow-2xl" onError={() => setMediaFailed(true)} data-testid="preview-image" />
    case 'video':
      return (
        <Suspense fallback={<Spinner className="size-8 text-white/80" />}>
          <VideoPlayer api={api} file={file} autoFocus={autoFocus} />
        </Suspense>
      )
    case 'audio':
      return (
        <div className="flex w-full max-w-lg flex-col items-center gap-6">
          <FileKindIcon kind="audio" className="size-24" />
          <audio src={url} controls autoPlay preload="metadata" className="w-full" onError={() => setMediaFailed(true)} data-testid="preview-audio" aria-label={file.name} />
        </div>
      )
    case 'pdf':
      return <iframe src={url} title={file.name} className="h-full w-full max-w-5xl rounded bg-white" data-testid="preview-pdf" />
    case 'text':
      return (
        <div className="flex h-full w-full max-w-4xl flex-col">
          {loaded.truncated ? <p className="mb-2 text-xs text-white/70">{t('drive.preview.truncated', { size: formatBytes(TEXT_PREVIEW_BYTES, locale) })}</p> : null}
          <pre tabIndex={0} className="min-h-0 flex-1 overflow-auto rounded-lg bg-white p-4 font-mono text-[13px] leading-relaxed whitespace-pre-wrap break-words text-slate-900 dark:bg-slate-900 dark:text-slate-100" data-testid="preview-text">
            {loaded.text}
          </pre>
        </div>
      )
    default:
      return (
        <div className="flex flex-col items-center gap-4 text-center" data-testid="preview-none">
          <FileKindIcon kind={kind} className="size-20" />
          <p className="text-sm text-white/80">{kind === 'archive' && onUnpack ? t('drive.preview.archive') : t('drive.preview.none')}</p>
          <p className="text-xs text-white/60">{formatBytes(sizeOf(file), locale)}</p>
          <div className="mt-2 flex flex-wrap justify-center gap-3">
            {kind === 'archive' && onUnpack ? (
              <button type="button" onClick={onUnpack} className="inline-flex h-11 items-center gap-2 rounded-xl bg-white px-5 text-sm font-semibold text-slate-900 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white">
                {t('drive.actions.unpack')}
              </button>
            ) : null}
            <button type="button" onClick={onDownload} className="inline-flex h-11 items-center gap-2 rounded-xl bg-white px-5 text-sm font-semibold text-slate-900 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white">
              <DownloadIcon className="size-4" />
              {t('drive.preview.download')}
            </button>
          </div>
        </div>
      )
  }
}
