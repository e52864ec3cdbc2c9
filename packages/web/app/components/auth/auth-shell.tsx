import type { ReactNode, Ref } from 'react'
import { Logo } from '../logo'
import { Card } from '../ui/card'

/**
 * The frame of the sign-in, sign-up, recovery and unregister pages: mark, heading, card, footer.
 * `headingRef` makes the heading focusable by script, for flows that move focus to it when
 * their step changes.
 */
export function AuthShell({ heading, subtitle, children, footer, headingRef }: { heading: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode; headingRef?: Ref<HTMLHeadingElement> }) {
  return (
    <section className="relative isolate" aria-labelledby="auth-heading">
      <div aria-hidden="true" className="absolute inset-x-0 top-0 -z-10 h-72 bg-linear-to-b from-brand-50 to-transparent dark:from-brand-900/25" />
      <div className="mx-auto flex w-full max-w-md flex-col px-4 py-10 sm:py-16">
        <div className="mb-6 text-center">
          <Logo className="mx-auto size-12 drop-shadow-sm" />
          <h1 id="auth-heading" ref={headingRef} tabIndex={headingRef ? -1 : undefined} className="mt-4 text-2xl font-bold tracking-tight break-words text-slate-900 outline-none sm:text-3xl dark:text-white">
            {heading}
          </h1>
          {subtitle ? <p className="mt-2 text-sm text-pretty text-slate-600 dark:text-slate-300">{subtitle}</p> : null}
        </div>
        <Card className="p-5 sm:p-8">{children}</Card>
        {footer ? <div className="mt-6 text-center text-sm text-slate-600 dark:text-slate-300">{footer}</div> : null}
      </div>
    </section>
  )
}

/** A link inside auth copy: brand coloured, contrast-safe in both themes. */
export const textLinkClass =
  'rounded font-semibold text-brand-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 dark:text-brand-300'

/** A link that looks like the primary Button (navigation must stay a link for assistive technology). */
export const primaryLinkClass =
  'inline-flex h-11 items-center justify-center gap-2 rounded-xl bg-brand-600 px-5 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500'

/** A link that looks like the secondary Button. */
export const secondaryLinkClass =
  'inline-flex h-11 items-center justify-center gap-2 rounded-xl border border-slate-300 bg-white px-5 text-sm font-semibold text-slate-800 transition-colors hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800'
