import { describe, expect, it, vi } from 'vitest'
import { COLOR_MODE_SCRIPT, COLOR_MODE_STORAGE_KEY, FORCED_COLOR_MODE_ATTRIBUTE, forcedColorMode, resolveColorMode } from './color-mode'

describe('resolveColorMode', () => {
  it('follows the system only for the system preference', () => {
    expect(resolveColorMode('system', true)).toBe('dark')
    expect(resolveColorMode('system', false)).toBe('light')
    expect(resolveColorMode('light', true)).toBe('light')
    expect(resolveColorMode('dark', false)).toBe('dark')
  })
})

describe('forcedColorMode', () => {
  it('lets a page force light or dark silently', () => {
    const warn = vi.fn()
    expect(forcedColorMode('dark', warn)).toBe('dark')
    expect(forcedColorMode('light', warn)).toBe('light')
    expect(forcedColorMode(undefined, warn)).toBeNull()
    expect(warn).not.toHaveBeenCalled()
  })

  it('refuses to force system, with a console warning', () => {
    const warn = vi.fn()
    expect(forcedColorMode('system', warn)).toBeNull()
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"system"'))
  })
})

describe('the no-flash script', () => {
  function run({ stored, systemDark, forced }: { stored: string | null; systemDark: boolean; forced?: string }) {
    document.documentElement.className = ''
    if (forced) document.documentElement.setAttribute(FORCED_COLOR_MODE_ATTRIBUTE, forced)
    else document.documentElement.removeAttribute(FORCED_COLOR_MODE_ATTRIBUTE)
    if (stored === null) localStorage.removeItem(COLOR_MODE_STORAGE_KEY)
    else localStorage.setItem(COLOR_MODE_STORAGE_KEY, stored)
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: systemDark && query.includes('dark') }))
    // The script is the exact text inlined into <head>.
    new Function(COLOR_MODE_SCRIPT)()
    vi.unstubAllGlobals()
    return document.documentElement.className
  }

  it('applies the stored preference before the page paints', () => {
    expect(run({ stored: 'dark', systemDark: false })).toBe('dark')
    expect(run({ stored: 'light', systemDark: true })).toBe('light')
  })

  it('follows the system for system, missing or garbage preferences', () => {
    expect(run({ stored: 'system', systemDark: true })).toBe('dark')
    expect(run({ stored: null, systemDark: false })).toBe('light')
    expect(run({ stored: '<script>', systemDark: true })).toBe('dark')
  })

  it('lets a forced mode win over the preference', () => {
    expect(run({ stored: 'light', systemDark: false, forced: 'dark' })).toBe('dark')
  })
})
