import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderPage } from '../../test/render'
import en from '../locales/en-US/index'
import { DriveProvider } from './drive-context'
import { DrivePage } from './drive-page'
import type { DriveView } from './file-actions'
import { aFile, aFolder, FakeDriveApi } from './fake-drive-api'

function show(api: FakeDriveApi, view: DriveView = 'folder') {
  return renderPage(
    <DriveProvider api={api}>
      <DrivePage view={view} />
    </DriveProvider>,
    { path: view === 'folder' ? '/drive' : `/drive/${view}` },
  )
}

const rows = () => screen.queryAllByTestId('drive-row')
const row = (name: string) => rows().find((r) => r.dataset.name === name)!

describe('Share from the drive', () => {
  it('opens the share dialog from a row’s menu and shares that item', async () => {
    const api = new FakeDriveApi([aFolder({ name: 'Photos' }), aFile({ name: 'a.txt' })])
    show(api)
    await waitFor(() => expect(rows()).toHaveLength(2))
    await userEvent.click(within(row('Photos')).getByTestId('row-menu'))
    await userEvent.click(await screen.findByRole('menuitem', { name: en.drive.share.action }))
    const dialog = await screen.findByTestId('share-dialog')
    expect(within(dialog).getByRole('heading', { name: 'Share “Photos”' })).toBeDefined()
    await userEvent.click(within(dialog).getByRole('button', { name: en.drive.share.dialog.create }))
    await within(dialog).findByTestId('share-created')
    expect(api.callsOf('createShare')[0]![0]).toMatchObject({ fileIds: [row('Photos').dataset.id] })
  })

  it('shares the whole selection from the selection bar', async () => {
    const api = new FakeDriveApi([aFile({ name: 'a.txt' }), aFile({ name: 'b.txt' })])
    show(api)
    await waitFor(() => expect(rows()).toHaveLength(2))
    await userEvent.click(screen.getByTestId('select-all'))
    await userEvent.click(within(screen.getByTestId('selection-bar')).getByTestId('action-share'))
    const dialog = await screen.findByTestId('share-dialog')
    expect(within(dialog).getByRole('heading', { name: 'Share 2 items' })).toBeDefined()
  })

  it('offers no Share in the trash', async () => {
    const api = new FakeDriveApi([aFile({ name: 'old.txt', trashed: true })])
    show(api, 'trash')
    await waitFor(() => expect(rows()).toHaveLength(1))
    await userEvent.click(within(row('old.txt')).getByTestId('row-menu'))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual([en.drive.actions.restore, en.drive.actions.deleteForever])
    await userEvent.keyboard('{Escape}')
    // Selected, the row's selection bar offers no Share either.
    await userEvent.click(within(row('old.txt')).getByTestId('row-select'))
    expect(within(screen.getByTestId('selection-bar')).queryByTestId('action-share')).toBeNull()
  })
})
