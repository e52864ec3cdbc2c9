import * as Tabs from '@radix-ui/react-tabs'
import { useEffect, useRef } from 'react'
import type { TabsProps } from './tabs-types'

/**
 * The tab set on Radix Tabs, loaded on the first change of tab (deferred-tabs.tsx).
 * `focusSelected` gives the selected trigger the focus the server-rendered tab list had.
 */
export function RadixTabs({ value, onValueChange, tabs, label, listClassName, triggerClassName, panelClassName, focusSelected }: TabsProps & { focusSelected: boolean }) {
  const list = useRef<HTMLDivElement>(null)
  // Once, when this replaces the server-rendered tab list.
  const initialFocus = useRef(focusSelected)
  useEffect(() => {
    if (initialFocus.current) list.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus()
  }, [])

  return (
    <Tabs.Root value={value} onValueChange={onValueChange}>
      <Tabs.List ref={list} className={listClassName} aria-label={label}>
        {tabs.map((tab) => (
          <Tabs.Trigger key={tab.value} value={tab.value} className={triggerClassName}>
            {tab.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {tabs.map((tab) => (
        <Tabs.Content key={tab.value} value={tab.value} className={panelClassName}>
          {tab.panel}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  )
}
