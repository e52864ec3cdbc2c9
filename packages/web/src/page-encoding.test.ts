import { once } from 'node:events'
import { PassThrough, type Readable } from 'node:stream'
import { brotliDecompressSync, createBrotliDecompress, createGunzip, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { VariantCoding } from './accept-encoding.js'
import { encodePage, encodeStream, isCompressibleType, MIN_COMPRESS_BYTES } from './page-encoding.js'

const decoderFor = (coding: VariantCoding) => (coding === 'br' ? createBrotliDecompress() : createGunzip())

async function readAll(stream: Readable): Promise<string> {
  let text = ''
  for await (const chunk of stream) text += String(chunk)
  return text
}

describe('encodePage', () => {
  it('keeps a brotli and a gzip encoding of a page that decode to it', () => {
    const page = Buffer.from('<p>Cumulus keeps your files.</p>'.repeat(100))
    const encoded = encodePage(page)
    expect(brotliDecompressSync(encoded.br!).equals(page)).toBe(true)
    expect(gunzipSync(encoded.gzip!).equals(page)).toBe(true)
    expect(encoded.br!.length).toBeLessThan(page.length / 10)
  })

  it('leaves a page under the threshold alone', () => {
    expect(encodePage(Buffer.alloc(MIN_COMPRESS_BYTES - 1, 'a'))).toEqual({})
  })
})

describe('encodeStream', () => {
  // Regression: piping into a zlib stream held the first chunks of a streamed page or data
  // response until its buffer filled, so nothing reached the browser before the render ended.
  it.each<VariantCoding>(['br', 'gzip'])('delivers what is written before the source pauses (%s)', async (coding) => {
    const source = new PassThrough()
    const decoded = encodeStream(source, coding).pipe(decoderFor(coding))
    source.write('<!DOCTYPE html><html><body><p>shell</p>')
    const [first] = (await once(decoded, 'data')) as [Buffer]
    expect(first.toString()).toBe('<!DOCTYPE html><html><body><p>shell</p>')
    source.end('<p>the rest</p></body></html>')
    expect(await readAll(decoded)).toBe('<p>the rest</p></body></html>')
  })

  it('ends the encoded stream with an error when the source fails', async () => {
    const source = new PassThrough()
    const encoded = encodeStream(source, 'br')
    source.destroy(new Error('render aborted'))
    await expect(readAll(encoded)).rejects.toThrow('render aborted')
  })
})

describe('isCompressibleType', () => {
  it.each([
    ['text/html; charset=utf-8', true],
    ['text/x-script', true],
    ['application/json', true],
    ['application/manifest+json', true],
    ['image/svg+xml', true],
    ['text/javascript', true],
    ['image/png', false],
    ['application/octet-stream', false],
    [null, false],
  ] as const)('%s → %s', (type, expected) => {
    expect(isCompressibleType(type)).toBe(expected)
  })
})
