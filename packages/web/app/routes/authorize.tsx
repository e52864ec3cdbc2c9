import { type ClientLoaderFunctionArgs, useLoaderData } from 'react-router'
import { PageTitle } from '../components/page-title'
import { ProtectedPageFallback } from '../components/protected-page-fallback'
import { LoadingBlock } from '../components/ui/spinner'
import { useT } from '../i18n/use-locale'
import { requireSignedIn } from '../middleware/auth'
import { readAuthorizeRequest } from '../oauth/authorize-request'
import { ConsentPage } from '../oauth/consent-page'
import { useSignedInUser } from '../oauth/use-signed-in-user'

/**
 * The `auth` middleware: a signed-out visitor signs in and comes back with the same query. With
 * `prompt=none` the app asked that no page be shown, so a signed-out visitor is let through, and
 * the page sends `login_required` back to the app.
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

/** /authorize: the consent page the server's GET /v1/auth/authorize sends the browser to. */
export default function AuthorizePage() {
  const { loginRequired } = useLoaderData<typeof clientLoader>()
  return loginRequired ? <ConsentPage user={null} /> : <SignedInConsent />
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
