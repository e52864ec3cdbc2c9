import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hostileRedirect, staysOnOrigin } from '../../../../test-support/hostile-urls.js'
import { sameOriginLocation } from './same-origin.js'

const ORIGIN = 'https://drive.example.com'

describe('sameOriginLocation', () => {
  it('keeps every hostile target on the origin, as a browser resolves it', () => {
    fc.assert(
      fc.property(hostileRedirect, (target) => {
        const location = sameOriginLocation(target, ORIGIN)
        expect(staysOnOrigin(location, ORIGIN), `${JSON.stringify(target)} -> ${location}`).toBe(true)
        // One leading slash: never a protocol-relative reference, never a CR or LF for the header.
        expect(location).toMatch(/^\/(?![/\\])/)
        expect(location).not.toMatch(/[\r\n\t]/)
      }),
      { numRuns: 2000 },
    )
  })

  it('refuses the known tricks and keeps plain paths', () => {
    for (const target of ['//evil.example', '/\\evil.example', '\\\\evil.example', '/\t/evil.example', 'http:evil.example', 'http://evil.example/', 'javascript:alert(1)', '//user@evil.example']) {
      expect(sameOriginLocation(target, ORIGIN), target).toBe('/')
    }
    expect(sameOriginLocation('/.//evil.example/a', ORIGIN)).toBe('/evil.example/a')
    expect(sameOriginLocation('/%2f%2fevil.example', ORIGIN)).toBe('/%2f%2fevil.example')
    expect(sameOriginLocation('/about?x=1#top', ORIGIN)).toBe('/about?x=1#top')
    expect(sameOriginLocation(`${ORIGIN}/drive`, ORIGIN)).toBe('/drive')
    expect(sameOriginLocation('/\uFF0Fevil.example', ORIGIN)).toBe('/%EF%BC%8Fevil.example')
  })
})
