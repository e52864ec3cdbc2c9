import { AccountHome } from '../../components/account/account-home'
import { ProtectedPageFallback } from '../../components/protected-page-fallback'
import { useT } from '../../i18n/use-locale'

// The `auth` middleware: signed-out visitors go to the login page and come back here.
export { authClientLoader as clientLoader } from '../../middleware/auth'

export function HydrateFallback() {
  const { t } = useT()
  return <ProtectedPageFallback title={t('accountHome.title')} />
}

export default function AccountHomePage() {
  return <AccountHome />
}
