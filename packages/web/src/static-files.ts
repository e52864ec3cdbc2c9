import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join, relative, sep } from 'node:path'
import { AppError, HttpErrors } from '@cumulus/protocol'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { type ContentCoding, negotiateEncoding, VARIANT_CODINGS, type VariantCoding } from './accept-encoding.js'

/** Hashed build assets never change under the same name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable'
/** Icons and the manifest keep their names across deploys; revalidate hourly. */
export const SHORT_LIVED = 'public, max-age=3600'

/** The file name suffix of each precompressed variant (written by scripts/build-web.mjs). */
const VARIANT_SUFFIX: Record<VariantCoding, string> = { br: '.br', gzip: '.gz' }

/** Content types by extension: what build/client holds, and what public/ may reasonably add. */
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
}

/** One representation of a file: its bytes as sent, and a strong ETag of those bytes. */
interface Representation {
  coding: ContentCoding
  body: Buffer
  etag: string
}

export interface StaticFile {
  /** The URL path, e.g. `/assets/root-Bx1.js`. */
  path: string
  contentType: string
  cacheControl: string
  identity: Representation
  /** The precompressed variants that exist and are not older than the file. */
  variants: Partial<Record<VariantCoding, Representation>>
}

function representation(coding: ContentCoding, body: Buffer): Representation {
  return { coding, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(directory, entry.name)) : [join(directory, entry.name)]))
}

/**
 * Reads every file of a client build folder into memory, each with the precompressed
 * variants found beside it (`x.js.br`, `x.js.gz`). A variant whose file is missing is served
 * as a file of its own; a variant older than its file (left by a build that stopped before
 * compressing) is ignored, so it can never serve stale bytes.
 */
export function loadStaticFiles(clientDirectory: string): StaticFile[] {
  const paths = filesUnder(clientDirectory)
  const present = new Set(paths)
  const isVariant = (path: string) => VARIANT_CODINGS.some((coding) => path.endsWith(VARIANT_SUFFIX[coding]) && present.has(path.slice(0, -VARIANT_SUFFIX[coding].length)))
  return paths
    .filter((path) => !isVariant(path))
    .map((path) => {
      const urlPath = `/${relative(clientDirectory, path).split(sep).join('/')}`
      const modifiedMs = statSync(path).mtimeMs
      const variants: StaticFile['variants'] = {}
      for (const coding of VARIANT_CODINGS) {
        const variantPath = path + VARIANT_SUFFIX[coding]
        if (present.has(variantPath) && statSync(variantPath).mtimeMs >= modifiedMs) variants[coding] = representation(coding, readFileSync(variantPath))
      }
      return {
        path: urlPath,
        contentType: CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
        cacheControl: urlPath.startsWith('/assets/') ? IMMUTABLE : SHORT_LIVED,
        identity: representation('identity', readFileSync(path)),
        variants,
      }
    })
}

export interface StaticFilesOptions {
  /** A client build folder (`build/client`): hashed `assets/` and the public files. */
  clientDirectory: string
}

/**
 * Serves every file of the client build from memory, each on its own exact route (GET and
 * HEAD), so every other path still reaches the routes registered after it. Files are read
 * once at registration: the set matches the server build loaded at the same moment.
 *
 * A GET or HEAD gets the precompressed variant the Accept-Encoding header prefers
 * (`negotiateEncoding`), with `Content-Encoding`, that variant's own strong ETag and length,
 * and `Vary: Accept-Encoding` whenever variants exist. A request with a Range header always
 * gets the identity bytes (whole, or the one range asked for), so a range never indexes into
 * compressed bytes. If-None-Match answers 304.
 */
export const staticFiles: FastifyPluginAsync<StaticFilesOptions> = async (app, options) => {
  for (const file of loadStaticFiles(options.clientDirectory)) {
    app.route({ method: ['GET', 'HEAD'], url: file.path, handler: (request, reply) => sendStaticFile(request, reply, file) })
  }
}

function sendStaticFile(request: FastifyRequest, reply: FastifyReply, file: StaticFile): FastifyReply {
  const codings = VARIANT_CODINGS.filter((coding) => file.variants[coding])
  const range = request.method === 'GET' ? request.headers.range : undefined
  const chosen = range === undefined ? file.variants[negotiateEncoding(request.headers['accept-encoding'], codings) as VariantCoding] ?? file.identity : file.identity
  reply.header('content-type', file.contentType)
  reply.header('cache-control', file.cacheControl)
  reply.header('accept-ranges', 'bytes')
  if (codings.length > 0) reply.header('vary', 'accept-encoding')
  reply.header('etag', chosen.etag)
  if (chosen.coding !== 'identity') reply.header('content-encoding', chosen.coding)
  if (matchesIfNoneMatch(request.headers['if-none-match'], chosen.etag)) return reply.code(304).send()
  if (range !== undefined && ifRangeHolds(request.headers['if-range'], chosen.etag)) {
    const size = chosen.body.length
    const span = parseByteRange(range, size)
    if (span === 'unsatisfiable') {
      // 416 with its Content-Range (RFC 9110), and the catalogue's body like every other error.
      reply.header('content-range', `bytes */${size}`)
      throw new AppError(HttpErrors.range_not_satisfiable, { description: `range past the end of ${size} bytes` })
    }
    if (span) {
      reply.header('content-range', `bytes ${span.start}-${span.end}/${size}`)
      return reply.code(206).send(chosen.body.subarray(span.start, span.end + 1))
    }
  }
  return sendBody(request, reply, chosen.body)
}

/** HEAD gets the length of the body a GET would get, and no body. */
function sendBody(request: FastifyRequest, reply: FastifyReply, body: Buffer): FastifyReply {
  if (request.method !== 'HEAD') return reply.send(body)
  reply.header('content-length', String(body.length))
  return reply.send()
}

/** If-None-Match (RFC 9110 §13.1.2): `*`, or a list compared weakly (a `W/` prefix is ignored). */
function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}

/**
 * If-Range (§13.1.5): the range applies only while the representation still has the ETag the
 * client holds (strong comparison). We send no Last-Modified, so a date never matches, nor
 * does a repeated header.
 */
function ifRangeHolds(header: string | string[] | undefined, etag: string): boolean {
  return header === undefined || (typeof header === 'string' && header.trim() === etag)
}

/**
 * One byte range (§14.1.2): `bytes=a-b`, `bytes=a-` or `bytes=-n`, clamped to the file. Null
 * for a header we ignore and answer with the whole file (another unit, several ranges, a
 * malformed or backwards range); 'unsatisfiable' when the range starts past the end.
 */
export function parseByteRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header)
  if (!match || (match[1] === '' && match[2] === '')) return null
  if (match[1] === '') {
    const suffix = Number(match[2])
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(match[1])
  const end = match[2] === '' ? Number.POSITIVE_INFINITY : Number(match[2])
  if (end < start) return null
  if (start >= size) return 'unsatisfiable'
  return { start, end: Math.min(end, size - 1) }
}
