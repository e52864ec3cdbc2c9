import type { ReactNode } from 'react'
import { type FeatureStatus, StatusBadge } from './status-badge'

export interface Feature {
  key: string
  icon: ReactNode
  title: string
  body: string
  status: FeatureStatus
}

/** Feature cards: an icon, a title (h3), what it does and whether it works today. */
export function FeatureGrid({ features }: { features: Feature[] }) {
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
      {features.map((feature) => (
        <li key={feature.key} className="group flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md dark:border-slate-800 dark:bg-slate-900">
          <div className="flex items-start justify-between gap-3">
            <span className="inline-flex size-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700 ring-1 ring-inset ring-brand-100 dark:bg-brand-900/50 dark:text-brand-200 dark:ring-brand-800">{feature.icon}</span>
            <StatusBadge status={feature.status} />
          </div>
          <h3 className="mt-5 text-lg font-semibold tracking-tight text-slate-900 dark:text-white">{feature.title}</h3>
          <p className="mt-2 text-sm leading-relaxed text-slate-600 dark:text-slate-300">{feature.body}</p>
        </li>
      ))}
    </ul>
  )
}

const iconProps = { viewBox: '0 0 24 24', className: 'size-6', fill: 'none', stroke: 'currentColor', strokeWidth: 1.7, strokeLinecap: 'round', strokeLinejoin: 'round', 'aria-hidden': true } as const

/** Line icons for the features (decorative: the card's title names the feature). */
export const FEATURE_ICONS = {
  drive: (
    <svg {...iconProps}>
      <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
      <path d="M3 10h18" />
    </svg>
  ),
  download: (
    <svg {...iconProps}>
      <path d="M7 18a4.5 4.5 0 0 1-.5-8.97A6 6 0 0 1 18 8.5a4 4 0 0 1-.5 9.5" />
      <path d="M12 11v9m-3-3 3 3 3-3" />
    </svg>
  ),
  decompress: (
    <svg {...iconProps}>
      <rect x="4" y="7" width="16" height="13" rx="2" />
      <path d="M3 7h18V5a1 1 0 0 0-1-1H4a1 1 0 0 0-1 1z" />
      <path d="M12 4v2m0 2v2m0 2v2" />
    </svg>
  ),
  search: (
    <svg {...iconProps}>
      <circle cx="11" cy="11" r="6" />
      <path d="M20 20l-4.5-4.5" />
    </svg>
  ),
  vip: (
    <svg {...iconProps}>
      <path d="M3 8l4.5 4L12 5l4.5 7L21 8l-2 11H5z" />
    </svg>
  ),
  account: (
    <svg {...iconProps}>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 20a8 8 0 0 1 16 0" />
    </svg>
  ),
  languages: (
    <svg {...iconProps}>
      <path d="M4 5h9M8.5 3v2M6 5c.5 3 2.5 5.5 5 7M11 5c-.8 3.5-3.5 6.5-7 8" />
      <path d="M13 21l4-9 4 9M14.5 18h5" />
    </svg>
  ),
  install: (
    <svg {...iconProps}>
      <rect x="7" y="2.5" width="10" height="19" rx="2" />
      <path d="M12 7v7m-3-3 3 3 3-3M10.5 18.5h3" />
    </svg>
  ),
  server: (
    <svg {...iconProps}>
      <rect x="3" y="4" width="18" height="7" rx="2" />
      <rect x="3" y="13" width="18" height="7" rx="2" />
      <path d="M7 7.5h.01M7 16.5h.01" />
    </svg>
  ),
  lock: (
    <svg {...iconProps}>
      <rect x="4" y="10" width="16" height="11" rx="2" />
      <path d="M8 10V7a4 4 0 0 1 8 0v3" />
    </svg>
  ),
  protocol: (
    <svg {...iconProps}>
      <path d="M8 6l-6 6 6 6M16 6l6 6-6 6M14 4l-4 16" />
    </svg>
  ),
} satisfies Record<string, ReactNode>
