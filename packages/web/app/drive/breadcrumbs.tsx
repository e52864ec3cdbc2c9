import type { ReactNode } from 'react'
import { useT } from '../i18n/use-locale'
import { DeferredMenu } from '../components/lazy/deferred-menu'
import { menuContentClass } from '../components/ui/menu-styles'
import { ChevronRightIcon, MoreIcon } from './icons'
import type { PathStep } from './folder-path'

/** Steps shown in full before the middle ones fold into a menu (root, …, parent, current). */
const MAX_VISIBLE = 4

export interface BreadcrumbsProps {
  steps: readonly PathStep[]
  /** A link (or button) to a step above the current one. */
  renderStep(step: PathStep, className: string): ReactNode
  /** Called when a folded step is chosen from the menu. */
  onChoose(step: PathStep): void
  /** The accessible name of the navigation landmark (none inside dialogs). */
  label?: string
  /** The current folder's name as a page heading (h1) or plain text. */
  headingLevel?: 1 | null
  className?: string
}

const stepClass = 'max-w-[12rem] truncate rounded-lg px-2 py-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-500 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white'

/**
 * The path from the root to the current folder. A deep path keeps the root, the parent and the
 * current folder and folds the rest into a menu, so it fits a phone.
 */
export function Breadcrumbs({ steps, renderStep, onChoose, label, headingLevel = null, className = '' }: BreadcrumbsProps) {
  const { t } = useT()
  const current = steps[steps.length - 1]
  const above = steps.slice(0, -1)
  const folded = above.length + 1 > MAX_VISIBLE ? above.slice(1, above.length - 1) : []
  const shown = folded.length > 0 ? [above[0]!, null, above[above.length - 1]!] : above

  const currentName = current ? (
    headingLevel === 1 ? (
      <h1 className="truncate px-2 py-1 text-lg font-semibold tracking-tight text-slate-900 dark:text-white" aria-current="page">
        {current.name}
      </h1>
    ) : (
      <span className="truncate px-2 py-1 font-semibold text-slate-900 dark:text-white" aria-current="page">
        {current.name}
      </span>
    )
  ) : null

  const list = (
    <ol className="flex min-w-0 items-center gap-0.5 text-sm">
      {shown.map((step, index) => (
        <li key={step ? step.id || 'root' : 'folded'} className="flex min-w-0 shrink items-center gap-0.5">
          {step ? (
            renderStep(step, stepClass)
          ) : (
            <DeferredMenu
              modal={false}
              trigger={{ className: 'inline-flex size-8 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-500 dark:text-slate-300 dark:hover:bg-slate-800', 'aria-label': t('drive.breadcrumb.hidden') }}
              content={{ align: 'start', sideOffset: 4, className: menuContentClass }}
              items={(Menu) =>
                folded.map((hidden) => (
                  <Menu.Item key={hidden.id} onSelect={() => onChoose(hidden)} className="flex cursor-default items-center rounded-lg px-3 py-2 text-sm outline-none select-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800">
                    <span className="max-w-[16rem] truncate">{hidden.name}</span>
                  </Menu.Item>
                ))
              }
            >
              <MoreIcon className="size-4 rotate-90" />
            </DeferredMenu>
          )}
          {index < shown.length ? <ChevronRightIcon className="size-4 shrink-0 text-slate-400 dark:text-slate-500" /> : null}
        </li>
      ))}
      <li className="flex min-w-0 items-center">{currentName}</li>
    </ol>
  )
  return label ? (
    <nav aria-label={label} className={`min-w-0 ${className}`}>
      {list}
    </nav>
  ) : (
    <div className={`min-w-0 ${className}`}>{list}</div>
  )
}
