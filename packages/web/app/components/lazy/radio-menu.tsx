import * as DropdownMenu from '@radix-ui/react-dropdown-menu'
import { useEffect, useRef } from 'react'
import { menuContentClass, menuItemClass } from '../ui/menu-styles'
import type { MenuOpening, RadioMenuProps } from './radio-menu-types'

/**
 * The header menu itself (Radix DropdownMenu), loaded on the first interaction with its
 * trigger (deferred-radio-menu.tsx). `opening` opens it at once, as the press that loaded it
 * asked; `focusTrigger` gives the new trigger the focus the server-rendered one had.
 */
export function RadioMenu({ trigger, children, label, value, options, onValueChange, opening, focusTrigger }: RadioMenuProps & { opening: MenuOpening | null; focusTrigger: boolean }) {
  const triggerRef = useRef<HTMLButtonElement>(null)
  // A keyboard opening that Radix did not see (it was not loaded yet) focuses the first item, as
  // Radix does for Enter, Space and ArrowDown on its trigger. Only for that first opening.
  const keyboardOpening = useRef(opening === 'keyboard')

  // Once, when this menu replaces the server-rendered trigger.
  const initial = useRef({ focusTrigger, opening })
  useEffect(() => {
    if (initial.current.focusTrigger && initial.current.opening === null) triggerRef.current?.focus()
  }, [])

  return (
    <DropdownMenu.Root defaultOpen={opening !== null}>
      <DropdownMenu.Trigger ref={triggerRef} {...trigger}>
        {children}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className={menuContentClass}
          sideOffset={6}
          align="end"
          onFocus={(event) => {
            // The menu focuses itself when it opens; a keyboard opening moves on to the first item.
            if (!keyboardOpening.current || event.target !== event.currentTarget) return
            keyboardOpening.current = false
            event.currentTarget.querySelector<HTMLElement>('[role="menuitemradio"]:not([data-disabled])')?.focus({ preventScroll: true })
          }}
        >
          <DropdownMenu.Label className="px-3 py-1.5 text-xs font-medium text-slate-500 dark:text-slate-400">{label}</DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={value} onValueChange={onValueChange}>
            {options.map((option) => (
              <DropdownMenu.RadioItem key={option.value} value={option.value} lang={option.lang} className={menuItemClass}>
                <DropdownMenu.ItemIndicator className="absolute left-2">✓</DropdownMenu.ItemIndicator>
                {option.label}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
