/**
 * Links that look like the app's buttons (ui/button.tsx has the same shapes): a call to action
 * that navigates must stay a link, for middle-click, "open in new tab" and screen readers.
 * Each class string sets every size and colour once, so no two utilities fight.
 */
const shape =
  'relative inline-flex items-center justify-center gap-2 rounded-xl font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2'
const normal = 'h-11 px-5 text-sm'
const large = 'h-12 px-6 text-base'
const primary = 'bg-brand-600 text-white shadow-sm hover:bg-brand-700 focus-visible:outline-brand-500'
const secondary =
  'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 focus-visible:outline-brand-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800'

export const primaryLinkClass = `${shape} ${normal} ${primary}`

export const secondaryLinkClass = `${shape} ${normal} ${secondary}`

/** A primary link whose long label may wrap (a phone, a long language): at least as tall as the others, taller when it must. */
export const primaryWrappingLinkClass = `${shape} min-h-11 px-5 py-2.5 text-center text-sm text-balance ${primary}`

/** Larger links for heroes. */
export const heroPrimaryLinkClass = `${shape} ${large} ${primary}`

export const heroSecondaryLinkClass = `${shape} ${large} ${secondary}`

/** A white call to action on a dark brand-coloured band. */
export const invertedLinkClass = `${shape} ${large} bg-white text-brand-800 shadow-sm hover:bg-brand-50 focus-visible:outline-white`

/** An inline text link. */
export const textLinkClass =
  'rounded-sm font-semibold text-brand-700 underline decoration-brand-300 underline-offset-4 hover:decoration-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 dark:text-brand-300 dark:decoration-brand-700 dark:hover:decoration-brand-300'
