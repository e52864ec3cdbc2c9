import { pipeline, type Readable, Transform } from 'node:stream'
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync } from 'node:zlib'
import type { VariantCoding } from './accept-encoding.js'

/** Below this a compressed body saves less than the Content-Encoding and Vary headers cost. */
export const MIN_COMPRESS_BYTES = 1024
/**
 * Brotli quality for pages compressed while the visitor waits. 5 is within 10% of quality 11 on
 * our HTML at a twentieth of the CPU (about 1 ms against 24 ms for the 22 KB /about page);
 * static assets get 11 at build time instead.
 */
const PAGE_BROTLI_QUALITY = 5
/** Gzip level for pages: level 9 gains nothing measurable over 6 on our HTML. */
const PAGE_GZIP_LEVEL = 6

const brotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: PAGE_BROTLI_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }

/** Whether a response of this Content-Type is text worth compressing (HTML, data responses, JSON, XML, JS). */
export function isCompressibleType(contentType: string | null | undefined): boolean {
  if (!contentType) return false
  return /^text\/|[/+](json|xml|javascript)\b/i.test(contentType.trim())
}

/** `body` in one coding, compressed at once (a page the render cache gives back, about 1 ms for our pages). */
export function encodeBody(body: Buffer, coding: VariantCoding): Buffer {
  if (coding === 'gzip') return gzipSync(body, { level: PAGE_GZIP_LEVEL })
  return brotliCompressSync(body, { ...brotliOptions, params: { ...brotliOptions.params, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
}

/**
 * The brotli and gzip encodings of a whole page. Empty for a page too small to gain, and a
 * coding that does not shrink the page is left out.
 */
export function encodePage(body: Buffer): Partial<Record<VariantCoding, Buffer>> {
  if (body.length < MIN_COMPRESS_BYTES) return {}
  const encoded: Partial<Record<VariantCoding, Buffer>> = {}
  for (const coding of ['br', 'gzip'] as const) {
    const bytes = encodeBody(body, coding)
    if (bytes.length < body.length) encoded[coding] = bytes
  }
  return encoded
}

/**
 * `source` encoded as it streams. The encoder is flushed whenever the source pauses (nothing
 * more written in the same turn of the event loop), so what React or a deferred loader has
 * written reaches the browser then, not when zlib's buffer fills; a burst of chunks is still
 * compressed as one. Either stream failing destroys both, so an aborted render ends the reply.
 */
export function encodeStream(source: Readable, coding: VariantCoding): Readable {
  const encoder = coding === 'br' ? createBrotliCompress(brotliOptions) : createGzip({ level: PAGE_GZIP_LEVEL })
  // A sync flush keeps gzip's dictionary (the default full flush resets it); brotli's default keeps its own.
  const flush = coding === 'br' ? () => encoder.flush() : () => encoder.flush(constants.Z_SYNC_FLUSH)
  let pending: NodeJS.Immediate | undefined
  const flushWhenIdle = new Transform({
    transform(chunk, _encoding, callback) {
      clearImmediate(pending)
      pending = setImmediate(flush)
      callback(null, chunk)
    },
    final(callback) {
      clearImmediate(pending)
      callback()
    },
  })
  return pipeline(source, flushWhenIdle, encoder, () => clearImmediate(pending))
}
