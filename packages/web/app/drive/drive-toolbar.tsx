import type { DriveFile, DriveOrderField } from '@cumulus/protocol'
import type { ReactNode } from 'react'
import { useT } from '../i18n/use-locale'
import { DeferredMenu } from '../components/lazy/deferred-menu'
import type { MenuKit } from '../components/lazy/menu-types'
import { menuContentClass } from '../components/ui/menu-styles'
import { ActionIcon, useActionLabel } from './action-labels'
import { actionsFor, type DriveView, type FileAction } from './file-actions'
import { ArrowDownIcon, ArrowUpIcon, CheckIcon, CloseIcon, CloudDownloadIcon, FileUploadIcon, FolderPlusIcon, FolderUploadIcon, MoreIcon, PlusIcon, SortIcon, TrashIcon } from './icons'
import type { ListingOrder } from './listing'
import { usePlural } from './use-plural'
import type { DriveLayout } from './use-remembered-layout'

const iconBase =
  'inline-flex shrink-0 items-center justify-center rounded-xl text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-500 disabled:opacity-40 dark:text-slate-300 dark:hover:text-white'
const iconButton = `${iconBase} size-10 hover:bg-slate-100 dark:hover:bg-slate-800`
/** The selection bar's buttons (a hover colour that shows on its tinted background). */
const barButton = `${iconBase} size-9 hover:bg-brand-100 dark:hover:bg-brand-800/60`
const textBase = 'inline-flex shrink-0 items-center gap-2 rounded-xl text-sm focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-500'
const textButton = `${textBase} h-10 px-3.5 font-semibold`
const itemClass = 'flex cursor-default items-center gap-2.5 rounded-lg px-3 py-2 text-sm outline-none select-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800'

function MenuItem({ Menu, onSelect, children, testId }: { Menu: MenuKit; onSelect(): void; children: ReactNode; testId?: string }) {
  return (
    <Menu.Item onSelect={onSelect} className={itemClass} data-testid={testId}>
      {children}
    </Menu.Item>
  )
}

export interface DriveToolbarProps {
  view: DriveView
  /** The title block: breadcrumbs or the view's heading. */
  heading: ReactNode
  selected: readonly DriveFile[]
  onAction(action: FileAction, targets: DriveFile[]): void
  onClearSelection(): void
  order: ListingOrder
  onOrderChange(order: ListingOrder): void
  onNewFolder?(): void
  onUploadFiles?(): void
  onUploadFolder?(): void
  /** Opens cloud download with this folder as the target. */
  onCloudDownload?(): void
  onEmptyTrash?(): void
  /** Whether the trash has anything (for "Empty trash"). */
  hasItems: boolean
  /** How many items the list holds, once every page is loaded; null before. */
  itemCount: number | null
  /** A line about this view in place of the count (the trash's retention). */
  note?: string
  layout?: DriveLayout
  onLayoutChange?(layout: DriveLayout): void
  /** The search box, between the title and the actions. */
  search?: ReactNode
  /** The search results' filters, in place of the sort and layout controls. */
  filters?: ReactNode
}

const LAYOUT_ICONS: Record<DriveLayout, string> = {
  list: 'M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01',
  grid: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
}

/**
 * The bars above the list. The first holds the folder path and what can be done here (new
 * folder, upload, empty the trash); it stays put whatever is selected. The second shows how
 * the list is sorted (and how many items it holds once all are loaded), or, while items are
 * selected, what can be done to them; it keeps its height either way, so the list does not
 * jump. On a phone the selection's actions fold into a menu after the most used one.
 */
