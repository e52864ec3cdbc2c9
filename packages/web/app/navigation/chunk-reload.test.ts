import { describe, expect, it } from 'vitest'
import { handleReloadDuringNavigation } from './chunk-reload'
import type { ReloadDeps } from './reload-guard'

function deps(now = 1_000) {
  const store = new Map<string, string>()
  const assigned: string[] = []
  const reloadDeps: ReloadDeps = { storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) }, now: () => now, assign: (p) => void assigned.push(p) }
  return { reloadDeps, assigned }
}

describe('a reload requested while a navigation loads', () => {
  it('loads the navigation target instead of reloading the page being left', () => {
    const { reloadDeps, assigned } = deps()
    expect(handleReloadDuringNavigation(reloadDeps, '/ko/about', '/ko')).toBe('target')
    expect(assigned).toEqual(['/ko/about'])
  })

  it('is blocked by the 10 s guard the second time, so a broken chunk cannot loop', () => {
    const { reloadDeps, assigned } = deps()
    handleReloadDuringNavigation(reloadDeps, '/about', '/')
    expect(handleReloadDuringNavigation(reloadDeps, '/thunder', '/about')).toBe('blocked')
    expect(assigned).toEqual(['/about'])
  })

  it('lets an ordinary reload through (no navigation, or a reload of the target itself)', () => {
    const { reloadDeps, assigned } = deps()
    expect(handleReloadDuringNavigation(reloadDeps, null, '/')).toBe('allow')
    expect(handleReloadDuringNavigation(reloadDeps, '/about', '/about')).toBe('allow')
    expect(assigned).toEqual([])
  })
})
