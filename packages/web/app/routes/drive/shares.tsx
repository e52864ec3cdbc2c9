import { useLoaderData } from 'react-router'
import { DriveProvider } from '../../drive/drive-context'
import { type driveClientLoader, useLeaveWhenSignedOut } from '../../drive/drive-route'
import { SharesPage } from '../../drive/shares-page'
import { useSession } from '../../session/use-session'

// The `auth` middleware and the drive client, as on the other drive pages.
export { driveClientLoader as clientLoader } from '../../drive/drive-route'
export { SharesHydrateFallback as HydrateFallback } from '../../drive/shares-page'

/** `/drive/shares`: the links the account made, with their counts, to copy, open or cancel. */
export default function DriveSharesPage() {
  const { api } = useLoaderData() as Awaited<ReturnType<typeof driveClientLoader>>
  const session = useSession()
  useLeaveWhenSignedOut()
  return (
    <DriveProvider api={api}>
      {/* Keyed by account: after switching accounts nothing of the previous one's shares stays. */}
      <SharesPage key={session.user?.userId ?? ''} api={api} />
    </DriveProvider>
  )
}
