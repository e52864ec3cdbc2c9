/**
 * Where in a share the visitor is, as the share page's address keeps it (`/s/{id}?path=a.b`):
 * small on its own, as the site header reads it too.
 */

/** The query parameter that keeps where in the share the visitor is: folder ids from the top, dot-separated. */
export const FOLDER_PATH_PARAM = 'path'

/** Deeper than this, an address's path is not followed (the page opens at the top). */
const MAX_PATH_DEPTH = 64

/** The folder ids a `?path=` value names, top first; [] for none or for anything that is not such a list. */
export function parseFolderPath(value: string | null): string[] {
  if (!value) return []
  const ids = value.split('.')
  if (ids.length > MAX_PATH_DEPTH || !ids.every((id) => /^[A-Za-z0-9_-]{1,64}$/.test(id))) return []
  return ids
}

/** The `?path=` value for folder ids ('' at the top). */
export function formatFolderPath(ids: readonly string[]): string {
  return ids.join('.')
}
