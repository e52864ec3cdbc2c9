import { useT } from '../i18n/use-locale'
import { PageTitle } from './page-title'
import { LoadingBlock } from './ui/spinner'

/**
 * What a protected page shows before the browser has read its session: the server renders it
 * (it has no session), and it stays until the auth middleware has let the visitor in.
 */
export function ProtectedPageFallback({ title }: { title: string }) {
  const { t } = useT()
  return (
    <>
      <PageTitle title={title} />
      <LoadingBlock label={t('common.loading')} />
    </>
  )
}
