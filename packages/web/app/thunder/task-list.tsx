import { type DriveTask, FOLDER_KIND, type Phase } from '@cumulus/protocol'
import type { OfflineQuotas } from '@cumulus/sdk'
import { useEffect, useId, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { Alert } from '../components/ui/alert'
import { Button } from '../components/ui/button'
import { Spinner } from '../components/ui/spinner'
import { ConfirmDialog } from '../drive/confirm-dialog'
import type { DriveApi } from '../drive/drive-api'
import { FileName } from '../drive/file-name'
import { formatBytes, formatSpeed } from '../drive/format'
import { FileKindIcon, kindFromName } from '../drive/icons'
import { useDescribeError, useErrorText } from '../drive/use-error-text'
import { useLocale, useT } from '../i18n/use-locale'
import { LocaleLink, pagePath } from '../navigation/locale-link'
import { useReasonText } from './reason-text'
import { isActive, type OfflineTasks } from './use-offline-tasks'

/** Progress is announced when it crosses one of these steps, not at every poll. */
const ANNOUNCE_STEP_PERCENT = 25

// Each badge sets its own background and text in both themes, from Tailwind's palette: the brand
// scale stops at 900, so a `dark:bg-brand-950` was no class at all and left "Downloading" in
// brand-200 on the light brand-50 pill (1.4:1). Text on pill, light / dark: slate 9.4 / 11.9,
// sky 6.5 / 10.5, red 5.9 / 11.1, emerald 7.2 / 11.8 (WCAG AA asks 4.5).
const PHASE_BADGES: Record<Phase, string> = {
  PHASE_TYPE_PENDING: 'bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600',
  PHASE_TYPE_RUNNING: 'bg-sky-100 text-sky-800 ring-sky-300 dark:bg-sky-950 dark:text-sky-200 dark:ring-sky-800',
  PHASE_TYPE_ERROR: 'bg-red-50 text-red-700 ring-red-200 dark:bg-red-950 dark:text-red-200 dark:ring-red-900',
  PHASE_TYPE_COMPLETE: 'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-900',
}

const smallButton = 'h-9 px-3'

export interface TaskListProps {
  api: DriveApi
  list: OfflineTasks
  quotas: OfflineQuotas | null
  /** A short message after an action (the page's toasts). */
  notify(text: string, tone: 'success' | 'error'): void
  /** Something changed the counts (a removal): read `about` again. */
  onCountsChanged(): void
}

type Removal = 'cancel' | 'remove'
type Pending = { type: Removal; task: DriveTask } | null

/** What removing a task means now: stopping a download that waits or runs, else taking it off the list. */
const removalOf = (task: DriveTask): Removal => (isActive(task) ? 'cancel' : 'remove')

/**
 * The account's offline downloads: each with its phase, size, speed and progress while it runs,
 * why it failed, and Retry, Cancel, Remove and Open in drive. Progress milestones and phase
 * changes are announced politely in one live region.
 */
export function TaskList({ api, list, quotas, notify, onCountsChanged }: TaskListProps) {
  const { t } = useT()
  const headingId = useId()
  const describe = useDescribeError()
  const loadError = useErrorText(list.loading ? null : list.error)
  const announcement = useAnnouncements(list.tasks)
  const section = useRef<HTMLElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const [pending, setPending] = useState<Pending>(null)
  const [alsoFiles, setAlsoFiles] = useState(false)

  // The dialog asks about the task as it was when it opened, and polling goes on behind it. A
  // download that finishes under "Cancel download" must not be deleted, files and all, by a
  // question about a download that no longer runs: once the task is gone or its removal means
  // something else, the question is withdrawn (the live region says what became of the task).
  const pendingTask = pending ? list.tasks.find((task) => task.id === pending.task.id) : undefined
  const outdated = pending !== null && (pendingTask === undefined || removalOf(pendingTask) !== pending.type)
  useEffect(() => {
    if (outdated) setPending(null)
  }, [outdated])

  async function retry(task: DriveTask) {
    try {
      list.put(await api.retryTask(task.id))
      notify(t('drive.offline.tasks.retried', { name: task.name }), 'success')
    } catch (err) {
      notify(await describe(err), 'error')
    }
  }

  async function confirmRemoval() {
    if (!pending || outdated) return
    const { task, type } = pending
    await api.deleteTasks([task.id], { deleteFiles: alsoFiles })
    list.drop([task.id])
    notify(t(type === 'cancel' ? 'drive.offline.tasks.cancelled' : 'drive.offline.tasks.removed', { name: task.name }), 'success')
    onCountsChanged()
  }

  /**
   * Back to the task's Cancel or Remove button, or to the heading when the task left the list.
   * Without this the focus falls to <body> when the row (and so the dialog's opener) is gone.
   */
  function focusAfterDialog(event: Event, taskId: string) {
    const rows = section.current?.querySelectorAll<HTMLElement>('[data-testid="task-row"]') ?? []
    const row = Array.from(rows).find((candidate) => candidate.dataset.id === taskId)
    const target = row?.querySelector<HTMLElement>('[data-task-removal]') ?? heading.current
    if (!target) return
    event.preventDefault()
    target.focus({ preventScroll: true })
  }

  let body
  if (list.loading) {
    body = (
      <div role="status" className="flex items-center gap-2 py-8 text-sm text-slate-500 dark:text-slate-400">
        <Spinner className="size-4" />
        {t('drive.offline.tasks.loading')}
      </div>
    )
  } else if (list.error && list.tasks.length === 0) {
    body = (
      <div className="py-4">
        <Alert tone="error">
          <p className="font-semibold">{t('drive.offline.tasks.loadFailed')}</p>
          {loadError ? <p className="mt-1">{loadError}</p> : null}
        </Alert>
        <Button variant="secondary" className="mt-3" onClick={() => void list.refresh()}>
          {t('drive.offline.tasks.reload')}
        </Button>
      </div>
    )
  } else if (list.tasks.length === 0) {
    body = (
      <div className="rounded-2xl border border-dashed border-slate-300 px-5 py-10 text-center dark:border-slate-700" data-testid="tasks-empty">
        <p className="font-semibold text-slate-900 dark:text-white">{t('drive.offline.tasks.empty')}</p>
        <p className="mx-auto mt-2 max-w-md text-sm text-slate-600 dark:text-slate-300">{t('drive.offline.tasks.emptyText')}</p>
      </div>
    )
  } else {
    body = (
      <>
        <ul aria-label={t('drive.offline.tasks.listLabel')} className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
          {list.tasks.map((task) => (
            <TaskRow
              key={task.id}
              api={api}
              task={task}
              onRetry={() => void retry(task)}
              onRemove={(type) => {
                setAlsoFiles(false)
                setPending({ type, task })
              }}
            />
          ))}
        </ul>
        {list.hasMore ? (
          <Button variant="secondary" className="mt-4" onClick={list.loadMore}>
            {t('drive.offline.tasks.more')}
          </Button>
        ) : null}
      </>
    )
  }

  return (
    <section ref={section} aria-labelledby={headingId} data-testid="offline-tasks">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 ref={heading} id={headingId} tabIndex={-1} className="text-xl font-semibold text-slate-900 outline-none dark:text-white">
          {t('drive.offline.tasks.heading')}
        </h2>
        <QuotaCounts quotas={quotas} />
      </div>
      <div className="mt-4">{body}</div>
      <p role="status" aria-live="polite" className="sr-only" data-testid="tasks-announcer">
        {announcement}
      </p>
      {pending && !outdated ? (
        <ConfirmDialog
          open
          onOpenChange={(open) => {
            if (!open) setPending(null)
          }}
          onCloseAutoFocus={(event) => focusAfterDialog(event, pending.task.id)}
          title={t(pending.type === 'cancel' ? 'drive.offline.tasks.cancelTitle' : 'drive.offline.tasks.removeTitle', { name: pending.task.name })}
          text={t(pending.type === 'cancel' ? 'drive.offline.tasks.cancelText' : 'drive.offline.tasks.removeText')}
          confirmLabel={t(pending.type === 'cancel' ? 'drive.offline.tasks.confirmCancel' : 'drive.offline.tasks.confirmRemove')}
          dismissLabel={t('drive.offline.tasks.keep')}
          onConfirm={confirmRemoval}
        >
          <label className="flex items-center gap-3 text-sm text-slate-800 dark:text-slate-100">
            <input type="checkbox" className="size-4 accent-brand-600" checked={alsoFiles} onChange={(event) => setAlsoFiles(event.target.checked)} />
            {t('drive.offline.tasks.alsoFiles')}
          </label>
        </ConfirmDialog>
      ) : null}
    </section>
  )
}

/** Today's downloads against the plan's daily limit, and the running ones against the cap. */
function QuotaCounts({ quotas }: { quotas: OfflineQuotas | null }) {
  const { t } = useT()
  const locale = useLocale()
  if (!quotas || (!quotas.daily && !quotas.running)) return null
  const n = (value: number) => value.toLocaleString(locale)
  return (
    <p className="flex flex-wrap gap-x-4 text-sm text-slate-600 dark:text-slate-300" data-testid="offline-counts">
      {quotas.daily ? (
        <span>{quotas.daily.limit === null ? t('drive.offline.tasks.todayUnlimited', { usage: n(quotas.daily.usage) }) : t('drive.offline.tasks.today', { usage: n(quotas.daily.usage), limit: n(quotas.daily.limit) })}</span>
      ) : null}
      {quotas.running && quotas.running.limit !== null ? <span>{t('drive.offline.tasks.running', { usage: n(quotas.running.usage), limit: n(quotas.running.limit) })}</span> : null}
    </p>
  )
}

function numberOf(text: string | undefined): number {
  const value = Number(text)
  return Number.isFinite(value) && value > 0 ? value : 0
}

/** Where "Open in drive" goes: the folder a download made, else the folder holding its file. */
function folderOf(task: DriveTask): string | null {
  if (task.reference_resource?.kind === FOLDER_KIND) return task.reference_resource.id
  const parent = task.params['parent_id']
  return parent === undefined ? null : parent
}

function TaskRow({ api, task, onRetry, onRemove }: { api: DriveApi; task: DriveTask; onRetry(): void; onRemove(type: Removal): void }) {
  const { t } = useT()
  const locale = useLocale()
  const navigate = useNavigate()
  const reasonText = useReasonText()
  const nameId = useId()
  const total = numberOf(task.file_size)
  const progress = Math.max(0, Math.min(100, Math.round(task.progress)))
  const speed = numberOf(task.params['predict_speed'])
  const running = task.phase === 'PHASE_TYPE_RUNNING'
  const active = isActive(task)
  const folder = folderOf(task)
  const name = task.name || task.file_name
  const isFolder = task.reference_resource?.kind === FOLDER_KIND

  let size = ''
  if (total > 0) size = running ? t('drive.offline.tasks.sizeDone', { done: formatBytes((total * progress) / 100, locale), total: formatBytes(total, locale) }) : formatBytes(total, locale)

  let failure: string | null = null
  if (task.phase === 'PHASE_TYPE_ERROR') {
    const known = reasonText(task.message)
    failure = known ?? (task.message ? t('drive.offline.tasks.failedReason', { reason: task.message }) : t('drive.offline.tasks.failed'))
  }

  const describedBy = { 'aria-describedby': nameId }
  return (
    <li className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center" data-testid="task-row" data-id={task.id} data-phase={task.phase}>
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <FileKindIcon kind={isFolder ? 'folder' : kindFromName(name)} className="mt-0.5 size-6 shrink-0" />
        <div className="min-w-0 flex-1">
          <p id={nameId} className="text-sm font-medium text-slate-900 dark:text-white">
            <FileName name={name} />
          </p>
          <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
            <span className={`inline-flex items-center rounded-full px-2 py-0.5 font-medium ring-1 ring-inset ${PHASE_BADGES[task.phase]}`} data-testid="task-phase">
              {t(`drive.offline.tasks.phase.${task.phase}`)}
            </span>
            {size ? <span data-testid="task-size">{size}</span> : null}
            {running && speed > 0 ? <span data-testid="task-speed">{formatSpeed(speed, locale)}</span> : null}
            {active ? <span aria-hidden="true">{progress}%</span> : null}
          </div>
          {active ? (
            <div
              role="progressbar"
              aria-label={t('drive.offline.tasks.progress', { name })}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress}
              className="mt-2 h-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
            >
              <div className="h-full rounded-full bg-brand-600 transition-[width] duration-500 motion-reduce:transition-none dark:bg-brand-400" style={{ width: `${progress}%` }} />
            </div>
          ) : null}
          {failure ? (
            <p className="mt-1.5 text-sm text-red-700 dark:text-red-300" data-testid="task-error">
              {failure}
            </p>
          ) : null}
        </div>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2 pl-9 sm:pl-0">
        {task.phase === 'PHASE_TYPE_COMPLETE' ? (
          folder !== null ? (
            <LocaleLink
              page={folder === '' ? 'drive' : 'drive-folder'}
              params={folder === '' ? {} : { folderId: folder }}
              {...describedBy}
              className="inline-flex h-9 items-center rounded-xl bg-brand-600 px-3 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
            >
              {t('drive.offline.tasks.open')}
            </LocaleLink>
          ) : task.file_id ? (
            <Button
              className={smallButton}
              {...describedBy}
              onClick={() =>
                void api.get(task.file_id).then(
                  (file) => navigate(file.parent_id === '' ? pagePath('drive', locale) : pagePath('drive-folder', locale, { folderId: file.parent_id })),
                  () => navigate(pagePath('drive', locale)),
                )
              }
            >
              {t('drive.offline.tasks.open')}
            </Button>
          ) : null
        ) : null}
        {task.phase === 'PHASE_TYPE_ERROR' ? (
          <Button variant="secondary" className={smallButton} {...describedBy} onClick={onRetry}>
            {t('drive.offline.tasks.retry')}
          </Button>
        ) : null}
        {active ? (
          <Button variant="secondary" className={smallButton} {...describedBy} data-task-removal onClick={() => onRemove('cancel')}>
            {t('drive.offline.tasks.cancel')}
          </Button>
        ) : (
          <Button variant="ghost" className={smallButton} {...describedBy} data-task-removal onClick={() => onRemove('remove')}>
            {t('drive.offline.tasks.remove')}
          </Button>
        )}
      </div>
    </li>
  )
}

