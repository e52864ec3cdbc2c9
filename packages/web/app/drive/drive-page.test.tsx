import { DriveErrors, ERROR_MESSAGES } from '@cumulus/protocol'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useLocation } from 'react-router'
import { describe, expect, it } from 'vitest'
import { renderPage } from '../../test/render'
import { DriveProvider } from './drive-context'
import { DrivePage } from './drive-page'
import type { DriveView } from './file-actions'
import { aFile, aFolder, driveError, FakeDriveApi } from './fake-drive-api'
import { formatDateTime } from './format'

/** The thunder page, as far as the drive's "+" menu is concerned: where it was sent. */
function Thunder() {
  const { search } = useLocation()
  return <p data-testid="thunder">{`Cloud download ${search}`}</p>
}

function show(api: FakeDriveApi, view: DriveView = 'folder', folderId = '') {
  const path = view === 'folder' ? (folderId ? `/drive/${folderId}` : '/drive') : `/drive/${view}`
  return renderPage(
    <DriveProvider api={api}>
      <DrivePage view={view} folderId={folderId} />
    </DriveProvider>,
    { path, routes: { '/drive/:folderId': <p>Another folder</p>, '/thunder': <Thunder /> } },
  )
}

const rows = () => screen.queryAllByTestId('drive-row')
const rowNames = () => rows().map((r) => r.dataset.name)
const row = (name: string) => rows().find((r) => r.dataset.name === name)!

async function openRowMenu(name: string) {
  await userEvent.click(within(row(name)).getByTestId('row-menu'))
  return screen.findByRole('menu')
}

