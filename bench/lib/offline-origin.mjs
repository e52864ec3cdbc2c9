// The origin of bench/offline.mjs: a bare node:http server on 127.0.0.1 in its own process (so its
// CPU and buffers are not counted in the server's event loop and RSS), serving
// `GET /content/<seed>/<name>`: `sizeBytes` bytes made on the fly by repeating one block drawn
// from a PRNG seeded with <seed>, so no large fixture is written and each seed is different
// content (a different GCID, and a different URL, so instant completion never short-cuts a round).
// Single `bytes=N-` ranges are answered, with a strong ETag, as a real file server would.
//
// As a child: `node offline-origin.mjs <sizeBytes>` prints `{"port":N}` and serves until its
// stdin closes (the parent exiting). As a module: `contentChunks(seed, sizeBytes)` yields the
// same bytes, for the bench's own GCID.
import { createServer } from 'node:http'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'

/** The repeated block: large enough that the content is not trivially compressible or cached. */
export const ORIGIN_BLOCK_BYTES = 4 * 1024 * 1024

/** `ORIGIN_BLOCK_BYTES` from xorshift32 seeded with `seed` (never 0). */
export function contentBlock(seed) {
  const words = new Uint32Array(ORIGIN_BLOCK_BYTES / 4)
  let x = (seed * 2654435761) >>> 0 || 0x9e3779b9
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13
    x >>>= 0
    x ^= x >>> 17
    x ^= x << 5
    x >>>= 0
    words[i] = x
  }
  return Buffer.from(words.buffer)
}

/** The content of `seed` from byte `start` on, as chunks of the block (views, no copies). */
export function* contentChunks(seed, sizeBytes, start = 0, block = contentBlock(seed)) {
  for (let offset = start; offset < sizeBytes; ) {
    const inBlock = offset % block.length
    const take = Math.min(block.length - inBlock, sizeBytes - offset)
    yield block.subarray(inBlock, inBlock + take)
    offset += take
  }
}

function serve(sizeBytes) {
  const blocks = new Map()
  const server = createServer((req, res) => {
    const match = /^\/content\/(\d+)\/[^/]+$/.exec(req.url ?? '')
    if (req.method !== 'GET' || !match) {
      res.writeHead(404).end()
      return
    }
    const seed = Number(match[1])
    if (!blocks.has(seed)) blocks.set(seed, contentBlock(seed))
    const etag = `"bench-${seed}-${sizeBytes}"`
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '')
    const ifRange = req.headers['if-range']
    const start = range && (ifRange === undefined || ifRange === etag) ? Number(range[1]) : 0
    if (start >= sizeBytes && start > 0) {
      res.writeHead(416, { 'content-range': `bytes */${sizeBytes}` }).end()
      return
    }
    const headers = { 'content-type': 'application/octet-stream', 'content-length': String(sizeBytes - start), 'accept-ranges': 'bytes', etag, 'last-modified': new Date(0).toUTCString() }
    if (start > 0) res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${sizeBytes - 1}/${sizeBytes}` })
    else res.writeHead(200, headers)
    Readable.from(contentChunks(seed, sizeBytes, start, blocks.get(seed)), { objectMode: false, highWaterMark: 1024 * 1024 }).pipe(res)
  })
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`))
  // Dies with the bench: the parent holds our stdin open.
  process.stdin.on('end', () => process.exit(0))
  process.stdin.resume()
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sizeBytes = Number(process.argv[2])
  if (!Number.isSafeInteger(sizeBytes) || sizeBytes <= 0) {
    process.stderr.write('usage: offline-origin.mjs <sizeBytes>\n')
    process.exit(2)
  }
  serve(sizeBytes)
}
