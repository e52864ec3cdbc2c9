import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_WEB_PUBLIC_CONFIG } from './public-config.js'
import { webPlugin } from './web-plugin.js'

const PAGE = `<!DOCTYPE html><html><body>${'<p>A cloud drive you can host yourself.</p>'.repeat(100)}</body></html>`

/**
 * The smallest server build React Router's request handler accepts: resource routes that return
 * HTML, one of which the entry module's cache policy admits to the render cache.
 */
const SERVER_BUILD = `
const PAGE = ${JSON.stringify(PAGE)}
const html = () => new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } })
const noncedPage = (nonce) => '<!DOCTYPE html><html><head><script nonce="' + nonce + '">1</script></head><body>' + PAGE + '<script nonce="' + nonce + '" type="module">2</script></body></html>'
const cachedPaths = new Set(['/cached', '/nonced'])
export const entry = { module: { default: () => new Response('unused'), documentCachePolicy: (request) => (cachedPaths.has(new URL(request.url).pathname) ? { key: new URL(request.url).pathname, setCookies: [] } : null) } }
export const routes = {
  root: { id: 'root', parentId: undefined, path: '', module: {} },
  cached: { id: 'cached', parentId: 'root', path: 'cached', module: { loader: html } },
  streamed: { id: 'streamed', parentId: 'root', path: 'streamed', module: { loader: html } },
  nonced: { id: 'nonced', parentId: 'root', path: 'nonced', module: { loader: ({ context }) => new Response(noncedPage(context.cspNonce), { headers: { 'content-type': 'text/html; charset=utf-8' } }) } },
  uncachedNonced: { id: 'uncachedNonced', parentId: 'root', path: 'uncached-nonced', module: { loader: ({ context }) => new Response(noncedPage(context.cspNonce), { headers: { 'content-type': 'text/html; charset=utf-8' } }) } },
  tiny: { id: 'tiny', parentId: 'root', path: 'tiny', module: { loader: () => new Response('ok', { headers: { 'content-type': 'text/plain', 'content-length': '2' } }) } },
  preview: { id: 'preview', parentId: 'root', path: 'preview', module: { loader: async ({ context }) => Response.json({ preview: context.sharePreview ? await context.sharePreview('sh-1') : 'absent' }) } },
  binary: { id: 'binary', parentId: 'root', path: 'binary', module: { loader: () => new Response(new Uint8Array(4096), { headers: { 'content-type': 'application/octet-stream' } }) } },
}
export const assets = { entry: { module: '/entry.js', imports: [] }, routes: {}, url: '/manifest.js', version: '1' }
export const routeDiscovery = { mode: 'initial', manifestPath: '/__manifest' }
export const future = {}
export const publicPath = '/'
export const assetsBuildDirectory = 'client'
export const ssr = true
export const isSpaMode = false
export const prerender = []
export const basename = '/'
`

function decode(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString()
  if (encoding === 'gzip') return gunzipSync(body).toString()
  return body.toString()
}

