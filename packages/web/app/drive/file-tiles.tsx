import type { DriveFile } from '@cumulus/protocol'
import { type KeyboardEvent, useEffect, useId, useLayoutEffect, useMemo, useRef } from 'react'
import { useLocale, useT } from '../i18n/use-locale'
import { type DriveView, type FileAction, fileKeyAction } from './file-actions'
import { FileName } from './file-name'
import { formatBytes, sizeOf } from './format'
import { CheckIcon, FileKindIcon, fileKind, StarIcon } from './icons'
import { clickItem, keyDown, type SelectionState, toggleItem } from './selection'
import { useThumbnail } from './use-thumbnail'

export interface FileTilesProps {
  files: readonly DriveFile[]
  view: DriveView
  label: string
  selection: SelectionState
  onSelectionChange(next: SelectionState): void
  complete: boolean
  onLoadMore(): void
  onOpen(file: DriveFile): void
  onAction(action: FileAction, targets: DriveFile[]): void
}

/** How many tiles sit in one row now: those sharing the first tile's top edge. */
function columnsOf(container: HTMLElement | null): number {
  const tiles = container?.querySelectorAll<HTMLElement>('[role="option"]')
  if (!tiles || tiles.length === 0) return 1
  const top = tiles[0]!.offsetTop
  let count = 0
  for (const tile of tiles) {
    if (tile.offsetTop !== top) break
    count++
  }
  return Math.max(1, count)
}

/** A tile's picture: the thumbnail when there is one and it loads, else the kind's icon. */
function TilePicture({ file }: { file: DriveFile }) {
  const { src, onLoad, onError } = useThumbnail(file)
  if (src === null) {
    return (
      <span className="absolute inset-0 flex items-center justify-center">
        <FileKindIcon kind={fileKind(file)} className="size-12" />
      </span>
    )
  }
  return <img src={src} alt="" loading="lazy" decoding="async" draggable={false} onLoad={onLoad} onError={onError} className="absolute inset-0 size-full object-cover" data-testid="tile-thumbnail" />
}

/**
 * The grid layout of the drive (beside the list): tiles with thumbnails, as a multi-select
 * listbox. One tile holds the keyboard focus: arrows move in two dimensions, Home/End, Space
 * toggles, Shift and Ctrl as in the list, Ctrl+A, Enter opens, Delete trashes, F2 renames. A tap
 * or click opens; the check in the corner selects. More tiles load when the end comes into view.
 */
