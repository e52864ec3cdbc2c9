import type { ReactNode } from 'react'

/** A section's eyebrow, heading (h2) and introduction, centred or left-aligned. */
export function SectionHeading({ id, eyebrow, title, children, align = 'center' }: { id: string; eyebrow?: string; title: string; children?: ReactNode; align?: 'center' | 'left' }) {
  return (
    <div className={align === 'center' ? 'mx-auto max-w-2xl text-center' : 'max-w-2xl'}>
      {eyebrow ? <p className="text-sm font-semibold uppercase tracking-wider text-brand-700 dark:text-brand-300">{eyebrow}</p> : null}
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
        {title}
      </h2>
      {children ? <p className="mt-4 text-lg leading-relaxed text-slate-600 dark:text-slate-300">{children}</p> : null}
    </div>
  )
}
