import { PageTitle } from '../../components/page-title'
import { ProtectedPageFallback } from '../../components/protected-page-fallback'
import { useT } from '../../i18n/use-locale'
import { usePublicConfig } from '../../root'
import { useSession } from '../../session/use-session'
import { UnregisterFlow } from './unregister.flow'

// The `auth` middleware: signed-out visitors go to the login page and come back here.
export { authClientLoader as clientLoader } from '../../middleware/auth'

export function HydrateFallback() {
  const { t } = useT()
  return <ProtectedPageFallback title={t('auth.unregister.title')} />
}

/** /account/unregister: delete the signed-in account after a cancellation review period. */
export default function UnregisterPage() {
  const { t } = useT()
  const { accountDeletionGraceDays } = usePublicConfig()
  const session = useSession()
  return (
    <>
      <PageTitle title={t('auth.unregister.title')} />
      <UnregisterFlow userId={session.user?.userId ?? ''} graceDays={accountDeletionGraceDays} />
    </>
  )
}
