import { type CreateShareReply, type DriveFile, SHARE_EXPIRATION_CHOICES, SHARE_MAX_ITEMS, SHARE_PASS_CODE_PATTERN } from '@cumulus/protocol'
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { useLocale, useT } from '../i18n/use-locale'
import { LocaleLink } from '../navigation/locale-link'
import { Alert } from '../components/ui/alert'
import { Button } from '../components/ui/button'
import { inputClass, TextField } from '../components/ui/text-field'
import { useCopy } from './copy-text'
import { DialogShell } from './dialog-shell'
import type { DriveApi } from './drive-api'
import { formatDateTime } from './format'
import { CheckIcon, CopyIcon } from './icons'
import { useDescribeError } from './use-error-text'
import { usePlural } from './use-plural'

/** Who may open a new link: anyone who has it, or only with its pass code too. */
export type ShareAccess = 'public' | 'pass-code'

/**
 * What a new share starts with. A pass code, because a link alone travels further than the
 * person it was sent to; a week, because most links are for now, and one that never expires is
 * a choice the owner should make on purpose.
 */
export const DEFAULT_SHARE_ACCESS: ShareAccess = 'pass-code'
export const DEFAULT_EXPIRATION_DAYS = 7

/** Whether an owner's own pass code is one the server takes (4 to 16 ASCII letters and digits). */
export function isValidPassCode(code: string): boolean {
  return SHARE_PASS_CODE_PATTERN.test(code)
}

export interface ShareDialogProps {
  api: Pick<DriveApi, 'createShare'>
  open: boolean
  onOpenChange(open: boolean): void
  /** What to share as one link: files and folders, one or many. */
  files: readonly DriveFile[]
}

const radioCard =
  'flex cursor-pointer items-start gap-3 rounded-xl border border-slate-200 px-3.5 py-3 text-sm has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-brand-500 dark:border-slate-700 dark:has-[:checked]:border-brand-400 dark:has-[:checked]:bg-brand-900/40'
const segment =
  'flex h-11 cursor-pointer items-center justify-center rounded-lg border border-slate-200 px-2 text-sm font-medium text-slate-700 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-600 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-brand-500 dark:border-slate-700 dark:text-slate-200 dark:has-[:checked]:border-brand-500 dark:has-[:checked]:bg-brand-600'
const legendClass = 'mb-2 text-sm font-semibold text-slate-800 dark:text-slate-100'

/**
 * "Share": one link for the chosen files and folders (POST /drive/v1/share), open to anyone who
 * has it or only with a pass code (generated, or the owner's own, checked as it is typed), for
 * 1, 7 or 30 days or for good. Once made, the dialog shows the link, the code and the server's
 * text to send, each ready to copy, and leads to My shares.
 */
