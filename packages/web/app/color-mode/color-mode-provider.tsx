import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import { COLOR_MODE_STORAGE_KEY, type ColorMode, type ColorPreference, type ColorValue, isColorPreference, resolveColorMode } from './color-mode'

interface ColorModeContextValue extends ColorMode {
  setPreference(preference: ColorPreference): void
}

const ColorModeContext = createContext<ColorModeContextValue | null>(null)

const DARK_QUERY = '(prefers-color-scheme: dark)'

function readStoredPreference(): ColorPreference {
  try {
    const stored = localStorage.getItem(COLOR_MODE_STORAGE_KEY)
    return isColorPreference(stored) ? stored : 'system'
  } catch {
    return 'system'
  }
}

function applyToDocument(value: ColorValue): void {
  const root = document.documentElement
  root.classList.remove('light', 'dark')
  root.classList.add(value)
  root.style.colorScheme = value
}

/**
 * Holds the colour mode. On the server the value is unknown (the preference lives in the
 * browser); the inline script has already set the class before hydration, so nothing flashes.
 */
export function ColorModeProvider({ forced, children }: { forced: ColorValue | null; children: ReactNode }) {
  const [preference, setPreferenceState] = useState<ColorPreference>('system')
  const [systemDark, setSystemDark] = useState(false)
  const [known, setKnown] = useState(false)

  useEffect(() => {
    setPreferenceState(readStoredPreference())
    const media = matchMedia(DARK_QUERY)
    setSystemDark(media.matches)
    setKnown(true)
    const onChange = (event: MediaQueryListEvent) => setSystemDark(event.matches)
    media.addEventListener('change', onChange)
    // Another tab changed the preference.
    const onStorage = (event: StorageEvent) => {
      if (event.key === COLOR_MODE_STORAGE_KEY) setPreferenceState(isColorPreference(event.newValue) ? event.newValue : 'system')
    }
    window.addEventListener('storage', onStorage)
    return () => {
      media.removeEventListener('change', onChange)
      window.removeEventListener('storage', onStorage)
    }
  }, [])

  const value = forced ?? resolveColorMode(preference, systemDark)

  useEffect(() => {
    if (known) applyToDocument(value)
  }, [known, value])

  const setPreference = useCallback((next: ColorPreference) => {
    setPreferenceState(next)
    try {
      localStorage.setItem(COLOR_MODE_STORAGE_KEY, next)
    } catch {
      // Storage disabled (private mode): the choice lasts for this page only.
    }
  }, [])

  const context = useMemo<ColorModeContextValue>(
    () => ({ preference, value, unknown: !known, forced: forced !== null, setPreference }),
    [preference, value, known, forced, setPreference],
  )
  return <ColorModeContext.Provider value={context}>{children}</ColorModeContext.Provider>
}

export function useColorMode(): ColorModeContextValue {
  const context = useContext(ColorModeContext)
  if (!context) throw new Error('useColorMode must be used inside <ColorModeProvider>')
  return context
}
