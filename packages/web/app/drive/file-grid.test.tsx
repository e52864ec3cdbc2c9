import type { DriveFile } from '@cumulus/protocol'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../test/render'
import { aFile, aFolder } from './fake-drive-api'
import type { DriveView } from './file-actions'
import { FileGrid } from './file-grid'
import { DEFAULT_ORDER, type ListingOrder } from './listing'
import { EMPTY_SELECTION, type SelectionState } from './selection'

function Harness({ files, view = 'folder', complete = true, onOpen, onAction, onLoadMore, onOrderChange }: { files: DriveFile[]; view?: DriveView; complete?: boolean; onOpen?(file: DriveFile): void; onAction?(...args: unknown[]): void; onLoadMore?(): void; onOrderChange?(order: ListingOrder): void }) {
  const [selection, setSelection] = useState<SelectionState>(EMPTY_SELECTION)
  const [order, setOrder] = useState<ListingOrder>(DEFAULT_ORDER)
  return (
    <FileGrid
      files={files}
      view={view}
      label="Files in My drive"
      selection={selection}
      onSelectionChange={setSelection}
      order={order}
      onOrderChange={(next) => {
        setOrder(next)
        onOrderChange?.(next)
      }}
      complete={complete}
      onLoadMore={onLoadMore ?? (() => undefined)}
      onOpen={onOpen ?? (() => undefined)}
      onAction={onAction ?? (() => undefined)}
      stickyTop={0}
    />
  )
}

const names = (count: number) => Array.from({ length: count }, (_, i) => aFile({ name: `file-${String(i).padStart(3, '0')}.txt` }))
const rows = () => screen.getAllByTestId('drive-row')
const row = (name: string) => rows().find((r) => r.dataset.name === name)!
const selectedNames = () => rows().filter((r) => r.getAttribute('aria-selected') === 'true').map((r) => r.dataset.name)

