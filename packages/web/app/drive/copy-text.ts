import { useEffect, useState } from 'react'

/**
 * Puts `text` on the clipboard: the Clipboard API where the page may use it, else a selected
 * hidden text area and `execCommand('copy')` (an insecure origin, an older browser, a refused
 * permission). The text area goes inside `within` when given: a dialog's focus trap would take
 * the focus (and so the selection) back from one outside it. Resolves whether it was copied.
 */
export async function copyText(text: string, within?: HTMLElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text)
      return true
    }
  } catch {
    // Refused or unavailable: try the old way.
  }
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.setAttribute('aria-hidden', 'true')
  area.style.position = 'fixed'
  area.style.top = '0'
  area.style.left = '0'
  area.style.opacity = '0'
  ;(within ?? document.body).append(area)
  area.select()
  let copied = false
  try {
    copied = document.execCommand('copy')
  } catch {
    copied = false
  }
  area.remove()
  previous?.focus({ preventScroll: true })
  return copied
}

/** How long "Copied" stays on a button before it reads "Copy" again. */
const COPIED_MS = 2_000

/**
 * Copy buttons' state: `copy(key, text)` copies and marks `key` as just copied (for a while), or
 * failed; the caller shows it on the button and in a status line screen readers hear.
 */
export function useCopy(): { copied: string | null; failed: string | null; copy(key: string, text: string, within?: HTMLElement | null): Promise<boolean> } {
  const [state, setState] = useState<{ copied: string | null; failed: string | null; at: number }>({ copied: null, failed: null, at: 0 })
  useEffect(() => {
    if (state.copied === null) return
    const timer = setTimeout(() => setState((current) => (current.at === state.at ? { ...current, copied: null } : current)), COPIED_MS)
    return () => clearTimeout(timer)
  }, [state.copied, state.at])
  return {
    copied: state.copied,
    failed: state.failed,
    async copy(key, text, within) {
      const done = await copyText(text, within)
      setState({ copied: done ? key : null, failed: done ? null : key, at: Date.now() })
      return done
    },
  }
}