export function ShareDialog({ api, open, onOpenChange, files }: ShareDialogProps) {
  const { t } = useT()
  const tp = usePlural()
  const locale = useLocale()
  const describe = useDescribeError()
  const [access, setAccess] = useState<ShareAccess>(DEFAULT_SHARE_ACCESS)
  const [ownCode, setOwnCode] = useState(false)
  const [code, setCode] = useState('')
  const [codeChecked, setCodeChecked] = useState(false)
  const [expirationDays, setExpirationDays] = useState<number>(DEFAULT_EXPIRATION_DAYS)
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [reply, setReply] = useState<CreateShareReply | null>(null)
  const codeInput = useRef<HTMLInputElement>(null)

  // Each opening (for other items) starts afresh. Reset while rendering, as NameDialog does.
  const [shownFor, setShownFor] = useState<readonly DriveFile[] | null>(open ? files : null)
  const openedFor = open ? files : null
  if (shownFor !== openedFor) {
    setShownFor(openedFor)
    if (open) {
      setAccess(DEFAULT_SHARE_ACCESS)
      setOwnCode(false)
      setCode('')
      setCodeChecked(false)
      setExpirationDays(DEFAULT_EXPIRATION_DAYS)
      setPending(false)
      setError(null)
      setReply(null)
    }
  }

  const usesOwnCode = access === 'pass-code' && ownCode
  const codeProblem = usesOwnCode && !isValidPassCode(code) ? t('drive.share.dialog.codeInvalid') : null
  const tooMany = files.length > SHARE_MAX_ITEMS

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (pending || tooMany || files.length === 0) return
    if (codeProblem) {
      setCodeChecked(true)
      codeInput.current?.focus()
      return
    }
    setPending(true)
    setError(null)
    try {
      const created = await api.createShare({
        fileIds: files.map((file) => file.id),
        passCode: access === 'pass-code',
        ...(usesOwnCode ? { customPassCode: code } : {}),
        expirationDays,
      })
      setReply(created)
    } catch (err) {
      setError(await describe(err))
    } finally {
      setPending(false)
    }
  }

  const formId = 'drive-share-form'
  // One item is named; several are counted (a plural key alone would count one in Korean and Chinese, which have no singular form).
  const title = reply ? t('drive.share.created.title') : files.length === 1 ? t('drive.share.dialog.titleOne', { name: files[0]!.name }) : files.length > 1 ? tp('drive.share.dialog.titleMany', files.length) : t('drive.share.action')
  return (
    <DialogShell
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={reply ? undefined : t('drive.share.dialog.description')}
      size="md"
      testId="share-dialog"
      footer={
        reply ? (
          <>
            <LocaleLink page="drive-shares" className="inline-flex h-11 items-center justify-center rounded-xl border border-slate-300 bg-white px-5 text-sm font-semibold text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800">
              {t('drive.share.created.myShares')}
            </LocaleLink>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              {t('drive.share.created.done')}
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" form={formId} loading={pending} disabled={tooMany}>
              {t('drive.share.dialog.create')}
            </Button>
          </>
        )
      }
    >
      {reply ? (
        <ShareCreated reply={reply} locale={locale} />
      ) : (
        <form id={formId} onSubmit={(event) => void submit(event)} noValidate className="space-y-5 pt-1 pb-2">
          <fieldset>
            <legend className={legendClass}>{t('drive.share.dialog.access')}</legend>
            <div className="space-y-2">
              <RadioCard name="share-access" checked={access === 'pass-code'} onChange={() => setAccess('pass-code')} label={t('drive.share.dialog.passCode')} hint={t('drive.share.dialog.passCodeHint')} />
              <RadioCard name="share-access" checked={access === 'public'} onChange={() => setAccess('public')} label={t('drive.share.dialog.public')} hint={t('drive.share.dialog.publicHint')} />
            </div>
          </fieldset>

          {access === 'pass-code' ? (
            <fieldset>
              <legend className={legendClass}>{t('drive.share.dialog.codeSource')}</legend>
              <div className="flex flex-col gap-2 sm:flex-row sm:gap-5">
                <label className="flex min-h-11 cursor-pointer items-center gap-2.5 text-sm text-slate-700 dark:text-slate-200">
                  <input type="radio" name="share-code-source" checked={!ownCode} onChange={() => setOwnCode(false)} className="size-4 accent-brand-600" />
                  {t('drive.share.dialog.randomCode')}
                </label>
                <label className="flex min-h-11 cursor-pointer items-center gap-2.5 text-sm text-slate-700 dark:text-slate-200">
                  <input
                    type="radio"
                    name="share-code-source"
                    checked={ownCode}
                    onChange={() => {
                      setOwnCode(true)
                      setCodeChecked(false)
                    }}
                    className="size-4 accent-brand-600"
                  />
                  {t('drive.share.dialog.customCode')}
                </label>
              </div>
              {ownCode ? (
                <TextField
                  ref={codeInput}
                  className="mt-2"
                  label={t('drive.share.dialog.customCodeLabel')}
                  value={code}
                  maxLength={16}
                  autoComplete="off"
                  autoCapitalize="off"
                  spellCheck={false}
                  hint={t('drive.share.dialog.customCodeHint')}
                  error={codeChecked ? codeProblem : null}
                  onChange={(event) => {
                    setCode(event.target.value)
                    setError(null)
                  }}
                  // Checked once the user leaves the field (or submits), then as they type: no
                  // complaint about a code still being written.
                  onBlur={() => setCodeChecked(code !== '')}
                />
              ) : null}
            </fieldset>
          ) : null}

          <fieldset>
            <legend className={legendClass}>{t('drive.share.dialog.expiry')}</legend>
            <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
              {SHARE_EXPIRATION_CHOICES.map((days) => (
                <label key={days} className={segment}>
                  <input type="radio" name="share-expiry" className="sr-only" checked={expirationDays === days} onChange={() => setExpirationDays(days)} />
                  {days === -1 ? t('drive.share.dialog.never') : tp('drive.share.dialog.days', days)}
                </label>
              ))}
            </div>
          </fieldset>

          {tooMany ? <Alert tone="error">{t('drive.share.dialog.tooMany', { max: SHARE_MAX_ITEMS })}</Alert> : null}
          {error ? <Alert tone="error">{error}</Alert> : null}
        </form>
      )}
    </DialogShell>
  )
}

