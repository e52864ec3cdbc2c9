import { type DriveSearchFilters, FILE_CATEGORIES, FILE_KIND, type FileCategory, FOLDER_KIND } from '@cumulus/protocol'

/** The choices of the results page's filters; each is a query parameter of /search/associate. */
export const KIND_CHOICES = ['any', 'file', 'folder'] as const
export const CATEGORY_CHOICES = ['any', ...FILE_CATEGORIES] as const
export const MODIFIED_CHOICES = ['any', 'day', 'week', 'month', 'year'] as const
export const SIZE_CHOICES = ['any', 'small', 'medium', 'large', 'huge'] as const

export interface SearchFilterChoice {
  kind: (typeof KIND_CHOICES)[number]
  category: 'any' | FileCategory
  modified: (typeof MODIFIED_CHOICES)[number]
  size: (typeof SIZE_CHOICES)[number]
}

export type SearchFilterName = keyof SearchFilterChoice

export const FILTER_CHOICES: { [K in SearchFilterName]: readonly SearchFilterChoice[K][] } = {
  kind: KIND_CHOICES,
  category: CATEGORY_CHOICES,
  modified: MODIFIED_CHOICES,
  size: SIZE_CHOICES,
}

export const NO_FILTERS: SearchFilterChoice = Object.freeze({ kind: 'any', category: 'any', modified: 'any', size: 'any' })

const DAY_MS = 24 * 60 * 60 * 1000
const MODIFIED_WITHIN_DAYS: Record<Exclude<SearchFilterChoice['modified'], 'any'>, number> = { day: 1, week: 7, month: 30, year: 365 }
const MiB = 1024 ** 2
const GiB = 1024 ** 3
/** Size bands in bytes: (above, below), both exclusive as the server compares them. */
const SIZE_BANDS: Record<Exclude<SearchFilterChoice['size'], 'any'>, { gt?: number; lt?: number }> = {
  small: { lt: MiB },
  medium: { gt: MiB, lt: 100 * MiB },
  large: { gt: 100 * MiB, lt: GiB },
  huge: { gt: GiB },
}

function pick<T extends string>(choices: readonly T[], value: string | null): T {
  return choices.find((choice) => choice === value) ?? choices[0]!
}

/** The filters a results URL asks for; an unknown value is no filter. */
export function readFilterChoice(params: URLSearchParams): SearchFilterChoice {
  return {
    kind: pick(KIND_CHOICES, params.get('kind')),
    category: pick(CATEGORY_CHOICES, params.get('category')),
    modified: pick(MODIFIED_CHOICES, params.get('modified')),
    size: pick(SIZE_CHOICES, params.get('size')),
  }
}

/** `params` with the filters written in (a filter at `any` leaves the URL). */
export function writeFilterChoice(params: URLSearchParams, choice: SearchFilterChoice): URLSearchParams {
  const next = new URLSearchParams(params)
  for (const name of Object.keys(FILTER_CHOICES) as SearchFilterName[]) {
    if (choice[name] === 'any') next.delete(name)
    else next.set(name, choice[name])
  }
  return next
}

export function hasFilters(choice: SearchFilterChoice): boolean {
  return (Object.keys(FILTER_CHOICES) as SearchFilterName[]).some((name) => choice[name] !== 'any')
}

/** The `filters` of `GET /drive/v1/search` for a choice; "modified within" counts back from `now`. */
export function toSearchFilters(choice: SearchFilterChoice, now: Date): DriveSearchFilters {
  const filters: DriveSearchFilters = {}
  if (choice.kind !== 'any') filters.kind = { eq: choice.kind === 'folder' ? FOLDER_KIND : FILE_KIND }
  if (choice.category !== 'any') filters.file_category = { in: choice.category }
  if (choice.modified !== 'any') filters.modified_time = { gt: new Date(now.getTime() - MODIFIED_WITHIN_DAYS[choice.modified] * DAY_MS).toISOString() }
  if (choice.size !== 'any') filters.size = { ...SIZE_BANDS[choice.size] }
  return filters
}
