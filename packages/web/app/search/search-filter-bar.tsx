import { useRef } from 'react'
import { useScrollRow } from '../components/ui/use-scroll-row'
import { useT } from '../i18n/use-locale'
import { FILTER_CHOICES, type SearchFilterChoice, type SearchFilterName } from './search-filters'

const SELECT_BASE =
  'h-9 shrink-0 cursor-pointer appearance-none rounded-full border bg-[length:1rem] bg-[right_0.6rem_center] bg-no-repeat py-0 pr-8 pl-3.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-500'
/** A chevron drawn in the select's background (`appearance-none` drops the native one). */
const CHEVRON = "bg-[url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%2364748b' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='m6 9 6 6 6-6'/%3E%3C/svg%3E\")]"
const IDLE = 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800 dark:[color-scheme:dark]'
const SET = 'border-brand-600 bg-brand-50 text-brand-800 dark:border-brand-400 dark:bg-brand-900/50 dark:text-brand-100 dark:[color-scheme:dark]'

/**
 * The results' filters (type, category, modified, size), each a native select: one tap on a
 * phone, the platform's own picker, and nothing to load. A filter that is set stands out.
 */
export function SearchFilterBar({ choice, onChange }: { choice: SearchFilterChoice; onChange(choice: SearchFilterChoice): void }) {
  const { t } = useT()
  const set = <K extends SearchFilterName>(name: K, value: SearchFilterChoice[K]) => onChange({ ...choice, [name]: value })
  const row = useRef<HTMLDivElement>(null)
  const rowStyle = useScrollRow(row)
  return (
    // On a phone the four filters wrap onto a second line: scrolled sideways, the last one showed
    // as a sliver at the edge that few would find. From `sm` up they fit on one line, which
    // scrolls (with the faded edge) only when a language's words run long.
    // relative: the filters' visually hidden labels (absolute) are clipped by this row, not laid
    // out past the screen's edge (with Chinese fonts they widened the page).
    <div ref={row} style={rowStyle} role="group" aria-label={t('drive.search.filters.label')} className="relative flex min-w-0 flex-wrap items-center gap-2 overflow-x-auto py-1 sm:flex-nowrap" data-testid="search-filters">
      <FilterSelect name="kind" label={t('drive.search.filters.kind.label')} value={choice.kind} text={(value) => t(`drive.search.filters.kind.${value}`)} onChange={(value) => set('kind', value)} />
      <FilterSelect name="category" label={t('drive.search.filters.category.label')} value={choice.category} text={(value) => t(`drive.search.filters.category.${value}`)} onChange={(value) => set('category', value)} />
      <FilterSelect name="modified" label={t('drive.search.filters.modified.label')} value={choice.modified} text={(value) => t(`drive.search.filters.modified.${value}`)} onChange={(value) => set('modified', value)} />
      <FilterSelect name="size" label={t('drive.search.filters.size.label')} value={choice.size} text={(value) => t(`drive.search.filters.size.${value}`)} onChange={(value) => set('size', value)} />
    </div>
  )
}

function FilterSelect<K extends SearchFilterName>({ name, label, value, text, onChange }: { name: K; label: string; value: SearchFilterChoice[K]; text(value: SearchFilterChoice[K]): string; onChange(value: SearchFilterChoice[K]): void }) {
  const choices = FILTER_CHOICES[name] as readonly SearchFilterChoice[K][]
  return (
    <label className="shrink-0">
      <span className="sr-only">{label}</span>
      <select value={value} onChange={(event) => onChange(event.target.value as SearchFilterChoice[K])} className={`${SELECT_BASE} ${CHEVRON} ${value === 'any' ? IDLE : SET}`} data-testid={`search-filter-${name}`}>
        {choices.map((choiceValue) => (
          <option key={choiceValue} value={choiceValue}>
            {text(choiceValue)}
          </option>
        ))}
      </select>
    </label>
  )
}
