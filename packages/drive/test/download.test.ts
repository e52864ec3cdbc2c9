import { randomBytes } from 'node:crypto'
import { get } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { DriveErrors } from '@cumulus/protocol'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signLink } from '../src/domain/signed-link.js'
import { type DriveTestApp, startDriveTestApp } from './drive-test-app.js'
import { download, pathOf, uploadFile } from './upload-kit.js'

let t: DriveTestApp
let token: string
let file: any
const content = randomBytes(10_000)

beforeAll(async () => {
  t = await startDriveTestApp()
  token = await t.signUp()
  file = await uploadFile(t, token, 'clip.mp4', content)
})
afterAll(async () => {
  await t?.close()
})

describe('downloads through signed links', () => {
  it('sends the whole file with its validators, type, name and a locked-down policy', async () => {
    const got = await download(t, file)
    expect(got.status).toBe(200)
    expect(got.raw.equals(content)).toBe(true)
    expect(got.headers).toMatchObject({
      etag: `"${file.hash}"`,
      'accept-ranges': 'bytes',
      'content-length': '10000',
      'content-type': 'video/mp4',
      'content-disposition': `attachment; filename="clip.mp4"; filename*=UTF-8''clip.mp4`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
      'last-modified': new Date(file.modified_time).toUTCString(),
    })
    // Cached no longer than the link lives.
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(String(got.headers['cache-control']))?.[1])
    const expiresAt = Number(new URL(file.web_content_link).searchParams.get('e'))
    expect(maxAge).toBeGreaterThan(0)
    expect(maxAge).toBeLessThanOrEqual(expiresAt - Math.floor(Date.now() / 1000) + 1)
  })

  it.each([
    ['bytes=100-199', 100, 199],
    ['bytes=9000-', 9000, 9999],
    ['bytes=-500', 9500, 9999],
    ['bytes=9990-20000', 9990, 9999],
    ['bytes=0-0', 0, 0],
  ])('answers Range %s with 206 and that slice', async (range, start, end) => {
    const got = await download(t, file, { range })
    expect(got.status).toBe(206)
    expect(got.headers['content-range']).toBe(`bytes ${start}-${end}/10000`)
    expect(got.headers['content-length']).toBe(String(end - start + 1))
    expect(got.raw.equals(content.subarray(start, end + 1))).toBe(true)
  })

  it('answers a range past the end with 416 and the size', async () => {
    for (const range of ['bytes=10000-', 'bytes=20000-20010', 'bytes=-0']) {
      const got = await download(t, file, { range })
      expect([got.status, got.headers['content-range']], range).toEqual([416, 'bytes */10000'])
    }
  })

  it('sends the whole file for ranges it does not serve (several, other units, nonsense)', async () => {
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=5-1', 'bytes=abc']) {
      const got = await download(t, file, { range })
      expect(got.status, range).toBe(200)
      expect(got.raw.equals(content), range).toBe(true)
    }
  })

  it('applies a range only when If-Range names the current content', async () => {
    const same = await download(t, file, { range: 'bytes=0-9', 'if-range': `"${file.hash}"` })
    expect([same.status, same.raw.length]).toEqual([206, 10])
    const stale = await download(t, file, { range: 'bytes=0-9', 'if-range': `"${'0'.repeat(40)}"` })
    expect([stale.status, stale.raw.length]).toEqual([200, 10_000])
    const dated = await download(t, file, { range: 'bytes=0-9', 'if-range': new Date().toUTCString() })
    expect(dated.status).toBe(200)
  })

  it('answers If-None-Match with the current ETag with 304', async () => {
    const got = await download(t, file, { 'if-none-match': `W/"x", "${file.hash}"` })
    expect([got.status, got.raw.length, got.headers.etag]).toEqual([304, 0, `"${file.hash}"`])
    expect((await download(t, file, { 'if-none-match': '"other"' })).status).toBe(200)
  })

  it('answers HEAD with the headers and no body', async () => {
    const whole = await download(t, file, {}, 'HEAD')
    expect([whole.status, whole.headers['content-length'], whole.headers.etag, whole.raw.length]).toEqual([200, '10000', `"${file.hash}"`, 0])
    const part = await download(t, file, { range: 'bytes=10-19' }, 'HEAD')
    expect([part.status, part.headers['content-range'], part.headers['content-length'], part.raw.length]).toEqual([206, 'bytes 10-19/10000', '10', 0])
  })

  it('works without the name in the path, and inline when asked', async () => {
    const url = new URL(file.web_content_link)
    const bare = await t.call('GET', `/drive/v1/content/${file.id}${url.search}&disposition=inline`)
    expect(bare.status).toBe(200)
    expect(bare.headers['content-disposition']).toBe(`inline; filename="clip.mp4"; filename*=UTF-8''clip.mp4`)
  })

  it('refuses a bad, foreign or expired signature with file_link_invalid, and unknown files with file_not_found', async () => {
    const url = new URL(file.web_content_link)
    const forged = new URL(url)
    forged.searchParams.set('s', 'A'.repeat(43))
    const other = await uploadFile(t, token, 'other.bin', randomBytes(10))
    const borrowed = new URL(url)
    borrowed.searchParams.set('s', new URL(other.web_content_link).searchParams.get('s') as string)
    const expired = new URL(url)
    const past = signLink(t.server.drive.linkSecret, { fileId: file.id, gcid: file.hash, expiresAtSeconds: Math.floor(Date.now() / 1000) - 1 })
    expired.searchParams.set('e', past.e)
    expired.searchParams.set('s', past.s)
    for (const bad of [forged, borrowed, expired, new URL(`${url.origin}${url.pathname}`)]) {
      const got = await t.call('GET', pathOf(bad.href))
      expect(got.status, bad.href).toBe(403)
      expect(got.body, bad.href).toMatchObject({ error: DriveErrors.file_link_invalid.reason, error_code: 7 })
    }
    const unknown = await t.call('GET', `/drive/v1/content/VNnosuchfile${url.search}`)
    expect([unknown.status, unknown.body.error]).toEqual([404, DriveErrors.file_not_found.reason])
  })

  it('lets a link die with its file: trashed, it serves nothing until restored; deleted, never again', async () => {
    // Issue 11: signed links stayed valid after their file was trashed or deleted.
    const doomed = await uploadFile(t, token, 'doomed.bin', randomBytes(500))
    expect((await download(t, doomed)).status).toBe(200)
    expect((await t.call('POST', '/drive/v1/files:batchTrash', { token, body: { ids: [doomed.id] } })).status).toBe(200)
    const whileTrashed = await download(t, doomed)
    expect(whileTrashed.status).toBe(404)
    expect(whileTrashed.body.error).toBe(DriveErrors.file_not_found.reason)
    expect((await t.call('POST', '/drive/v1/files:batchUntrash', { token, body: { ids: [doomed.id] } })).status).toBe(200)
    expect((await download(t, doomed)).status).toBe(200)
    expect((await t.call('POST', '/drive/v1/files:batchDelete', { token, body: { ids: [doomed.id] } })).status).toBe(200)
    expect((await download(t, doomed)).body.error).toBe(DriveErrors.file_not_found.reason)
  })

  it('names the download in UTF-8 with an ASCII fallback', async () => {
    const cjk = await uploadFile(t, token, '报告 "final".txt', Buffer.from('文字'))
    const got = await download(t, cjk)
    expect(got.headers['content-disposition']).toBe(`attachment; filename="__ _final_.txt"; filename*=UTF-8''${encodeURIComponent('报告 "final".txt')}`)
    expect(got.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(got.raw.toString('utf8')).toBe('文字')
  })

  it('never fails with 5xx on any Range header, and a 206 body is the slice it names', async () => {
    const rangeHeader = fc.oneof(
      fc.string().filter((s) => /^[\x20-\x7e]*$/.test(s)),
      fc.tuple(fc.option(fc.nat(20_000), { nil: undefined }), fc.option(fc.nat(20_000), { nil: undefined })).map(([a, b]) => `bytes=${a ?? ''}-${b ?? ''}`),
      fc.array(fc.tuple(fc.nat(12_000), fc.nat(12_000)), { minLength: 1, maxLength: 3 }).map((rs) => `bytes=${rs.map(([a, b]) => `${a}-${b}`).join(',')}`),
    )
    await fc.assert(
      fc.asyncProperty(rangeHeader, async (range) => {
        const got = await download(t, file, { range })
        expect(got.status).toBeLessThan(500)
        expect([200, 206, 416]).toContain(got.status)
        if (got.status === 206) {
          const [, start, end, total] = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(got.headers['content-range'])) ?? []
          expect(total).toBe('10000')
          expect(got.raw.equals(content.subarray(Number(start), Number(end) + 1))).toBe(true)
        }
        if (got.status === 200) expect(got.raw.equals(content)).toBe(true)
      }),
      { numRuns: 150 },
    )
  })

  it('closes the blob stream when the client goes away mid-download', async () => {
    const big = await uploadFile(t, token, 'big.bin', randomBytes(32 * 1024 * 1024))
    const blobs = t.server.drive.blobs
    const opened: Readable[] = []
    const given: Readable[] = []
    const originalGet = blobs.get.bind(blobs)
    // The drive gets a stream that hands out one chunk per couple of milliseconds. Without
    // the pacing, the kernel's socket buffers on a quiet machine could take all 32 MiB before
    // the client's destroy lands, the blob would end on its own, and the test would prove
    // nothing (it failed that way once in CI).
    blobs.get = async (gcid, range) => {
      const stream = await originalGet(gcid, range)
      opened.push(stream)
      const paced = Readable.from(
        (async function* () {
          for await (const chunk of stream) {
            await sleep(2)
            yield chunk as Buffer
          }
        })(),
        { objectMode: false, highWaterMark: 64 * 1024 },
      )
      given.push(paced)
      return paced
    }
    try {
      await t.server.app.listen({ host: '127.0.0.1', port: 0 })
      const { port } = t.server.app.server.address() as AddressInfo
      const response = await new Promise<import('node:http').IncomingMessage>((resolve) => get(`http://127.0.0.1:${port}${pathOf(big.web_content_link)}`, resolve))
      expect(response.statusCode).toBe(200)
      await new Promise<void>((resolve) => response.once('data', () => (response.pause(), resolve())))
      response.destroy()
      const [stream] = opened
      const [paced] = given
      if (!stream || !paced) throw new Error('no blob stream was opened')
      // What the drive was given is destroyed before its end, and destroying it let go of
      // the blob's own stream (its file handle) too.
      // (It may close with the abort as its error: only the close is awaited.)
      if (!paced.closed) await new Promise((resolve) => paced.once('close', resolve))
      expect([paced.destroyed, paced.readableEnded]).toEqual([true, false])
      if (!stream.closed) await new Promise((resolve) => stream.once('close', resolve))
      expect([stream.destroyed, stream.readableEnded]).toEqual([true, false])
    } finally {
      blobs.get = originalGet
    }
  })
})