describe('webPlugin compresses the pages it renders', () => {
  let directory: string
  let app: FastifyInstance
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'cumulus-web-build-'))
    mkdirSync(join(directory, 'server'))
    mkdirSync(join(directory, 'client/assets'), { recursive: true })
    writeFileSync(join(directory, 'server/index.js'), SERVER_BUILD)
    writeFileSync(join(directory, 'client/assets/app-Ab12.js'), 'export {}\n')
    writeFileSync(join(directory, 'client/assets/app-Ab12.js.gz'), gzipSync('export {}\n'))
    app = Fastify()
    await app.register(webPlugin, { publicConfig: DEFAULT_WEB_PUBLIC_CONFIG, buildDirectory: `${directory}/` })
  })
  afterAll(async () => {
    await app?.close()
    rmSync(directory, { recursive: true, force: true })
  })

  const get = (url: string, acceptEncoding?: string) => app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } })

  it('keeps a cached page compressed beside it and sends the encoding each visitor accepts', async () => {
    const miss = await get('/cached', 'gzip, deflate, br')
    const hits = [await get('/cached', 'br'), await get('/cached', 'gzip'), await get('/cached', 'br;q=0, gzip;q=0'), await get('/cached')]
    expect([miss, ...hits].map((res) => [res.headers['x-render-cache'], res.headers['content-encoding'], res.headers.vary])).toEqual([
      ['miss', 'br', 'accept-encoding'],
      ['hit', 'br', 'accept-encoding'],
      ['hit', 'gzip', 'accept-encoding'],
      ['hit', undefined, 'accept-encoding'],
      ['hit', undefined, 'accept-encoding'],
    ])
    for (const res of [miss, ...hits]) {
      expect(decode(res.rawPayload, res.headers['content-encoding'] as string | undefined)).toBe(PAGE)
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length)
    }
    expect(miss.rawPayload.length).toBeLessThan(PAGE.length / 5)
  })

  it('compresses a page it does not cache on the fly', async () => {
    for (const [acceptEncoding, expected] of [['br', 'br'], ['gzip', 'gzip'], ['identity', undefined], [undefined, undefined]] as const) {
      const res = await get('/streamed', acceptEncoding)
      expect([res.statusCode, res.headers['x-render-cache'], res.headers['content-encoding'], res.headers.vary]).toEqual([200, undefined, expected, 'accept-encoding'])
      expect(decode(res.rawPayload, expected)).toBe(PAGE)
    }
  })

  it('leaves small and non-text responses as they are', async () => {
    const tiny = await get('/tiny', 'br')
    expect([tiny.body, tiny.headers['content-encoding']]).toEqual(['ok', undefined])
    const binary = await get('/binary', 'br')
    expect([binary.rawPayload.length, binary.headers['content-encoding']]).toEqual([4096, undefined])
  })

  it('serves no precompressed variant under a URL of its own, even through the late-chunk route', async () => {
    expect((await get('/assets/app-Ab12.js', 'gzip')).headers['content-encoding']).toBe('gzip')
    expect((await get('/assets/app-Ab12.js.gz')).statusCode).toBe(404)
  })

  // Regression (issue 11): pages had no Content-Security-Policy at all. With one, a page from the
  // render cache must not hand every visitor the nonce of the render that stored it: an attacker
  // who reads the page would know the nonce that admits an injected script for everyone else.
  it('gives every response, cached or not and in every encoding, a fresh nonce that its CSP names', async () => {
    const nonces: string[] = []
    for (const [url, acceptEncoding] of [['/nonced', 'br'], ['/nonced', 'br'], ['/nonced', 'gzip'], ['/nonced', undefined], ['/uncached-nonced', 'br'], ['/uncached-nonced', undefined]] as const) {
      const res = await get(url, acceptEncoding)
      const csp = String(res.headers['content-security-policy'])
      const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'/.exec(csp)?.[1]
      expect(nonce, csp).toBeDefined()
      expect(csp).toContain("object-src 'none'")
      expect(csp).toContain("base-uri 'none'")
      expect(csp).toContain("frame-ancestors 'none'")
      expect([res.headers['referrer-policy'], res.headers['x-content-type-options']]).toEqual(['strict-origin-when-cross-origin', 'nosniff'])
      const body = decode(res.rawPayload, res.headers['content-encoding'] as string | undefined)
      expect([...body.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1])).toEqual([nonce, nonce])
      nonces.push(nonce!)
    }
    expect(new Set(nonces).size).toBe(nonces.length)
  })

  it('sends nosniff and the referrer policy with static files too', async () => {
    const res = await get('/assets/app-Ab12.js')
    expect([res.headers['referrer-policy'], res.headers['x-content-type-options']]).toEqual(['strict-origin-when-cross-origin', 'nosniff'])
  })
})

describe('webPlugin hands the share preview lookup to the app', () => {
  let directory: string
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'cumulus-web-build-'))
    mkdirSync(join(directory, 'server'))
    mkdirSync(join(directory, 'client'), { recursive: true })
    writeFileSync(join(directory, 'server/index.js'), SERVER_BUILD)
  })
  afterAll(() => rmSync(directory, { recursive: true, force: true }))

  it('puts sharePreview on the load context when given, and leaves it out when not', async () => {
    const preview = { status: 'OK', title: 'Holiday', fileNum: 2, ownerName: 'Ann', passCodeRequired: false } as const
    const asked: string[] = []
    for (const [options, expected] of [[{ sharePreview: async (id: string) => (asked.push(id), preview) }, preview], [{}, 'absent']] as const) {
      const app = Fastify()
      await app.register(webPlugin, { publicConfig: DEFAULT_WEB_PUBLIC_CONFIG, buildDirectory: `${directory}/`, renderCache: false, ...options })
      const res = await app.inject({ method: 'GET', url: '/preview' })
      expect(res.json()).toEqual({ preview: expected })
      await app.close()
    }
    expect(asked).toEqual(['sh-1'])
  })
})
