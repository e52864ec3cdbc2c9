import { useParams } from 'react-router'
import { DriveRoute } from '../../drive/drive-route'

// The `auth` middleware and the drive client; signed-out visitors go to the login page and come back.
export { driveClientLoader as clientLoader, DriveHydrateFallback as HydrateFallback } from '../../drive/drive-route'

/** `/drive` (the root folder) and `/drive/:folderId`. */
export default function DriveFolderPage() {
  const { folderId = '' } = useParams()
  return <DriveRoute view="folder" folderId={folderId} />
}
