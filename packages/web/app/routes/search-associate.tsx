import { type FormEvent, useEffect, useMemo, useState } from 'react'
import { useSearchParams } from 'react-router'
import { SearchIllustration } from '../components/marketing/illustrations'
import { PageTitle } from '../components/page-title'
import { Button } from '../components/ui/button'
import { inputClass } from '../components/ui/text-field'
import { parseAssociateSuggestions } from '../drive/drive-replies'
import { type DriveCall, useDriveRequest } from '../drive/drive-request'
import { DriveStateNotice } from '../drive/drive-state-notice'
import { useT } from '../i18n/use-locale'

/** Typing pauses this long before suggestions are asked for. */
const SUGGEST_DELAY_MS = 300
const SUGGESTION_LIMIT = 10

export default function SearchAssociatePage() {
  const { t } = useT()
  const [params, setParams] = useSearchParams()
  const [text, setText] = useState(() => params.get('q') ?? '')
  const [term, setTerm] = useState(() => (params.get('q') ?? '').trim())
  const [attempt, setAttempt] = useState(0)

  // Suggestions follow the typing, after a short pause.
  useEffect(() => {
    const next = text.trim()
    if (next === term) return
    const timer = setTimeout(() => setTerm(next), SUGGEST_DELAY_MS)
    return () => clearTimeout(timer)
  }, [text, term])

  const call = useMemo<DriveCall | null>(() => (term ? { method: 'GET', path: '/drive/v1/search/associate', query: { q: term, limit: SUGGESTION_LIMIT } } : null), [term])
  const state = useDriveRequest(call, parseAssociateSuggestions, attempt)

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const next = text.trim()
    setTerm(next)
    setParams(next ? { q: next } : {}, { replace: true, preventScrollReset: true })
  }

  return (
    <>
      <PageTitle title={t('pages.search.title')} description={t('pages.search.description')} />
      <section aria-labelledby="search-title" className="mx-auto max-w-3xl px-4 py-14 sm:px-6 sm:py-20">
        <div className="text-center">
          <h1 id="search-title" className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
            {t('pages.search.heading')}
          </h1>
          <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{t('pages.search.lead')}</p>
        </div>

        <form role="search" onSubmit={onSubmit} className="mt-10 flex flex-col gap-3 sm:flex-row">
          <label htmlFor="search-query" className="sr-only">
            {t('pages.search.label')}
          </label>
          <div className="relative flex-1">
            <svg viewBox="0 0 20 20" className="pointer-events-none absolute left-3.5 top-1/2 size-5 -translate-y-1/2 text-slate-500 dark:text-slate-400" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" aria-hidden="true">
              <circle cx="9" cy="9" r="5.5" />
              <path d="M13 13l4 4" />
            </svg>
            <input
              id="search-query"
              name="q"
              type="search"
              autoComplete="off"
              spellCheck={false}
              value={text}
              onChange={(event) => setText(event.target.value)}
              placeholder={t('pages.search.placeholder')}
              className={`${inputClass} h-12 pl-11`}
            />
          </div>
          <Button type="submit" className="h-12">
            {t('pages.search.submit')}
          </Button>
        </form>

        <div id="search-results" aria-live="polite" className="mt-8 min-h-64 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
          {state.status === 'idle' ? (
            <div className="flex flex-col items-center px-4 py-10 text-center">
              <SearchIllustration className="w-40" />
              <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">{t('pages.search.idle')}</p>
            </div>
          ) : state.status === 'ready' ? (
            state.data.length === 0 ? (
              <p className="px-4 py-12 text-center text-slate-600 dark:text-slate-300">{t('pages.search.empty', { query: term })}</p>
            ) : (
              <div>
                <h2 className="border-b border-slate-200 px-5 py-3 text-sm font-semibold text-slate-700 dark:border-slate-800 dark:text-slate-200">{t('pages.search.resultsHeading')}</h2>
                <ul className="divide-y divide-slate-100 dark:divide-slate-800">
                  {state.data.map((word) => (
                    <li key={word}>
                      <button
                        type="button"
                        onClick={() => setText(word)}
                        className="flex w-full items-center gap-3 px-5 py-3 text-left text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-500 dark:text-slate-100 dark:hover:bg-slate-800"
                      >
                        <svg viewBox="0 0 20 20" className="size-4 shrink-0 text-slate-500 dark:text-slate-400" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" aria-hidden="true">
                          <circle cx="9" cy="9" r="5.5" />
                          <path d="M13 13l4 4" />
                        </svg>
                        {word}
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            )
          ) : (
            <DriveStateNotice state={state} loadingText={t('pages.search.loading')} unavailableText={t('pages.search.unavailable')} onRetry={() => setAttempt((n) => n + 1)} />
          )}
        </div>
      </section>
    </>
  )
}
