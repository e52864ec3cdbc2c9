import { type KeyboardEvent, useId, useRef, useState } from 'react'
import { onDemand } from './on-demand'
import type { TabsProps } from './tabs-types'

const radixTabs = onDemand(() => import('./radix-tabs'))

// Radix's roving focus keys for a horizontal, left-to-right tab list (loop on).
const KEY_TARGETS: Record<string, (index: number, last: number) => number> = {
  ArrowRight: (index, last) => (index === last ? 0 : index + 1),
  ArrowLeft: (index, last) => (index === 0 ? last : index - 1),
  Home: () => 0,
  PageUp: () => 0,
  End: (_, last) => last,
  PageDown: (_, last) => last,
}

/**
 * A tab set whose Radix Tabs (radix-tabs.tsx, with its roving focus and collection code) is not
 * part of the first page load. The page renders the tab list and the selected panel as Radix
 * does (tablist, tabs with aria-selected and aria-controls, tabpanels labelled by their tab);
 * the first change of tab (pointer down or focus on another tab, arrow keys, Home, End) fetches
 * Radix and the new tab's panel, then Radix takes over with that tab selected and the focus
 * where it was. Nothing is swapped before a change of tab, so what is typed in the open panel
 * stays. Pointing at or focusing the list fetches all that ahead. Should a chunk fail to
 * arrive, the list stays and the next change tries again.
 */
export function DeferredTabs(props: TabsProps) {
  const { value, tabs, label, listClassName, triggerClassName, panelClassName } = props
  const id = useId()
  const list = useRef<HTMLDivElement>(null)
  const requested = useRef<string | null>(null)
  // A tab set mounted after Radix has arrived (not while hydrating: nothing loads it before) uses it at once.
  const [radix, setRadix] = useState<{ focusSelected: boolean } | null>(() => (radixTabs.value ? { focusSelected: false } : null))

  /**
   * Opens `next` once its panel (and, for a change from the server-rendered list, Radix) has
   * arrived, so a tab never opens on a loading panel. The latest choice wins.
   */
  function select(next: string) {
    if (next === value) {
      requested.current = null
      return
    }
    if (requested.current === next) return
    requested.current = next
    const tab = tabs.find((t) => t.value === next)
    Promise.all([radix ? null : radixTabs.load(), tab?.preload?.()]).then(
      () => {
        if (requested.current !== next) return
        requested.current = null
        if (!radix) setRadix({ focusSelected: list.current?.contains(document.activeElement) ?? false })
        props.onValueChange(next)
      },
      () => {
        if (requested.current === next) requested.current = null
      },
    )
  }

  if (radix && radixTabs.value) return <radixTabs.value.RadixTabs {...props} onValueChange={select} focusSelected={radix.focusSelected} />

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    if (event.key === ' ' || event.key === 'Enter') return select(tabs[index]!.value)
    const target = KEY_TARGETS[event.key]
    if (!target || event.metaKey || event.ctrlKey || event.altKey || event.shiftKey) return
    event.preventDefault()
    select(tabs[target(index, tabs.length - 1)]!.value)
  }

  // Pointing at or focusing the list: the user may change tabs, so fetch what that needs.
  const warm = () => {
    for (const load of [radixTabs.load, ...tabs.map((tab) => tab.preload)]) void load?.().catch(() => undefined)
  }
  return (
    <div dir="ltr" data-orientation="horizontal">
      <div ref={list} role="tablist" aria-orientation="horizontal" aria-label={label} className={listClassName} data-orientation="horizontal" onPointerEnter={warm} onFocus={warm}>
        {tabs.map((tab, index) => {
          const selected = tab.value === value
          return (
            <button
              key={tab.value}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls={`${id}-content-${tab.value}`}
              data-state={selected ? 'active' : 'inactive'}
              id={`${id}-trigger-${tab.value}`}
              className={triggerClassName}
              tabIndex={selected ? 0 : -1}
              data-orientation="horizontal"
              onMouseDown={(event) => {
                if (event.button !== 0 || event.ctrlKey) return event.preventDefault()
                event.currentTarget.focus()
                select(tab.value)
              }}
              onKeyDown={(event) => onKeyDown(event, index)}
              onFocus={() => select(tab.value)}
            >
              {tab.label}
            </button>
          )
        })}
      </div>
      {tabs.map((tab) => {
        const selected = tab.value === value
        return (
          <div
            key={tab.value}
            data-state={selected ? 'active' : 'inactive'}
            data-orientation="horizontal"
            role="tabpanel"
            aria-labelledby={`${id}-trigger-${tab.value}`}
            hidden={!selected}
            id={`${id}-content-${tab.value}`}
            tabIndex={0}
            className={panelClassName}
          >
            {selected ? tab.panel : null}
          </div>
        )
      })}
    </div>
  )
}
