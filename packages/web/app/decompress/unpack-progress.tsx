import { useEffect, useId, useRef, useState } from 'react'
import { primaryLinkClass } from '../components/marketing/link-styles'
import { Button } from '../components/ui/button'
import { Spinner } from '../components/ui/spinner'
import { type DriveViewState, useDriveCall } from '../drive/drive-request'
import { DriveStateNotice } from '../drive/drive-state-notice'
import { formatBytes } from '../drive/format'
import { usePlural } from '../drive/use-plural'
import { useLocale, useT } from '../i18n/use-locale'
import { LocaleLink } from '../navigation/locale-link'
import { parseRetriedTask, type UnpackProgress } from './unpack-replies'
import { useUnpackProgress } from './use-unpack-progress'

export interface UnpackProgressPanelProps {
  taskId: string
  /** How many files the task unpacks, when the start reply said (not after a reload). */
  fileCount: number | null
  /** Back to choosing files; `cancelled` after a cancel. */
  onBack(how: 'cancelled' | 'done'): void
}

const TITLES = {
  PHASE_TYPE_PENDING: 'drive.unpack.progress.pending',
  PHASE_TYPE_RUNNING: 'drive.unpack.progress.running',
  PHASE_TYPE_COMPLETE: 'drive.unpack.progress.complete',
  PHASE_TYPE_ERROR: 'drive.unpack.progress.error',
} as const

const smallButton = 'h-10 px-4'

/**
 * An unpack under way: its phase as the heading (announced when it changes), a progress bar
 * with the percent and the bytes done, and what can be done now: Cancel while it waits or runs
 * (`DELETE /drive/v1/tasks`), Retry when it failed (`POST /drive/v1/task`, RETRY), Open in drive
 * when it is complete.
 */
export function UnpackProgressPanel({ taskId, fileCount, onBack }: UnpackProgressPanelProps) {
  const { t } = useT()
  const tp = usePlural()
  const { send } = useDriveCall()
  const { progress, failure, readAgain } = useUnpackProgress(taskId)
  const headingId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const [acting, setActing] = useState<'cancel' | 'retry' | null>(null)
  const [actionFailure, setActionFailure] = useState<DriveViewState<unknown> | null>(null)

  // The panel replaces the button that started it: the focus goes to its heading.
  useEffect(() => heading.current?.focus(), [])

  async function cancel() {
    setActing('cancel')
    setActionFailure(null)
    const state = await send({ method: 'DELETE', path: '/drive/v1/tasks', query: { task_ids: taskId } }, () => null)
    setActing(null)
    if (state.status === 'ready') onBack('cancelled')
    else setActionFailure(state)
  }

  async function retry() {
    setActing('retry')
    setActionFailure(null)
    const state = await send({ method: 'POST', path: '/drive/v1/task', body: { type: 'decompress', create_type: 'RETRY', id: taskId } }, parseRetriedTask)
    setActing(null)
    if (state.status === 'ready') readAgain()
    else setActionFailure(state)
  }

  const phase = progress?.phase
  const active = phase === 'PHASE_TYPE_PENDING' || phase === 'PHASE_TYPE_RUNNING'
  return (
    <section aria-labelledby={headingId} className="px-5 py-8 sm:px-8" data-testid="unpack-progress" data-phase={phase ?? ''}>
      <div role="status">
        <h2 id={headingId} ref={heading} tabIndex={-1} className="text-xl font-semibold text-slate-900 outline-none dark:text-white">
          {phase ? t(TITLES[phase]) : t('drive.unpack.progress.running')}
        </h2>
        {phase === 'PHASE_TYPE_COMPLETE' ? <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t('drive.unpack.progress.completeText')}</p> : null}
        {phase === 'PHASE_TYPE_ERROR' && progress?.errorDescription ? (
          // The server's own words, in English.
          <p lang="en" className="mt-2 break-words text-sm text-red-700 dark:text-red-300" data-testid="unpack-error">
            {progress.errorDescription}
          </p>
        ) : null}
      </div>
      {fileCount !== null ? <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{tp('drive.unpack.progress.fileCount', fileCount)}</p> : null}

      {progress ? (
        <ProgressBar progress={progress} />
      ) : failure ? null : (
        <p className="mt-6 flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
          <Spinner className="size-4" />
          {t('drive.unpack.progress.loading')}
        </p>
      )}

      {failure ? (
        <div className="-mx-4 mt-2 sm:-mx-6">
          <DriveStateNotice state={failure} loadingText="" unavailableText={t('drive.unpack.unavailable')} notFoundText={t('drive.unpack.progress.notFound')} onRetry={readAgain} />
        </div>
      ) : null}
      {actionFailure ? (
        <div className="-mx-4 mt-2 sm:-mx-6">
          <DriveStateNotice state={actionFailure} loadingText="" unavailableText={t('drive.unpack.unavailable')} notFoundText={t('drive.unpack.progress.notFound')} />
        </div>
      ) : null}

      <div className="mt-6 flex flex-col gap-2 sm:flex-row">
        {phase === 'PHASE_TYPE_COMPLETE' ? (
          <LocaleLink
            page={progress!.folderId === '' ? 'drive' : 'drive-folder'}
            params={progress!.folderId === '' ? {} : { folderId: progress!.folderId }}
            className={primaryLinkClass}
            data-testid="unpack-open"
          >
            {t('drive.unpack.progress.open')}
          </LocaleLink>
        ) : null}
        {phase === 'PHASE_TYPE_ERROR' ? (
          <Button className={smallButton} loading={acting === 'retry'} onClick={() => void retry()}>
            {t('drive.unpack.progress.retry')}
          </Button>
        ) : null}
        {active ? (
          <Button variant="secondary" className={smallButton} loading={acting === 'cancel'} onClick={() => void cancel()}>
            {t('drive.unpack.progress.cancel')}
          </Button>
        ) : null}
        {!active && (phase !== undefined || failure !== null) ? (
          <Button variant="secondary" className={smallButton} disabled={acting !== null} onClick={() => onBack('done')}>
            {t('drive.unpack.progress.back')}
          </Button>
        ) : null}
      </div>
    </section>
  )
}

/** The bar, with the percent and "x MiB of y MiB" under it (the bytes only when the server said them). */
function ProgressBar({ progress }: { progress: UnpackProgress }) {
  const { t } = useT()
  const locale = useLocale()
  const percent = new Intl.NumberFormat(locale, { style: 'percent' }).format(progress.percent / 100)
  const bytes =
    progress.totalBytes !== null && progress.totalBytes > 0
      ? t('drive.unpack.progress.bytes', { done: formatBytes(progress.doneBytes ?? 0, locale), total: formatBytes(progress.totalBytes, locale) })
      : ''
  const failed = progress.phase === 'PHASE_TYPE_ERROR'
  return (
    <div className="mt-6">
      <div
        role="progressbar"
        aria-label={t('drive.unpack.progress.label')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress.percent}
        aria-valuetext={bytes ? `${percent}, ${bytes}` : percent}
        className="h-2.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
      >
        <div
          className={`h-full rounded-full transition-[width] duration-500 motion-reduce:transition-none ${failed ? 'bg-red-500 dark:bg-red-400' : 'bg-brand-600 dark:bg-brand-400'}`}
          style={{ width: `${progress.percent}%` }}
        />
      </div>
      <p className="mt-2 flex flex-wrap justify-between gap-x-4 text-sm tabular-nums text-slate-700 dark:text-slate-200" aria-hidden="true">
        <span data-testid="unpack-percent">{percent}</span>
        {bytes ? <span data-testid="unpack-bytes">{bytes}</span> : null}
      </p>
    </div>
  )
}
