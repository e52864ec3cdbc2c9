import type { Locale } from '@cumulus/protocol'
import { pagePath } from '../navigation/locale-link'

/**
 * The query parameter of a folder page naming an item to select (and scroll to) once the list
 * has it: where "Show in folder" (a search result, a file suggestion) takes the user.
 */
export const SELECT_PARAM = 'select'

/** The page of the folder `parentId` ('' for My drive), with `fileId` to be selected there. */
export function revealPath(locale: Locale, parentId: string, fileId?: string): string {
  const search = fileId ? `?${SELECT_PARAM}=${encodeURIComponent(fileId)}` : ''
  return parentId === '' ? pagePath('drive', locale, {}, search) : pagePath('drive-folder', locale, { folderId: parentId }, search)
}
