import type { ClientLoaderFunctionArgs } from 'react-router'
import { AuthShell, primaryLinkClass } from '../components/auth/auth-shell'
import { PageTitle } from '../components/page-title'
import { Alert } from '../components/ui/alert'
import { LoadingBlock } from '../components/ui/spinner'
import { useErrorText } from '../drive/use-error-text'
import { useT } from '../i18n/use-locale'
import { REDIRECT_PARAM } from '../middleware/auth'
import { LocaleLink } from '../navigation/locale-link'
import { providerCallbackLoader } from '../oauth/provider-callback'
import { lastFailedRedirect } from '../oauth/provider-sign-in'

// The redirect is completed in the browser (the SDK keeps the pending sign-in there), before the
// page renders: on success the loader leaves for where the visitor was heading.
export function clientLoader({ request }: ClientLoaderFunctionArgs): Promise<null> {
  return providerCallbackLoader({ request })
}
clientLoader.hydrate = true as const

export function HydrateFallback() {
  const { t } = useT()
  return (
    <>
      <PageTitle title={t('oauth.callback.title')} />
      <AuthShell heading={t('oauth.callback.title')}>
        <LoadingBlock label={t('oauth.callback.finishing')} />
      </AuthShell>
    </>
  )
}

/**
 * /auth/callback, once the loader is done without leaving: why the sign-in or binding with a
 * provider failed (the SDK's message in the page's language), or that none was in progress (a
 * reload, a bookmark), with the way back.
 */
export default function ProviderCallbackPage() {
  const { t } = useT()
  const failure = lastFailedRedirect()
  const message = useErrorText(failure?.error ?? null)
  const bind = failure?.mode === 'bind'
  const heading = !failure ? t('oauth.callback.nothingHeading') : bind ? t('oauth.callback.bindFailedHeading') : t('oauth.callback.failedHeading')
  return (
    <>
      <PageTitle title={heading} />
      <AuthShell heading={heading}>
        <div className="space-y-6" data-testid="provider-callback">
          {failure ? message ? <Alert tone="error">{message}</Alert> : null : <p className="text-sm text-slate-700 dark:text-slate-300">{t('oauth.callback.nothing')}</p>}
          {bind ? (
            <LocaleLink page="account-home" className={`${primaryLinkClass} w-full`}>
              {t('oauth.callback.backToAccount')}
            </LocaleLink>
          ) : (
            <LocaleLink page="account-login" search={failure?.returnTo ? `?${REDIRECT_PARAM}=${encodeURIComponent(failure.returnTo)}` : ''} className={`${primaryLinkClass} w-full`}>
              {t('oauth.callback.backToSignIn')}
            </LocaleLink>
          )}
        </div>
      </AuthShell>
    </>
  )
}
