import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'

/** The component from a fresh module: its menu chunk not loaded yet, as on a first visit. */
async function freshMenu() {
  vi.resetModules()
  return (await import('./deferred-radio-menu')).DeferredRadioMenu
}

const OPTIONS = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
]

async function renderMenu(onValueChange = vi.fn(), disabled = false) {
  const DeferredRadioMenu = await freshMenu()
  render(
    <DeferredRadioMenu trigger={{ 'aria-label': 'Change theme', 'data-testid': 'switcher', disabled }} label="Theme" value="light" options={OPTIONS} onValueChange={onValueChange}>
      <svg aria-hidden="true" />
    </DeferredRadioMenu>,
  )
  return onValueChange
}

describe('DeferredRadioMenu', () => {
  it('renders the trigger a menu button has, closed', async () => {
    await renderMenu()
    const trigger = screen.getByRole('button', { name: 'Change theme' })
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu')
    expect(trigger.getAttribute('aria-expanded')).toBe('false')
    expect(trigger.getAttribute('data-state')).toBe('closed')
    expect(screen.queryByRole('menu')).toBeNull()
  })

  it('opens on the first press, then chooses an item', async () => {
    const onValueChange = await renderMenu()
    await userEvent.click(screen.getByTestId('switcher'))
    const dark = await screen.findByRole('menuitemradio', { name: 'Dark' })
    expect(screen.getByRole('menuitemradio', { name: /Light/ }).getAttribute('aria-checked')).toBe('true')
    expect(screen.getByTestId('switcher').getAttribute('aria-expanded')).toBe('true')
    await userEvent.click(dark)
    expect(onValueChange).toHaveBeenCalledWith('dark')
  })

  it('keeps the focus on the trigger it replaces, and opens from the keyboard on the first item', async () => {
    await renderMenu()
    await userEvent.tab()
    // The Radix trigger has taken the place (and the focus) of the server-rendered one.
    await vi.waitFor(() => expect(document.activeElement?.id).toMatch(/^radix-/))
    expect(document.activeElement).toBe(screen.getByTestId('switcher'))
    await userEvent.keyboard('{Enter}')
    const light = await screen.findByRole('menuitemradio', { name: /Light/ })
    await vi.waitFor(() => expect(document.activeElement).toBe(light))
  })

  it('opens from the keyboard before the menu has arrived', async () => {
    await renderMenu()
    const trigger = screen.getByTestId('switcher')
    trigger.focus()
    // Pressed at once: the Radix menu is still on its way (or replacing the trigger).
    await userEvent.keyboard('{ArrowDown}')
    const light = await screen.findByRole('menuitemradio', { name: /Light/ })
    await vi.waitFor(() => expect(document.activeElement).toBe(light))
  })

  it('does nothing while disabled', async () => {
    await renderMenu(vi.fn(), true)
    const trigger = screen.getByTestId('switcher')
    expect(trigger).toHaveProperty('disabled', true)
    await userEvent.click(trigger)
    expect(screen.queryByRole('menu')).toBeNull()
  })
})
