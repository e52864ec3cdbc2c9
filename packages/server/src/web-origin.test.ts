import { HttpErrors } from '@cumulus/protocol'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hostileFragment, staysOnOrigin } from '../../../test-support/hostile-urls.js'
import { type TestEnvironment, testEnvironment } from '../test/test-env.js'
import { loadConfig } from './config.js'
import { type CumulusServer, buildServer } from './server.js'

// Issue 11, "The web origin": the composed server (web plugin, entry.server, route loaders) as an
// attacker meets it. Needs the web build (`node scripts/build-web.mjs`).
describe('the web origin', () => {
  let environment: TestEnvironment
  let server: CumulusServer
  beforeAll(async () => {
    environment = await testEnvironment()
    server = await buildServer(loadConfig(environment.env), { housekeeping: false })
  })
  afterAll(async () => {
    await server?.close()
    await environment?.cleanup()
  })

  // light-my-request sends to Host localhost:80, so the page's origin is http://localhost.
  const ORIGIN = 'http://localhost'
  const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers })

  describe('redirects', () => {
    // Regression: `/en-US//evil.example` answered 301 with `Location: //evil.example`
    // (defaultLocaleRedirect kept whatever followed the prefix), an open redirect on our origin.
    it('never sends /en-US//evil.example off the origin', async () => {
      const res = await get('/en-US//evil.example')
      expect(res.statusCode).toBe(301)
      expect(staysOnOrigin(res.headers.location as string, ORIGIN)).toBe(true)
    })

    it('keeps every Location on our origin, whatever the path, query or language (every redirecting entry point)', async () => {
      await fc.assert(
        fc.asyncProperty(
          hostileFragment,
          fc.constantFrom('/en-US/', '/en-US', '/', '/ko/', '/account/home/', '/drive/'),
          fc.constantFrom('', 'ko', 'zh-TW,zh;q=0.9', 'en'),
          fc.boolean(),
          async (fragment, prefix, language, asQuery) => {
            // A client cannot put a raw control character or space in a request line (Node's
            // parser refuses it with 400 before routing); it sends them percent-encoded, and so
            // the backslash, which the test client would otherwise turn into a slash.
            const sendable = fragment.replace(/[\x00-\x20\x7f\\]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
            const url = asQuery ? `/?redirect=${sendable}` : `${prefix}${sendable}`
            const res = await get(url, language ? { 'accept-language': language } : {})
            expect(res.statusCode, url).toBeLessThan(500)
            const location = res.headers.location
            if (location !== undefined) expect(staysOnOrigin(String(location), ORIGIN), `${JSON.stringify(url)} -> ${String(location)}`).toBe(true)
          },
        ),
        { numRuns: 300 },
      )
    })
  })
})

describe('page headers', () => {
  let environment: TestEnvironment
  let server: CumulusServer
  beforeAll(async () => {
    environment = await testEnvironment()
    server = await buildServer(loadConfig(environment.env), { housekeeping: false })
  })
  afterAll(async () => {
    await server?.close()
    await environment?.cleanup()
  })

  // Regression (issue 11): pages were sent without a CSP, Referrer-Policy or nosniff, and the
  // colour-mode script and React Router's scripts carried no nonce.
  it('puts the response nonce on every script of a real page, fresh per response, cache hit or not', async () => {
    const nonces = new Set<string>()
    for (const url of ['/about', '/about', '/ko/drive', '/account/login']) {
      const res = await server.app.inject({ method: 'GET', url })
      expect(res.statusCode).toBe(200)
      expect([res.headers['referrer-policy'], res.headers['x-content-type-options']]).toEqual(['strict-origin-when-cross-origin', 'nosniff'])
      const nonce = /script-src 'nonce-([^']+)' 'strict-dynamic'/.exec(String(res.headers['content-security-policy']))?.[1]
      expect(nonce).toBeDefined()
      const scripts = [...res.body.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? '')
      expect(scripts.length).toBeGreaterThan(2)
      for (const attributes of scripts) expect(attributes, attributes).toContain(`nonce="${nonce}"`)
      // The module preloads are scripts too under 'strict-dynamic'.
      for (const link of res.body.matchAll(/<link rel="modulepreload"[^>]*>/g)) expect(link[0]).toContain(`nonce="${nonce}"`)
      nonces.add(nonce!)
    }
    expect(nonces.size).toBe(4)
  })

  // Regression (issue 11): a byte range past the end of a static file answered 416 with an empty body.
  it('answers a static range past the end with 416, its Content-Range and the catalogue body', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/favicon.svg', headers: { range: 'bytes=999999-' } })
    expect([res.statusCode, res.headers['content-range']]).toEqual([HttpErrors.range_not_satisfiable.status, expect.stringMatching(/^bytes \*\/\d+$/)])
    expect(res.json()).toMatchObject({ error: HttpErrors.range_not_satisfiable.reason, error_code: HttpErrors.range_not_satisfiable.code })
  })
})
