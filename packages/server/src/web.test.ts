import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { GenericErrors } from '@cumulus/protocol'
import { WEB_BUILD_DIRECTORY } from '@cumulus/web'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestEnvironment, testEnvironment } from '../test/test-env.js'
import { loadConfig } from './config.js'
import { type CumulusServer, buildServer } from './server.js'

// The web app mounted in the composed server (needs the web build: `npm test` makes it first).
describe('the web app in cumulus serve', () => {
  let environment: TestEnvironment
  let server: CumulusServer
  beforeAll(async () => {
    environment = await testEnvironment({ DOWNLOAD_LINK_LINUX: 'https://downloads.example.com/cumulus.AppImage', ACCOUNT_DELETION_GRACE_DAYS: '30' })
    server = await buildServer(loadConfig(environment.env), { housekeeping: false })
  })
  afterAll(async () => {
    await server?.close()
    await environment?.cleanup()
  })

  const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers })
  // Each response has its own script nonce (decision 016); the rest of a cached page is shared.
  const shared = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""')

  it('server-renders a page in the locale its path names', async () => {
    const res = await get('/ko/about')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.body).toMatch(/^<!DOCTYPE html><html lang="ko" dir="ltr"/)
    // The colour-mode script runs in <head>, before the body paints.
    expect(res.body.indexOf('cumulus-color-mode')).toBeLessThan(res.body.indexOf('<body'))
  })

  it('redirects / by browser language once and remembers the locale in the cookie', async () => {
    const res = await get('/', { 'accept-language': 'zh-TW,zh;q=0.9' })
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('/zh-TW')
    expect(res.cookies).toEqual([{ name: 'i18n_redirected', value: 'zh-TW', maxAge: 31_536_000, path: '/', sameSite: 'Lax' }])
  })

  it('renders unknown paths as the 404 page, naming the path', async () => {
    const res = await get('/no/such/page')
    expect(res.statusCode).toBe(404)
    expect(res.body).toContain('Page not found: /no/such/page')
  })

  it('answers unknown API paths with the JSON contract error, not the HTML page', async () => {
    const res = await get('/v1/no/such/call')
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ error: GenericErrors.not_found.reason, error_code: GenericErrors.not_found.code })
  })

  it('hands the browser only the allow-listed public config', async () => {
    const res = await get('/about')
    expect(res.body).toContain('https://downloads.example.com/cumulus.AppImage')
    expect(res.body).toContain('accountDeletionGraceDays')
    // Nothing from the server's own config (data directory, secrets) reaches the page.
    expect(res.body).not.toContain(environment.dataDir)
    expect(res.body).not.toMatch(/CUMULUS_SECRET|private|"d":/)
  })

  it('serves hashed assets as immutable and answers HEAD', async () => {
    const page = await get('/')
    const asset = /<link rel="modulepreload" href="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1]
    expect(asset).toBeDefined()
    const res = await get(asset!)
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(res.headers['content-type']).toMatch(/javascript/)
    const head = await server.app.inject({ method: 'HEAD', url: '/about' })
    expect(head.statusCode).toBe(200)
  })

  it('serves a chunk written by a rebuild after start-up, and 404s a missing one', async () => {
    const name = `late-chunk-${process.pid}-${Date.now()}.js`
    const file = join(WEB_BUILD_DIRECTORY, 'client', 'assets', name)
    writeFileSync(file, 'export default 1\n')
    try {
      const res = await get(`/assets/${name}`)
      expect(res.statusCode).toBe(200)
      expect(res.body).toBe('export default 1\n')
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    } finally {
      rmSync(file)
    }
    expect((await get(`/assets/${name}`)).statusCode).toBe(404)
  })

  it('renders a page once and serves the same HTML from the render cache, per platform', async () => {
    const windows = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/150.0' }
    const first = await get('/zh-CN/thunder', windows)
    const second = await get('/zh-CN/thunder', windows)
    expect([first.headers['x-render-cache'], second.headers['x-render-cache']]).toEqual(['miss', 'hit'])
    expect(shared(second.body)).toBe(shared(first.body))
    expect(second.headers['content-type']).toBe('text/html; charset=utf-8')
    // Another platform puts another card first: its own entry.
    const android = await get('/zh-CN/thunder', { 'user-agent': 'Mozilla/5.0 (Linux; Android 15) Chrome/150.0 Mobile' })
    expect(android.headers['x-render-cache']).toBe('miss')
    expect(shared(android.body)).not.toBe(shared(first.body))
  })

  it('serves the root path from the cache with each newcomer\'s own locale cookie, and never to a visitor it redirects', async () => {
    const regular = await get('/', { cookie: 'i18n_redirected=en-US' })
    expect(regular.cookies).toEqual([])
    const newcomer = await get('/', { 'accept-language': 'en-GB' })
    expect(newcomer.headers['x-render-cache']).toBe('hit')
    expect(shared(newcomer.body)).toBe(shared(regular.body))
    expect(newcomer.cookies).toEqual([{ name: 'i18n_redirected', value: 'en-US', maxAge: 31_536_000, path: '/', sameSite: 'Lax' }])
    // The stored page carries no cookie: the regular visitor still gets none.
    expect((await get('/', { cookie: 'i18n_redirected=en-US' })).cookies).toEqual([])
    const korean = await get('/', { 'accept-language': 'ko' })
    expect([korean.statusCode, korean.headers.location, korean.headers['x-render-cache']]).toEqual([302, '/ko', undefined])
  })

  it('answers a form post to a page without an action with a client error, not a 500', async () => {
    const res = await server.app.inject({ method: 'POST', url: '/about', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1' })
    expect(res.statusCode).toBeGreaterThanOrEqual(400)
    expect(res.statusCode).toBeLessThan(500)
  })

  it('never answers 5xx for any GET path', async () => {
    await fc.assert(
      fc.asyncProperty(fc.webPath(), fc.webQueryParameters(), async (path, query) => {
        const res = await get(`/${path.replace(/^\/+/, '')}${query ? `?${query}` : ''}`)
        expect(res.statusCode).toBeLessThan(500)
      }),
      { numRuns: 60 },
    )
  })
})
