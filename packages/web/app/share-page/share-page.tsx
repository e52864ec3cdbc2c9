import type { SharePreview } from '@cumulus/protocol'
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react'
import { useSearchParams } from 'react-router'
import { secondaryLinkClass } from '../components/marketing/link-styles'
import { Alert } from '../components/ui/alert'
import { Button } from '../components/ui/button'
import { LoadingBlock } from '../components/ui/spinner'
import { TextField } from '../components/ui/text-field'
import { AlertIcon } from '../drive/icons'
import { formatDateTime } from '../drive/format'
import { pluralForm } from '../drive/use-plural'
import { useErrorText } from '../drive/use-error-text'
import { useLocale, useT } from '../i18n/use-locale'
import { LocaleLink } from '../navigation/locale-link'
import { LanguageOffer } from './language-offer'
import type { LoadShareApi } from './share-api'
import { ShareContents } from './share-contents'
import { FOLDER_PATH_PARAM, formatFolderPath, parseFolderPath } from './folder-path'
import { type ShareBrowser, useShare } from './use-share'

/** The query parameter a link may carry its pass code in (`/s/{id}?pwd=CODE`). */
export const PASS_CODE_PARAM = 'pwd'

export interface SharePageProps {
  shareId: string
  /** What the server could tell before the share is opened (its loader), for the first render. */
  preview: SharePreview | null
  loadApi: LoadShareApi
}

/**
 * The public share page (`/s/{share_id}`, drive.md "Shares"): who shared what and until when,
 * the pass-code form when the share has one, the items to browse, preview and download, and
 * saving them into one's own drive. Needs no account except to save.
 */
export function SharePage({ shareId, preview, loadApi }: SharePageProps) {
  const { t } = useT()
  const [searchParams, setSearchParams] = useSearchParams()
  const [linkPassCode] = useState(() => searchParams.get(PASS_CODE_PARAM))
  const folderValue = searchParams.get(FOLDER_PATH_PARAM)
  const folderIds = useMemo(() => parseFolderPath(folderValue), [folderValue])
  const goTo = (ids: readonly string[], options: { replace?: boolean } = {}) =>
    setSearchParams(
      (params) => {
        if (ids.length === 0) params.delete(FOLDER_PATH_PARAM)
        else params.set(FOLDER_PATH_PARAM, formatFolderPath(ids))
        return params
      },
      { replace: options.replace ?? false, preventScrollReset: true },
    )
  const share = useShare(shareId, loadApi, linkPassCode, () => {
    // The code has done its work (its token is kept for this tab): out of the address bar and
    // the history, so it is not copied on with the address or read over a shoulder.
    if (new URLSearchParams(window.location.search).has(PASS_CODE_PARAM)) {
      setSearchParams(
        (params) => {
          params.delete(PASS_CODE_PARAM)
          return params
        },
        { replace: true, preventScrollReset: true },
      )
    }
  }, { folderIds, goTo })
  const { view } = share

  return (
    <section aria-labelledby="share-title" className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-16">
      <LanguageOffer />
      <ShareHeader share={share} preview={preview} />
      <div className="mt-8 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900" aria-live="polite">
        {view.kind === 'loading' ? <LoadingBlock label={t('sharePage.loading')} /> : null}
        {view.kind === 'pass-code' ? <PassCodeForm key="pass-code" initial={linkPassCode ?? ''} error={view.error} checking={share.checkingPassCode} onSubmit={share.submitPassCode} /> : null}
        {view.kind === 'unavailable' ? <ShareUnavailable text={view.text} status={view.status} /> : null}
        {view.kind === 'failed' ? <ShareFailed error={view.error} onRetry={share.retry} /> : null}
        {view.kind === 'open' && share.api ? <ShareContents shareId={shareId} share={share} api={share.api} passCodeToken={view.passCodeToken} /> : null}
      </div>
      <div className="mt-8 text-center">
        <LocaleLink page="index" className={secondaryLinkClass}>
          {t('sharePage.backHome')}
        </LocaleLink>
      </div>
    </section>
  )
}

