import { useEffect } from 'react'
import { type ClientLoaderFunctionArgs, useLoaderData, useLocation, useNavigate } from 'react-router'
import { DriveProvider } from './drive-context'
import { loadDriveApi } from './drive-client'
import { DrivePage } from './drive-page'
import { DriveSkeleton } from './drive-skeleton'
import type { DriveView } from './file-actions'
import { PageTitle } from '../components/page-title'
import { localeFromPath } from '../i18n/locale-routing'
import { useLocale, useT } from '../i18n/use-locale'
import { REDIRECT_PARAM, requireSignedIn } from '../middleware/auth'
import { pagePath } from '../navigation/locale-link'
import { usePublicConfig } from '../root'
import type { SearchRequest } from '../search/drive-search'
import { useSession } from '../session/use-session'

/**
 * What the drive routes share: the `auth` middleware, then the drive client (the SDK's chunk
 * arrives here, not with any other page), before the page renders.
 */
export async function driveClientLoader(args: Pick<ClientLoaderFunctionArgs, 'request'>) {
  await requireSignedIn(args)
  return { api: await loadDriveApi(localeFromPath(new URL(args.request.url).pathname)) }
}
driveClientLoader.hydrate = true as const

/**
 * What the server renders for a drive page (it has no session) and the browser shows until the
 * auth middleware and the drive client are done: the drive's layout as a busy skeleton, not a
 * spinner, so the first paint has the shape of the page that follows.
 */
export function DriveHydrateFallback() {
  const { t } = useT()
  return (
    <>
      <PageTitle title={t('drive.title')} description={t('drive.description')} />
      <DriveSkeleton label={t('drive.list.loading')} />
    </>
  )
}

/** Signed out meanwhile (here or in another tab): to the login page, which brings the user back. */
export function useLeaveWhenSignedOut(): void {
  const session = useSession()
  const locale = useLocale()
  const location = useLocation()
  const navigate = useNavigate()
  useEffect(() => {
    if (session.status !== 'signed-out') return
    void navigate(pagePath('account-login', locale, {}, `?${REDIRECT_PARAM}=${encodeURIComponent(`${location.pathname}${location.search}`)}`), { replace: true })
  }, [session.status, locale, location.pathname, location.search, navigate])
}

export function DriveRoute({ view, folderId, search }: { view: DriveView; folderId?: string; search?: SearchRequest }) {
  // Client-loader data is not serialized: the client object arrives as it is.
  const { api } = useLoaderData() as Awaited<ReturnType<typeof driveClientLoader>>
  const session = useSession()
  const { trashRetentionDays } = usePublicConfig()
  useLeaveWhenSignedOut()

  return (
    <DriveProvider api={api}>
      {/* Keyed by account: after switching accounts nothing of the previous one's lists stays. */}
      <DrivePage key={session.user?.userId ?? ''} view={view} folderId={folderId} accountId={session.user?.userId ?? ''} trashRetentionDays={trashRetentionDays} search={search} />
    </DriveProvider>
  )
}
