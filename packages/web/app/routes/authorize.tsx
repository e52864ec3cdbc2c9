import { OAuthErrors } from '@cumulus/protocol'
import { type ClientLoaderFunctionArgs, useLoaderData } from 'react-router'
import { AuthShell } from '../components/auth/auth-shell'
import { PageTitle } from '../components/page-title'
import { ProtectedPageFallback } from '../components/protected-page-fallback'
import { Alert } from '../components/ui/alert'
import { LoadingBlock } from '../components/ui/spinner'
import { useErrorText } from '../drive/use-error-text'
import { useT } from '../i18n/use-locale'
import { requireSignedIn } from '../middleware/auth'
import { readAuthorizeRequest } from '../oauth/authorize-request'
import { ConsentPage } from '../oauth/consent-page'
import { useSignedInUser } from '../oauth/use-signed-in-user'

/** What the page shows for `prompt=none` when nobody is signed in: the catalogue's `login_required`. */
const LOGIN_REQUIRED = { error: OAuthErrors.login_required.reason, error_code: OAuthErrors.login_required.code }

/**
 * The `auth` middleware: a signed-out visitor signs in and comes back with the same query. With
 * `prompt=none` the app asked that no page be shown, so a signed-out visitor gets
 * `login_required` instead. It is shown here, not sent to the redirect URI, which the server can
 * only check for a signed-in user.
 */
export async function clientLoader({ request }: ClientLoaderFunctionArgs): Promise<{ loginRequired: boolean }> {
  try {
    await requireSignedIn({ request })
  } catch (redirect) {
    if (readAuthorizeRequest(new URL(request.url).searchParams).prompt.includes('none')) return { loginRequired: true }
    throw redirect
  }
  return { loginRequired: false }
}
clientLoader.hydrate = true as const

export function HydrateFallback() {
  const { t } = useT()
  return <ProtectedPageFallback title={t('oauth.consent.title')} />
}

function LoginRequired() {
  const { t } = useT()
  const text = useErrorText(LOGIN_REQUIRED)
  return (
    <>
      <PageTitle title={t('oauth.consent.failedHeading')} />
      <AuthShell heading={t('oauth.consent.failedHeading')} subtitle={t('oauth.consent.failedHint')}>
        {text ? <Alert tone="error">{text}</Alert> : null}
      </AuthShell>
    </>
  )
}

/** /authorize: the consent page the server's GET /v1/auth/authorize sends the browser to. */
export default function AuthorizePage() {
  const { loginRequired } = useLoaderData<typeof clientLoader>()
  return loginRequired ? <LoginRequired /> : <SignedInConsent />
}

function SignedInConsent() {
  const { t } = useT()
  const user = useSignedInUser()
  if (!user) {
    return (
      <>
        <PageTitle title={t('oauth.consent.title')} />
        <LoadingBlock label={t('common.loading')} />
      </>
    )
  }
  return <ConsentPage user={user} />
}
