import { type FormEvent, useMemo, useState } from 'react'
import { useParams } from 'react-router'
import { ArchiveIllustration } from '../components/marketing/illustrations'
import { secondaryLinkClass } from '../components/marketing/link-styles'
import { PageTitle } from '../components/page-title'
import { Button } from '../components/ui/button'
import { PasswordField } from '../components/ui/password-field'
import { type ArchiveLevel, parseArchiveLevel } from '../drive/drive-replies'
import { formatBytes } from '../drive/format'
import { type DriveCall, useDriveRequest } from '../drive/drive-request'
import { DriveStateNotice } from '../drive/drive-state-notice'
import { useLocale, useT } from '../i18n/use-locale'
import { LocaleLink } from '../navigation/locale-link'

export default function DecompressPage() {
  const { t } = useT()
  const id = useParams().id ?? ''
  const [attempt, setAttempt] = useState(0)
  // Where in the archive, and the password the user gave (sent with every call once given).
  const [path, setPath] = useState('')
  const [password, setPassword] = useState('')
  const [draft, setDraft] = useState('')
  // drive.md: POST /decompress/v1/list {file_id, path, password} lists one folder of the archive; '' is its root.
  const call = useMemo<DriveCall>(() => ({ method: 'POST', path: '/decompress/v1/list', body: { file_id: id, path, ...(password ? { password } : {}) } }), [id, path, password])
  const state = useDriveRequest(call, parseArchiveLevel, attempt)
  const submitPassword = (event: FormEvent) => {
    event.preventDefault()
    setPassword(draft)
    setAttempt((n) => n + 1)
  }

  return (
    <>
      <PageTitle title={t('pages.decompress.title')} description={t('pages.decompress.description')} />
      <section aria-labelledby="decompress-title" className="mx-auto max-w-5xl px-4 py-14 sm:px-6 sm:py-20">
        <div className="flex flex-col items-center gap-6 text-center sm:flex-row sm:text-left">
          <ArchiveIllustration label={t('pages.decompress.illustration')} className="w-32 shrink-0" />
          <div className="min-w-0">
            <h1 id="decompress-title" className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
              {t('pages.decompress.heading')}
            </h1>
            {/* The archive's name once the server has said it; its id until then. */}
            {state.status === 'ready' && state.data.title ? (
              <p className="mt-2 truncate text-base font-medium text-slate-700 dark:text-slate-200">{state.data.title}</p>
            ) : (
              <p className="mt-2 truncate font-mono text-sm text-slate-600 dark:text-slate-300">{t('pages.decompress.archive', { id })}</p>
            )}
          </div>
        </div>

        <div className="mt-10 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <div className="flex items-center gap-2 border-b border-slate-200 bg-slate-50 px-5 py-3 dark:border-slate-800 dark:bg-slate-800/60" aria-hidden="true">
            <span className="size-2.5 rounded-full bg-slate-300 dark:bg-slate-600" />
            <span className="size-2.5 rounded-full bg-slate-300 dark:bg-slate-600" />
            <span className="size-2.5 rounded-full bg-slate-300 dark:bg-slate-600" />
          </div>
          <div aria-live="polite" className="min-h-64">
            {state.status === 'ready' ? (
              <ArchiveView
                level={state.data}
                onOpen={setPath}
                password={{ draft, setDraft, submit: submitPassword, wrong: state.data.status === 'PASS_WORD_ERROR' }}
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
        </div>

        <div className="mt-8 text-center">
          <LocaleLink page="index" className={secondaryLinkClass}>
            {t('pages.decompress.backHome')}
          </LocaleLink>
        </div>
      </section>
    </>
  )
}

interface PasswordForm {
  draft: string
  setDraft: (value: string) => void
  submit: (event: FormEvent) => void
  wrong: boolean
}

/** One level of the archive: its folders to open, a password form, or why it cannot be read. */
function ArchiveView({ level, onOpen, password }: { level: ArchiveLevel; onOpen: (path: string) => void; password: PasswordForm }) {
  const { t } = useT()
  const locale = useLocale()
  if (level.status === 'PASS_WORD_EMPTY' || level.status === 'PASS_WORD_ERROR') {
    return (
      <form onSubmit={password.submit} className="mx-auto flex max-w-sm flex-col gap-4 px-5 py-12">
        <p className="text-slate-700 dark:text-slate-200">{t('pages.decompress.passwordPrompt')}</p>
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
  return (
    <>
      <nav aria-label={t('pages.decompress.breadcrumb')} className="border-b border-slate-200 px-5 py-3 text-sm dark:border-slate-800">
        <ol className="flex flex-wrap items-center gap-1">
          {[level.title, ...segments].map((name, depth) => {
            const isCurrent = depth === segments.length
            return (
              <li key={depth} className="flex items-center gap-1">
                {depth > 0 && <span aria-hidden="true" className="text-slate-400">/</span>}
                {isCurrent ? (
                  <span aria-current="page" className="font-semibold text-slate-900 dark:text-white">
                    {name}
                  </span>
                ) : (
                  <button type="button" className="text-brand-700 hover:underline dark:text-brand-300" onClick={() => onOpen(segments.slice(0, depth).join('/'))}>
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
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('pages.decompress.tableCaption')}</caption>
          <thead className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-300">
            <tr>
              <th scope="col" className="px-5 py-3 font-semibold">
                {t('pages.decompress.columns.name')}
              </th>
              <th scope="col" className="px-5 py-3 text-right font-semibold">
                {t('pages.decompress.columns.size')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {level.entries.map((entry, index) => (
              <tr key={`${index}:${entry.path}`}>
                <td className="break-all px-5 py-3 text-slate-800 dark:text-slate-100">
                  {entry.isFolder ? (
                    <button type="button" className="text-left font-medium text-brand-700 hover:underline dark:text-brand-300" onClick={() => onOpen(entry.path)}>
                      {entry.name}
                    </button>
                  ) : (
                    entry.name
                  )}
                </td>
                <td className="whitespace-nowrap px-5 py-3 text-right text-slate-600 dark:text-slate-300">
                  {entry.sizeBytes === null ? (entry.isFolder ? t('pages.decompress.folder') : '') : formatBytes(entry.sizeBytes, locale)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="border-t border-slate-200 px-5 py-3 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-300">{t('pages.decompress.extractLater')}</p>
    </>
  )
}
