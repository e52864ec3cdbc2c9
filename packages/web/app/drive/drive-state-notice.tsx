import { useLocation } from 'react-router'
import { primaryLinkClass } from '../components/marketing/link-styles'
import { Alert } from '../components/ui/alert'
import { Button } from '../components/ui/button'
import { LoadingBlock } from '../components/ui/spinner'
import { useT } from '../i18n/use-locale'
import { LocaleLink } from '../navigation/locale-link'
import type { DriveViewState } from './drive-request'

export interface DriveStateNoticeProps {
  state: DriveViewState<unknown>
  /** What this page's feature will do once the drive exists (shown when it does not yet). */
  unavailableText: string
  /** What to say when the file asked for does not exist. */
  notFoundText?: string
  loadingText: string
  onRetry?: () => void
}

/**
 * What the decompress pages show for every state but `ready` and `idle`: waiting, the
 * feature arriving later, a sign-in (coming back to this page), a missing file, or an error.
 */
export function DriveStateNotice({ state, unavailableText, notFoundText, loadingText, onRetry }: DriveStateNoticeProps) {
  const { t } = useT()
  const location = useLocation()
  switch (state.status) {
    case 'idle':
    case 'ready':
      return null
    case 'loading':
      return <LoadingBlock label={loadingText} />
    case 'unavailable':
      return (
        <div role="status" className="mx-auto flex max-w-xl flex-col items-center px-4 py-12 text-center">
          <span className="inline-flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200" aria-hidden="true">
            <svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
              <circle cx="12" cy="12" r="9" />
              <path d="M12 7v5l3 2" />
            </svg>
          </span>
          <p className="mt-4 text-base font-semibold text-slate-900 dark:text-white">{t('pages.drive.laterTitle')}</p>
          <p className="mt-2 text-sm leading-relaxed text-slate-600 dark:text-slate-300">{unavailableText}</p>
        </div>
      )
    case 'sign-in-required':
      return (
        <div className="px-4 py-10 text-center">
          <p role="status" className="text-slate-700 dark:text-slate-200">
            {t('pages.drive.signInRequired')}
          </p>
          <LocaleLink page="account-login" search={`?redirect=${encodeURIComponent(`${location.pathname}${location.search}`)}`} className={`${primaryLinkClass} mt-5`}>
            {t('pages.drive.signIn')}
          </LocaleLink>
        </div>
      )
    case 'not-found':
      return (
        <p role="status" className="px-4 py-12 text-center text-slate-700 dark:text-slate-200">
          {notFoundText}
        </p>
      )
    case 'offline':
    case 'error':
      return (
        <div className="p-4 sm:p-6">
          <Alert tone="error">
            <p className="font-semibold">{state.status === 'offline' ? t('pages.drive.offline') : t('pages.drive.errorTitle')}</p>
            {state.status === 'error' ? <p className="mt-1">{state.message}</p> : null}
          </Alert>
          {onRetry ? (
            <Button variant="secondary" className="mt-4" onClick={onRetry}>
              {t('pages.drive.retry')}
            </Button>
          ) : null}
        </div>
      )
  }
}