/** The share's title, its owner, how many items and until when: from the opened share, else from the server's preview. */
function ShareHeader({ share, preview }: { share: ShareBrowser; preview: SharePreview | null }) {
  const { t } = useT()
  const locale = useLocale()
  const info = share.view.kind === 'open' ? share.view.info : null
  const previewOpen = preview?.status === 'OK' && !preview.passCodeRequired ? preview : null
  const title = info?.title || previewOpen?.title || t('sharePage.heading')
  const owner = info ? info.user_info.nickname : (preview?.ownerName ?? '')
  const count = info ? Number(info.file_num) : (previewOpen?.fileNum ?? 0)
  const facts: string[] = []
  if (owner) facts.push(t('sharePage.sharedBy', { owner }))
  if (count > 0) facts.push(t(`sharePage.itemCount.${pluralForm(locale, count)}`, { count: count.toLocaleString(locale) }))
  if (info) facts.push(info.expiration_at ? t('sharePage.expires', { date: formatDateTime(info.expiration_at, locale) }) : t('sharePage.neverExpires'))
  // Once a share behind a pass code opens, the tab names it too (the server-rendered title only knew the owner).
  const openTitle = info?.title ?? ''
  useEffect(() => {
    if (openTitle) document.title = `${openTitle} · ${t('common.appName')}`
  }, [openTitle, t])
  return (
    <div className="flex items-start gap-4">
      <OwnerAvatar name={owner} avatar={info?.user_info.avatar ?? ''} />
      <div className="min-w-0 flex-1">
        <h1 id="share-title" className="text-2xl font-extrabold tracking-tight break-words text-slate-900 sm:text-3xl dark:text-white" data-testid="share-title">
          {title}
        </h1>
        {facts.length > 0 ? (
          <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600 dark:text-slate-300" data-testid="share-facts">
            {facts.map((fact) => (
              <li key={fact} className="break-words">
                {fact}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  )
}

/** The sharer's picture, or the first letter of their name; decorative (the name is written beside it). */
function OwnerAvatar({ name, avatar }: { name: string; avatar: string }) {
  const [failed, setFailed] = useState(false)
  const initial = Array.from(name.trim())[0]?.toLocaleUpperCase() ?? ''
  if (avatar && !failed) return <img src={avatar} alt="" className="size-12 shrink-0 rounded-full object-cover" onError={() => setFailed(true)} />
  return (
    <span aria-hidden="true" className="inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-100 text-lg font-bold text-brand-800 dark:bg-brand-900 dark:text-brand-100">
      {initial || (
        <svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
          <path d="M3 7.5A1.5 1.5 0 0 1 4.5 6h4l2 2h9A1.5 1.5 0 0 1 21 9.5v8a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" />
        </svg>
      )}
    </span>
  )
}

/**
 * Asks for the pass code. A wrong code (or too many tries: the server's text says which) shows
 * under the field, which takes the focus back so the next try can be typed at once.
 */
function PassCodeForm({ initial, error, checking, onSubmit }: { initial: string; error: string | null; checking: boolean; onSubmit(code: string): void }) {
  const { t } = useT()
  const [draft, setDraft] = useState(initial)
  const [missing, setMissing] = useState(false)
  const field = useRef<HTMLInputElement>(null)
  const headingId = useId()
  useEffect(() => {
    if (error) field.current?.focus()
  }, [error])
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const code = draft.trim()
    if (code === '') {
      setMissing(true)
      field.current?.focus()
      return
    }
    setMissing(false)
    onSubmit(code)
  }
  return (
    <form onSubmit={submit} noValidate aria-labelledby={headingId} className="mx-auto flex max-w-sm flex-col gap-4 px-5 py-10" data-testid="share-pass-code">
      <div>
        <h2 id={headingId} className="text-lg font-semibold text-slate-900 dark:text-white">
          {t('sharePage.passCode.title')}
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t('sharePage.passCode.prompt')}</p>
      </div>
      <TextField
        ref={field}
        label={t('sharePage.passCode.label')}
        value={draft}
        onChange={(event) => {
          setDraft(event.target.value)
          setMissing(false)
        }}
        error={missing ? t('sharePage.passCode.required') : error}
        autoComplete="off"
        autoCapitalize="off"
        autoCorrect="off"
        spellCheck={false}
        autoFocus
        name="pwd"
      />
      <Button type="submit" loading={checking}>
        {t('sharePage.passCode.submit')}
      </Button>
    </form>
  )
}

/** Deleted, expired, not found or blocked, in the server's words. */
function ShareUnavailable({ text, status }: { text: string; status: string }) {
  const { t } = useT()
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-5 py-12 text-center" data-testid="share-unavailable" data-status={status}>
      <span className="inline-flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200" aria-hidden="true">
        <AlertIcon className="size-6" />
      </span>
      <h2 className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">{t('sharePage.unavailable.title')}</h2>
      <p role="status" className="mt-2 text-sm leading-relaxed text-slate-600 dark:text-slate-300" data-testid="share-status-text">
        {text}
      </p>
    </div>
  )
}

function ShareFailed({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { t } = useT()
  const text = useErrorText(error)
  return (
    <div className="p-4 sm:p-6">
      <Alert tone="error">
        <p className="font-semibold">{t('sharePage.failed')}</p>
        {text ? <p className="mt-1">{text}</p> : null}
      </Alert>
      <Button variant="secondary" className="mt-4" onClick={onRetry}>
        {t('sharePage.retry')}
      </Button>
    </div>
  )
}