describe('DrivePage: My drive', () => {
  it('lists folders first, then files, with the quota and the folder path', async () => {
    const api = new FakeDriveApi([aFile({ name: 'b.txt', size: '2048' }), aFolder({ name: 'Photos' }), aFile({ name: 'a.txt' })])
    api.quota = { limit: 10 * 1024 ** 3, usage: 3 * 1024 ** 3, inTrash: 1024 ** 3 }
    show(api)
    await waitFor(() => expect(rowNames()).toEqual(['Photos', 'a.txt', 'b.txt']))
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('My drive')
    expect(within(row('b.txt')).getByText('2 KiB')).toBeDefined()
    await waitFor(() => expect(screen.getAllByTestId('quota-text')[0]!.textContent).toBe('3 GiB of 10 GiB used'.replace(/ (?=GiB)/g, '\u00a0')))
    expect(screen.getAllByText('1 GiB in the trash').length).toBeGreaterThan(0)
    expect(screen.getAllByRole('meter', { name: 'Storage' })[0]!.getAttribute('aria-valuenow')).toBe(String(3 * 1024 ** 3))
    // The list asked for the root's complete, untrashed files in name order.
    expect(api.callsOf('list')[0]![0]).toMatchObject({ parentId: '', orderBy: 'name', direction: 'asc', filters: { trashed: { eq: false }, phase: { eq: 'PHASE_TYPE_COMPLETE' } } })
  })

  it('switches to a grid of tiles with thumbnails, remembers it, and keeps selection, keys and opening working there', async () => {
    localStorage.removeItem('cumulus-drive-layout')
    const photo = aFile({ name: 'beach.jpg', file_category: 'IMAGE', mime_type: 'image/jpeg', thumbnail_link: 'https://cumulus.test/drive/v1/thumbnails/x?e=1&s=y' })
    const api = new FakeDriveApi([aFolder({ name: 'Photos' }), photo, aFile({ name: 'notes.txt' })])
    const view = show(api)
    await waitFor(() => expect(rowNames()).toEqual(['Photos', 'beach.jpg', 'notes.txt']))
    await userEvent.click(screen.getByRole('radio', { name: 'Grid' }))
    const tiles = () => screen.getAllByTestId('drive-tile')
    expect(tiles().map((tile) => tile.dataset.name)).toEqual(['Photos', 'beach.jpg', 'notes.txt'])
    expect(screen.getByRole('listbox', { name: 'Files in My drive' }).getAttribute('aria-multiselectable')).toBe('true')
    expect((within(tiles()[1]!).getByTestId('tile-thumbnail') as HTMLImageElement).src).toBe(photo.thumbnail_link)
    expect(localStorage.getItem('cumulus-drive-layout')).toBe('grid')

    // The corner check selects; the toolbar then acts on the selection.
    await userEvent.click(within(tiles()[2]!).getByTestId('tile-select'))
    expect(tiles()[2]!.getAttribute('aria-selected')).toBe('true')
    expect(screen.getByTestId('selection-count').textContent).toBe('1 selected')
    // Arrow keys move between tiles; Shift extends the selection.
    tiles()[2]!.focus()
    fireEvent.keyDown(tiles()[2]!, { key: 'ArrowLeft', shiftKey: true })
    expect(tiles().filter((tile) => tile.getAttribute('aria-selected') === 'true').map((tile) => tile.dataset.name)).toEqual(['beach.jpg', 'notes.txt'])
    expect(document.activeElement).toBe(tiles()[1])

    // Remembered: a new page opens in the grid.
    view.unmount()
    show(api)
    await waitFor(() => expect(screen.getAllByTestId('drive-tile')).toHaveLength(3))
    await userEvent.click(screen.getAllByTestId('drive-tile')[0]!)
    expect(await screen.findByText('Another folder')).toBeDefined()
    localStorage.removeItem('cumulus-drive-layout')
  })

  it('shows the empty folder with upload buttons', async () => {
    show(new FakeDriveApi())
    expect(await screen.findByTestId('drive-empty')).toBeDefined()
    expect(screen.getByText('This folder is empty')).toBeDefined()
  })

  it('a double-click on a folder opens it', async () => {
    const photos = aFolder({ name: 'Photos' })
    show(new FakeDriveApi([photos]))
    await waitFor(() => expect(rowNames()).toEqual(['Photos']))
    await userEvent.dblClick(row('Photos'))
    expect(await screen.findByText('Another folder')).toBeDefined()
  })

  it('shows the folder path of a nested folder and says when a folder is not there', async () => {
    const projects = aFolder({ name: 'Projects' })
    const spring = aFolder({ name: 'Spring', parent_id: projects.id })
    const api = new FakeDriveApi([projects, spring])
    show(api, 'folder', spring.id)
    const nav = await screen.findByRole('navigation', { name: 'Folder path' })
    await waitFor(() => expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual(['My drive', 'Projects']))
    expect(within(nav).getByRole('heading', { level: 1 }).textContent).toBe('Spring')
  })

  it('a missing folder says so and links back to My drive', async () => {
    show(new FakeDriveApi(), 'folder', 'gone')
    expect(await screen.findByText('This folder is not here')).toBeDefined()
    expect(screen.getByRole('link', { name: 'Go to My drive' })).toBeDefined()
  })

  it('creates a folder, shows it in the list, selected, with a message', async () => {
    const api = new FakeDriveApi([aFile({ name: 'z.txt' })])
    show(api)
    await waitFor(() => expect(rowNames()).toEqual(['z.txt']))
    await userEvent.click(screen.getByTestId('new-folder'))
    const field = await screen.findByLabelText('Folder name')
    expect((field as HTMLInputElement).value).toBe('Untitled folder')
    await userEvent.clear(field)
    await userEvent.type(field, 'Invoices{Enter}')
    await waitFor(() => expect(rowNames()).toEqual(['Invoices', 'z.txt']))
    expect(row('Invoices').getAttribute('aria-selected')).toBe('true')
    expect(api.callsOf('createFolder')).toEqual([[{ name: 'Invoices', parentId: '' }]])
    expect(await screen.findByText('Folder “Invoices” created')).toBeDefined()
  })

  it('renames from the row menu, and shows the service’s refusal of a taken name in the dialog', async () => {
    const api = new FakeDriveApi([aFile({ name: 'a.txt' }), aFile({ name: 'b.txt' })])
    show(api)
    await waitFor(() => expect(rowNames()).toEqual(['a.txt', 'b.txt']))
    await userEvent.click(within(await openRowMenu('a.txt')).getByRole('menuitem', { name: 'Rename' }))
    const field = await screen.findByLabelText('Name')
    await userEvent.clear(field)
    await userEvent.type(field, 'b.txt{Enter}')
    expect(await screen.findByText(ERROR_MESSAGES['en-US'].file_duplicated_name)).toBeDefined()
    await userEvent.clear(field)
    await userEvent.type(field, 'c.txt{Enter}')
    await waitFor(() => expect(rowNames()).toEqual(['b.txt', 'c.txt']))
    expect(await screen.findByText('Renamed to “c.txt”')).toBeDefined()
  })

  it('moves selected items to the trash with the Delete key, and Undo brings them back', async () => {
    const api = new FakeDriveApi([aFile({ name: 'a.txt' }), aFile({ name: 'b.txt' }), aFile({ name: 'c.txt' })])
    show(api)
    await waitFor(() => expect(rowNames()).toHaveLength(3))
    await userEvent.click(row('a.txt'))
    await userEvent.keyboard('{Shift>}{ArrowDown}{/Shift}{Delete}')
    await waitFor(() => expect(rowNames()).toEqual(['c.txt']))
    expect(api.callsOf('trash')).toHaveLength(1)
    expect(await screen.findByText('2 items moved to the trash')).toBeDefined()
    await userEvent.click(screen.getByRole('button', { name: 'Undo' }))
    await waitFor(() => expect(rowNames()).toEqual(['a.txt', 'b.txt', 'c.txt']))
    expect(api.callsOf('untrash')).toHaveLength(1)
  })

  it('hands the focus of a row trashed with the Delete key to the row that takes its place, or the new last row', async () => {
    const api = new FakeDriveApi([aFile({ name: 'a.txt' }), aFile({ name: 'b.txt' }), aFile({ name: 'c.txt' })])
    show(api)
    await waitFor(() => expect(rowNames()).toHaveLength(3))
    await userEvent.click(row('b.txt'))
    await userEvent.keyboard('{Delete}')
    await waitFor(() => expect(rowNames()).toEqual(['a.txt', 'c.txt']))
    await waitFor(() => expect(document.activeElement).toBe(row('c.txt')))
    // The focus, not the selection: Space selects it, then Delete acts on it.
    expect(row('c.txt').getAttribute('aria-selected')).toBe('false')
    await userEvent.keyboard(' ')
    expect(row('c.txt').getAttribute('aria-selected')).toBe('true')
    await userEvent.keyboard('{Delete}')
    await waitFor(() => expect(rowNames()).toEqual(['a.txt']))
    await waitFor(() => expect(document.activeElement).toBe(row('a.txt')))
  })

  it('names the order in force on the sort button, with the language’s own punctuation', async () => {
    renderPage(
      <DriveProvider api={new FakeDriveApi([aFile({ name: 'a.txt' })])}>
        <DrivePage view="folder" folderId="" />
      </DriveProvider>,
      { path: '/drive', locale: 'zh-TW' },
    )
    expect((await screen.findByTestId('sort-menu')).getAttribute('aria-label')).toBe('排序方式：名稱，遞增')
  })

  it('shows a failed action’s error in words', async () => {
    const api = new FakeDriveApi([aFile({ name: 'a.txt' })])
    api.failures.set('star', driveError(DriveErrors.file_not_found))
    show(api)
    await waitFor(() => expect(rowNames()).toEqual(['a.txt']))
    await userEvent.click(within(await openRowMenu('a.txt')).getByRole('menuitem', { name: 'Add to Starred' }))
    expect((await screen.findByRole('alert')).textContent).toContain(ERROR_MESSAGES['en-US'].file_not_found)
  })

  it('makes a new folder in the picker, opens it and moves the item there', async () => {
    const api = new FakeDriveApi([aFile({ name: 'a.txt' })])
    show(api)
    await waitFor(() => expect(rowNames()).toEqual(['a.txt']))
    await userEvent.click(within(await openRowMenu('a.txt')).getByRole('menuitem', { name: 'Move to…' }))
    const picker = await screen.findByTestId('folder-picker')
    expect(await within(picker).findByText('No folders in here')).toBeDefined()
    await userEvent.click(within(picker).getByTestId('picker-new-folder'))
    const field = await screen.findByLabelText('Folder name')
    expect(document.activeElement).toBe(field)
    await userEvent.clear(field)
    await userEvent.type(field, 'Papers{Enter}')
    // The picker now stands in the new folder, which is not where the item is: it can go there.
    await waitFor(() => expect(within(picker).getByText('Papers')).toBeDefined())
    await waitFor(() => expect((within(picker).getByTestId('picker-submit') as HTMLButtonElement).disabled).toBe(false))
    const papers = [...api.files.values()].find((file) => file.name === 'Papers')!
    expect(api.callsOf('createFolder')).toEqual([[{ name: 'Papers', parentId: '' }]])
    await userEvent.click(within(picker).getByTestId('picker-submit'))
    expect(await screen.findByText('“a.txt” moved to Papers')).toBeDefined()
    expect(api.callsOf('move')).toEqual([[[expect.any(String)], papers.id]])
    // The new folder shows in the page's list, which the item left.
    await waitFor(() => expect(rowNames()).toEqual(['Papers']))
  })

  it('moves an item into a folder chosen in the picker', async () => {
    const docs = aFolder({ name: 'Docs' })
    const inner = aFolder({ name: 'Inner', parent_id: docs.id })
    const api = new FakeDriveApi([docs, inner, aFile({ name: 'a.txt' })])
    show(api)
    await waitFor(() => expect(rowNames()).toEqual(['Docs', 'a.txt']))
    await userEvent.click(within(await openRowMenu('a.txt')).getByRole('menuitem', { name: 'Move to…' }))
    const picker = await screen.findByTestId('folder-picker')
    expect(within(picker).getByRole('heading', { name: 'Move “a.txt”' })).toBeDefined()
    // Already in My drive: moving here would do nothing.
    expect((within(picker).getByTestId('picker-submit') as HTMLButtonElement).disabled).toBe(true)
    await userEvent.click(await within(picker).findByRole('button', { name: 'Open Docs' }))
    await userEvent.click(await within(picker).findByRole('button', { name: 'Open Inner' }))
    await waitFor(() => expect((within(picker).getByTestId('picker-submit') as HTMLButtonElement).disabled).toBe(false))
    await userEvent.click(within(picker).getByTestId('picker-submit'))
    await waitFor(() => expect(rowNames()).toEqual(['Docs']))
    expect(api.callsOf('move')).toEqual([[[expect.any(String)], inner.id]])
    expect(await screen.findByText('“a.txt” moved to Inner')).toBeDefined()
  })

  // Regression (issue 10): the ⋮ menu of a row in a two-row selection moved only that row.
  it('a row menu acts on the whole selection when its row is selected, and on its row alone otherwise', async () => {
    const api = new FakeDriveApi([aFolder({ name: 'Docs' }), aFile({ name: 'a.txt' }), aFile({ name: 'b.txt' }), aFile({ name: 'c.txt' })])
    show(api)
    await waitFor(() => expect(rowNames()).toEqual(['Docs', 'a.txt', 'b.txt', 'c.txt']))
    await userEvent.click(within(row('a.txt')).getByTestId('row-select'))
    await userEvent.click(within(row('b.txt')).getByTestId('row-select'))
    await userEvent.click(within(await openRowMenu('b.txt')).getByRole('menuitem', { name: 'Move to…' }))
    const picker = await screen.findByTestId('folder-picker')
    expect(within(picker).getByRole('heading', { name: 'Move 2 items' })).toBeDefined()
    await userEvent.click(await within(picker).findByRole('button', { name: 'Open Docs' }))
    await waitFor(() => expect((within(picker).getByTestId('picker-submit') as HTMLButtonElement).disabled).toBe(false))
    await userEvent.click(within(picker).getByTestId('picker-submit'))
    await waitFor(() => expect(rowNames()).toEqual(['Docs', 'c.txt']))
    expect(api.callsOf('move')[0]![0]).toHaveLength(2)

    // A row outside the selection: its menu acts on it alone, and it becomes the selection.
    await userEvent.click(within(row('Docs')).getByTestId('row-select'))
    await userEvent.click(within(await openRowMenu('c.txt')).getByRole('menuitem', { name: 'Move to…' }))
    expect(within(await screen.findByTestId('folder-picker')).getByRole('heading', { name: 'Move “c.txt”' })).toBeDefined()
    expect(rows().filter((r) => r.getAttribute('aria-selected') === 'true').map((r) => r.dataset.name)).toEqual(['c.txt'])
  })

  // Regression (issue 10): the header checkbox stayed half-checked after the selected rows were trashed.
  it('the header checkbox follows the rows that remain after the selected ones are trashed', async () => {
    const api = new FakeDriveApi([aFile({ name: 'a.txt' }), aFile({ name: 'b.txt' }), aFile({ name: 'c.txt' })])
    show(api)
    await waitFor(() => expect(rowNames()).toEqual(['a.txt', 'b.txt', 'c.txt']))
    const header = screen.getByTestId('select-all')
    expect(header.getAttribute('aria-pressed')).toBe('false')
    await userEvent.click(within(row('a.txt')).getByTestId('row-select'))
    await userEvent.click(within(row('b.txt')).getByTestId('row-select'))
    expect(header.getAttribute('aria-pressed')).toBe('mixed')
    await userEvent.click(within(await openRowMenu('a.txt')).getByRole('menuitem', { name: 'Move to trash' }))
    await waitFor(() => expect(rowNames()).toEqual(['c.txt']))
    expect(screen.getByTestId('select-all').getAttribute('aria-pressed')).toBe('false')
    expect(screen.queryByText('2 selected')).toBeNull()
    await userEvent.click(within(row('c.txt')).getByTestId('row-select'))
    expect(screen.getByTestId('select-all').getAttribute('aria-pressed')).toBe('true')
  })

  it('a folder being moved cannot be opened in the picker', async () => {
    const docs = aFolder({ name: 'Docs' })
    const api = new FakeDriveApi([docs, aFolder({ name: 'Other' })])
    show(api)
    await waitFor(() => expect(rowNames()).toEqual(['Docs', 'Other']))
    await userEvent.click(within(await openRowMenu('Docs')).getByRole('menuitem', { name: 'Move to…' }))
    const picker = await screen.findByTestId('folder-picker')
    expect((await within(picker).findByRole('button', { name: 'Open Docs' }) as HTMLButtonElement).disabled).toBe(true)
    expect((within(picker).getByRole('button', { name: 'Open Other' }) as HTMLButtonElement).disabled).toBe(false)
  })

  it('uploads picked files into the folder and shows each one as it finishes', async () => {
    const api = new FakeDriveApi([aFile({ name: 'b.txt' })])
    show(api)
    await waitFor(() => expect(rowNames()).toEqual(['b.txt']))
    const input = screen.getByTestId('upload-files-input')
    await act(async () => {
      fireEvent.change(input, { target: { files: [new File(['hello'], 'a.txt'), new File(['world'], 'c.txt')] } })
    })
    expect(screen.getByTestId('upload-title').textContent).toBe('Uploading 2 items')
    expect(api.uploads.map((u) => [u.input.name, u.input.parentId])).toEqual([
      ['a.txt', ''],
      ['c.txt', ''],
    ])
    await act(async () => {
      api.uploads[0]!.finish()
    })
    await waitFor(() => expect(rowNames()).toEqual(['a.txt', 'b.txt']))
  })

  it('previews images with the inline link, steps through the files, and offers the download of a kind it cannot show', async () => {
    const api = new FakeDriveApi([aFile({ name: '1.png', file_category: 'IMAGE', mime_type: 'image/png' }), aFile({ name: '2.bin' }), aFile({ name: '3.jpg', file_category: 'IMAGE', mime_type: 'image/jpeg' })])
    show(api)
    await waitFor(() => expect(rowNames()).toHaveLength(3))
    await userEvent.dblClick(row('1.png'))
    const dialog = await screen.findByTestId('preview-dialog')
    const image = (await within(dialog).findByTestId('preview-image')) as HTMLImageElement
    expect(image.alt).toBe('1.png')
    expect(new URL(image.src).searchParams.get('disposition')).toBe('inline')
    expect(within(dialog).getByTestId('preview-position').textContent).toBe('1 of 3')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Next file' }))
    const none = await within(dialog).findByTestId('preview-none')
    expect(within(none).getByText('There is no preview for this kind of file.')).toBeDefined()
    // No link is asked for a file the dialog cannot show.
    expect(api.callsOf('downloadUrl')).toHaveLength(1)
    await userEvent.keyboard('{ArrowRight}')
    await waitFor(() => expect((within(dialog).getByTestId('preview-image') as HTMLImageElement).alt).toBe('3.jpg'))
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}')
    await waitFor(() => expect((within(dialog).getByTestId('preview-image') as HTMLImageElement).alt).toBe('1.png'))
    expect(within(dialog).queryByRole('button', { name: 'Previous file' })).toBeNull()
  })

  it('gives the focus back to the row of the file shown last when the preview closes', async () => {
    const api = new FakeDriveApi([aFile({ name: '1.png', file_category: 'IMAGE', mime_type: 'image/png' }), aFile({ name: '2.png', file_category: 'IMAGE', mime_type: 'image/png' })])
    show(api)
    await waitFor(() => expect(rowNames()).toHaveLength(2))
    await userEvent.dblClick(row('1.png'))
    const dialog = await screen.findByTestId('preview-dialog')
    await userEvent.keyboard('{ArrowRight}')
    await waitFor(() => expect((within(dialog).getByTestId('preview-image') as HTMLImageElement).alt).toBe('2.png'))
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByTestId('preview-dialog')).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(row('2.png')))
    // The grid's roving focus follows, so the arrow keys go on from that row.
    expect(row('2.png').getAttribute('tabindex')).toBe('0')
  })

  it('offers to look inside an archive it cannot preview, on the unpack page', async () => {
    const api = new FakeDriveApi([aFile({ name: 'photos.zip', id: 'Vzip1', file_category: 'ARCHIVE' })])
    renderPage(
      <DriveProvider api={api}>
        <DrivePage view="folder" folderId="" />
      </DriveProvider>,
      { path: '/drive', routes: { '/decompress/:id': <p>Unpack page</p> } },
    )
    await waitFor(() => expect(rowNames()).toEqual(['photos.zip']))
    await userEvent.dblClick(row('photos.zip'))
    const none = await within(await screen.findByTestId('preview-dialog')).findByTestId('preview-none')
    expect(within(none).getByText('Look inside this archive, and unpack all of it or some files into your drive.')).toBeDefined()
    await userEvent.click(within(none).getByRole('button', { name: 'Unpack…' }))
    expect(await screen.findByText('Unpack page')).toBeDefined()
  })
})

