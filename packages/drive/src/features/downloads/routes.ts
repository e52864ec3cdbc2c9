import type { Readable } from 'node:stream'
import { AppError, DriveErrors, HttpErrors } from '@cumulus/protocol'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { BlobNotFound, BlobRangeNotSatisfiable } from '../../blobs/blob-store.js'
import type { DriveDeps } from '../../deps.js'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { IdStr, Loose, OptStr } from '../../http/schemas.js'
import { contentDisposition } from './content-disposition.js'
import { requireDownloadable } from '../../domain/index.js'
import { matchesAnyEtag, parseRange } from './range.js'

/**
 * An uploaded HTML or SVG file is served from our own origin: it must never run script there or
 * load anything. `sandbox` gives the document an opaque origin with scripts disabled; media and
 * inline styles stay allowed so previews of media and plain pages still render.
 */
const CONTENT_SECURITY_POLICY = "default-src 'none'; media-src 'self'; style-src 'unsafe-inline'; sandbox"

function contentTypeOf(mimeType: string): string {
  const type = mimeType || 'application/octet-stream'
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type
}

const params = Type.Object({ fileId: IdStr, name: Type.Optional(Type.String({ maxLength: 1024 })) })
const querystring = Loose({ e: OptStr(16), s: OptStr(128), disposition: OptStr(16) })

/**
 * `GET|HEAD /drive/v1/content/:fileId[/:name]?e=&s=`: a file's content through its signed link
 * (drive.md `web_content_link`), without the bearer, so `<video>` elements and download managers
 * can use it. One byte range per request (206), If-Range, If-None-Match, ETag from the GCID, and
 * the content streamed from the blob store, never held in memory.
 */
export async function downloadRoutes(base: FastifyInstance, { deps }: DriveRouteOptions) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  const handler = async (request: FastifyRequest<{ Params: { fileId: string }; Querystring: { e?: string; s?: string; disposition?: string } }>, reply: FastifyReply) => {
    const { file, linkExpiresAtSeconds } = await requireDownloadable(deps, request.params.fileId, request.query)
    const size = file.size
    const etag = `"${file.gcid}"`
    const nowSeconds = Math.floor(deps.clock.nowMs() / 1000)
    reply.headers({
      etag,
      'last-modified': new Date(file.modified_at).toUTCString(),
      'accept-ranges': 'bytes',
      'content-type': contentTypeOf(file.mime_type),
      'content-disposition': contentDisposition(request.query.disposition === 'inline' ? 'inline' : 'attachment', file.name),
      // A cached copy must not outlive the link that fetched it.
      'cache-control': `private, max-age=${Math.max(0, linkExpiresAtSeconds - nowSeconds)}`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': CONTENT_SECURITY_POLICY,
    })
    if (matchesAnyEtag(header(request, 'if-none-match'), etag)) return reply.code(304).send()

    // If-Range: the range only applies to the content the client already has part of; content
    // that changed since (or a date validator, which we do not compare) gets the whole body.
    const ifRange = header(request, 'if-range')
    const range = ifRange !== undefined && ifRange.trim() !== etag ? ({ kind: 'whole' } as const) : parseRange(header(request, 'range'), size)
    // 416 and its Content-Range are HTTP's answer to a range past the end (RFC 9110 §15.5.17),
    // which download managers rely on; the body is the contract's, like every other error's.
    if (range.kind === 'unsatisfiable') {
      reply.header('content-range', `bytes */${size}`)
      throw new AppError(HttpErrors.range_not_satisfiable, { description: `range past the end of ${size} bytes` })
    }

    const isHead = request.method === 'HEAD'
    const slice = range.kind === 'partial' ? { start: range.start, end: range.end } : undefined
    if (slice) reply.code(206).header('content-range', `bytes ${slice.start}-${slice.end}/${size}`)
    reply.header('content-length', String(slice ? slice.end - slice.start + 1 : size))
    if (isHead) return reply.send()
    return reply.send(await openContent(deps, file.gcid, slice, size))
  }
  const route = { schema: { params, querystring } }
  app.route({ method: ['GET', 'HEAD'], url: '/drive/v1/content/:fileId', ...route, handler })
  app.route({ method: ['GET', 'HEAD'], url: '/drive/v1/content/:fileId/:name', ...route, handler })
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

async function openContent(deps: Pick<DriveDeps, 'blobs' | 'logger'>, gcid: string, slice: { start: number; end: number } | undefined, size: number): Promise<Readable> {
  try {
    return await deps.blobs.get(gcid, slice)
  } catch (error) {
    // The database says the file is complete, so its blob must exist; a missing one is worth an alarm.
    if (error instanceof BlobNotFound || error instanceof BlobRangeNotSatisfiable) {
      deps.logger.error({ err: error, gcid, size }, 'a complete file has no (or a shorter) blob')
      throw new AppError(DriveErrors.file_not_found, { description: 'the file content is missing', cause: error })
    }
    throw error
  }
}
