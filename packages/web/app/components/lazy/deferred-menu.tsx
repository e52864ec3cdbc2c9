import { useEffect, useRef, useState } from 'react'
import type { DeferredMenuProps } from './menu-types'
import { onDemand } from './on-demand'

const radixMenu = onDemand(() => import('./radix-menu'))

/**
 * The last kind of input, as Radix's menu tracks it (a key press, then pointer down or move): an
 * opening the menu did not see itself (its chunk was on the way) is a keyboard one if a key
 * came last.
 */
let lastInput: 'keyboard' | 'pointer' = 'pointer'
let tracking = false
function trackInput() {
  if (tracking) return
  tracking = true
  const pointer = () => {
    lastInput = 'pointer'
  }
  document.addEventListener('keydown', () => (lastInput = 'keyboard'), true)
  document.addEventListener('pointerdown', pointer, true)
  document.addEventListener('pointermove', pointer, true)
}

/** Fetches the menu's code ahead of a likely opening; a failure is retried by the next interaction. */
export function preloadMenu(): void {
  void radixMenu.load().catch(() => undefined)
}

/**
 * A dropdown menu whose Radix DropdownMenu (radix-menu.tsx: positioning, focus, typeahead) is not
 * part of the first page load. Until then it renders the trigger the menu would render; pointing
 * at or focusing it fetches the menu, which then takes the trigger's place (and its focus). A
 * press that arrives first (pointer down, or Enter, Space or ArrowDown), or a controlled `open`
 * (a row's context menu), opens the menu as soon as it is there, on its first item when the
 * keyboard asked. A menu mounted after the chunk has arrived is Radix at once. Should the chunk
 * fail to arrive, the trigger stays and the next interaction tries again.
 */
export function DeferredMenu(props: DeferredMenuProps) {
  const { trigger, children, onOpenChange } = props
  const [ownOpen, setOwnOpen] = useState(false)
  const open = props.open ?? ownOpen
  const buttonRef = useRef<HTMLButtonElement>(null)
  const [shown, setShown] = useState<{ focusTrigger: boolean; keyboardOpening: boolean } | null>(() => (radixMenu.value ? { focusTrigger: false, keyboardOpening: false } : null))

  useEffect(trackInput, [])

  function setOpen(next: boolean) {
    if (props.open === undefined) setOwnOpen(next)
    onOpenChange?.(next)
  }

  function want(opening: boolean) {
    const keyboardOpening = opening && lastInput === 'keyboard'
    // A keyboard opening while the chunk was on the way (after a focus that asked for it) still counts.
    const show = () => setShown((current) => (current && !keyboardOpening ? current : { focusTrigger: current?.focusTrigger ?? document.activeElement === buttonRef.current, keyboardOpening }))
    if (radixMenu.value) show()
    else radixMenu.load().then(show, () => opening && setOpen(false))
  }

  // Opened from outside (the row's context menu) before Radix has arrived.
  useEffect(() => {
    if (open && !shown) want(true)
  }, [open])

  if (shown && radixMenu.value) return <radixMenu.value.RadixMenu {...props} open={open} onOpenChange={setOpen} focusTrigger={shown.focusTrigger} keyboardOpening={shown.keyboardOpening} />

  const { disabled } = trigger
  return (
    <button
      ref={buttonRef}
      type="button"
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      data-disabled={disabled ? '' : undefined}
      {...trigger}
      onPointerEnter={() => want(false)}
      onFocus={() => want(false)}
      onPointerDown={(event) => {
        if (disabled || event.button !== 0 || event.ctrlKey) return
        // As Radix does: the menu, not the trigger, takes the focus when it opens.
        event.preventDefault()
        setOpen(true)
      }}
      onKeyDown={(event) => {
        if (disabled || !['Enter', ' ', 'ArrowDown'].includes(event.key)) return
        event.preventDefault()
        setOpen(true)
      }}
    >
      {children}
    </button>
  )
}