describe('DrivePage: cloud download from the “+” menu', () => {
  it('opens cloud download into the folder it is in; from the root, into the download folder', async () => {
    const films = aFolder({ name: 'Films', id: 'Vfilms' })
    const api = new FakeDriveApi([films, aFile({ name: 'a.mkv', parent_id: films.id })])
    const view = renderPage(
      <DriveProvider api={api}>
        <DrivePage view="folder" folderId={films.id} />
      </DriveProvider>,
      { path: `/drive/${films.id}`, locale: 'zh-TW', routes: { '/thunder': <Thunder /> } },
    )
    await waitFor(() => expect(rowNames()).toEqual(['a.mkv']))
    await userEvent.click(screen.getByTestId('upload-menu'))
    await userEvent.click(await screen.findByRole('menuitem', { name: '新增雲端下載' }))
    expect((await screen.findByTestId('thunder')).textContent).toBe('Cloud download ?folder=Vfilms')
    view.unmount()

    show(api)
    await waitFor(() => expect(rowNames()).toEqual(['Films']))
    await userEvent.click(screen.getByTestId('upload-menu'))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Add cloud download' }))
    expect((await screen.findByTestId('thunder')).textContent).toBe('Cloud download ')
  })
})

describe('DrivePage: Trash and Starred', () => {
  it('restores from the trash', async () => {
    const api = new FakeDriveApi([aFile({ name: 'old.txt', trashed: true }), aFile({ name: 'kept.txt' })])
    show(api, 'trash')
    await waitFor(() => expect(rowNames()).toEqual(['old.txt']))
    expect(api.callsOf('list')[0]![0]).toMatchObject({ parentId: '*', filters: { trashed: { eq: true } } })
    await userEvent.click(within(await openRowMenu('old.txt')).getByRole('menuitem', { name: 'Restore' }))
    await waitFor(() => expect(rowNames()).toEqual([]))
    expect(await screen.findByText('“old.txt” restored')).toBeDefined()
    expect([...api.files.values()].find((file) => file.name === 'old.txt')!.trashed).toBe(false)
  })

  it('shows in the trash when each item went there, not when it was last changed', async () => {
    const trashed = aFile({ name: 'old.txt', trashed: true, modified_time: '2026-01-02T10:00:00Z', delete_time: '2026-03-04T05:06:00Z' })
    show(new FakeDriveApi([trashed]), 'trash')
    await waitFor(() => expect(rowNames()).toEqual(['old.txt']))
    const when = formatDateTime(trashed.delete_time, 'en-US')
    expect(screen.getByRole('columnheader', { name: 'Trashed' })).toBeDefined()
    expect(screen.queryByRole('columnheader', { name: /Modified/ })).toBeNull()
    const cells = within(row('old.txt')).getAllByRole('gridcell').map((cell) => cell.textContent)
    expect(cells).toContain(when)
    expect(cells).not.toContain(formatDateTime(trashed.modified_time, 'en-US'))
    // The phone's line under the name says it in words.
    expect(within(row('old.txt')).getByText(`1 KiB · Moved to the trash ${when}`)).toBeDefined()
  })

  // Regression: opening a trashed file tried its preview, whose signed link the server now
  // refuses (a link dies with its file: 404 file_not_found).
  it('opening a trashed file says it is in the trash and offers to restore it, with no preview', async () => {
    const api = new FakeDriveApi([aFile({ name: 'clip.webm', trashed: true }), aFolder({ name: 'Old', trashed: true })])
    show(api, 'trash')
    await waitFor(() => expect(rowNames()).toEqual(['Old', 'clip.webm']))
    await userEvent.dblClick(row('clip.webm'))
    const dialog = await screen.findByTestId('confirm-dialog')
    expect(within(dialog).getByRole('heading').textContent).toBe('“clip.webm” is in the trash')
    expect(within(dialog).getByText('A file in the trash can’t be previewed or downloaded. Restore it to open it.')).toBeDefined()
    expect(screen.queryByTestId('preview-dialog')).toBeNull()
    expect(api.callsOf('downloadUrl')).toEqual([])
    // Cancel leaves it in the trash; Enter on a trashed folder offers the same.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull())
    row('Old').focus()
    await userEvent.keyboard('{Enter}')
    expect(within(await screen.findByTestId('confirm-dialog')).getByText('A folder in the trash can’t be opened. Restore it to open it.')).toBeDefined()
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull())

    await userEvent.dblClick(row('clip.webm'))
    await userEvent.click(within(await screen.findByTestId('confirm-dialog')).getByRole('button', { name: 'Restore' }))
    await waitFor(() => expect(rowNames()).toEqual(['Old']))
    expect(await screen.findByText('“clip.webm” restored')).toBeDefined()
    expect([...api.files.values()].find((file) => file.name === 'clip.webm')!.trashed).toBe(false)
    expect(screen.queryByTestId('preview-dialog')).toBeNull()
    expect(api.callsOf('downloadUrl')).toEqual([])
  })

  it('deletes forever after asking, and empties the trash after asking', async () => {
    const api = new FakeDriveApi([aFile({ name: 'a.txt', trashed: true }), aFile({ name: 'b.txt', trashed: true })])
    show(api, 'trash')
    await waitFor(() => expect(rowNames()).toEqual(['a.txt', 'b.txt']))
    await userEvent.click(within(await openRowMenu('a.txt')).getByRole('menuitem', { name: 'Delete forever' }))
    const confirm = await screen.findByTestId('confirm-dialog')
    expect(within(confirm).getByRole('heading').textContent).toBe('Delete “a.txt” forever?')
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete forever' }))
    await waitFor(() => expect(rowNames()).toEqual(['b.txt']))

    await userEvent.click(screen.getByTestId('empty-trash'))
    await userEvent.click(within(await screen.findByTestId('confirm-dialog')).getByRole('button', { name: 'Empty trash' }))
    expect(await screen.findByText('The trash is empty')).toBeDefined()
    expect(api.callsOf('emptyTrash')).toHaveLength(1)
  })

  it('lists starred items from every folder; unstarring takes an item off the list', async () => {
    const folder = aFolder({ name: 'Deep' })
    const api = new FakeDriveApi([folder, aFile({ name: 'star.txt', starred: true, parent_id: folder.id }), aFile({ name: 'plain.txt' })])
    show(api, 'starred')
    await waitFor(() => expect(rowNames()).toEqual(['star.txt']))
    await userEvent.click(within(await openRowMenu('star.txt')).getByRole('menuitem', { name: 'Remove from Starred' }))
    await waitFor(() => expect(rowNames()).toEqual([]))
    expect(await screen.findByText('Nothing starred yet')).toBeDefined()
  })
})
