import { describe, expect, it } from 'vitest'
import { isChunkLoadError, RELOAD_GUARD_KEY, RELOAD_GUARD_MS, reloadApp, type ReloadDeps } from './reload-guard'

function fakeDeps(start = 1_000_000) {
  const store = new Map<string, string>()
  const assigned: string[] = []
  const clock = { now: start }
  const deps: ReloadDeps = {
    storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
    now: () => clock.now,
    assign: (path) => void assigned.push(path),
  }
  return { deps, assigned, clock, store }
}

describe('reloadApp', () => {
  it('reloads the target path once and holds the guard for 10 seconds', () => {
    const { deps, assigned, clock } = fakeDeps()
    expect(RELOAD_GUARD_MS).toBe(10_000)
    expect(reloadApp(deps, '/ko/about')).toBe(true)
    expect(assigned).toEqual(['/ko/about'])

    clock.now += RELOAD_GUARD_MS - 1
    expect(reloadApp(deps, '/ko/about')).toBe(false)
    expect(assigned).toHaveLength(1)

    clock.now += 1
    expect(reloadApp(deps, '/about')).toBe(true)
    expect(assigned).toEqual(['/ko/about', '/about'])
  })

  it('treats a corrupt guard mark as none', () => {
    const { deps, assigned, store } = fakeDeps()
    store.set(RELOAD_GUARD_KEY, '{not json')
    expect(reloadApp(deps, '/')).toBe(true)
    expect(assigned).toEqual(['/'])
  })
})

describe('isChunkLoadError', () => {
  it('recognises the browsers’ failed dynamic import messages', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: http://x/assets/about-1.js'))).toBe(true)
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true)
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true)
  })

  it('does not mistake other errors for one', () => {
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false)
    expect(isChunkLoadError({ status: 404 })).toBe(false)
  })
})
