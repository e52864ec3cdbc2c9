import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib'
import Fastify, { type FastifyInstance } from 'fastify'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { negotiateEncoding } from './accept-encoding.js'
import { IMMUTABLE, parseByteRange, SHORT_LIVED, staticFiles } from './static-files.js'

/** Text that compresses, with a marker so each file's bytes are its own. */
const text = (marker: string) => Buffer.from(Array.from({ length: 200 }, (_, i) => `export const ${marker}${i} = ${i} // ${marker}\n`).join(''))
const APP = text('app')
const STYLE = text('style')
const STALE = text('stale')
const MANIFEST = Buffer.from(JSON.stringify({ name: 'Cumulus', icons: Array.from({ length: 40 }, (_, i) => ({ src: `/icons/${i}.png` })) }))
const ICON = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256))
const ARCHIVE = gzipSync(Buffer.from('a download that happens to be gzipped'))

function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'br') return brotliDecompressSync(body)
  if (encoding === 'gzip') return gunzipSync(body)
  if (encoding === undefined) return body
  throw new Error(`unexpected content-encoding ${encoding}`)
}

describe('staticFiles', () => {
  let directory: string
  let app: FastifyInstance
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'cumulus-static-'))
    const write = (path: string, body: Buffer) => {
      mkdirSync(dirname(join(directory, path)), { recursive: true })
      writeFileSync(join(directory, path), body)
    }
    write('assets/app-Ab12.js', APP)
    write('assets/app-Ab12.js.br', brotliCompressSync(APP))
    write('assets/app-Ab12.js.gz', gzipSync(APP))
    // An older build: only a gzip variant.
    write('assets/style-Cd34.css', STYLE)
    write('assets/style-Cd34.css.gz', gzipSync(STYLE))
    // A variant older than its file (a build that stopped before compressing) is never served.
    write('assets/stale-Ef56.js.br', brotliCompressSync(Buffer.from('old bytes')))
    write('assets/stale-Ef56.js', STALE)
    utimesSync(join(directory, 'assets/stale-Ef56.js.br'), new Date(2020, 0, 1), new Date(2020, 0, 1))
    write('manifest.webmanifest', MANIFEST)
    write('manifest.webmanifest.br', brotliCompressSync(MANIFEST))
    write('icons/icon.png', ICON)
    // A .gz without a file beside it is a file of its own.
    write('downloads/archive.tar.gz', ARCHIVE)
    app = Fastify()
    await app.register(staticFiles, { clientDirectory: directory })
  })
  afterAll(async () => {
    await app?.close()
    rmSync(directory, { recursive: true, force: true })
  })

  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => app.inject({ method, url, headers })

  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0.5, gzip;q=0.9', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['identity', undefined],
    ['*;q=0', undefined],
    [undefined, undefined],
  ])('Accept-Encoding %j gets %s, decoding to the file', async (acceptEncoding, expected) => {
    const res = await get('/assets/app-Ab12.js', acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe(expected)
    expect(res.headers.vary).toBe('accept-encoding')
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length)
    expect(decode(res.rawPayload, expected).equals(APP)).toBe(true)
  })

  it('sends each variant with its own type, cache policy and strong ETag', async () => {
    const [br, gzip, identity] = await Promise.all(['br', 'gzip', 'identity'].map((coding) => get('/assets/app-Ab12.js', { 'accept-encoding': coding })))
    for (const res of [br!, gzip!, identity!]) {
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8')
      expect(res.headers['cache-control']).toBe(IMMUTABLE)
      expect(res.headers.etag).toMatch(/^"[\w-]+"$/)
    }
    expect(new Set([br!.headers.etag, gzip!.headers.etag, identity!.headers.etag]).size).toBe(3)
    expect(br!.rawPayload.length).toBeLessThan(APP.length)
  })

  it('keeps non-hashed files on a short cache', async () => {
    const res = await get('/manifest.webmanifest', { 'accept-encoding': 'br' })
    expect([res.headers['content-type'], res.headers['cache-control'], res.headers['content-encoding']]).toEqual(['application/manifest+json; charset=utf-8', SHORT_LIVED, 'br'])
    expect(JSON.parse(decode(res.rawPayload, 'br').toString())).toEqual(JSON.parse(MANIFEST.toString()))
  })

  it('falls back to the variants that exist, and to identity', async () => {
    const br = await get('/assets/style-Cd34.css', { 'accept-encoding': 'br' })
    expect([br.headers['content-encoding'], br.headers.vary]).toEqual([undefined, 'accept-encoding'])
    expect(br.rawPayload.equals(STYLE)).toBe(true)
    const gzip = await get('/assets/style-Cd34.css', { 'accept-encoding': 'br, gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzip.rawPayload).equals(STYLE)).toBe(true)
  })

  it('never serves a variant older than its file', async () => {
    const res = await get('/assets/stale-Ef56.js', { 'accept-encoding': 'br' })
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.rawPayload.equals(STALE)).toBe(true)
  })

  it('sends files without variants as they are, without Vary', async () => {
    const icon = await get('/icons/icon.png', { 'accept-encoding': 'br, gzip' })
    expect([icon.statusCode, icon.headers['content-type'], icon.headers['content-encoding'], icon.headers.vary]).toEqual([200, 'image/png', undefined, undefined])
    expect(icon.rawPayload.equals(ICON)).toBe(true)
    const archive = await get('/downloads/archive.tar.gz', { 'accept-encoding': 'gzip' })
    expect([archive.statusCode, archive.headers['content-encoding']]).toEqual([200, undefined])
    expect(archive.rawPayload.equals(ARCHIVE)).toBe(true)
  })

  it('gives variants no route of their own', async () => {
    expect((await get('/assets/app-Ab12.js.br')).statusCode).toBe(404)
    expect((await get('/assets/style-Cd34.css.gz')).statusCode).toBe(404)
  })

  it('answers HEAD with the headers of the GET it stands for, and no body', async () => {
    const [head, getBr] = await Promise.all([get('/assets/app-Ab12.js', { 'accept-encoding': 'br' }, 'HEAD'), get('/assets/app-Ab12.js', { 'accept-encoding': 'br' })])
    expect(head.statusCode).toBe(200)
    expect(head.rawPayload.length).toBe(0)
    for (const name of ['content-encoding', 'content-length', 'content-type', 'etag', 'vary', 'cache-control']) expect(head.headers[name], name).toBe(getBr.headers[name])
  })

  it('answers If-None-Match with 304 for the variant it names only', async () => {
    const br = await get('/assets/app-Ab12.js', { 'accept-encoding': 'br' })
    const again = await get('/assets/app-Ab12.js', { 'accept-encoding': 'br', 'if-none-match': `"other", W/${br.headers.etag}` })
    expect([again.statusCode, again.rawPayload.length, again.headers.etag, again.headers.vary]).toEqual([304, 0, br.headers.etag, 'accept-encoding'])
    // The client now asks for gzip: its stored br ETag does not match the gzip representation.
    const gzip = await get('/assets/app-Ab12.js', { 'accept-encoding': 'gzip', 'if-none-match': String(br.headers.etag) })
    expect([gzip.statusCode, gzip.headers['content-encoding']]).toEqual([200, 'gzip'])
  })

  describe('Range', () => {
    const range = (value: string, headers: Record<string, string> = {}) => get('/assets/app-Ab12.js', { 'accept-encoding': 'br, gzip', range: value, ...headers })

    it('serves the range of the identity bytes, never of a compressed variant', async () => {
      const res = await range('bytes=10-19')
      expect([res.statusCode, res.headers['content-range'], res.headers['content-encoding'], res.headers['content-length']]).toEqual([206, `bytes 10-19/${APP.length}`, undefined, '10'])
      expect(res.rawPayload.equals(APP.subarray(10, 20))).toBe(true)
      const suffix = await range('bytes=-5')
      expect(suffix.rawPayload.equals(APP.subarray(-5))).toBe(true)
      const open = await range(`bytes=${APP.length - 3}-`)
      expect([open.headers['content-range'], open.rawPayload.length]).toEqual([`bytes ${APP.length - 3}-${APP.length - 1}/${APP.length}`, 3])
    })

    it('answers 416 for a range past the end', async () => {
      const res = await range(`bytes=${APP.length}-`)
      expect([res.statusCode, res.headers['content-range']]).toEqual([416, `bytes */${APP.length}`])
    })

    it('sends the whole identity file for ranges it does not serve, or after If-Range changed', async () => {
      const identity = await get('/assets/app-Ab12.js')
      for (const res of [await range('bytes=0-1, 5-6'), await range('items=0-1'), await range('bytes=9-3'), await range('bytes=0-1', { 'if-range': '"not-the-etag"' })]) {
        expect([res.statusCode, res.headers['content-encoding']]).toEqual([200, undefined])
        expect(res.rawPayload.equals(APP)).toBe(true)
      }
      const current = await range('bytes=0-1', { 'if-range': String(identity.headers.etag) })
      expect(current.statusCode).toBe(206)
    })
  })

  it('for any Accept-Encoding and Range, never fails and sends a valid encoding of the file it names', async () => {
    const token = fc.constantFrom('br', 'gzip', 'x-gzip', 'deflate', 'zstd', 'identity', '*', 'BR', 'Gzip', '', ' ')
    const weight = fc.oneof(fc.constant(''), fc.constantFrom(';q=0', ';q=1', ';q=0.5', ';q=0.001', ';q=1.0', ';q=2', ';q=-1', ';q=abc', ';q=', ';Q=0.3', ';level=1'))
    const structured = fc.tuple(fc.array(fc.tuple(token, weight).map(([t, w]) => t + w), { maxLength: 6 }), fc.constantFrom(',', ', ', ' ,')).map(([entries, separator]) => entries.join(separator))
    const acceptEncoding = fc.option(fc.oneof(structured, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary-ascii', maxLength: 40 })), { nil: undefined })
    const rangeHeader = fc.option(fc.oneof(fc.constantFrom('bytes=0-0', 'bytes=-1', 'bytes=0-', 'bytes=100000-', 'bytes=5-1', 'bytes=0-1,2-3'), fc.string({ maxLength: 20 })), { nil: undefined })
    const file = fc.constantFrom(['/assets/app-Ab12.js', APP] as const, ['/assets/style-Cd34.css', STYLE] as const, ['/manifest.webmanifest', MANIFEST] as const, ['/icons/icon.png', ICON] as const)
    await fc.assert(
      fc.asyncProperty(file, acceptEncoding, rangeHeader, async ([url, original], accept, rangeValue) => {
        const headers: Record<string, string> = {}
        // Header values that HTTP cannot carry (control characters) never reach a handler.
        if (accept !== undefined && /^[\t\x20-\x7e]*$/.test(accept)) headers['accept-encoding'] = accept
        if (rangeValue !== undefined && /^[\t\x20-\x7e]*$/.test(rangeValue)) headers.range = rangeValue
        const res = await get(url, headers)
        expect([200, 206, 416]).toContain(res.statusCode)
        const encoding = res.headers['content-encoding'] as string | undefined
        if (encoding !== undefined) {
          // Only a coding the client accepted, on a whole-file response.
          expect(res.statusCode).toBe(200)
          expect(negotiateEncoding(headers['accept-encoding'], [encoding as 'br' | 'gzip'])).toBe(encoding)
        }
        if (res.statusCode === 200) expect(decode(res.rawPayload, encoding).equals(original)).toBe(true)
        if (res.statusCode === 206) {
          const span = parseByteRange(headers.range!, original.length)
          expect(span).not.toBeNull()
          expect(span).not.toBe('unsatisfiable')
          const { start, end } = span as { start: number; end: number }
          expect(res.rawPayload.equals(original.subarray(start, end + 1))).toBe(true)
        }
        expect(Number(res.headers['content-length'] ?? 0)).toBe(res.rawPayload.length)
      }),
      { numRuns: 300 },
    )
  })
})

describe('parseByteRange', () => {
  it.each([
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-200', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=-200', 100, { start: 0, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=0-0', 0, 'unsatisfiable'],
    ['bytes=-', 100, null],
    ['bytes=5-1', 100, null],
    ['bytes=0-1,3-4', 100, null],
    ['pages=0-1', 100, null],
  ] as const)('%s of %i bytes → %j', (header, size, expected) => {
    expect(parseByteRange(header, size)).toEqual(expected)
  })
})
