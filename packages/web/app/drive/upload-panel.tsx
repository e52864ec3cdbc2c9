import { type CSSProperties, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import { useLocale, useT } from '../i18n/use-locale'
import { pickedFromInput } from './collect-files'
import { formatBytes, formatDuration, formatSpeed } from './format'
import { AlertIcon, CheckIcon, ChevronDownIcon, ChevronUpIcon, CloseIcon, FileKindIcon, kindFromName, PauseIcon, PlayIcon, RetryIcon } from './icons'
import { isUnfinished, type UploadItem, type UploadManager, uploadTotals } from './upload-manager'
import { useErrorText } from './use-error-text'
import { usePlural } from './use-plural'
import { VirtualList } from './virtual-list'
import { FileName } from './file-name'

const ROW_HEIGHT = 64
const MAX_LIST_HEIGHT = 288
/** Earlier uploads listed by name before "and N more". */
const EARLIER_SHOWN = 4

const smallButton =
  'inline-flex size-8 shrink-0 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-200/70 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-500 dark:text-slate-400 dark:hover:bg-slate-700 dark:hover:text-white'
const linkButton = 'rounded-md px-2 py-1 text-sm font-semibold text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-500 dark:text-brand-300 dark:hover:bg-brand-900/40'

/**
 * Phones: where the panel starts collapsed to its summary once uploads run, so the list stays
 * in view (Tailwind's `sm` breakpoint, below which the panel is a full-width sheet).
 */
export const PHONE_MEDIA_QUERY = '(max-width: 639.98px)'

// useLayoutEffect warns during the server render; the measurement only matters in the browser.
const useBrowserLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect

/** Done or cancelled: nothing left to do about it. */
const settled = (item: UploadItem) => item.status === 'done' || item.status === 'cancelled'

/** The folder input's attribute React does not know by name. */
const FOLDER_INPUT = { webkitdirectory: '', directory: '' } as Record<string, string>

/**
 * The upload panel: every file of this visit with its progress, speed and pause/resume/cancel,
 * and the uploads an earlier visit left unfinished, which continue once the user picks the same
 * files (or folder) again; the SDK then resumes each from the server's offset.
 *
 * Its header (the count, bytes sent of the total, time left, and a progress bar) stays when it
 * is collapsed. On phones it collapses by itself when uploads start; the user can expand it.
 * `onHeightChange` reports the height it covers at the bottom of the window (0 when it is not
 * shown), so the page can keep its last rows scrollable above it.
 */
export function UploadPanel({ uploads, onHeightChange }: { uploads: UploadManager; onHeightChange?(height: number): void }) {
  const { t } = useT()
  const tp = usePlural()
  const locale = useLocale()
  const items = useSyncExternalStore(uploads.subscribe, uploads.items, uploads.items)
  const earlier = useSyncExternalStore(uploads.subscribe, uploads.pendingFromEarlier, uploads.pendingFromEarlier)
  const [collapsed, setCollapsed] = useState(false)
  const panel = useRef<HTMLElement>(null)
  // Whether this run of uploads has had its automatic collapse (it happens once: a user who
  // expands the panel keeps it expanded).
  const autoCollapsed = useRef(false)
  const [noMatch, setNoMatch] = useState(false)
  const [resumed, setResumed] = useState(0)
  const filesInput = useRef<HTMLInputElement>(null)
  const folderInput = useRef<HTMLInputElement>(null)
  const totals = uploadTotals(items)
  const unfinished = totals.active + totals.paused
  // What still needs the user's eye (running, paused, failed) comes first; finished rows sink.
  const rows = useMemo(() => [...items.filter((item) => !settled(item)), ...items.filter(settled)], [items])

  const shown = items.length > 0 || earlier.length > 0
  useEffect(() => {
    if (items.length === 0) autoCollapsed.current = false
    if (totals.active === 0 || autoCollapsed.current) return
    autoCollapsed.current = true
    if (window.matchMedia?.(PHONE_MEDIA_QUERY).matches) setCollapsed(true)
  }, [items.length, totals.active])

  const reportHeight = useRef(onHeightChange)
  reportHeight.current = onHeightChange
  useBrowserLayoutEffect(() => {
    const element = panel.current
    if (!shown || !element) {
      reportHeight.current?.(0)
      return
    }
    const measure = () => reportHeight.current?.(Math.ceil(window.innerHeight - element.getBoundingClientRect().top))
    measure()
    if (typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [shown])
  useEffect(() => () => reportHeight.current?.(0), [])

  // Closing the tab would stop the running uploads (they can resume later, but the user should know).
  useEffect(() => {
    if (totals.active === 0) return
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault()
      event.returnValue = ''
    }
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [totals.active])

  if (items.length === 0 && earlier.length === 0) return null

  function chooseAgain(files: FileList | null) {
    if (!files || files.length === 0) return
    void uploads.resumeEarlier(pickedFromInput(files)).then((matched) => {
      setNoMatch(matched === 0)
      setResumed(matched)
    })
  }

  const title =
    totals.active > 0
      ? tp('drive.upload.uploading', totals.active)
      : totals.paused > 0
        ? tp('drive.upload.pausedCount', totals.paused)
        : items.length > 0
          ? tp('drive.upload.finished', totals.done)
          : t('drive.upload.earlier.title')
  const percent = totals.totalBytes > 0 ? Math.round((totals.sentBytes / totals.totalBytes) * 100) : 0
  const secondsLeft = totals.bytesPerSecond > 0 ? (totals.totalBytes - totals.sentBytes) / totals.bytesPerSecond : NaN

  return (
    <section
      ref={panel}
      aria-labelledby="drive-upload-title"
      data-testid="upload-panel"
      data-collapsed={collapsed}
      className="fixed inset-x-0 bottom-0 z-40 flex max-h-[50dvh] flex-col sm:max-h-[70dvh] overflow-hidden rounded-t-2xl bg-white shadow-2xl ring-1 ring-slate-900/10 sm:inset-x-auto sm:right-6 sm:bottom-6 sm:w-[26rem] sm:rounded-2xl dark:bg-slate-900 dark:ring-white/10"
    >
      <header className="flex items-center gap-2 bg-slate-50 px-4 py-3 dark:bg-slate-800/60">
        <div className="min-w-0 flex-1">
          <h2 id="drive-upload-title" className="truncate text-sm font-semibold text-slate-900 dark:text-white" data-testid="upload-title">
            {title}
          </h2>
          {items.length > 0 ? (
            <p className="truncate text-xs text-slate-500 dark:text-slate-400">
              {t('drive.upload.overall', { sent: formatBytes(totals.sentBytes, locale), total: formatBytes(totals.totalBytes, locale) })}
              {totals.failed > 0 ? ` · ${tp('drive.upload.failedCount', totals.failed)}` : ''}
              {totals.active > 0 && Number.isFinite(secondsLeft) ? ` · ${t('drive.upload.timeLeft', { time: formatDuration(secondsLeft, locale) })}` : ''}
            </p>
          ) : null}
        </div>
        {totals.active > 0 ? (
          <button type="button" className={smallButton} aria-label={t('drive.upload.pauseAll')} title={t('drive.upload.pauseAll')} onClick={() => uploads.pauseAll()}>
            <PauseIcon className="size-4" />
          </button>
        ) : totals.paused > 0 ? (
          <button type="button" className={smallButton} aria-label={t('drive.upload.resumeAll')} title={t('drive.upload.resumeAll')} onClick={() => uploads.resumeAll()}>
            <PlayIcon className="size-4" />
          </button>
        ) : null}
        <button type="button" className={smallButton} aria-label={collapsed ? t('drive.upload.expand') : t('drive.upload.collapse')} aria-expanded={!collapsed} aria-controls="drive-upload-body" onClick={() => setCollapsed((c) => !c)}>
          {collapsed ? <ChevronUpIcon className="size-4" /> : <ChevronDownIcon className="size-4" />}
        </button>
        {unfinished === 0 ? (
          <button
            type="button"
            className={smallButton}
            aria-label={t('drive.upload.close')}
            onClick={() => {
              uploads.clearFinished()
              uploads.dismissPendingFromEarlier()
            }}
          >
            <CloseIcon className="size-4" />
          </button>
        ) : null}
      </header>
      {items.length > 0 ? (
        <div className="h-1 bg-slate-100 dark:bg-slate-800" aria-hidden="true">
          <div className={`h-full transition-[width] ${totals.failed > 0 ? 'bg-amber-500' : 'bg-brand-600 dark:bg-brand-400'}`} style={{ width: `${percent}%` }} />
        </div>
      ) : null}
      <div id="drive-upload-body" hidden={collapsed} className="min-h-0 overflow-y-auto">
        {earlier.length > 0 ? (
          <div className="border-b border-slate-100 px-4 py-3 dark:border-slate-800" data-testid="earlier-uploads">
            <p className="text-sm font-semibold text-slate-900 dark:text-white">{t('drive.upload.earlier.title')}</p>
            <p className="mt-1 text-xs leading-relaxed text-slate-600 dark:text-slate-300">{t('drive.upload.earlier.text')}</p>
            <ul className="mt-2 space-y-0.5 text-xs text-slate-700 dark:text-slate-200">
              {earlier.slice(0, EARLIER_SHOWN).map((upload, index) => (
                <li key={upload.kind === 'batch' ? upload.id : `${upload.name}-${index}`} className="flex gap-2" data-testid="earlier-upload">
                  <FileName name={upload.name} className="flex-1" />
                  {upload.kind === 'batch' ? <span className="shrink-0 text-slate-500 dark:text-slate-400">{tp('drive.upload.earlier.filesLeft', upload.filesLeft)}</span> : null}
                  <span className="shrink-0 text-slate-500 tabular-nums dark:text-slate-400">{formatBytes(upload.kind === 'batch' ? upload.bytesLeft : upload.sizeBytes, locale)}</span>
                </li>
              ))}
              {earlier.length > EARLIER_SHOWN ? <li className="text-slate-500 dark:text-slate-400">+{(earlier.length - EARLIER_SHOWN).toLocaleString(locale)}</li> : null}
            </ul>
            {noMatch ? (
              <p role="alert" className="mt-2 text-xs text-red-700 dark:text-red-300">
                {t('drive.upload.earlier.noMatch')}
              </p>
            ) : null}
            <div className="mt-2 flex flex-wrap gap-1">
              <button type="button" className={linkButton} onClick={() => filesInput.current?.click()} data-testid="resume-choose-files">
                {t('drive.upload.earlier.chooseFiles')}
              </button>
              <button type="button" className={linkButton} onClick={() => folderInput.current?.click()}>
                {t('drive.upload.earlier.chooseFolder')}
              </button>
              <button type="button" className={`${linkButton} text-slate-600 dark:text-slate-300`} onClick={() => uploads.dismissPendingFromEarlier()}>
                {t('drive.upload.earlier.dismiss')}
              </button>
              <button type="button" className={`${linkButton} text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950/50`} onClick={() => void uploads.discardPendingFromEarlier()}>
                {t('drive.upload.earlier.discard')}
              </button>
            </div>
            <input
              ref={filesInput}
              type="file"
              multiple
              hidden
              data-testid="resume-files-input"
              onChange={(event) => {
                chooseAgain(event.target.files)
                event.target.value = ''
              }}
            />
            <input
              ref={folderInput}
              type="file"
              hidden
              {...FOLDER_INPUT}
              onChange={(event) => {
                chooseAgain(event.target.files)
                event.target.value = ''
              }}
            />
          </div>
        ) : resumed > 0 ? (
          <p role="status" className="sr-only">
            {tp('drive.upload.earlier.resumed', resumed)}
          </p>
        ) : null}
        {items.length > 0 ? (
          <VirtualList
            role="list"
            aria-label={t('drive.upload.panel')}
            count={rows.length}
            rowHeight={ROW_HEIGHT}
            scroll="self"
            height={Math.min(MAX_LIST_HEIGHT, rows.length * ROW_HEIGHT)}
            renderRow={(index, style) => <UploadRow key={rows[index]!.key} item={rows[index]!} uploads={uploads} style={style} />}
          />
        ) : null}
        {unfinished > 0 && items.length > unfinished ? (
          <div className="flex justify-end border-t border-slate-100 px-3 py-2 dark:border-slate-800">
            <button type="button" className={linkButton} onClick={() => uploads.clearFinished()}>
              {t('drive.upload.clear')}
            </button>
          </div>
        ) : null}
      </div>
    </section>
  )
}

function UploadRow({ item, uploads, style }: { item: UploadItem; uploads: UploadManager; style: CSSProperties }) {
  const { t } = useT()
  const locale = useLocale()
  const errorText = useErrorText(item.status === 'failed' ? item.error : null)
  const percent = item.sizeBytes > 0 ? Math.min(100, Math.round((item.sentBytes / item.sizeBytes) * 100)) : item.status === 'done' ? 100 : 0
  const sent = formatBytes(item.sentBytes, locale)
  const total = formatBytes(item.sizeBytes, locale)
  const status =
    item.status === 'uploading'
      ? t('drive.upload.status.uploading', { sent, total, speed: formatSpeed(item.bytesPerSecond, locale) })
      : item.status === 'paused'
        ? t('drive.upload.status.paused', { sent, total })
        : item.status === 'failed'
          ? (errorText ?? t('drive.upload.status.failed'))
          : t(`drive.upload.status.${item.status}`)
  const kind = kindFromName(item.name)
  const labelled = (action: string) => t('drive.upload.itemLabel', { action, name: item.name })
  return (
    <div role="listitem" style={style} className="flex items-center gap-3 border-b border-slate-100 px-4 dark:border-slate-800" data-testid="upload-row" data-status={item.status} data-name={item.name}>
      <FileKindIcon kind={kind} className="size-7" />
      <div className="min-w-0 flex-1">
        <FileName name={item.path} className="text-sm font-medium text-slate-900 dark:text-slate-100" />
        <p className={`truncate text-xs ${item.status === 'failed' ? 'text-red-700 dark:text-red-300' : 'text-slate-500 dark:text-slate-400'}`} data-testid="upload-status">
          {status}
        </p>
        {isUnfinished(item.status) ? (
          <div role="progressbar" aria-label={t('drive.upload.progress', { name: item.name })} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="mt-1 h-1 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700">
            <div className={`h-full transition-[width] ${item.status === 'paused' ? 'bg-slate-400' : 'bg-brand-600 dark:bg-brand-400'}`} style={{ width: `${percent}%` }} />
          </div>
        ) : null}
      </div>
      <div className="flex shrink-0 items-center">
        {item.status === 'done' ? <CheckIcon className="size-5 text-emerald-600 dark:text-emerald-400" /> : null}
        {item.status === 'failed' ? <AlertIcon className="size-5 text-red-600 dark:text-red-400" /> : null}
        {item.status === 'uploading' || item.status === 'waiting' ? (
          <button type="button" className={smallButton} aria-label={labelled(t('drive.upload.pause'))} title={t('drive.upload.pause')} onClick={() => uploads.pause(item.key)} data-testid="upload-pause">
            <PauseIcon className="size-4" />
          </button>
        ) : null}
        {item.status === 'paused' ? (
          <button type="button" className={smallButton} aria-label={labelled(t('drive.upload.resume'))} title={t('drive.upload.resume')} onClick={() => uploads.resume(item.key)} data-testid="upload-resume">
            <PlayIcon className="size-4" />
          </button>
        ) : null}
        {item.status === 'failed' ? (
          <button type="button" className={smallButton} aria-label={labelled(t('drive.upload.retry'))} title={t('drive.upload.retry')} onClick={() => uploads.retry(item.key)} data-testid="upload-retry">
            <RetryIcon className="size-4" />
          </button>
        ) : null}
        {isUnfinished(item.status) ? (
          <button type="button" className={smallButton} aria-label={labelled(t('drive.upload.cancel'))} title={t('drive.upload.cancel')} onClick={() => uploads.cancel(item.key)} data-testid="upload-cancel">
            <CloseIcon className="size-4" />
          </button>
        ) : null}
      </div>
    </div>
  )
}