export function FileTiles({ files, view, label, selection, onSelectionChange, complete, onLoadMore, onOpen, onAction }: FileTilesProps) {
  const { t } = useT()
  const locale = useLocale()
  const prefix = useId()
  const container = useRef<HTMLDivElement>(null)
  const sentinel = useRef<HTMLDivElement>(null)
  const pendingFocus = useRef<string | null>(null)
  const ids = useMemo(() => files.map((file) => file.id), [files])
  const focusIndex = selection.focus === null ? -1 : ids.indexOf(selection.focus)
  const tabIndexOf = (index: number) => (index === (focusIndex === -1 ? 0 : focusIndex) ? 0 : -1)

  useLayoutEffect(() => {
    const id = pendingFocus.current
    if (id === null) return
    pendingFocus.current = null
    const index = ids.indexOf(id)
    if (index !== -1) document.getElementById(`${prefix}-tile-${index}`)?.focus()
  })

  // The next page when the end of the tiles scrolls into view.
  useEffect(() => {
    if (complete || !sentinel.current || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) onLoadMore()
    }, { rootMargin: '600px' })
    observer.observe(sentinel.current)
    return () => observer.disconnect()
  }, [complete, onLoadMore, files.length])

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if ((event.target as HTMLElement).getAttribute('role') !== 'option') return
    const focused = focusIndex === -1 ? undefined : files[focusIndex]
    const ctrl = event.ctrlKey || event.metaKey
    if (fileKeyAction(event, { focused, selected: () => files.filter((f) => selection.selected.has(f.id)), view, onOpen, onAction })) return
    // The list's keys, in two dimensions: left/right step one tile, up/down one row.
    const columns = columnsOf(container.current)
    const mapped: Record<string, { key: string; pageRows?: number }> = {
      ArrowRight: { key: 'ArrowDown' },
      ArrowLeft: { key: 'ArrowUp' },
      ArrowDown: { key: 'PageDown', pageRows: columns },
      ArrowUp: { key: 'PageUp', pageRows: columns },
    }
    const input = mapped[event.key] ?? { key: event.key }
    const next = keyDown(selection, ids, { key: input.key, shift: event.shiftKey, ctrl, ...(input.pageRows ? { pageRows: input.pageRows } : {}) })
    if (!next) return
    event.preventDefault()
    onSelectionChange(next)
    pendingFocus.current = next.focus
  }

  return (
    <div className="px-2 pt-2 sm:px-0">
      <div
        ref={container}
        role="listbox"
        aria-label={label}
        aria-multiselectable="true"
        aria-orientation="horizontal"
        tabIndex={-1}
        onKeyDown={onKeyDown}
        data-testid="drive-tiles"
        className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-3"
      >
        {files.map((file, index) => {
          const selected = selection.selected.has(file.id)
          return (
            <div
              key={file.id}
              id={`${prefix}-tile-${index}`}
              role="option"
              aria-selected={selected}
              tabIndex={tabIndexOf(index)}
              data-testid="drive-tile"
              data-id={file.id}
              data-name={file.name}
              onClick={(event) => {
                if (event.shiftKey || event.ctrlKey || event.metaKey) onSelectionChange(clickItem(selection, ids, index, { range: event.shiftKey, toggle: event.ctrlKey || event.metaKey }))
                else onOpen(file)
              }}
              onFocus={() => selection.focus !== file.id && onSelectionChange({ ...selection, focus: file.id })}
              className={`group relative flex cursor-pointer flex-col overflow-hidden rounded-2xl border text-left outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${selected ? 'border-brand-500 bg-brand-50 dark:border-brand-400 dark:bg-brand-900/40' : 'border-slate-200 bg-white hover:border-slate-300 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-slate-700'}`}
            >
              <div className="relative aspect-[4/3] w-full overflow-hidden bg-slate-100 dark:bg-slate-800">
                <TilePicture file={file} />
              </div>
              {/* A pointer's way to select (a tile's click opens it). Not a control of its own:
                  an option may hold none (keyboards and screen readers toggle with Space). */}
              <span
                aria-hidden="true"
                data-testid="tile-select"
                onClick={(event) => {
                  event.stopPropagation()
                  onSelectionChange(toggleItem(selection, ids, index))
                }}
                className={`absolute left-2 top-2 flex size-6 cursor-pointer items-center justify-center rounded-md border-2 ${selected ? 'flex border-brand-600 bg-brand-600 text-white dark:border-brand-400 dark:bg-brand-400 dark:text-slate-950' : 'border-white/90 bg-black/20 text-transparent opacity-100 sm:opacity-0 sm:group-hover:opacity-100 sm:group-focus-within:opacity-100'}`}
              >
                <CheckIcon className="size-4" />
              </span>
              <div className="flex min-w-0 items-center gap-1 px-3 py-2">
                <FileName name={file.name} className="text-sm font-medium text-slate-900 dark:text-slate-100" />
                {file.starred && view !== 'starred' ? (
                  <span className="shrink-0 text-amber-500 dark:text-amber-400">
                    <StarIcon filled className="size-3.5" />
                  </span>
                ) : null}
              </div>
              <p className="-mt-1.5 px-3 pb-2 text-xs text-slate-500 dark:text-slate-400">{file.kind === 'drive#folder' ? t('drive.list.folder') : formatBytes(sizeOf(file), locale)}</p>
            </div>
          )
        })}
      </div>
      <div ref={sentinel} aria-hidden="true" className="h-px" />
    </div>
  )
}
