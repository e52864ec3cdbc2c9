import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { resolveNavigationTarget, safeRedirectPath } from './safe-navigation'

const ORIGIN = 'https://drive.example.com'

describe('resolveNavigationTarget', () => {
  it('turns same-origin targets into paths', () => {
    expect(resolveNavigationTarget('/ko/account/home?x=1#a', ORIGIN)).toEqual({ kind: 'internal', path: '/ko/account/home?x=1#a' })
    expect(resolveNavigationTarget('https://drive.example.com/about', ORIGIN)).toEqual({ kind: 'internal', path: '/about' })
  })

  it('refuses another origin unless external navigation is allowed', () => {
    expect(resolveNavigationTarget('https://evil.example/phish', ORIGIN)).toEqual({ kind: 'refused', reason: 'external_not_allowed', host: 'evil.example' })
    // Protocol-relative and backslash tricks resolve to another host too.
    expect(resolveNavigationTarget('//evil.example', ORIGIN)).toMatchObject({ kind: 'refused', host: 'evil.example' })
    expect(resolveNavigationTarget('/\\evil.example', ORIGIN)).toMatchObject({ kind: 'refused', host: 'evil.example' })
    expect(resolveNavigationTarget('https://help.example/x', ORIGIN, { external: true })).toEqual({ kind: 'external', url: 'https://help.example/x' })
  })

  it('never allows script or data URLs', () => {
    expect(resolveNavigationTarget('javascript:alert(1)', ORIGIN, { external: true })).toEqual({ kind: 'refused', reason: 'unsafe_scheme' })
    expect(resolveNavigationTarget('data:text/html,x', ORIGIN, { external: true })).toEqual({ kind: 'refused', reason: 'unsafe_scheme' })
    expect(resolveNavigationTarget('', ORIGIN)).toEqual({ kind: 'refused', reason: 'invalid' })
  })
})

describe('safeRedirectPath', () => {
  it('only ever yields a path on this origin', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.webPath()), (redirect) => {
        const path = safeRedirectPath(redirect, ORIGIN, '/account/home')
        expect(new URL(path, ORIGIN).origin).toBe(ORIGIN)
        expect(path.startsWith('/')).toBe(true)
      }),
    )
  })

  it('never yields a protocol-relative path after dot-segment normalisation', () => {
    expect(safeRedirectPath('/.//', ORIGIN, '/x')).toBe('/')
    expect(safeRedirectPath('/.//evil.example/a', ORIGIN, '/x')).toBe('/evil.example/a')
  })

  it('falls back when there is no redirect', () => {
    expect(safeRedirectPath(null, ORIGIN, '/ko/account/home')).toBe('/ko/account/home')
  })
})

describe('app schemes', () => {
  it('opens an app deep link only when external navigation is allowed', () => {
    expect(resolveNavigationTarget('cumulus://open', ORIGIN, { external: true })).toEqual({ kind: 'external', url: 'cumulus://open' })
    expect(resolveNavigationTarget('cumulus://open', ORIGIN)).toEqual({ kind: 'refused', reason: 'external_not_allowed', host: 'open' })
    expect(resolveNavigationTarget('file:///etc/passwd', ORIGIN, { external: true })).toEqual({ kind: 'refused', reason: 'unsafe_scheme' })
  })
})
