import type { ShareStatus } from '@cumulus/protocol'
import { useEffect, useId, useRef, useState } from 'react'
import { primaryLinkClass, primaryWrappingLinkClass } from '../components/marketing/link-styles'
import { Alert } from '../components/ui/alert'
import { Button } from '../components/ui/button'
import { Spinner } from '../components/ui/spinner'
import { pluralForm } from '../drive/use-plural'
import { useErrorText } from '../drive/use-error-text'
import { useLocale, useT } from '../i18n/use-locale'
import { LocaleLink, pagePath } from '../navigation/locale-link'
import { REDIRECT_PARAM } from '../middleware/auth'
import { useSession } from '../session/use-session'
import type { SharePageApi } from './share-api'
import { FOLDER_PATH_PARAM, formatFolderPath } from './folder-path'

export interface SavePanelProps {
  shareId: string
  api: SharePageApi
  passCodeToken: string | undefined
  /** The chosen items of the folder listed; [] saves the whole share. */
  chosen: readonly string[]
  /** The share's folders from its top level down to the folder listed. */
  ancestorIds: readonly string[]
  onClearSelection(): void
  /** The visitor leaves to sign in (and comes back here to save): keep what is chosen. */
  onLeaveToSignIn(chosen: readonly string[]): void
  /** The share went away meanwhile (cancelled, expired). */
  onUnavailable(status: ShareStatus, text: string): void
}

type SaveState =
  | { kind: 'idle' }
  /** `percent` is the task's progress (0..100); null until a task reports, or when the save needs none. */
  | { kind: 'saving'; percent: number | null }
  | { kind: 'done'; folderId: string }
  | { kind: 'failed'; error: unknown; text: string | null }

/**
 * "Save to my drive" (`POST /drive/v1/share/restore`): everything, or the items chosen in the
 * folder listed. A visitor without an account signs in first and comes back here (the login
 * page's `?redirect=`; the pass code's token is kept for this tab). A large save runs as a task
 * (`restore`), followed to its end with its progress shown; then "Open in my drive" leads to
 * the folder the items went into.
 */
