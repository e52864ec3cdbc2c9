import type { ReactNode } from 'react'

/** A surface for forms and panels. */
export function Card({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <div className={`rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900 ${className}`}>{children}</div>
}
