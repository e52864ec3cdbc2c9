import type { KeyboardEvent } from 'react'

/**
 * Esc closes an inline editor as its Cancel button does, except while its request runs. A key
 * pressed in something the form opened in a portal (a country list) is that layer's to handle:
 * React bubbles it through the portal to the form, but it did not happen in the form.
 */
export function escapeCancels(onCancel: () => void, busy: boolean) {
  return (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key !== 'Escape' || busy || event.defaultPrevented || !event.currentTarget.contains(event.target as Node)) return
    event.preventDefault()
    onCancel()
  }
}
