import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'

/** The component from a fresh module: its menu chunk not loaded yet, as on a first visit. */
async function freshMenu() {
  vi.resetModules()
  return (await import('./deferred-menu')).DeferredMenu
}

async function renderMenu(onSelect = vi.fn()) {
  const DeferredMenu = await freshMenu()
  render(
    <DeferredMenu
      modal={false}
      trigger={{ 'aria-label': 'Upload', 'data-testid': 'upload' }}
      items={(Menu) => (
        <>
          <Menu.Item onSelect={() => onSelect('files')}>Files</Menu.Item>
          <Menu.Item onSelect={() => onSelect('folder')}>Folder</Menu.Item>
        </>
      )}
    >
      +
    </DeferredMenu>,
  )
  return onSelect
}

describe('DeferredMenu', () => {
  it('renders the trigger a menu button has, closed, and no menu', async () => {
    await renderMenu()
    const trigger = screen.getByRole('button', { name: 'Upload' })
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu')
    expect(trigger.getAttribute('aria-expanded')).toBe('false')
    expect(trigger.getAttribute('data-state')).toBe('closed')
    expect(screen.queryByRole('menu')).toBeNull()
  })

  it('opens on the first click, then chooses an item', async () => {
    const onSelect = await renderMenu()
    await userEvent.click(screen.getByTestId('upload'))
    const folder = await screen.findByRole('menuitem', { name: 'Folder' })
    expect(screen.getByTestId('upload').getAttribute('aria-expanded')).toBe('true')
    await userEvent.click(folder)
    expect(onSelect).toHaveBeenCalledWith('folder')
    expect(screen.queryByRole('menu')).toBeNull()
  })

  it('opens from the keyboard before the menu has arrived, on its first item', async () => {
    await renderMenu()
    screen.getByTestId('upload').focus()
    await userEvent.keyboard('{Enter}')
    const files = await screen.findByRole('menuitem', { name: 'Files' })
    await vi.waitFor(() => expect(document.activeElement).toBe(files))
    // Escape closes it and gives the focus back to the (Radix) trigger.
    await userEvent.keyboard('{Escape}')
    await vi.waitFor(() => expect(screen.queryByRole('menu')).toBeNull())
    expect(document.activeElement).toBe(screen.getByTestId('upload'))
  })

  it('opens when its owner opens it (a row’s context menu) before the menu has arrived', async () => {
    const DeferredMenu = await freshMenu()
    function Owner() {
      const [open, setOpen] = useState(false)
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Open from outside
          </button>
          <DeferredMenu open={open} onOpenChange={setOpen} modal={false} trigger={{ 'aria-label': 'Actions', tabIndex: -1 }} items={(Menu) => <Menu.Item>Rename</Menu.Item>}>
            ⋮
          </DeferredMenu>
        </>
      )
    }
    render(<Owner />)
    await userEvent.click(screen.getByRole('button', { name: 'Open from outside' }))
    expect(await screen.findByRole('menuitem', { name: 'Rename' })).toBeDefined()
    await userEvent.keyboard('{Escape}')
    await vi.waitFor(() => expect(screen.queryByRole('menu')).toBeNull())
  })
})
