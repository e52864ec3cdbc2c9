import { type DriveFile, type DriveOrderField, FOLDER_KIND } from '@cumulus/protocol'
import { type CSSProperties, type KeyboardEvent, type MouseEvent, type ReactNode, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { useLocale, useT } from '../i18n/use-locale'
import { DeferredMenu } from '../components/lazy/deferred-menu'
import { menuContentClass } from '../components/ui/menu-styles'
import { ActionIcon, useActionLabel } from './action-labels'
import { actionsFor, type DriveView, type FileAction, fileKeyAction } from './file-actions'
import { formatBytes, formatDateTime, sizeOf } from './format'
import { ArrowDownIcon, ArrowUpIcon, CheckIcon, FileKindIcon, fileKind, MoreIcon, StarIcon } from './icons'
import type { ListingOrder } from './listing'
import { clickItem, headerCheckState, keyDown, menuTargetIds, selectForMenu, type SelectionState, toggleItem } from './selection'
import { VirtualList, type VirtualListHandle, type WindowRange } from './virtual-list'
import { FileName } from './file-name'
import { useThumbnail } from './use-thumbnail'

/**
 * An image's or a video's thumbnail (its signed `thumbnail_link`), in the icon's place; the kind's
 * icon until it loads, and for good when there is none (not made yet, or not readable).
 */
function FileThumbnail({ file, kind }: { file: DriveFile; kind: ReturnType<typeof fileKind> }) {
  const { src, state, onLoad, onError } = useThumbnail(file)
  if (src === null) return <FileKindIcon kind={kind} />
  return (
    <span className="relative inline-flex size-8 items-center justify-center">
      {state === 'loading' ? <FileKindIcon kind={kind} className="absolute size-6" /> : null}
      <img
        src={src}
        alt=""
        loading="lazy"
        decoding="async"
        draggable={false}
        data-testid="row-thumbnail"
        onLoad={onLoad}
        onError={onError}
        className={`size-8 rounded object-cover ring-1 ring-slate-200 dark:ring-slate-700 ${state === 'shown' ? '' : 'opacity-0'}`}
      />
    </span>
  )
}

/** Every row is this tall at every width: the windowing depends on it. */
export const ROW_HEIGHT = 56
/** Ask for the next page when this few rows are left below the window. */
const LOAD_AHEAD_ROWS = 60

/** Columns: icon or checkbox, name, size (from sm), modified, or in the trash when trashed (from md: wide enough for "2026年11月27日 下午4:45"), actions (the skeleton shares them). */
export const GRID_COLUMNS = 'grid grid-cols-[3.25rem_minmax(0,1fr)_3rem] sm:grid-cols-[3.25rem_minmax(0,1fr)_6.5rem_3rem] md:grid-cols-[3.25rem_minmax(0,1fr)_6.5rem_12.5rem_3rem] items-center'

export interface FileGridProps {
  files: readonly DriveFile[]
  view: DriveView
  /** The grid's accessible name ("Files in Photos"). */
  label: string
  selection: SelectionState
  onSelectionChange(next: SelectionState): void
  /** How the rows are sorted; without it (and `onOrderChange`) the columns cannot sort the rows, which keep the server's order (search results, best first). */
  order?: ListingOrder
  onOrderChange?(order: ListingOrder): void
  /** A line under each name in place of the phone's size and date (a search result's folder). */
  detail?(file: DriveFile): ReactNode
  /** Every page is loaded (the row count is known). */
  complete: boolean
  onLoadMore(): void
  onOpen(file: DriveFile): void
  /** An action chosen for files from a row's menu or by a key. */
  onAction(action: FileAction, targets: DriveFile[]): void
  /** Pixels at the top of the viewport covered by sticky bars above the grid's header row. */
  stickyTop: number
}

/**
 * The file list: an ARIA grid (rows with `aria-selected`, column headers with `aria-sort`) whose
 * rows are windowed, so 100,000 files cost what 40 do. One row holds the keyboard focus (roving
 * tabindex): arrows, Home/End, PageUp/PageDown, Shift and Ctrl as in a desktop file manager,
 * Space to toggle, Ctrl+A, Enter to open, Delete to trash, F2 to rename, Shift+F10 or the
 * context-menu key for the row's menu. On a touch screen a tap opens, and the icon (or a long
 * press) selects.
 */
export function FileGrid({ files, view, label, selection, onSelectionChange, order, onOrderChange, detail, complete, onLoadMore, onOpen, onAction, stickyTop }: FileGridProps) {
  const { t } = useT()
  const locale = useLocale()
  const actionLabel = useActionLabel()
  const prefix = useId()
  const list = useRef<VirtualListHandle>(null)
  const pendingFocus = useRef<string | null>(null)
  const [menuFor, setMenuFor] = useState<string | null>(null)
  /** The selection a row's menu replaced when it opened, and the one it set (dismissMenu). */
  const menuSelection = useRef<{ before: SelectionState; set: SelectionState } | null>(null)
  const ids = useMemo(() => files.map((file) => file.id), [files])
  const focusIndex = selection.focus === null ? -1 : ids.indexOf(selection.focus)
  const rowId = (index: number) => `${prefix}-row-${index}`
  const headerHeight = 40
  const headerState = headerCheckState(selection, ids)
  const allSelected = headerState === 'all'
  const someSelected = headerState === 'some'
  const lastRange = useRef<WindowRange>({ start: 0, end: 0 })

  // After a key moved the focus, the new row (kept rendered by `keepIndex`) takes the DOM focus.
  useLayoutEffect(() => {
    const id = pendingFocus.current
    if (id === null) return
    const index = ids.indexOf(id)
    pendingFocus.current = null
    if (index === -1) return
    document.getElementById(rowId(index))?.focus({ preventScroll: true })
  })

  function moveFocus(next: SelectionState) {
    onSelectionChange(next)
    if (next.focus === null) return
    const index = ids.indexOf(next.focus)
    list.current?.scrollToIndex(index)
    pendingFocus.current = next.focus
  }

  /** The files an action from a row's menu applies to: the selection when the row is in it, else the row alone. */
  function targetsOf(file: DriveFile): DriveFile[] {
    const targets = new Set(menuTargetIds(selection, ids, file.id))
    return files.filter((f) => targets.has(f.id))
  }

  function selectedFiles(): DriveFile[] {
    return files.filter((f) => selection.selected.has(f.id))
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    // Keys typed in a row's open menu (rendered in a portal) bubble here through React: not ours.
    const target = event.target as HTMLElement
    if (target.getAttribute('role') !== 'row') return
    const focused = focusIndex === -1 ? undefined : files[focusIndex]
    const ctrl = event.ctrlKey || event.metaKey
    if (fileKeyAction(event, { focused, selected: selectedFiles, view, onOpen, onAction })) return
    if ((event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10')) && focused) {
      event.preventDefault()
      openMenu(focused, focusIndex)
      return
    }
    const next = keyDown(selection, ids, { key: event.key, shift: event.shiftKey, ctrl, pageRows: list.current?.pageRows() })
    if (!next) return
    event.preventDefault()
    moveFocus(next)
  }

  function openMenu(file: DriveFile, index: number) {
    const next = selectForMenu(selection, ids, index)
    menuSelection.current = next !== selection ? { before: selection, set: next } : null
    if (next !== selection) onSelectionChange(next)
    setMenuFor(file.id)
  }

  /**
   * A menu dismissed without an action (Escape, a tap elsewhere) gives back the selection it
   * replaced: on a phone a row left selected put the list into picking mode, where the next tap
   * selects instead of opening. Not when the selection changed meanwhile.
   */
  function dismissMenu() {
    const saved = menuSelection.current
    menuSelection.current = null
    if (saved && selection === saved.set) onSelectionChange(saved.before)
  }

  function onRowClick(event: MouseEvent<HTMLDivElement>, file: DriveFile, index: number) {
    const pointer = (event.nativeEvent as PointerEvent).pointerType
    if (pointer === 'touch') {
      // Touch has no double click: a tap opens, unless the user is picking several items.
      if (selection.selected.size > 0) onSelectionChange(toggleItem(selection, ids, index))
      else onOpen(file)
      return
    }
    onSelectionChange(clickItem(selection, ids, index, { range: event.shiftKey, toggle: event.ctrlKey || event.metaKey }))
  }

  function onRangeChange(range: WindowRange) {
    lastRange.current = range
    if (!complete && range.end >= files.length - LOAD_AHEAD_ROWS) onLoadMore()
  }
  // A page that arrived without the window moving may still leave the window near the end.
  useEffect(() => {
    if (!complete && files.length > 0 && lastRange.current.end >= files.length - LOAD_AHEAD_ROWS) onLoadMore()
  }, [files.length, complete])

  const plainHeader = (text: string, className = '') => (
    <div role="columnheader" className={className}>
      <span className="inline-flex h-8 items-center px-1.5 text-xs font-semibold tracking-wide uppercase">{text}</span>
    </div>
  )
  const sortHeader = (field: DriveOrderField, text: string, className = '') => {
    if (!order || !onOrderChange) return plainHeader(text, className)
    const active = order.field === field
    const direction = active ? order.direction : undefined
    return (
      <div role="columnheader" aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'} className={className}>
        <button
          type="button"
          onClick={() => onOrderChange({ field, direction: active && order.direction === 'asc' ? 'desc' : 'asc' })}
          className={`inline-flex h-8 items-center gap-1 rounded-md px-1.5 text-xs font-semibold tracking-wide uppercase hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-500 dark:hover:bg-slate-800 dark:hover:text-white ${active ? 'text-slate-900 dark:text-white' : ''}`}
        >
          {text}
          {direction === 'asc' ? <ArrowUpIcon className="size-3.5" /> : direction === 'desc' ? <ArrowDownIcon className="size-3.5" /> : null}
        </button>
      </div>
    )
  }

  const renderRow = (index: number, style: CSSProperties) => {
    const file = files[index]!
    const selected = selection.selected.has(file.id)
    const focused = index === focusIndex || (focusIndex === -1 && index === 0)
    const isFolder = file.kind === FOLDER_KIND
    const kind = fileKind(file)
    const size = isFolder ? '' : formatBytes(sizeOf(file), locale)
    // In the trash the date that matters is when the item went there (its purge counts from it).
    const trashedAt = view === 'trash' && file.delete_time ? formatDateTime(file.delete_time, locale) : null
    const date = trashedAt ?? formatDateTime(file.modified_time, locale)
    const targets = menuFor === file.id ? targetsOf(file) : [file]
    return (
      <div
        key={file.id}
        id={rowId(index)}
        role="row"
        aria-rowindex={index + 2}
        aria-selected={selected}
        tabIndex={focused ? 0 : -1}
        data-testid="drive-row"
        data-id={file.id}
        data-name={file.name}
        style={style}
        onClick={(event) => onRowClick(event, file, index)}
        onDoubleClick={() => onOpen(file)}
        onMouseDown={(event) => {
          // Shift+click selects rows, not the text between them.
          if (event.shiftKey) event.preventDefault()
        }}
        onContextMenu={(event) => {
          event.preventDefault()
          openMenu(file, index)
        }}
        onFocus={(event) => {
          if (event.target === event.currentTarget && selection.focus !== file.id) onSelectionChange({ ...selection, focus: file.id })
        }}
        className={`${GRID_COLUMNS} group cursor-default border-b border-slate-100 outline-none select-none focus-visible:z-10 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-inset dark:border-slate-800/80 ${selected ? 'bg-brand-50 dark:bg-brand-900/35' : 'hover:bg-slate-50 dark:hover:bg-slate-900'}`}
      >
        <div role="gridcell" className="flex justify-center">
          <button
            type="button"
            tabIndex={-1}
            aria-label={t('drive.list.selectItem', { name: file.name })}
            aria-pressed={selected}
            data-testid="row-select"
            onClick={(event) => {
              event.stopPropagation()
              onSelectionChange(toggleItem(selection, ids, index))
            }}
            onDoubleClick={(event) => event.stopPropagation()}
            className="relative inline-flex size-10 items-center justify-center rounded-lg"
          >
            <span className={selected ? 'hidden' : 'group-hover:hidden'}>
              <FileThumbnail file={file} kind={kind} />
            </span>
            <span className={`${selected ? 'flex border-brand-600 bg-brand-600 text-white dark:border-brand-400 dark:bg-brand-400 dark:text-slate-950' : 'hidden border-slate-400 bg-white group-hover:flex dark:border-slate-500 dark:bg-slate-900'} size-5 items-center justify-center rounded-md border-2`}>
              {selected ? <CheckIcon className="size-3.5" /> : null}
            </span>
          </button>
        </div>
        <div role="gridcell" className="min-w-0 pr-2">
          <div className="flex min-w-0 items-center gap-1.5">
            <FileName name={file.name} className="text-sm font-medium text-slate-900 dark:text-slate-100" />
            {file.starred && view !== 'starred' ? (
              <span className="shrink-0 text-amber-500 dark:text-amber-400">
                <StarIcon filled className="size-3.5" />
                <span className="sr-only">{t('drive.list.starred')}</span>
              </span>
            ) : null}
          </div>
          {detail ? (
            <div className="truncate text-xs text-slate-500 dark:text-slate-400">{detail(file)}</div>
          ) : (
            <p className="truncate text-xs text-slate-500 sm:hidden dark:text-slate-400">{[isFolder ? t('drive.list.folder') : size, trashedAt ? t('drive.list.trashedAt', { date: trashedAt }) : isFolder ? '' : date].filter(Boolean).join(' · ')}</p>
          )}
        </div>
        <div role="gridcell" className="hidden text-sm text-slate-600 tabular-nums sm:block dark:text-slate-300">
          {isFolder ? <span className="text-slate-400 dark:text-slate-500">—</span> : size}
        </div>
        <div role="gridcell" className="hidden truncate text-sm text-slate-600 md:block dark:text-slate-300">
          {date}
        </div>
        {/* Clicks in the menu's cell are not the row's (a click whose press landed on the plain
            trigger and whose release on the Radix one that replaced it reaches the cell). */}
        <div role="gridcell" className="flex justify-center" onClick={(event) => event.stopPropagation()}>
          <DeferredMenu
            open={menuFor === file.id}
            onOpenChange={(open) => (open ? openMenu(file, index) : setMenuFor(null))}
            modal={false}
            trigger={{
              tabIndex: -1,
              'aria-label': t('drive.actions.menuFor', { name: file.name }),
              'data-testid': 'row-menu',
              onDoubleClick: (event) => event.stopPropagation(),
              className:
                'inline-flex size-9 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-200/70 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-500 data-[state=open]:bg-slate-200 dark:text-slate-400 dark:hover:bg-slate-700 dark:hover:text-white dark:data-[state=open]:bg-slate-700',
            }}
            content={{
              align: 'end',
              sideOffset: 4,
              className: menuContentClass,
              onEscapeKeyDown: () => dismissMenu(),
              // A press elsewhere, not a focus moving out: an action's dialog takes the focus, and keeps the selection.
              onPointerDownOutside: () => dismissMenu(),
              onCloseAutoFocus: (event) => {
                // Back to the row, not the (unfocusable) trigger; unless the chosen action
                // opened a dialog, which has the focus now (taking it back would make the
                // dialog's focus trap select all of a rename field).
                event.preventDefault()
                if (document.querySelector('[role="dialog"]')) return
                document.getElementById(rowId(index))?.focus({ preventScroll: true })
              },
            }}
            items={(Menu) =>
              actionsFor(targets, view).map((action) => (
                <Menu.Item
                  key={action}
                  onSelect={() => (action === 'open' ? onOpen(file) : onAction(action, targets))}
                  className={`flex cursor-default items-center gap-2.5 rounded-lg px-3 py-2 text-sm outline-none select-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800 ${action === 'delete' || action === 'trash' ? 'text-red-700 dark:text-red-300' : ''}`}
                >
                  <ActionIcon action={action} />
                  {actionLabel(action, targets)}
                </Menu.Item>
              ))
            }
          >
            <MoreIcon />
          </DeferredMenu>
        </div>
      </div>
    )
  }

  return (
    <div role="grid" aria-label={label} aria-multiselectable="true" aria-rowcount={complete ? files.length + 1 : -1} onKeyDown={onKeyDown} data-testid="drive-grid">
      <div role="rowgroup" className="sticky z-20 bg-white/95 backdrop-blur dark:bg-slate-950/95" style={{ top: stickyTop }}>
        <div role="row" aria-rowindex={1} className={`${GRID_COLUMNS} h-10 border-b border-slate-200 text-slate-500 dark:border-slate-800 dark:text-slate-400`}>
          <div role="columnheader" className="flex justify-center">
            <button
              type="button"
              aria-label={t('drive.toolbar.selectAll')}
              aria-pressed={allSelected ? true : someSelected ? 'mixed' : false}
              data-testid="select-all"
              disabled={files.length === 0}
              onClick={() => onSelectionChange(allSelected ? { ...selection, selected: new Set() } : { ...selection, selected: new Set(ids) })}
              className="inline-flex size-10 items-center justify-center rounded-lg focus-visible:outline-2 focus-visible:outline-brand-500"
            >
              <span className={`flex size-5 items-center justify-center rounded-md border-2 ${allSelected || someSelected ? 'border-brand-600 bg-brand-600 text-white dark:border-brand-400 dark:bg-brand-400 dark:text-slate-950' : 'border-slate-400 bg-white dark:border-slate-500 dark:bg-slate-900'}`}>
                {allSelected ? <CheckIcon className="size-3.5" /> : someSelected ? <span className="h-0.5 w-2.5 rounded bg-current" /> : null}
              </span>
            </button>
          </div>
          {sortHeader('name', t('drive.columns.name'))}
          {sortHeader('size', t('drive.columns.size'), 'hidden sm:block')}
          {/* The listing cannot be ordered by when items went to the trash: that column has no sort. */}
          {view === 'trash' ? plainHeader(t('drive.columns.trashed'), 'hidden md:block') : sortHeader('modified_time', t('drive.columns.modified'), 'hidden md:block')}
          <div role="columnheader">
            <span className="sr-only">{t('drive.columns.actions')}</span>
          </div>
        </div>
      </div>
      <VirtualList
        role="rowgroup"
        count={files.length}
        rowHeight={ROW_HEIGHT}
        scroll="window"
        coveredTop={stickyTop + headerHeight}
        keepIndex={focusIndex === -1 ? undefined : focusIndex}
        renderRow={renderRow}
        onRangeChange={onRangeChange}
        ref={list}
      />
    </div>
  )
}