/**
 * The live region's text: a task that starts, finishes or fails, and progress when it crosses a
 * quarter. Only changes seen while the page is open are announced, not the first load.
 */
function useAnnouncements(tasks: readonly DriveTask[]): string {
  const { t } = useT()
  const seen = useRef<Map<string, { phase: Phase; step: number }> | null>(null)
  const [text, setText] = useState('')
  useEffect(() => {
    const previous = seen.current
    const next = new Map(tasks.map((task) => [task.id, { phase: task.phase, step: Math.floor(task.progress / ANNOUNCE_STEP_PERCENT) }]))
    seen.current = next
    if (previous === null) return
    const lines: string[] = []
    for (const task of tasks) {
      const before = previous.get(task.id)
      const now = next.get(task.id)!
      if (!before) continue
      const name = task.name || task.file_name
      if (before.phase !== now.phase) {
        if (now.phase === 'PHASE_TYPE_RUNNING') lines.push(t('drive.offline.tasks.announce.running', { name }))
        else if (now.phase === 'PHASE_TYPE_COMPLETE') lines.push(t('drive.offline.tasks.announce.done', { name }))
        else if (now.phase === 'PHASE_TYPE_ERROR') lines.push(t('drive.offline.tasks.announce.failed', { name }))
      } else if (now.phase === 'PHASE_TYPE_RUNNING' && now.step > before.step && now.step * ANNOUNCE_STEP_PERCENT < 100) {
        lines.push(t('drive.offline.tasks.announce.progress', { name, progress: now.step * ANNOUNCE_STEP_PERCENT }))
      }
    }
    if (lines.length > 0) setText(lines.join('. '))
  }, [tasks, t])
  return text
}
