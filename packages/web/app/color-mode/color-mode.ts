/**
 * Colour mode (spec 3 and 4): a preference of light, dark or system (system follows the
 * browser's dark preference), kept in localStorage. The class on <html> is set by an inline
 * script before the first paint, so no page flashes the wrong theme; React reads it back.
 */

export const COLOR_MODES = ['light', 'dark', 'system'] as const
export type ColorPreference = (typeof COLOR_MODES)[number]
export type ColorValue = 'light' | 'dark'

export const COLOR_MODE_STORAGE_KEY = 'cumulus-color-mode'
/** The attribute on <html> naming a mode forced by the current route. */
export const FORCED_COLOR_MODE_ATTRIBUTE = 'data-forced-color-mode'

/** The spec's colour mode entity. `unknown` is true while the value cannot be known (server render). */
export interface ColorMode {
  preference: ColorPreference
  value: ColorValue
  unknown: boolean
  forced: boolean
}

export function isColorPreference(value: unknown): value is ColorPreference {
  return typeof value === 'string' && (COLOR_MODES as readonly string[]).includes(value)
}

/** The mode shown for a preference, given whether the system prefers dark. */
export function resolveColorMode(preference: ColorPreference, systemPrefersDark: boolean): ColorValue {
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light'
  return preference
}

/**
 * Validates a mode a route asks to force (its `handle.colorMode`). Forcing `system` is refused
 * with a console warning (spec 2); an unknown value too. Returns the mode to force, or null.
 */
export function forcedColorMode(requested: unknown, warn: (message: string) => void = console.warn): ColorValue | null {
  if (requested === undefined || requested === null) return null
  if (requested === 'light' || requested === 'dark') return requested
  if (requested === 'system') warn('[color-mode] A page cannot force the "system" colour mode; the preference applies.')
  else warn(`[color-mode] Unknown forced colour mode ${JSON.stringify(requested)}; the preference applies.`)
  return null
}

/**
 * The inline script run in <head> before the body paints. Kept tiny and dependency-free: it
 * is sent with every page. It must agree with `resolveColorMode`.
 */
export const COLOR_MODE_SCRIPT = `(function(){var d=document.documentElement,v;try{var f=d.getAttribute('${FORCED_COLOR_MODE_ATTRIBUTE}');var p=localStorage.getItem('${COLOR_MODE_STORAGE_KEY}');if(p!=='light'&&p!=='dark')p='system';v=f||(p==='system'?(matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'):p)}catch(e){v='light'}d.classList.remove('light','dark');d.classList.add(v);d.style.colorScheme=v})()`
