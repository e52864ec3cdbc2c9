import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { DeferredTabs as DeferredTabsType } from './deferred-tabs'

let DeferredTabs: typeof DeferredTabsType

// Each test starts as a first visit does: Radix Tabs not loaded yet.
beforeEach(async () => {
  vi.resetModules()
  DeferredTabs = (await import('./deferred-tabs')).DeferredTabs
})

function Fixture({ preload }: { preload?: () => Promise<unknown> }) {
  const [value, setValue] = useState('one')
  return (
    <DeferredTabs
      value={value}
      onValueChange={setValue}
      label="Pick one"
      listClassName="list"
      triggerClassName="trigger"
      panelClassName="panel"
      tabs={[
        { value: 'one', label: 'First', panel: <input aria-label="Typed" /> },
        { value: 'two', label: 'Second', panel: <p>second panel</p>, preload },
        { value: 'three', label: 'Third', panel: <p>third panel</p> },
      ]}
    />
  )
}

describe('DeferredTabs', () => {
  it('renders the tab list and the open panel with the tab roles and their links', () => {
    render(<Fixture />)
    const list = screen.getByRole('tablist', { name: 'Pick one' })
    expect(list.getAttribute('aria-orientation')).toBe('horizontal')
    const first = screen.getByRole('tab', { name: 'First', selected: true })
    const second = screen.getByRole('tab', { name: 'Second', selected: false })
    expect(first.tabIndex).toBe(0)
    expect(second.tabIndex).toBe(-1)
    const panel = screen.getByRole('tabpanel', { name: 'First' })
    expect(first.getAttribute('aria-controls')).toBe(panel.id)
    expect(panel.getAttribute('data-state')).toBe('active')
    // The closed panels are there, hidden and empty, so every tab controls an element.
    const closed = document.getElementById(second.getAttribute('aria-controls')!)!
    expect(closed.hidden).toBe(true)
    expect(closed.childElementCount).toBe(0)
  })

  it('opens another tab once its panel has loaded, with Radix taking over', async () => {
    let arrive!: () => void
    const panelModule = new Promise<void>((resolve) => (arrive = resolve))
    const preload = vi.fn(() => panelModule)
    render(<Fixture preload={preload} />)
    await userEvent.click(screen.getByRole('tab', { name: 'Second' }))
    expect(preload).toHaveBeenCalled()
    expect(screen.getByRole('tab', { name: 'First', selected: true })).toBeDefined()
    arrive()
    expect(await screen.findByText('second panel')).toBeDefined()
    expect(screen.getByRole('tab', { name: 'Second', selected: true })).toBe(document.activeElement)
    // Radix's roving focus now: ArrowRight selects the next tab.
    await userEvent.keyboard('{ArrowRight}')
    expect(await screen.findByText('third panel')).toBeDefined()
  })

  it('moves with the arrow keys from the first render on, keeping the focus on the tabs', async () => {
    render(<Fixture />)
    await userEvent.tab()
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'First' }))
    await userEvent.keyboard('{ArrowLeft}')
    expect(await screen.findByText('third panel')).toBeDefined()
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Third', selected: true })))
  })

  it('keeps what was typed in the open panel when the tab list only gets the focus', async () => {
    render(<Fixture />)
    await userEvent.type(screen.getByLabelText('Typed'), 'hello')
    await userEvent.tab({ shift: true })
    await userEvent.tab({ shift: true })
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'First' }))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.getByLabelText('Typed')).toHaveProperty('value', 'hello')
  })
})
