import { DriveRoute } from '../../drive/drive-route'

export { driveClientLoader as clientLoader, DriveHydrateFallback as HydrateFallback } from '../../drive/drive-route'

/** `/drive/trash`: what the user trashed, with restore, delete forever and empty trash. */
export default function DriveTrashPage() {
  return <DriveRoute view="trash" />
}
