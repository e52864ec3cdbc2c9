import { type ReactNode, useId } from 'react'
import { Alert } from '../ui/alert'
import { Button } from '../ui/button'
import { Spinner } from '../ui/spinner'

export interface Notice {
  tone: 'success' | 'error' | 'info'
  message: string
}

/**
 * One card of the account page: a titled region with an optional description; `id` makes it a
 * link target (`/account/home#membership`), which stops clear of the sticky header (two rows on a
 * phone).
 */
export function Section({ title, description, children, tone = 'default', testId, id }: { title: string; description?: ReactNode; children: ReactNode; tone?: 'default' | 'danger'; testId?: string; id?: string }) {
  const headingId = useId()
  const border = tone === 'danger' ? 'border-red-200 dark:border-red-900/70' : 'border-slate-200 dark:border-slate-800'
  return (
    <section id={id} aria-labelledby={headingId} data-testid={testId} className={`scroll-mt-28 rounded-2xl border bg-white shadow-sm dark:bg-slate-900 ${border}`}>
      <header className="px-5 pt-5 sm:px-7 sm:pt-6">
        <h2 id={headingId} className={`text-lg font-semibold tracking-tight ${tone === 'danger' ? 'text-red-700 dark:text-red-300' : 'text-slate-900 dark:text-white'}`}>
          {title}
        </h2>
        {description ? <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p> : null}
      </header>
      <div className="px-5 pb-5 pt-3 sm:px-7 sm:pb-6">{children}</div>
    </section>
  )
}

/**
 * A labelled row of a section's list: label, value and an action. `children` (a form opened from
 * the action) appears under the row, inside the same list item.
 */
export function Row({ label, value, action, children }: { label: string; value: ReactNode; action?: ReactNode; children?: ReactNode }) {
  return (
    <div className="border-t border-slate-100 py-4 first:border-t-0 sm:grid sm:grid-cols-[10rem_minmax(0,1fr)] sm:gap-6 dark:border-slate-800">
      <dt className="text-sm font-medium text-slate-600 sm:pt-2.5 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 min-w-0 sm:mt-0">
        <div className="flex min-h-11 items-center gap-3">
          <div className="min-w-0 flex-1 break-words text-[0.95rem] text-slate-900 dark:text-slate-100">{value}</div>
          {action ? <div className="shrink-0">{action}</div> : null}
        </div>
        {children}
      </dd>
    </div>
  )
}

/**
 * Where a section's outcome appears. The live region stays mounted so a message added later is
 * announced; errors are alerts, the rest polite status messages.
 */
export function NoticeArea({ notice, className = '' }: { notice: Notice | null; className?: string }) {
  return (
    <div aria-live="polite" className={className}>
      {notice ? (
        <Alert tone={notice.tone} className="mt-3">
          {notice.message}
        </Alert>
      ) : null}
    </div>
  )
}

/** A small pill, e.g. "Yearly" or "Current". */
export function Badge({ children, tone = 'neutral', testId }: { children: ReactNode; tone?: 'neutral' | 'brand' | 'gold' | 'success'; testId?: string }) {
  const tones = {
    neutral: 'bg-slate-100 text-slate-700 ring-slate-200 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-700',
    brand: 'bg-brand-50 text-brand-800 ring-brand-200 dark:bg-brand-900/60 dark:text-brand-100 dark:ring-brand-700',
    gold: 'bg-amber-100 text-amber-900 ring-amber-300 dark:bg-amber-900/50 dark:text-amber-100 dark:ring-amber-700',
    success: 'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-900/50 dark:text-emerald-100 dark:ring-emerald-800',
  }
  return <span data-testid={testId} className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${tones[tone]}`}>{children}</span>
}

/** Classes of a compact secondary action in a row ("Edit", "Copy"); 44 px tall for touch. */
export const rowActionClass =
  'inline-flex h-11 items-center justify-center gap-1.5 rounded-xl px-3.5 text-sm font-semibold text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:opacity-50 dark:text-brand-200 dark:hover:bg-slate-800'

/** A section's list being loaded: a spinner and what is loading, announced. */
export function SectionLoading({ label }: { label: string }) {
  return (
    <div role="status" className="flex items-center gap-2 py-3 text-sm text-slate-600 dark:text-slate-400">
      <Spinner className="size-4 text-brand-600 dark:text-brand-300" />
      {label}
    </div>
  )
}

/** A section's list that could not be loaded: why, and the way to try again. */
export function SectionLoadFailed({ message, retryLabel, reloading, onRetry }: { message: string; retryLabel: string; reloading: boolean; onRetry(): void }) {
  return (
    <div className="space-y-3">
      <Alert tone="error">{message}</Alert>
      <Button variant="secondary" loading={reloading} onClick={onRetry}>
        {retryLabel}
      </Button>
    </div>
  )
}

/**
 * After a row left a list through a dialog, the dialog's closing focus goes to the button of the
 * row named by `rowId` (the next one, else the previous), else to the first of `fallbacks` that
 * is there, instead of falling to <body> with the button that opened the dialog gone.
 * `rowSelector` picks the rows and `rowKey` reads a row's id from its data attributes.
 */
export function focusAfterRowRemoved(
  event: Event,
  list: HTMLElement | null,
  rowSelector: string,
  rowKey: (row: HTMLElement) => string | undefined,
  rowId: string | null,
  fallbacks: (HTMLElement | null)[],
): void {
  const button = rowId === null ? null : [...(list?.querySelectorAll<HTMLElement>(rowSelector) ?? [])].find((row) => rowKey(row) === rowId)?.querySelector('button')
  const next = button ?? fallbacks.find((element) => element !== null) ?? null
  if (!next) return
  event.preventDefault()
  next.focus({ preventScroll: true })
}
