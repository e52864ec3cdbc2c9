import { useRef, useState } from 'react'
import { onDemand } from './on-demand'
import type { MenuOpening, RadioMenuProps } from './radio-menu-types'

const radioMenu = onDemand(() => import('./radio-menu'))

/**
 * A header menu whose Radix DropdownMenu (radio-menu.tsx, with its positioning and focus
 * code) is not part of the first page load. The page renders the trigger button the menu
 * would render; hovering or focusing it fetches the menu, which then takes the trigger's place
 * (and its focus). A press that arrives before the menu does (pointer down, or Enter, Space or
 * ArrowDown) opens the menu as soon as it is there. Should the chunk fail to arrive, the
 * trigger stays and the next interaction tries again.
 */
export function DeferredRadioMenu(props: RadioMenuProps) {
  const buttonRef = useRef<HTMLButtonElement>(null)
  const opening = useRef<MenuOpening | null>(null)
  const [shown, setShown] = useState<{ opening: MenuOpening | null; focusTrigger: boolean } | null>(null)

  if (shown && radioMenu.value) return <radioMenu.value.RadioMenu {...props} opening={shown.opening} focusTrigger={shown.focusTrigger} />

  function want(open: MenuOpening | null) {
    if (open) opening.current = open
    const show = () => setShown({ opening: opening.current, focusTrigger: document.activeElement === buttonRef.current })
    if (radioMenu.value) show()
    else
      radioMenu.load().then(show, () => {
        opening.current = null
      })
  }

  const { disabled } = props.trigger
  return (
    <button
      ref={buttonRef}
      type="button"
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      data-disabled={disabled ? '' : undefined}
      {...props.trigger}
      onPointerEnter={() => want(null)}
      onFocus={() => want(null)}
      onPointerDown={(event) => {
        if (disabled || event.button !== 0 || event.ctrlKey) return
        // As Radix does: the menu, not the trigger, takes the focus when it opens.
        event.preventDefault()
        want('pointer')
      }}
      onKeyDown={(event) => {
        if (disabled || !['Enter', ' ', 'ArrowDown'].includes(event.key)) return
        event.preventDefault()
        want('keyboard')
      }}
    >
      {props.children}
    </button>
  )
}
