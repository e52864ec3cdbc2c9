import { DriveErrors } from '@cumulus/protocol'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../test/render'
import { Breadcrumbs } from './breadcrumbs'
import { aFolder, FakeDriveApi } from './fake-drive-api'
import { folderPath, rememberFolder } from './folder-path'

/** root > a > b > c > d, as folders in a fake drive. */
function deepDrive() {
  const a = aFolder({ name: 'Projects', parent_id: '' })
  const b = aFolder({ name: '2026', parent_id: a.id })
  const c = aFolder({ name: 'Spring', parent_id: b.id })
  const d = aFolder({ name: 'Photos', parent_id: c.id })
  return { api: new FakeDriveApi([a, b, c, d]), a, b, c, d }
}

describe('folderPath', () => {
  it('walks the parents up to the root with get()', async () => {
    const { api, a, b, c, d } = deepDrive()
    const steps = await folderPath(api, d.id, 'My drive')
    expect(steps).toEqual([
      { id: '', name: 'My drive' },
      { id: a.id, name: 'Projects' },
      { id: b.id, name: '2026' },
      { id: c.id, name: 'Spring' },
      { id: d.id, name: 'Photos' },
    ])
    expect(api.callsOf('get')).toEqual([[d.id], [c.id], [b.id], [a.id]])
  })

  it('reads no folder it has already seen (opened from a list, or an earlier path)', async () => {
    const { api, a, b, c, d } = deepDrive()
    for (const folder of [a, b, c]) rememberFolder(folder)
    await folderPath(api, d.id, 'My drive')
    expect(api.callsOf('get')).toEqual([[d.id]])
  })

  it('the root needs no call', async () => {
    const api = new FakeDriveApi()
    expect(await folderPath(api, '', 'My drive')).toEqual([{ id: '', name: 'My drive' }])
    expect(api.calls).toEqual([])
  })

  it('a missing folder rejects with the drive’s file_not_found', async () => {
    const api = new FakeDriveApi()
    await expect(folderPath(api, 'gone', 'My drive')).rejects.toMatchObject({ error: DriveErrors.file_not_found.reason })
  })
})

const link = (step: { id: string; name: string }, className: string) => (
  <a href={`#${step.id}`} className={className}>
    {step.name}
  </a>
)

describe('Breadcrumbs', () => {
  it('links every folder above and names the current one as the page heading', () => {
    renderPage(<Breadcrumbs steps={[{ id: '', name: 'My drive' }, { id: 'a', name: 'Projects' }, { id: 'b', name: 'Photos' }]} label="Folder path" headingLevel={1} renderStep={link} onChoose={vi.fn()} />)
    const nav = screen.getByRole('navigation', { name: 'Folder path' })
    expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual(['My drive', 'Projects'])
    const heading = within(nav).getByRole('heading', { level: 1 })
    expect(heading.textContent).toBe('Photos')
    expect(heading.getAttribute('aria-current')).toBe('page')
  })

  it('folds the middle of a deep path into a menu and keeps the root and the parent', async () => {
    const onChoose = vi.fn()
    const steps = [
      { id: '', name: 'My drive' },
      { id: 'a', name: 'Projects' },
      { id: 'b', name: '2026' },
      { id: 'c', name: 'Spring' },
      { id: 'd', name: 'Photos' },
    ]
    renderPage(<Breadcrumbs steps={steps} label="Folder path" renderStep={link} onChoose={onChoose} />)
    expect(screen.getAllByRole('link').map((a) => a.textContent)).toEqual(['My drive', 'Spring'])
    await userEvent.click(screen.getByRole('button', { name: 'Show the folders in between' }))
    const items = await screen.findAllByRole('menuitem')
    expect(items.map((item) => item.textContent)).toEqual(['Projects', '2026'])
    await userEvent.click(items[1]!)
    expect(onChoose).toHaveBeenCalledWith({ id: 'b', name: '2026' })
  })
})
