import { compareCodePoints, type DriveFile, type DriveFileList, type DriveFilters, type DriveOrderField, type DriveSearchFilters, driveNameKey, FOLDER_KIND, SEARCH_LIMIT_MAX } from '@cumulus/protocol'
import type { DriveApi, DriveListInput } from './drive-api'

/** Which files a list shows. */
export type ListingSource =
  /** A folder's files ('' is the root): the drive's main view. */
  | { kind: 'folder'; folderId: string }
  /** Starred files of every folder. */
  | { kind: 'starred' }
  /** The trash: what the user trashed, from every folder. */
  | { kind: 'trash' }
  /** The folders of a folder: the folder picker. */
  | { kind: 'folders'; folderId: string }
  /** Search results, in the server's order (best match first); an empty query has none. */
  | { kind: 'search'; query: string; filters: DriveSearchFilters }

/** The sources listed by `GET /drive/v1/files`. */
export type FolderListingSource = Exclude<ListingSource, { kind: 'search' }>

export interface ListingOrder {
  field: DriveOrderField
  direction: 'asc' | 'desc'
}

export const DEFAULT_ORDER: ListingOrder = Object.freeze({ field: 'name', direction: 'asc' })

/** Files per page: the contract's largest, so a long folder takes few round trips. */
export const PAGE_SIZE = 200
/**
 * Search results per page: the contract's largest, which is also more than the list's look-ahead
 * (file-grid.tsx asks for the next page within 60 rows of the end), so a first page does not at
 * once ask for a second one before the user scrolls.
 */
export const SEARCH_PAGE_SIZE = SEARCH_LIMIT_MAX

const COMPLETE = { eq: 'PHASE_TYPE_COMPLETE' } as const

/** The list call for a source, an order and a page (drive.md "Calls": filters and parent_id `*`). */
export function listInput(source: FolderListingSource, order: ListingOrder, pageToken?: string): DriveListInput {
  const base = { limit: PAGE_SIZE, orderBy: order.field, direction: order.direction, ...(pageToken ? { pageToken } : {}) }
  let filters: DriveFilters
  switch (source.kind) {
    case 'folder':
      filters = { trashed: { eq: false }, phase: COMPLETE }
      return { ...base, parentId: source.folderId, filters }
    case 'folders':
      filters = { trashed: { eq: false }, kind: { eq: FOLDER_KIND } }
      return { ...base, parentId: source.folderId, filters }
    case 'starred':
      filters = { trashed: { eq: false }, starred: { eq: true }, phase: COMPLETE }
      return { ...base, parentId: '*', filters }
    case 'trash':
      filters = { trashed: { eq: true } }
      return { ...base, parentId: '*', filters }
  }
}

const NO_FILES: DriveFileList = Object.freeze({ kind: 'drive#fileList', files: [], next_page_token: '', version: '' })

/** One page of a source: a list call, or a search (none for an empty query, which the server refuses). */
export function fetchListingPage(api: Pick<DriveApi, 'list' | 'search'>, source: ListingSource, order: ListingOrder, pageToken?: string): Promise<DriveFileList> {
  if (source.kind !== 'search') return api.list(listInput(source, order, pageToken))
  if (source.query === '') return Promise.resolve(NO_FILES)
  const hasFilters = Object.keys(source.filters).length > 0
  return api.search({ q: source.query, limit: SEARCH_PAGE_SIZE, ...(pageToken ? { pageToken } : {}), ...(hasFilters ? { filters: source.filters } : {}) })
}

/**
 * Search results after a result changed (renamed, starred): it stays where the server ranked
 * it, keeping the search's `params` (path, match), which the replies of rename or star do not
 * carry; a trashed one leaves. Anything not already a result is not one until searched again.
 */
export function replaceResult(files: readonly DriveFile[], file: DriveFile): readonly DriveFile[] {
  const index = files.findIndex((f) => f.id === file.id)
  if (index === -1) return files
  if (file.trashed) return files.filter((f) => f.id !== file.id)
  const next = [...files]
  next[index] = { ...file, params: { ...files[index]!.params, ...file.params } }
  return next
}

/** Whether a file (new, or changed) belongs in a list of this source (a search result: see `replaceResult`). */
export function belongsTo(file: DriveFile, source: ListingSource): boolean {
  switch (source.kind) {
    case 'folder':
      return !file.trashed && file.parent_id === source.folderId
    case 'folders':
      return !file.trashed && file.kind === FOLDER_KIND && file.parent_id === source.folderId
    case 'starred':
      return !file.trashed && file.starred
    case 'trash':
      return file.trashed
    case 'search':
      return !file.trashed
  }
}

/**
 * The server's order (drive.md: folders first, then the chosen field, natural order for names),
 * exactly: names by the drive's own sort key (protocol's `driveNameKey`, compared byte-wise as
 * the databases do), ties by id, so a new file lands where a reload lists it ("report(1).txt"
 * before "report.txt", as "(" sorts before ".").
 */
export function compareFiles(a: DriveFile, b: DriveFile, order: ListingOrder): number {
  const rank = (file: DriveFile) => (file.kind === FOLDER_KIND ? 0 : 1)
  if (rank(a) !== rank(b)) return rank(a) - rank(b)
  let result = 0
  if (order.field === 'size') result = Number(a.size) - Number(b.size)
  else if (order.field === 'modified_time') result = Date.parse(a.modified_time) - Date.parse(b.modified_time)
  else result = compareCodePoints(driveNameKey(a.name), driveNameKey(b.name))
  if (result === 0) result = compareCodePoints(a.id, b.id)
  return order.direction === 'desc' ? -result : result
}

/**
 * `files` with `file` put where the server would list it. A new file whose place is past the
 * pages loaded so far is left out (it arrives with a later page, and must not show twice); a
 * changed file (renamed, starred) moves to its new place, or stays where it was when that
 * place is not loaded yet.
 */
export function insertFile(files: readonly DriveFile[], file: DriveFile, order: ListingOrder, complete: boolean): readonly DriveFile[] {
  const existing = files.findIndex((f) => f.id === file.id)
  const others = existing === -1 ? files : files.filter((f) => f.id !== file.id)
  let index = others.findIndex((f) => compareFiles(file, f, order) < 0)
  if (index === -1) {
    if (complete) index = others.length
    else if (existing !== -1) index = existing
    else return files
  }
  return [...others.slice(0, index), file, ...others.slice(index)]
}