function RadioCard({ name, checked, onChange, label, hint }: { name: string; checked: boolean; onChange(): void; label: string; hint: string }) {
  const labelId = useId()
  const hintId = useId()
  // Named by its label alone; the hint is its description (not read twice as part of the name).
  return (
    <label className={radioCard}>
      <input type="radio" name={name} checked={checked} onChange={onChange} aria-labelledby={labelId} aria-describedby={hintId} className="mt-0.5 size-4 shrink-0 accent-brand-600" />
      <span className="min-w-0">
        <span id={labelId} className="block font-medium text-slate-900 dark:text-white">
          {label}
        </span>
        <span id={hintId} className="mt-0.5 block text-slate-600 dark:text-slate-300">
          {hint}
        </span>
      </span>
    </label>
  )
}

/** The new share: its link, pass code and text to send, each to copy, and when it expires. */
function ShareCreated({ reply, locale }: { reply: CreateShareReply; locale: string }) {
  const { t } = useT()
  const { copied, failed, copy } = useCopy()
  const copyButton = useRef<HTMLButtonElement>(null)
  const box = useRef<HTMLDivElement>(null)
  const share = reply.share_list[0]
  const expiresAt = share?.expiration_at ?? null

  // The form's button that had the focus is gone: the focus goes to what comes next, copying.
  useEffect(() => {
    copyButton.current?.focus({ preventScroll: true })
  }, [])

  const copyLabel = (key: string, idle: string) => (copied === key ? t('drive.share.created.copied') : idle)
  const status = copied !== null ? t('drive.share.created.copied') : failed !== null ? t('drive.share.created.copyFailed') : ''
  return (
    <div ref={box} className="space-y-4 pt-1 pb-2" data-testid="share-created">
      <Alert tone="success">
        <p>{reply.pass_code ? t('drive.share.created.withCode') : t('drive.share.created.public')}</p>
        <p className="mt-1">{expiresAt === null ? t('drive.share.created.never') : t('drive.share.created.expires', { date: formatDateTime(expiresAt, locale) })}</p>
      </Alert>
      <CopyRow label={t('drive.share.created.link')} value={reply.share_url} testId="share-link">
        <Button variant="secondary" className="shrink-0" onClick={() => void copy('link', reply.share_url, box.current)}>
          {copied === 'link' ? <CheckIcon className="size-4" /> : <CopyIcon className="size-4" />}
          {copyLabel('link', t('drive.share.created.copyLink'))}
        </Button>
      </CopyRow>
      {reply.pass_code ? <CopyRow label={t('drive.share.created.passCode')} value={reply.pass_code} testId="share-pass-code" mono /> : null}
      <div>
        <ShareTextField label={t('drive.share.created.shareText')} value={reply.share_text} />
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <Button ref={copyButton} onClick={() => void copy('text', reply.share_text, box.current)} data-testid="share-copy">
            {copied === 'text' ? <CheckIcon className="size-4" /> : <CopyIcon className="size-4" />}
            {copyLabel('text', t('drive.share.created.copy'))}
          </Button>
          {failed !== null ? <p className="text-sm text-red-700 dark:text-red-300">{t('drive.share.created.copyFailed')}</p> : null}
        </div>
      </div>
      {/* Screen readers hear the copy: a button's new label alone is not announced. */}
      <p role="status" className="sr-only">
        {status}
      </p>
    </div>
  )
}

function CopyRow({ label, value, testId, mono = false, children }: { label: string; value: string; testId: string; mono?: boolean; children?: ReactNode }) {
  const id = useId()
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input id={id} readOnly value={value} data-testid={testId} onFocus={(event) => event.currentTarget.select()} className={`${inputClass} min-w-0 ${mono ? 'font-mono tracking-wider' : ''}`} />
        {children}
      </div>
    </div>
  )
}

function ShareTextField({ label, value }: { label: string; value: string }) {
  const id = useId()
  return (
    <>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </label>
      <textarea
        id={id}
        readOnly
        value={value}
        // As tall as the text (a long link wraps), where the browser can size a field to its content.
        rows={value.split('\n').length + 1}
        data-testid="share-text"
        onFocus={(event) => event.currentTarget.select()}
        className="block max-h-48 w-full resize-none rounded-xl border field-sizing-content border-slate-300 bg-slate-50 px-3.5 py-2.5 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100"
      />
    </>
  )
}
