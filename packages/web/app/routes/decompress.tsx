import { type FormEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react'
import { Link, useParams, useSearchParams } from 'react-router'
import { ArchiveIllustration } from '../components/marketing/illustrations'
import { secondaryLinkClass } from '../components/marketing/link-styles'
import { PageTitle } from '../components/page-title'
import { Button } from '../components/ui/button'
import { PasswordField } from '../components/ui/password-field'
import { type ArchiveLevel, parseArchiveLevel } from '../drive/drive-replies'
import { formatBytes } from '../drive/format'
import { type DriveCall, useDriveRequest } from '../drive/drive-request'
import { DriveStateNotice } from '../drive/drive-state-notice'
import { revealPath } from '../drive/reveal'
import { useLocale, useT } from '../i18n/use-locale'
import { LocaleLink } from '../navigation/locale-link'
import { type ArchiveSelection, checkState, type CheckState, levelState, toggled, toggledLevel } from '../decompress/archive-selection'
import { type PasswordRefusal, type UnpackDestination, UnpackForm } from '../decompress/unpack-form'
import { UnpackProgressPanel } from '../decompress/unpack-progress'

/**
 * The query parameter naming the unpack task the page follows (the server's `redirect_link`
 * uses it too), so a reload comes back to its progress.
 */
const TASK_PARAM = 'task_id'

/** Keyed by the archive: moving to another archive's page starts afresh (its levels, selection, password). */
export default function DecompressRoute() {
  const id = useParams().id ?? ''
  return <DecompressPage key={id} id={id} />
}

function DecompressPage({ id }: { id: string }) {
  const { t } = useT()
  const [searchParams, setSearchParams] = useSearchParams()
  const taskId = searchParams.get(TASK_PARAM) ?? ''
  const [attempt, setAttempt] = useState(0)
  // Where in the archive, and the password the user gave (sent with every call once given).
  const [path, setPath] = useState('')
  const [password, setPassword] = useState('')
  const [draft, setDraft] = useState('')
  // The unpack: what is chosen (kept across levels), where it goes, and the start reply's file count.
  const [selection, setSelection] = useState<ArchiveSelection>(() => new Set())
  const levels = useRef(new Map<string, readonly string[]>())
  const [destination, setDestination] = useState<UnpackDestination>({ kind: 'beside' })
  const [fileCount, setFileCount] = useState<number | null>(null)
  const [note, setNote] = useState<string | null>(null)
  // The unpack call refused the password (contents encrypted under names that list without it).
  const [passwordRefused, setPasswordRefused] = useState<PasswordRefusal | null>(null)
  // drive.md: POST /decompress/v1/list {file_id, path, password} lists one folder of the archive; '' is its root.
  const call = useMemo<DriveCall>(() => ({ method: 'POST', path: '/decompress/v1/list', body: { file_id: id, path, ...(password ? { password } : {}) } }), [id, path, password])
  const state = useDriveRequest(call, parseArchiveLevel, attempt)
  // The folder the archive is in, for the way back (GET /drive/v1/files/{id}); until it is known,
  // or for a visitor who cannot read it, the way back is the home page.
  const fileCall = useMemo<DriveCall>(() => ({ method: 'GET', path: `/drive/v1/files/${encodeURIComponent(id)}` }), [id])
  // Asked once the archive has listed: a visitor who may not read it is not sent a call that fails.
  const archiveFile = useDriveRequest(state.status === 'ready' ? fileCall : null, parseParentOf)
  const locale = useLocale()
  const submitPassword = (event: FormEvent) => {
    event.preventDefault()
    setPassword(draft)
    setPasswordRefused(null)
    setAttempt((n) => n + 1)
  }

  // Each level listed is remembered: choosing or leaving out inside a chosen folder needs its entries.
  useEffect(() => {
    if (state.status === 'ready' && state.data.status === 'OK') {
      levels.current.set(
        state.data.currentPath,
        state.data.entries.map((entry) => entry.path),
      )
    }
  }, [state])

  const followTask = (next: string) =>
    setSearchParams(
      (params) => {
        if (next === '') params.delete(TASK_PARAM)
        else params.set(TASK_PARAM, next)
        return params
      },
      { replace: true, preventScrollReset: true },
    )

  const selecting: Selecting = {
    selection,
    toggle: (entryPath) => setSelection((current) => toggled(current, entryPath, levels.current)),
    toggleLevel: (entries) => setSelection((current) => toggledLevel(current, entries, levels.current)),
  }

  return (
    <>
      <PageTitle title={t('pages.decompress.title')} description={t('pages.decompress.description')} />
      <section aria-labelledby="decompress-title" className="mx-auto max-w-5xl px-4 py-14 sm:px-6 sm:py-20">
        <div className="flex flex-col items-center gap-6 text-center sm:flex-row sm:text-left">
          <ArchiveIllustration label={t('pages.decompress.illustration')} className="w-32 shrink-0" />
          <div className="min-w-0 max-w-full">
            <h1 id="decompress-title" className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
              {t('pages.decompress.heading')}
            </h1>
            {/* The archive's name once the server has said it; a placeholder line while it is asked.
                Its id means nothing to a person, and a visitor who may not read it learns nothing. */}
            {state.status === 'ready' && state.data.title ? (
              <p className="mt-2 truncate text-base font-medium text-slate-700 dark:text-slate-200" data-testid="archive-title">
                {state.data.title}
              </p>
            ) : state.status === 'loading' || state.status === 'idle' ? (
              <span aria-hidden="true" className="mt-3 block h-4 w-56 max-w-full animate-pulse rounded bg-slate-200 motion-reduce:animate-none dark:bg-slate-700" />
            ) : null}
          </div>
        </div>

        <div className="mt-10 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <div className="flex items-center gap-2 border-b border-slate-200 bg-slate-50 px-5 py-3 dark:border-slate-800 dark:bg-slate-800/60" aria-hidden="true">
            <span className="size-2.5 rounded-full bg-slate-300 dark:bg-slate-600" />
            <span className="size-2.5 rounded-full bg-slate-300 dark:bg-slate-600" />
            <span className="size-2.5 rounded-full bg-slate-300 dark:bg-slate-600" />
          </div>
          {taskId !== '' ? (
            <div className="min-h-64">
              <UnpackProgressPanel
                key={taskId}
                taskId={taskId}
                fileCount={fileCount}
                onBack={(how) => {
                  setNote(how === 'cancelled' ? t('drive.unpack.progress.cancelled') : null)
                  setFileCount(null)
                  followTask('')
                }}
              />
            </div>
          ) : (
            <div aria-live="polite" className="min-h-64">
              {state.status === 'ready' ? (
                <ArchiveView
                  level={state.data}
                  onOpen={setPath}
                  password={{
                    draft,
                    setDraft,
                    submit: submitPassword,
                    asked: passwordRefused !== null,
                    wrong: state.data.status === 'PASS_WORD_ERROR' || passwordRefused === 'PASS_WORD_ERROR',
                  }}
                  selecting={selecting}
                  unpack={
                    <UnpackForm
                      fileId={id}
                      password={password}
                      selection={selection}
                      onClearSelection={() => setSelection(new Set())}
                      destination={destination}
                      onDestinationChange={setDestination}
                      onStarted={(task, count) => {
                        setNote(null)
                        setFileCount(count)
                        followTask(task)
                      }}
                      onPasswordRefused={(status) => {
                        setDraft('')
                        setPasswordRefused(status)
                      }}
                      note={note}
                    />
                  }
                />
              ) : (
                <DriveStateNotice
                  state={state}
                  loadingText={t('pages.decompress.loading')}
                  unavailableText={t('pages.decompress.unavailable')}
                  notFoundText={t('pages.decompress.notFound')}
                  onRetry={() => setAttempt((n) => n + 1)}
                />
              )}
            </div>
          )}
        </div>

        <div className="mt-8 text-center">
          {archiveFile.status === 'ready' && archiveFile.data !== null ? (
            <Link to={revealPath(locale, archiveFile.data, id)} className={secondaryLinkClass}>
              {t('pages.decompress.backToFolder')}
            </Link>
          ) : (
            <LocaleLink page="index" className={secondaryLinkClass}>
              {t('pages.decompress.backHome')}
            </LocaleLink>
          )}
        </div>
      </section>
    </>
  )
}

interface PasswordForm {
  draft: string
  setDraft: (value: string) => void
  submit: (event: FormEvent) => void
  /** Asked for by the unpack call, though the listing needed none. */
  asked: boolean
  wrong: boolean
}

/** The rows' checkboxes: the chosen paths, and a click on a row's box or on the level's. */
interface Selecting {
  selection: ArchiveSelection
  toggle(path: string): void
  toggleLevel(entries: readonly string[]): void
}

/**
 * One level of the archive: its entries to choose and its folders to open, with the unpack form
 * under them; a password form; or why it cannot be read.
 */
function ArchiveView({ level, onOpen, password, selecting, unpack }: { level: ArchiveLevel; onOpen: (path: string) => void; password: PasswordForm; selecting: Selecting; unpack: ReactNode }) {
  const { t } = useT()
  const locale = useLocale()
  if (level.status === 'PASS_WORD_EMPTY' || level.status === 'PASS_WORD_ERROR' || password.asked) {
    return (
      <form onSubmit={password.submit} className="mx-auto flex max-w-sm flex-col gap-4 px-5 py-12">
        <p className="text-slate-700 dark:text-slate-200">{password.asked ? t('drive.unpack.refused.PASS_WORD_EMPTY') : t('pages.decompress.passwordPrompt')}</p>
        <PasswordField
          label={t('pages.decompress.passwordLabel')}
          value={password.draft}
          onChange={(event) => password.setDraft(event.target.value)}
          error={password.wrong ? t('pages.decompress.passwordWrong') : null}
          autoComplete="off"
          autoFocus
        />
        <Button type="submit" disabled={password.draft === ''}>
          {t('pages.decompress.passwordSubmit')}
        </Button>
      </form>
    )
  }
  if (level.status !== 'OK') return <p className="px-4 py-12 text-center text-slate-600 dark:text-slate-300">{t('pages.decompress.notSupported')}</p>
  const segments = level.currentPath === '' ? [] : level.currentPath.split('/')
  const paths = level.entries.map((entry) => entry.path)
  const emptyArchive = level.currentPath === '' && level.entries.length === 0
  return (
    <>
      <nav aria-label={t('pages.decompress.breadcrumb')} className="border-b border-slate-200 px-5 py-3 text-sm dark:border-slate-800">
        <ol className="flex flex-wrap items-center gap-1">
          {[level.title, ...segments].map((name, depth) => {
            const isCurrent = depth === segments.length
            return (
              <li key={depth} className="flex min-w-0 items-center gap-1">
                {depth > 0 && <span aria-hidden="true" className="text-slate-400">/</span>}
                {isCurrent ? (
                  <span aria-current="page" className="break-all font-semibold text-slate-900 dark:text-white">
                    {name}
                  </span>
                ) : (
                  <button type="button" className="break-all text-left text-brand-700 hover:underline dark:text-brand-300" onClick={() => onOpen(segments.slice(0, depth).join('/'))}>
                    {name}
                  </button>
                )}
              </li>
            )
          })}
        </ol>
      </nav>
      {level.entries.length === 0 ? (
        <p className="px-4 py-12 text-center text-slate-600 dark:text-slate-300">{t('pages.decompress.empty')}</p>
      ) : (
        <table className="w-full table-fixed text-left text-sm">
          <caption className="sr-only">{t('pages.decompress.tableCaption')}</caption>
          <thead className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-300">
            <tr>
              <th scope="col" className="w-11 py-3 pl-5 pr-1">
                <Checkbox state={levelState(selecting.selection, paths)} label={t('drive.unpack.selectLevel')} onChange={() => selecting.toggleLevel(paths)} />
              </th>
              <th scope="col" className="px-3 py-3 font-semibold">
                {t('pages.decompress.columns.name')}
              </th>
              <th scope="col" className="w-24 py-3 pl-2 pr-5 text-right font-semibold sm:w-32">
                {t('pages.decompress.columns.size')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {level.entries.map((entry, index) => {
              const state = checkState(selecting.selection, entry.path)
              return (
                <tr key={`${index}:${entry.path}`} className={state === 'all' ? 'bg-brand-50/60 dark:bg-brand-900/40' : undefined}>
                  <td className="py-3 pl-5 pr-1 align-top">
                    <Checkbox state={state} label={t('drive.unpack.selectEntry', { name: entry.name })} onChange={() => selecting.toggle(entry.path)} />
                  </td>
                  <td className="break-all px-3 py-3 text-slate-800 dark:text-slate-100">
                    {entry.isFolder ? (
                      <button type="button" className="text-left font-medium text-brand-700 hover:underline dark:text-brand-300" onClick={() => onOpen(entry.path)}>
                        {entry.name}
                      </button>
                    ) : (
                      entry.name
                    )}
                  </td>
                  <td className="whitespace-nowrap py-3 pl-2 pr-5 text-right text-slate-600 dark:text-slate-300">
                    {entry.sizeBytes === null ? (entry.isFolder ? t('pages.decompress.folder') : '') : formatBytes(entry.sizeBytes, locale)}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
      {emptyArchive ? null : unpack}
    </>
  )
}

/** A checkbox that can also show "some" (a folder with part of its contents chosen). */
function Checkbox({ state, label, onChange }: { state: CheckState; label: string; onChange: () => void }) {
  const box = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (box.current) box.current.indeterminate = state === 'some'
  }, [state])
  // The box is drawn at 16 px; the label around it is the 40 px target a finger needs (WCAG 2.5.8).
  return (
    <label className="-m-2 inline-flex size-10 cursor-pointer items-center justify-center align-middle">
      <input
        ref={box}
        type="checkbox"
        className="size-4 cursor-pointer accent-brand-600"
        checked={state === 'all'}
        aria-checked={state === 'some' ? 'mixed' : undefined}
        aria-label={label}
        onChange={onChange}
      />
    </label>
  )
}

/** The parent folder id of a drive file reply ('' for My drive), or null when the reply has none. */
function parseParentOf(body: unknown): string | null {
  const parent = body !== null && typeof body === 'object' ? (body as { parent_id?: unknown }).parent_id : undefined
  return typeof parent === 'string' ? parent : null
}
