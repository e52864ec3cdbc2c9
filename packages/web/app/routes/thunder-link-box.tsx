import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { Alert } from '../components/ui/alert'
import { Button } from '../components/ui/button'
import { TextField } from '../components/ui/text-field'
import { primaryLinkClass } from '../components/marketing/link-styles'
import { useLocale, useT } from '../i18n/use-locale'
import { LocaleLink, pagePath } from '../navigation/locale-link'
import { checkDownloadLink, type DownloadLinkKind } from './thunder-link'
import { findPendingLink, forgetPendingLink, keepPendingLink } from './thunder-pending-link'

/**
 * The thunder page's link box for visitors who are not signed in (or before the browser has read
 * the session): a valid link is kept in this browser and the visitor is asked to sign in; they
 * come back here, where the signed-in downloader (app/thunder) puts the link in its box.
 */
export function ThunderLinkBox() {
  const { t } = useT()
  const locale = useLocale()
  const inputRef = useRef<HTMLInputElement>(null)
  const [value, setValue] = useState('')
  const [error, setError] = useState<'empty' | 'unsupported' | 'invalid' | null>(null)
  const [kept, setKept] = useState<{ link: string; kind: DownloadLinkKind; restored: boolean } | null>(null)
  const [forgotten, setForgotten] = useState(false)
  const [storageFailed, setStorageFailed] = useState(false)
  const headingId = useId()

  // After hydration: put back the link kept on an earlier visit (storage is browser-only).
  useEffect(() => {
    const pending = findPendingLink(localStorage)
    if (!pending) return
    setValue(pending.link)
    setKept({ ...pending, restored: true })
  }, [])

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const check = checkDownloadLink(value)
    setForgotten(false)
    if (!check.ok) {
      setError(check.reason)
      setKept(null)
      inputRef.current?.focus()
      return
    }
    setError(null)
    setValue(check.link)
    setStorageFailed(!keepPendingLink(localStorage, check.link))
    setKept({ link: check.link, kind: check.kind, restored: false })
  }

  function onForget() {
    forgetPendingLink(localStorage)
    setKept(null)
    setValue('')
    setForgotten(true)
    inputRef.current?.focus()
  }

  const signInSearch = `?redirect=${encodeURIComponent(pagePath('thunder', locale))}`

  return (
    <section aria-labelledby={headingId} className="rounded-3xl border border-slate-200 bg-white/90 p-5 shadow-xl shadow-brand-900/5 backdrop-blur sm:p-7 dark:border-slate-700/80 dark:bg-slate-900/80 dark:shadow-black/30">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900 dark:text-white">
        {t('pages.thunder.box.heading')}
      </h2>
      <form noValidate onSubmit={onSubmit} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start">
        <TextField
          ref={inputRef}
          className="flex-1"
          label={t('pages.thunder.box.label')}
          name="link"
          type="text"
          inputMode="url"
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          placeholder={t('pages.thunder.box.placeholder')}
          value={value}
          onChange={(event) => {
            setValue(event.target.value)
            if (error) setError(null)
          }}
          error={error ? t(`pages.thunder.box.errors.${error}`) : null}
          hint={t('pages.thunder.box.hint')}
        />
        <Button type="submit" className="sm:mt-7 sm:shrink-0">
          {t('pages.thunder.box.submit')}
        </Button>
      </form>
      <div className="mt-4 empty:hidden">
        {kept ? (
          <div className="space-y-3">
            {kept.restored ? <p className="text-sm text-slate-600 dark:text-slate-300">{t('pages.thunder.box.restored')}</p> : null}
            <Alert tone="info">
              <p className="font-semibold">{t('pages.thunder.box.keptTitle', { kind: t(`pages.thunder.kinds.${kept.kind}.name`) })}</p>
              <p className="mt-1">{t('pages.thunder.box.keptSignedOut')}</p>
              <LocaleLink page="account-login" search={signInSearch} className={`${primaryLinkClass} mt-3`}>
                {t('pages.thunder.box.signIn')}
              </LocaleLink>
            </Alert>
            {storageFailed ? <p className="text-sm text-amber-800 dark:text-amber-200">{t('pages.thunder.box.notKept')}</p> : null}
            <Button variant="ghost" onClick={onForget} className="h-9 px-3">
              {t('pages.thunder.box.forget')}
            </Button>
          </div>
        ) : forgotten ? (
          <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
            {t('pages.thunder.box.forgotten')}
          </p>
        ) : null}
      </div>
    </section>
  )
}
