/**
 * The drive's "+" menu opens cloud download for the folder it is in: the thunder page's address
 * carries the folder (`/thunder?folder=<id>`), and the downloads land there unless the user
 * changes it. From the drive's root no folder is named: downloads go to the download folder, as
 * they do from the thunder page itself.
 */
export const TARGET_FOLDER_PARAM = 'folder'

/** The search part of the thunder page's address for downloads into `folderId` ('' for the default). */
export function cloudDownloadSearch(folderId: string): string {
  return folderId === '' ? '' : `?${TARGET_FOLDER_PARAM}=${encodeURIComponent(folderId)}`
}

/** The folder id a thunder page address names, or null: only ids of the drive's shape are taken. */
export function targetFolderOf(search: URLSearchParams): string | null {
  const id = search.get(TARGET_FOLDER_PARAM)
  return id !== null && /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : null
}
