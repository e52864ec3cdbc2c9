import * as DropdownMenu from '@radix-ui/react-dropdown-menu'
import { useEffect, useRef } from 'react'
import type { DeferredMenuProps } from './menu-types'

/**
 * The menu itself (Radix DropdownMenu), loaded on the first interaction with its trigger
 * (deferred-menu.tsx). `focusTrigger` gives the new trigger the focus the plain one had;
 * `keyboardOpening` moves the focus to the first item when the menu opens, as Radix does for a
 * keyboard opening it saw (this one happened before Radix was there to see it).
 */
export function RadixMenu({ trigger, children, items, content, open, onOpenChange, modal, focusTrigger, keyboardOpening }: Omit<DeferredMenuProps, 'open' | 'onOpenChange'> & { open: boolean; onOpenChange(open: boolean): void; focusTrigger: boolean; keyboardOpening: boolean }) {
  const triggerRef = useRef<HTMLButtonElement>(null)
  const pendingKeyboardFocus = useRef(keyboardOpening)
  // Once, when this menu replaces the plain trigger.
  const initial = useRef({ focusTrigger, open })
  useEffect(() => {
    if (initial.current.focusTrigger && !initial.current.open) triggerRef.current?.focus()
  }, [])

  return (
    <DropdownMenu.Root open={open} onOpenChange={onOpenChange} modal={modal}>
      <DropdownMenu.Trigger ref={triggerRef} {...trigger}>
        {children}
      </DropdownMenu.Trigger>
      {open ? (
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            {...content}
            onFocus={(event) => {
              // The menu focuses itself when it opens; a keyboard opening moves on to the first item.
              if (!pendingKeyboardFocus.current || event.target !== event.currentTarget) return
              pendingKeyboardFocus.current = false
              event.currentTarget.querySelector<HTMLElement>('[role^="menuitem"]:not([data-disabled])')?.focus({ preventScroll: true })
            }}
          >
            {items(DropdownMenu)}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      ) : null}
    </DropdownMenu.Root>
  )
}