describe('FileGrid', () => {
  it('shows an image thumbnail in place of its icon once it loads, and the icon again when it cannot', () => {
    const photo = aFile({ name: 'beach.jpg', file_category: 'IMAGE', mime_type: 'image/jpeg', hash: 'A'.repeat(40), thumbnail_link: 'https://cumulus.test/drive/v1/thumbnails/f1?e=1&s=x' })
    const broken = aFile({ name: 'bad.jpg', file_category: 'IMAGE', mime_type: 'image/jpeg', hash: 'B'.repeat(40), thumbnail_link: 'https://cumulus.test/drive/v1/thumbnails/f2?e=1&s=y' })
    const plain = aFile({ name: 'notes.txt' })
    renderPage(<Harness files={[photo, broken, plain]} />)
    const [first, second] = screen.getAllByTestId('row-thumbnail') as HTMLImageElement[]
    expect(first!.src).toBe(photo.thumbnail_link)
    expect(first!.className).toContain('opacity-0')
    fireEvent.load(first!)
    expect(first!.className).not.toContain('opacity-0')
    fireEvent.error(second!)
    expect(within(row('bad.jpg')).queryByTestId('row-thumbnail')).toBeNull()
    expect(within(row('notes.txt')).queryByTestId('row-thumbnail')).toBeNull()
  })

  it('is a multi-select grid with column headers that sort and rows that say whether they are selected', async () => {
    const onOrderChange = vi.fn()
    renderPage(<Harness files={[aFolder({ name: 'Photos' }), ...names(3)]} onOrderChange={onOrderChange} />)
    const grid = screen.getByRole('grid', { name: 'Files in My drive' })
    expect(grid.getAttribute('aria-multiselectable')).toBe('true')
    expect(grid.getAttribute('aria-rowcount')).toBe('5')
    expect(within(grid).getAllByRole('row')).toHaveLength(5)
    expect(rows().every((r) => r.getAttribute('aria-selected') === 'false')).toBe(true)

    const nameHeader = screen.getByRole('columnheader', { name: 'Name' })
    expect(nameHeader.getAttribute('aria-sort')).toBe('ascending')
    await userEvent.click(within(nameHeader).getByRole('button'))
    expect(onOrderChange).toHaveBeenLastCalledWith({ field: 'name', direction: 'desc' })
    await userEvent.click(within(screen.getByRole('columnheader', { name: 'Size' })).getByRole('button'))
    expect(onOrderChange).toHaveBeenLastCalledWith({ field: 'size', direction: 'asc' })
    expect(screen.getByRole('columnheader', { name: 'Size' }).getAttribute('aria-sort')).toBe('ascending')
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('none')
  })

  it('click selects one, Ctrl-click adds, Shift-click selects the range', async () => {
    // One user: modifier keys held by keyboard() apply to the clicks that follow.
    const user = userEvent.setup()
    renderPage(<Harness files={names(8)} />)
    await user.click(row('file-001.txt'))
    expect(selectedNames()).toEqual(['file-001.txt'])
    await user.keyboard('{Control>}')
    await user.click(row('file-003.txt'))
    await user.keyboard('{/Control}')
    expect(selectedNames()).toEqual(['file-001.txt', 'file-003.txt'])
    await user.keyboard('{Shift>}')
    await user.click(row('file-006.txt'))
    await user.keyboard('{/Shift}')
    expect(selectedNames()).toEqual(['file-003.txt', 'file-004.txt', 'file-005.txt', 'file-006.txt'])
    // The checkbox toggles one row without touching the others.
    await user.click(within(row('file-000.txt')).getByRole('button', { name: 'Select file-000.txt' }))
    expect(selectedNames()).toEqual(['file-000.txt', 'file-003.txt', 'file-004.txt', 'file-005.txt', 'file-006.txt'])
    expect(within(row('file-000.txt')).getByRole('button', { name: 'Select file-000.txt' }).getAttribute('aria-pressed')).toBe('true')
  })

  it('the keyboard moves the focus and the selection; Shift+arrows extend it; Ctrl+A selects all', async () => {
    renderPage(<Harness files={names(6)} />)
    await userEvent.click(row('file-001.txt'))
    await userEvent.keyboard('{ArrowDown}')
    expect(selectedNames()).toEqual(['file-002.txt'])
    expect(document.activeElement).toBe(row('file-002.txt'))
    await userEvent.keyboard('{Shift>}{ArrowDown}{ArrowDown}{/Shift}')
    expect(selectedNames()).toEqual(['file-002.txt', 'file-003.txt', 'file-004.txt'])
    expect(document.activeElement).toBe(row('file-004.txt'))
    await userEvent.keyboard('{Control>}a{/Control}')
    expect(selectedNames()).toHaveLength(6)
    await userEvent.keyboard('{Escape}')
    expect(selectedNames()).toEqual([])
    // Only the focused row is in the tab order (roving tabindex).
    expect(rows().filter((r) => r.tabIndex === 0).map((r) => r.dataset.name)).toEqual(['file-004.txt'])
  })

  it('Enter opens the focused item, Delete trashes the selection, F2 renames', async () => {
    const onOpen = vi.fn()
    const onAction = vi.fn()
    const folder = aFolder({ name: 'Photos' })
    const files = [folder, ...names(3)]
    renderPage(<Harness files={files} onOpen={onOpen} onAction={onAction} />)
    await userEvent.click(row('Photos'))
    await userEvent.keyboard('{Enter}')
    expect(onOpen).toHaveBeenCalledWith(folder)
    await userEvent.keyboard('{Shift>}{ArrowDown}{/Shift}{Delete}')
    expect(onAction).toHaveBeenLastCalledWith('trash', [folder, files[1]])
    await userEvent.keyboard('{F2}')
    expect(onAction).toHaveBeenLastCalledWith('rename', [files[1]])
  })

  it('in the trash, Delete asks to delete forever, and Enter opens (the page offers to restore the item)', async () => {
    const onOpen = vi.fn()
    const onAction = vi.fn()
    const files = [aFolder({ name: 'Old', trashed: true })]
    renderPage(<Harness files={files} view="trash" onOpen={onOpen} onAction={onAction} />)
    await userEvent.click(row('Old'))
    await userEvent.keyboard('{Enter}{Delete}')
    expect(onOpen).toHaveBeenCalledWith(files[0])
    expect(onAction).toHaveBeenCalledWith('delete', files)
  })

  it('a row’s menu offers the actions for it, and for the whole selection when the row is in it', async () => {
    const onAction = vi.fn()
    const files = names(3)
    renderPage(<Harness files={files} onAction={onAction} />)
    await userEvent.click(row('file-000.txt'))
    await userEvent.keyboard('{Shift>}{ArrowDown}{/Shift}')
    await userEvent.click(within(row('file-001.txt')).getByRole('button', { name: 'Actions for file-001.txt' }))
    const menu = await screen.findByRole('menu')
    // Two items: no Open or Rename, which need exactly one.
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Download', 'Share', 'Move to…', 'Copy to…', 'Add to Starred', 'Move to trash'])
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Add to Starred' }))
    expect(onAction).toHaveBeenCalledWith('star', [files[0], files[1]])
  })

  it('a row’s menu dismissed without an action gives back the selection it replaced (a phone is not left picking)', async () => {
    const files = names(3)
    renderPage(<Harness files={files} />)
    const selected = () => rows().filter((r) => r.getAttribute('aria-selected') === 'true').map((r) => r.dataset.name)
    await userEvent.click(within(row('file-001.txt')).getByRole('button', { name: 'Actions for file-001.txt' }))
    await screen.findByRole('menu')
    // While it is open the menu acts on its row, shown selected.
    expect(selected()).toEqual(['file-001.txt'])
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull())
    expect(selected()).toEqual([])
    // A selection the menu kept (its row was in it) stays.
    await userEvent.click(row('file-000.txt'))
    await userEvent.click(within(row('file-000.txt')).getByRole('button', { name: 'Actions for file-000.txt' }))
    await screen.findByRole('menu')
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull())
    expect(selected()).toEqual(['file-000.txt'])
  })

  it('renders a window of rows out of 100,000 and asks for the next page near the end', () => {
    const many = Array.from({ length: 100_000 }, (_, i) => aFile({ name: `n${i}`, id: `id${i}` }))
    const onLoadMore = vi.fn()
    renderPage(<Harness files={many} complete={false} onLoadMore={onLoadMore} />)
    expect(rows().length).toBeLessThan(60)
    expect(screen.getByRole('grid').getAttribute('aria-rowcount')).toBe('-1')
    expect(onLoadMore).not.toHaveBeenCalled()
    // Near the end of what is loaded: the list asks for more.
    const box = screen.getByRole('grid').querySelectorAll('[role="rowgroup"]')[1] as HTMLElement
    box.getBoundingClientRect = () => ({ top: -56 * 99_990, bottom: 0, left: 0, right: 0, width: 0, height: 0, x: 0, y: 0, toJSON: () => ({}) })
    fireEvent.scroll(window)
    expect(onLoadMore).toHaveBeenCalled()
    expect(rows().some((r) => r.dataset.name === 'n99999')).toBe(true)
  })
})
