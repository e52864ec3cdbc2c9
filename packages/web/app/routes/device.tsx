import { PageTitle } from '../components/page-title'
import { ProtectedPageFallback } from '../components/protected-page-fallback'
import { LoadingBlock } from '../components/ui/spinner'
import { useT } from '../i18n/use-locale'
import { DevicePage } from '../oauth/device-page'
import { useSignedInUser } from '../oauth/use-signed-in-user'

// The `auth` middleware: a signed-out visitor signs in and comes back (with `?user_code=` kept).
export { authClientLoader as clientLoader } from '../middleware/auth'

export function HydrateFallback() {
  const { t } = useT()
  return <ProtectedPageFallback title={t('oauth.device.title')} />
}

/** /device: connect a TV, console or other device by the code it shows (RFC 8628). */
export default function DeviceRoute() {
  const { t } = useT()
  const user = useSignedInUser()
  if (!user) {
    return (
      <>
        <PageTitle title={t('oauth.device.title')} />
        <LoadingBlock label={t('common.loading')} />
      </>
    )
  }
  return <DevicePage user={user} />
}
