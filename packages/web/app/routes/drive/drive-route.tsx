import type { ClientLoaderFunctionArgs } from 'react-router'
import { useLoaderData } from 'react-router'
import { DriveProvider } from '../../components/drive/drive-context'
import { loadDriveApi } from '../../components/drive/drive-client'
import { DrivePage } from '../../components/drive/drive-page'
import type { DriveView } from '../../components/drive/file-actions'
import { ProtectedPageFallback } from '../../components/protected-page-fallback'
import { localeFromPath } from '../../i18n/locale-routing'
import { useT } from '../../i18n/use-locale'
import { requireSignedIn } from '../../middleware/auth'

/**
 * What the drive routes share: the `auth` middleware, then the drive client (the SDK's chunk
 * arrives here, not with any other page), before the page renders.
 */
export async function driveClientLoader(args: Pick<ClientLoaderFunctionArgs, 'request'>) {
  await requireSignedIn(args)
  return { api: await loadDriveApi(localeFromPath(new URL(args.request.url).pathname)) }
}
driveClientLoader.hydrate = true as const

export function DriveHydrateFallback() {
  const { t } = useT()
  return <ProtectedPageFallback title={t('drive.title')} />
}

export function DriveRoute({ view, folderId }: { view: DriveView; folderId?: string }) {
  // Client-loader data is not serialized: the client object arrives as it is.
  const { api } = useLoaderData() as Awaited<ReturnType<typeof driveClientLoader>>
  return (
    <DriveProvider api={api}>
      <DrivePage view={view} folderId={folderId} />
    </DriveProvider>
  )
}
