import { DriveRoute } from '../../drive/drive-route'

export { driveClientLoader as clientLoader, DriveHydrateFallback as HydrateFallback } from '../../drive/drive-route'

/** `/drive/starred`: starred files and folders from every folder. */
export default function DriveStarredPage() {
  return <DriveRoute view="starred" />
}
