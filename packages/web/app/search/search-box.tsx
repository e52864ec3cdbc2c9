import { type DriveAssociate, SEARCH_QUERY_MAX_CHARS } from '@cumulus/protocol'
import { type FocusEvent, type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import type { DriveApi } from '../drive/drive-api'
import { ChevronLeftIcon, ClockIcon, FileKindIcon, fileKind, SearchIcon } from '../drive/icons'
import { usePlural } from '../drive/use-plural'
import { useT } from '../i18n/use-locale'
import { folderLabel } from './folder-location'
import { Highlighted } from './highlight'
import { useRecentSearches } from './recent-searches'
import { useSuggestions } from './use-suggestions'

/** What the list under the box offers: a recent search (the box empty) or a suggestion. */
type SearchOption = { type: 'recent'; query: string } | { type: 'suggestion'; suggestion: DriveAssociate }

export interface SearchBoxProps {
  api: Pick<DriveApi, 'associate'>
  /** Whose recent searches these are (accounts sharing a device each keep their own). */
  accountId: string
  /** The query of the page (the results page's); the box shows it, and again when it changes. */
  query?: string
  /** Below the `sm` breakpoint, only an icon until tapped, then the box over the whole bar. */
  collapsible?: boolean
  /** Runs the full search (Enter with nothing highlighted, or a recent search chosen). */
  onSearch(query: string): void
  /** A suggestion was chosen (Enter on it, or a click). */
  onChoose(suggestion: DriveAssociate): void
}

const ICON_BUTTON =
  'inline-flex size-10 shrink-0 items-center justify-center rounded-xl text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-500 sm:hidden dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white'

/**
 * The drive's search box: a combobox (WAI-ARIA APG "combobox with listbox popup"). Suggestions
 * follow the typing; Up and Down move through them (the focus stays in the box, the option is
 * named by `aria-activedescendant`), Enter opens the highlighted one or, with none, runs the
 * full search, Escape closes the list and then clears the box. With the box empty, the list
 * holds the recent searches of this device, with a button that forgets them.
 */
export function SearchBox({ api, accountId, query = '', collapsible = false, onSearch, onChoose }: SearchBoxProps) {
  const { t } = useT()
  const tp = usePlural()
  const id = useId()
  const inputId = `${id}-input`
  const listboxId = `${id}-listbox`
  const optionId = (index: number) => `${id}-option-${index}`
  const input = useRef<HTMLInputElement>(null)
  const [text, setText] = useState(query)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const [expanded, setExpanded] = useState(false)
  const recent = useRecentSearches(accountId)
  const suggestions = useSuggestions(api, text)
  const rootName = t('drive.nav.myDrive')

  // A new query for the page (a search run, Back): the box says it.
  const [pageQuery, setPageQuery] = useState(query)
  if (pageQuery !== query) {
    setPageQuery(query)
    setText(query)
  }
  // New suggestions: nothing is highlighted among them until a key says so.
  const [shownSuggestions, setShownSuggestions] = useState(suggestions.suggestions)
  if (shownSuggestions !== suggestions.suggestions) {
    setShownSuggestions(suggestions.suggestions)
    setActive(-1)
  }

  const typed = text.trim()
  const options: SearchOption[] = typed === '' ? recent.list.map((item) => ({ type: 'recent', query: item })) : suggestions.suggestions.map((suggestion) => ({ type: 'suggestion', suggestion }))
  let message: string | null = null
  if (typed !== '' && suggestions.status === 'ready' && options.length === 0) message = t('drive.search.noSuggestions')
  else if (typed !== '' && suggestions.status === 'error') message = t('drive.search.suggestionsFailed')
  const listShown = open && options.length > 0
  const popupShown = listShown || (open && message !== null)
  const activeOption = listShown && active >= 0 && active < options.length ? active : -1

  useEffect(() => {
    if (activeOption === -1) return
    document.getElementById(optionId(activeOption))?.scrollIntoView?.({ block: 'nearest' })
  }, [activeOption])

  // Opened from its icon: the focus goes to the box, its query chosen, so typing starts afresh.
  useEffect(() => {
    if (!expanded) return
    input.current?.focus()
    input.current?.select()
  }, [expanded])

  function close() {
    setOpen(false)
    setActive(-1)
  }

  /** Done with the box (a search run, a suggestion chosen): on a phone the bar shows the page again. */
  function finish() {
    close()
    setExpanded(false)
  }

  function runSearch(value: string) {
    const next = value.trim().slice(0, SEARCH_QUERY_MAX_CHARS)
    if (next === '') return
    recent.remember(next)
    finish()
    setText(next)
    onSearch(next)
  }

  function choose(option: SearchOption) {
    if (option.type === 'recent') {
      runSearch(option.query)
      return
    }
    recent.remember(typed)
    finish()
    onChoose(option.suggestion)
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    // Keys that confirm an input method's composition (Chinese, Japanese, Korean) are not ours.
    if (event.nativeEvent.isComposing || event.keyCode === 229) return
    const count = options.length
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault()
        if (!open) setOpen(true)
        if (count > 0) setActive(!listShown ? 0 : (activeOption + 1) % count)
        return
      case 'ArrowUp':
        event.preventDefault()
        if (!open) setOpen(true)
        if (count > 0) setActive(!listShown || activeOption <= 0 ? count - 1 : activeOption - 1)
        return
      case 'Enter':
        // With nothing highlighted the form submits: the full search.
        if (activeOption !== -1) {
          event.preventDefault()
          choose(options[activeOption]!)
        }
        return
      case 'Escape':
        if (popupShown) {
          event.preventDefault()
          close()
        } else if (text !== '') {
          event.preventDefault()
          setText('')
        } else if (expanded) {
          setExpanded(false)
        }
        return
    }
  }

  function onBlur(event: FocusEvent<HTMLDivElement>) {
    // Focus moving inside (to "Clear") keeps the list; anywhere else closes it.
    if (event.currentTarget.contains(event.relatedTarget as Node | null)) return
    close()
    if (text.trim() === '') setExpanded(false)
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    runSearch(text)
  }

  const status = !open || typed === '' || suggestions.status !== 'ready' ? '' : options.length > 0 ? tp('drive.search.suggestionCount', options.length) : t('drive.search.noSuggestions')

  return (
    <div onBlur={onBlur} className={collapsible ? 'shrink-0 sm:relative' : 'relative w-full'} data-testid="search-box">
      {collapsible && !expanded ? (
        <button type="button" className={ICON_BUTTON} aria-label={t('drive.search.open')} onClick={() => setExpanded(true)} data-testid="search-open">
          <SearchIcon />
        </button>
      ) : null}
      <form
        role="search"
        aria-label={t('drive.search.label')}
        onSubmit={onSubmit}
        className={
          collapsible
            ? expanded
              ? 'max-sm:absolute max-sm:inset-0 max-sm:z-40 max-sm:flex max-sm:items-center max-sm:gap-1 max-sm:bg-white max-sm:px-1 sm:w-56 md:w-72 lg:w-80 dark:max-sm:bg-slate-950'
              : 'max-sm:hidden sm:w-56 md:w-72 lg:w-80'
            : 'w-full'
        }
      >
        {collapsible && expanded ? (
          <button type="button" className={ICON_BUTTON} aria-label={t('drive.search.close')} onClick={() => setExpanded(false)}>
            <ChevronLeftIcon />
          </button>
        ) : null}
        <div className="relative min-w-0 flex-1">
          <label htmlFor={inputId} className="sr-only">
            {t('drive.search.label')}
          </label>
          <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-slate-500 dark:text-slate-400" />
          <input
            ref={input}
            id={inputId}
            type="search"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={listShown}
            aria-controls={listboxId}
            aria-activedescendant={activeOption === -1 ? undefined : optionId(activeOption)}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            enterKeyHint="search"
            maxLength={SEARCH_QUERY_MAX_CHARS}
            placeholder={t('drive.search.placeholder')}
            value={text}
            onChange={(event) => {
              setText(event.target.value)
              setOpen(true)
              setActive(-1)
            }}
            onFocus={() => setOpen(true)}
            onClick={() => setOpen(true)}
            onKeyDown={onKeyDown}
            className="h-10 w-full rounded-xl border border-slate-200 bg-slate-100 pr-3 pl-10 text-sm text-slate-900 placeholder:text-slate-500 focus:border-brand-500 focus:bg-white focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100 dark:placeholder:text-slate-400 dark:focus:bg-slate-900 [&::-webkit-search-cancel-button]:hidden"
            data-testid="search-input"
          />
          <div
            hidden={!popupShown}
            className="absolute top-full right-0 left-0 z-50 mt-1.5 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-xl sm:left-auto sm:w-[min(28rem,calc(100vw-2rem))] dark:border-slate-700 dark:bg-slate-900"
            data-testid="search-popup"
          >
            {typed === '' && options.length > 0 ? (
              <div className="flex items-center justify-between gap-2 px-4 pt-3 pb-1">
                <p className="text-xs font-semibold text-slate-600 dark:text-slate-300">{t('drive.search.recent')}</p>
                <button
                  type="button"
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => {
                    recent.clear()
                    input.current?.focus()
                  }}
                  className="rounded-md px-1.5 py-0.5 text-xs font-semibold text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500 dark:text-brand-300"
                  data-testid="search-clear-recent"
                >
                  {t('drive.search.clearRecent')}
                </button>
              </div>
            ) : null}
            <ul role="listbox" id={listboxId} aria-label={typed === '' ? t('drive.search.recent') : t('drive.search.suggestions')} hidden={!listShown} className="max-h-[min(24rem,60dvh)] overflow-y-auto p-1.5">
              {options.map((option, index) => (
                <li
                  key={option.type === 'recent' ? `recent:${option.query}` : `file:${option.suggestion.file_id}`}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === activeOption}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(option)}
                  className={`flex cursor-pointer items-center gap-3 rounded-xl px-2.5 py-2 ${index === activeOption ? 'bg-brand-50 dark:bg-brand-900/60' : 'hover:bg-slate-50 dark:hover:bg-slate-800/70'}`}
                  data-testid={option.type === 'recent' ? 'search-recent' : 'search-suggestion'}
                >
                  {option.type === 'recent' ? (
                    <>
                      <ClockIcon className="size-5 shrink-0 text-slate-500 dark:text-slate-400" />
                      <span className="min-w-0 truncate text-sm text-slate-800 dark:text-slate-100">{option.query}</span>
                    </>
                  ) : (
                    <>
                      <FileKindIcon kind={fileKind({ kind: option.suggestion.kind, file_category: option.suggestion.file_category, mime_type: '', file_extension: '', name: option.suggestion.text })} className="size-6" />
                      <span className="min-w-0 flex-1">
                        <Highlighted text={option.suggestion.text} ranges={option.suggestion.highlight} className="block truncate text-sm text-slate-900 dark:text-slate-100" />
                        <span className="block truncate text-xs text-slate-600 dark:text-slate-300">{folderLabel(option.suggestion.path, rootName)}</span>
                      </span>
                    </>
                  )}
                </li>
              ))}
            </ul>
            {message !== null ? <p className="px-4 py-3 text-sm text-slate-600 dark:text-slate-300">{message}</p> : null}
          </div>
          <p role="status" className="sr-only">
            {status}
          </p>
        </div>
      </form>
    </div>
  )
}
