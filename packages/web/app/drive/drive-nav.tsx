import { useRef } from 'react'
import { useScrollRow } from '../components/ui/use-scroll-row'
import { useT } from '../i18n/use-locale'
import { LocaleLink } from '../navigation/locale-link'
import type { DriveView } from './file-actions'
import { HomeDriveIcon, ShareIcon, StarIcon, TrashIcon } from './icons'

const VIEWS = [
  { view: 'folder', page: 'drive', label: 'drive.nav.myDrive', Icon: HomeDriveIcon },
  { view: 'starred', page: 'drive-starred', label: 'drive.nav.starred', Icon: StarIcon },
  { view: 'shares', page: 'drive-shares', label: 'drive.share.nav', Icon: ShareIcon },
  { view: 'trash', page: 'drive-trash', label: 'drive.nav.trash', Icon: TrashIcon },
] as const

/**
 * My drive, Starred, My shares and Trash: a column beside the list on wide screens, a row of
 * tabs above it on phones. "My drive" stays current inside any folder.
 */
export function DriveNav({ current, layout }: { current: DriveView | 'shares'; layout: 'column' | 'row' }) {
  const { t } = useT()
  const row = useRef<HTMLUListElement>(null)
  const rowStyle = useScrollRow(row, { key: current })
  return (
    <nav aria-label={t('drive.nav.label')} className={layout === 'row' ? 'border-b border-slate-200 dark:border-slate-800' : ''}>
      <ul ref={row} style={layout === 'row' ? rowStyle : undefined} className={layout === 'row' ? 'relative flex gap-1 overflow-x-auto px-1' : 'space-y-0.5'}>
        {VIEWS.map(({ view, page, label, Icon }) => {
          const active = view === current
          return (
            <li key={view}>
              <LocaleLink
                page={page}
                aria-current={active ? 'page' : undefined}
                className={
                  layout === 'row'
                    ? `inline-flex h-11 items-center gap-2 border-b-2 px-3 text-sm font-medium whitespace-nowrap ${active ? 'border-brand-600 text-brand-700 dark:border-brand-400 dark:text-brand-300' : 'border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white'}`
                    : `flex h-10 items-center gap-3 rounded-full px-4 text-sm font-medium ${active ? 'bg-brand-100 text-brand-900 dark:bg-brand-900/60 dark:text-brand-50' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800'}`
                }
              >
                {/* On a phone the four tabs fit side by side only as words (in Chinese with its own fonts too). */}
                <Icon className={layout === 'row' ? 'hidden size-5 sm:block' : 'size-5'} />
                {t(label)}
              </LocaleLink>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
