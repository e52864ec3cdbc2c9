import { DriveRoute } from '../drive/drive-route'
import { useSearchRequest } from '../search/drive-search'

// The `auth` middleware and the drive client, as on the drive's own pages: results are the
// signed-in user's files, so a signed-out visitor goes to the login page and comes back here.
export { driveClientLoader as clientLoader, DriveHydrateFallback as HydrateFallback } from '../drive/drive-route'

/**
 * `/search/associate?q=…`: the drive's search results, with the drive's list, row menus and
 * dialogs, each result's folder, and filters (`kind`, `category`, `modified`, `size`) kept in
 * the URL so a result page can be reloaded and returned to with Back.
 */
export default function SearchResultsPage() {
  return <DriveRoute view="search" search={useSearchRequest()} />
}