export function DriveToolbar({ view, heading, selected, onAction, onClearSelection, order, onOrderChange, onNewFolder, onUploadFiles, onUploadFolder, onCloudDownload, onEmptyTrash, hasItems, itemCount, note, layout, onLayoutChange, search, filters }: DriveToolbarProps) {
  const { t } = useT()
  const tp = usePlural()
  const actionLabel = useActionLabel()

  const sortMenu = (
    <DeferredMenu
      modal={false}
      trigger={{
        className: `${textBase} h-9 px-2.5 font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white`,
        'aria-label': t('drive.toolbar.sortState', { field: t(`drive.sort.${order.field}`), direction: order.direction === 'asc' ? t('drive.toolbar.ascending') : t('drive.toolbar.descending') }),
        'data-testid': 'sort-menu',
      }}
      content={{ align: 'end', sideOffset: 4, className: menuContentClass }}
      items={(Menu) => (
        <>
          <Menu.Label className="px-3 pt-1.5 pb-1 text-xs font-semibold text-slate-500 dark:text-slate-400">{t('drive.toolbar.sortBy')}</Menu.Label>
          <Menu.RadioGroup value={order.field} onValueChange={(field) => onOrderChange({ ...order, field: field as DriveOrderField })}>
            {(['name', 'size', 'modified_time'] as const).map((field) => (
              <Menu.RadioItem key={field} value={field} className={`${itemClass} relative pl-8`}>
                <Menu.ItemIndicator className="absolute left-2.5">
                  <CheckIcon className="size-4" />
                </Menu.ItemIndicator>
                {t(`drive.sort.${field}`)}
              </Menu.RadioItem>
            ))}
          </Menu.RadioGroup>
          <Menu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-700" />
          <Menu.Label className="px-3 pt-1.5 pb-1 text-xs font-semibold text-slate-500 dark:text-slate-400">{t('drive.toolbar.order')}</Menu.Label>
          <Menu.RadioGroup value={order.direction} onValueChange={(direction) => onOrderChange({ ...order, direction: direction as 'asc' | 'desc' })}>
            {(['asc', 'desc'] as const).map((direction) => (
              <Menu.RadioItem key={direction} value={direction} className={`${itemClass} relative pl-8`}>
                <Menu.ItemIndicator className="absolute left-2.5">
                  <CheckIcon className="size-4" />
                </Menu.ItemIndicator>
                {direction === 'asc' ? t('drive.toolbar.ascending') : t('drive.toolbar.descending')}
              </Menu.RadioItem>
            ))}
          </Menu.RadioGroup>
        </>
      )}
    >
      <SortIcon className="size-4" />
      <span className="max-sm:sr-only">{t(`drive.sort.${order.field}`)}</span>
      {order.direction === 'asc' ? <ArrowUpIcon className="size-3.5" /> : <ArrowDownIcon className="size-3.5" />}
    </DeferredMenu>
  )

  let second: ReactNode
  if (selected.length > 0) {
    const actions = actionsFor(selected, view).filter((action) => action !== 'open')
    const primary = actions[actions.length - 1]
    second = (
      <div role="toolbar" aria-label={t('drive.toolbar.selectionLabel')} className="flex h-12 items-center gap-1 rounded-2xl bg-brand-50 px-1.5 dark:bg-brand-900/40" data-testid="selection-bar">
        <button type="button" className={`${barButton}`} aria-label={t('drive.toolbar.clearSelection')} onClick={onClearSelection}>
          <CloseIcon />
        </button>
        <p className="min-w-0 flex-1 truncate px-1 text-sm font-semibold text-brand-900 dark:text-brand-100" aria-live="polite" data-testid="selection-count">
          {tp('drive.selection.count', selected.length)}
        </p>
        <div className="hidden items-center gap-0.5 sm:flex">
          {actions.map((action) => (
            <button key={action} type="button" className={`${barButton}`} aria-label={actionLabel(action, selected)} title={actionLabel(action, selected)} onClick={() => onAction(action, [...selected])} data-testid={`action-${action}`}>
              <ActionIcon action={action} className="size-5" />
            </button>
          ))}
        </div>
        <div className="flex items-center gap-0.5 sm:hidden">
          {primary ? (
            <button type="button" className={`${barButton}`} aria-label={actionLabel(primary, selected)} onClick={() => onAction(primary, [...selected])}>
              <ActionIcon action={primary} className="size-5" />
            </button>
          ) : null}
          {actions.length > 1 ? (
            <DeferredMenu
              modal={false}
              trigger={{ className: barButton, 'aria-label': t('drive.toolbar.more') }}
              content={{ align: 'end', sideOffset: 4, className: menuContentClass }}
              items={(Menu) =>
                actions.slice(0, -1).map((action) => (
                  <MenuItem key={action} Menu={Menu} onSelect={() => onAction(action, [...selected])}>
                    <ActionIcon action={action} />
                    {actionLabel(action, selected)}
                  </MenuItem>
                ))
              }
            >
              <MoreIcon />
            </DeferredMenu>
          ) : null}
        </div>
      </div>
    )
  } else if (filters) {
    second = (
      <div className="flex h-12 items-center gap-3 px-2">
        <div className="min-w-0 flex-1">{filters}</div>
        <p className="shrink-0 text-xs text-slate-500 max-sm:hidden sm:text-sm dark:text-slate-400" data-testid="item-count">
          {note ?? ''}
        </p>
      </div>
    )
  } else {
    second = (
      <div className="flex h-12 items-center gap-2 px-2">
        <p className="min-w-0 flex-1 text-xs leading-snug text-slate-500 sm:text-sm dark:text-slate-400" data-testid="item-count">
          {note ?? (itemCount !== null ? tp('drive.list.count', itemCount) : '')}
        </p>
        {hasItems && view !== 'search' ? sortMenu : null}
        {hasItems && view !== 'search' && layout && onLayoutChange ? (
          <div role="radiogroup" aria-label={t('drive.toolbar.layout')} className="flex items-center rounded-lg bg-slate-100 p-0.5 dark:bg-slate-800" data-testid="layout-switch">
            {(['list', 'grid'] as const).map((option) => (
              <button
                key={option}
                type="button"
                role="radio"
                aria-checked={layout === option}
                aria-label={t(option === 'list' ? 'drive.toolbar.layoutList' : 'drive.toolbar.layoutGrid')}
                title={t(option === 'list' ? 'drive.toolbar.layoutList' : 'drive.toolbar.layoutGrid')}
                onClick={() => onLayoutChange(option)}
                className={`inline-flex size-8 items-center justify-center rounded-md ${layout === option ? 'bg-white text-slate-900 shadow-sm dark:bg-slate-950 dark:text-white' : 'text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-100'}`}
              >
                <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
                  <path d={LAYOUT_ICONS[option]} />
                </svg>
              </button>
            ))}
          </div>
        ) : null}
      </div>
    )
  }

  return (
    <>
      <div className="relative flex h-14 items-center gap-2">
        <div className="min-w-0 flex-1">{heading}</div>
        {search}
        <div role="toolbar" aria-label={t('drive.toolbar.label')} className="flex shrink-0 items-center gap-1">
          {view === 'folder' ? (
            <>
              <button type="button" className={`${textButton} text-slate-700 hover:bg-slate-100 max-sm:hidden dark:text-slate-200 dark:hover:bg-slate-800`} onClick={onNewFolder} data-testid="new-folder">
                <FolderPlusIcon />
                {t('drive.toolbar.newFolder')}
              </button>
              <button type="button" className={`${iconButton} sm:hidden`} aria-label={t('drive.toolbar.newFolder')} onClick={onNewFolder}>
                <FolderPlusIcon />
              </button>
              <DeferredMenu
                modal={false}
                trigger={{ className: `${textButton} bg-brand-600 text-white shadow-sm hover:bg-brand-700 max-sm:w-10 max-sm:justify-center max-sm:px-0`, 'data-testid': 'upload-menu', 'aria-label': t('drive.toolbar.upload') }}
                content={{ align: 'end', sideOffset: 6, className: menuContentClass }}
                items={(Menu) => (
                  <>
                    <MenuItem Menu={Menu} onSelect={() => onUploadFiles?.()} testId="upload-files">
                      <FileUploadIcon className="size-4" />
                      {t('drive.toolbar.uploadFiles')}
                    </MenuItem>
                    <MenuItem Menu={Menu} onSelect={() => onUploadFolder?.()} testId="upload-folder">
                      <FolderUploadIcon className="size-4" />
                      {t('drive.toolbar.uploadFolder')}
                    </MenuItem>
                    {onCloudDownload ? (
                      <>
                        <Menu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-700" />
                        <MenuItem Menu={Menu} onSelect={onCloudDownload} testId="cloud-download">
                          <CloudDownloadIcon className="size-4" />
                          {t('drive.toolbar.cloudDownload')}
                        </MenuItem>
                      </>
                    ) : null}
                  </>
                )}
              >
                <PlusIcon />
                <span className="max-sm:hidden">{t('drive.toolbar.upload')}</span>
              </DeferredMenu>
            </>
          ) : null}
          {view === 'trash' ? (
            <button type="button" disabled={!hasItems} onClick={onEmptyTrash} className={`${textButton} text-red-700 hover:bg-red-50 disabled:opacity-40 dark:text-red-300 dark:hover:bg-red-950/50`} data-testid="empty-trash">
              <TrashIcon />
              <span className="max-sm:sr-only">{t('drive.toolbar.emptyTrash')}</span>
            </button>
          ) : null}
        </div>
      </div>
      {second}
    </>
  )
}