export function SavePanel({ shareId, api, passCodeToken, chosen, ancestorIds, onClearSelection, onLeaveToSignIn, onUnavailable }: SavePanelProps) {
  const { t } = useT()
  const locale = useLocale()
  const session = useSession()
  const [state, setState] = useState<SaveState>({ kind: 'idle' })
  const errorText = useErrorText(state.kind === 'failed' && state.text === null ? state.error : null)
  const stop = useRef<AbortController | null>(null)
  const statusId = useId()

  useEffect(() => () => stop.current?.abort(), [])

  async function save() {
    stop.current?.abort()
    const controller = new AbortController()
    stop.current = controller
    setState({ kind: 'saving', percent: null })
    try {
      const reply = await api.restoreShare({
        shareId,
        ...(passCodeToken ? { passCodeToken } : {}),
        ...(chosen.length > 0 ? { fileIds: chosen, ancestorIds } : {}),
      })
      if (reply.share_status !== 'OK') {
        if (reply.share_status === 'PASS_CODE_EMPTY' || reply.share_status === 'PASS_CODE_ERROR') setState({ kind: 'failed', error: null, text: reply.share_status_text })
        else onUnavailable(reply.share_status, reply.share_status_text)
        return
      }
      if (reply.restore_status === 'RESTORE_START' && reply.restore_task_id) {
        setState({ kind: 'saving', percent: 0 })
        await api.waitForTask(reply.restore_task_id, {
          signal: controller.signal,
          onProgress: (task) => {
            if (!controller.signal.aborted) setState({ kind: 'saving', percent: Math.max(0, Math.min(100, Math.round(task.progress))) })
          },
        })
      }
      if (!controller.signal.aborted) setState({ kind: 'done', folderId: reply.file_id })
    } catch (error) {
      if (!controller.signal.aborted) setState({ kind: 'failed', error, text: null })
    }
  }

  const count = chosen.length
  const summary = count === 0 ? t('sharePage.save.nothingSelected') : t(`sharePage.save.selectedCount.${pluralForm(locale, count)}`, { count: count.toLocaleString(locale) })
  const label = count === 0 ? t('sharePage.save.all') : t(`sharePage.save.selected.${pluralForm(locale, count)}`, { count: count.toLocaleString(locale) })
  // Back to this folder of the share (the choice made in it is kept by `onLeaveToSignIn`).
  const here = `${pagePath('share', locale, { shareId })}${ancestorIds.length > 0 ? `?${FOLDER_PATH_PARAM}=${formatFolderPath(ancestorIds)}` : ''}`

  return (
    <div className="border-t border-slate-200 bg-slate-50 px-4 py-5 sm:px-5 dark:border-slate-800 dark:bg-slate-800/40" data-testid="share-save">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700 dark:text-slate-200">
          <p data-testid="share-selection">{summary}</p>
          {count > 0 ? (
            <button type="button" onClick={onClearSelection} className="font-semibold text-brand-700 hover:underline dark:text-brand-300">
              {t('sharePage.save.clear')}
            </button>
          ) : null}
        </div>
        {session.status === 'signed-in' ? (
          <Button onClick={() => void save()} loading={state.kind === 'saving'} aria-describedby={statusId}>
            {label}
          </Button>
        ) : session.status === 'signed-out' ? (
          <div className="flex flex-col gap-1 sm:max-w-xs sm:items-end sm:text-right">
            <LocaleLink page="account-login" search={`?${REDIRECT_PARAM}=${encodeURIComponent(here)}`} onClick={() => onLeaveToSignIn(chosen)} className={primaryWrappingLinkClass}>
              {t('sharePage.save.signIn')}
            </LocaleLink>
            <p className="text-xs text-slate-600 dark:text-slate-300">{t('sharePage.save.signInHint')}</p>
          </div>
        ) : (
          <Button disabled>{label}</Button>
        )}
      </div>

      <div id={statusId} aria-live="polite">
        {state.kind === 'saving' ? <SaveProgress percent={state.percent} /> : null}
        {state.kind === 'done' ? (
          <div className="mt-4" data-testid="share-saved">
            <Alert tone="success">
              <p className="font-semibold">{t('sharePage.save.done')}</p>
              <p className="mt-1">{t('sharePage.save.doneText')}</p>
            </Alert>
            <LocaleLink page={state.folderId ? 'drive-folder' : 'drive'} params={state.folderId ? { folderId: state.folderId } : {}} className={`${primaryLinkClass} mt-3`}>
              {t('sharePage.save.open')}
            </LocaleLink>
          </div>
        ) : null}
        {state.kind === 'failed' ? (
          <Alert tone="error" className="mt-4">
            <p className="font-semibold">{t('sharePage.save.failed')}</p>
            {(state.text ?? errorText) ? (
              <p className="mt-1" data-testid="share-save-error">
                {state.text ?? errorText}
              </p>
            ) : null}
          </Alert>
        ) : null}
      </div>
    </div>
  )
}

/** The save's progress: a bar once the task reports, else a spinner. */
function SaveProgress({ percent }: { percent: number | null }) {
  const { t } = useT()
  const locale = useLocale()
  return (
    <div className="mt-4" data-testid="share-save-progress">
      <p className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
        <Spinner className="size-4" />
        {t('sharePage.save.saving')}
      </p>
      {percent !== null ? (
        <div className="mt-2 flex items-center gap-3">
          <div
            role="progressbar"
            aria-label={t('sharePage.save.progress')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-2 flex-1 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
          >
            <div className="h-full rounded-full bg-brand-600 transition-[width] dark:bg-brand-400" style={{ width: `${percent}%` }} />
          </div>
          <span className="text-xs text-slate-600 tabular-nums dark:text-slate-300">{new Intl.NumberFormat(locale, { style: 'percent' }).format(percent / 100)}</span>
        </div>
      ) : null}
    </div>
  )
}
