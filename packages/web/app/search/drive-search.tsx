import { type DriveAssociate, type DriveFile, FOLDER_KIND, type Locale, SEARCH_QUERY_MAX_CHARS } from '@cumulus/protocol'
import { useMemo } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { Button } from '../components/ui/button'
import type { DriveApi } from '../drive/drive-api'
import { FolderOpenIcon, SearchIcon } from '../drive/icons'
import { revealPath } from '../drive/reveal'
import { useLocale, useT } from '../i18n/use-locale'
import { pagePath } from '../navigation/locale-link'
import { folderLabel, searchParamsOf } from './folder-location'
import { SearchBox } from './search-box'
import { readFilterChoice, type SearchFilterChoice, writeFilterChoice } from './search-filters'

/** What the results page (`/search/associate`) shows: the query and the filters, from its URL. */
export interface SearchRequest {
  query: string
  filters: SearchFilterChoice
}

/** The query and filters of the results page's URL (`q`, `kind`, `category`, `modified`, `size`). */
export function useSearchRequest(): SearchRequest {
  const [params] = useSearchParams()
  const query = (params.get('q') ?? '').trim().slice(0, SEARCH_QUERY_MAX_CHARS)
  const { kind, category, modified, size } = readFilterChoice(params)
  return useMemo(() => ({ query, filters: { kind, category, modified, size } }), [query, kind, category, modified, size])
}

/** The results page of `query`, keeping the filters of `current` (a new query typed on the results page). */
export function searchPath(locale: Locale, query: string, current?: URLSearchParams): string {
  const params = writeFilterChoice(new URLSearchParams({ q: query }), current ? readFilterChoice(current) : readFilterChoice(new URLSearchParams()))
  return pagePath('search-associate', locale, {}, `?${params.toString()}`)
}

/**
 * The search box in the drive's bar, wired to the pages: Enter opens the results page; a folder
 * suggestion opens the folder; a file suggestion opens the folder it is in with it selected
 * (its parent is read first: a suggestion names its folder's path, not its id).
 */
export function DriveSearchBox({ api, accountId, request, onError }: { api: Pick<DriveApi, 'associate' | 'get'>; accountId: string; request?: SearchRequest; onError(error: unknown): void }) {
  const navigate = useNavigate()
  const locale = useLocale()
  const [params] = useSearchParams()
  return (
    <SearchBox
      api={api}
      accountId={accountId}
      query={request?.query ?? ''}
      collapsible
      onSearch={(query) => void navigate(searchPath(locale, query, request ? params : undefined))}
      onChoose={(suggestion: DriveAssociate) => {
        if (suggestion.kind === FOLDER_KIND) void navigate(pagePath('drive-folder', locale, { folderId: suggestion.file_id }))
        else api.get(suggestion.file_id).then((file) => void navigate(revealPath(locale, file.parent_id, file.id)), onError)
      }}
    />
  )
}

/**
 * Where a result is: its folder, as a link that opens it with the result selected. Out of the
 * keyboard's tab order, like everything inside a row (the row's menu has "Show in folder").
 */
export function ResultLocation({ file }: { file: DriveFile }) {
  const { t } = useT()
  const locale = useLocale()
  const params = searchParamsOf(file)
  if (!params) return null
  const label = folderLabel(params.path, t('drive.nav.myDrive'))
  return (
    <Link
      to={revealPath(locale, file.parent_id, file.id)}
      tabIndex={-1}
      title={t('drive.search.openFolder', { folder: label })}
      onClick={(event) => event.stopPropagation()}
      onDoubleClick={(event) => event.stopPropagation()}
      className="inline-flex max-w-full items-center gap-1 text-slate-600 hover:text-brand-700 hover:underline dark:text-slate-300 dark:hover:text-brand-300"
      data-testid="result-location"
    >
      <FolderOpenIcon className="size-3.5 shrink-0" />
      <span className="truncate">{label}</span>
    </Link>
  )
}

const PANEL = 'mx-3 mt-4 flex flex-col items-center rounded-3xl border-2 border-dashed border-slate-200 px-6 py-16 text-center sm:mx-0 dark:border-slate-800'
const BADGE = 'inline-flex size-16 items-center justify-center rounded-full bg-brand-50 text-brand-600 dark:bg-brand-900/40 dark:text-brand-300'

/** The results page without a query. */
export function SearchIdle() {
  const { t } = useT()
  return (
    <div className={PANEL} data-testid="search-idle">
      <span className={BADGE} aria-hidden="true">
        <SearchIcon className="size-8" />
      </span>
      <p className="mt-5 text-lg font-semibold text-slate-900 dark:text-white">{t('drive.search.idleTitle')}</p>
      <p className="mt-1.5 max-w-sm text-sm text-slate-600 dark:text-slate-300">{t('drive.search.idleText')}</p>
    </div>
  )
}

/** No results: what to try, and a way out of the filters when some are set. */
export function SearchEmpty({ query, filtered, onClearFilters }: { query: string; filtered: boolean; onClearFilters(): void }) {
  const { t } = useT()
  return (
    <div className={PANEL} data-testid="search-empty">
      <span className={BADGE} aria-hidden="true">
        <SearchIcon className="size-8" />
      </span>
      <p className="mt-5 text-lg font-semibold break-all text-slate-900 dark:text-white">{t('drive.search.emptyTitle', { query })}</p>
      <p className="mt-1.5 max-w-sm text-sm text-slate-600 dark:text-slate-300">{filtered ? t('drive.search.emptyFiltered') : t('drive.search.emptyText')}</p>
      {filtered ? (
        <Button variant="secondary" className="mt-6" onClick={onClearFilters}>
          {t('drive.search.clearFilters')}
        </Button>
      ) : null}
    </div>
  )
}
