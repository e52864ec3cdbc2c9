import type { Readable } from 'node:stream'
import { AppError, DriveErrors, HttpErrors } from '@cumulus/protocol'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { BlobNotFound, BlobRangeNotSatisfiable } from '../blobs/blob-store.js'
import type { DriveDeps } from '../deps.js'
import { matchesAnyEtag, parseRange } from './range.js'

export interface BlobResponse {
  gcid: string
  size: number
  etag: string
  contentType: string
  lastModifiedMs: number
  /** The signed link's expiry: a cached copy must not outlive the link that fetched it. */
  linkExpiresAtSeconds: number
  /** Called with the bytes the body will carry, before any is sent (download traffic); may reject to refuse. */
  meter?: (bytes: number) => Promise<void>
  /** True when the permission behind the link can end before the link does (a share): a cached copy is checked again each time. */
  revalidate?: boolean
}

/**
 * Sends a stored blob as HTTP does a file: one byte range per request (206), If-Range,
 * If-None-Match (304), HEAD, and the content streamed from the blob store, never held in memory.
 * Shared by file downloads and a video's renditions (features/media).
 */
export async function sendBlob(deps: Pick<DriveDeps, 'blobs' | 'logger' | 'clock'>, request: FastifyRequest, reply: FastifyReply, blob: BlobResponse) {
  const { size, etag } = blob
  const nowSeconds = Math.floor(deps.clock.nowMs() / 1000)
  reply.headers({
    etag,
    'last-modified': new Date(blob.lastModifiedMs).toUTCString(),
    'accept-ranges': 'bytes',
    'content-type': blob.contentType,
    'cache-control': blob.revalidate ? 'private, no-cache' : `private, max-age=${Math.max(0, blob.linkExpiresAtSeconds - nowSeconds)}`,
    'x-content-type-options': 'nosniff',
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

  const slice = range.kind === 'partial' ? { start: range.start, end: range.end } : undefined
  if (slice) reply.code(206).header('content-range', `bytes ${slice.start}-${slice.end}/${size}`)
  reply.header('content-length', String(slice ? slice.end - slice.start + 1 : size))
  if (request.method === 'HEAD') return reply.send()
  await blob.meter?.(slice ? slice.end - slice.start + 1 : size)
  return reply.send(await openContent(deps, blob.gcid, slice, size))
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

async function openContent(deps: Pick<DriveDeps, 'blobs' | 'logger'>, gcid: string, slice: { start: number; end: number } | undefined, size: number): Promise<Readable> {
  try {
    return await deps.blobs.get(gcid, slice)
  } catch (error) {
    // The database says the content is complete, so its blob must exist; a missing one is worth an alarm.
    if (error instanceof BlobNotFound || error instanceof BlobRangeNotSatisfiable) {
      deps.logger.error({ err: error, gcid, size }, 'stored content has no (or a shorter) blob')
      throw new AppError(DriveErrors.file_not_found, { description: 'the file content is missing', cause: error })
    }
    throw error
  }
}
