import { Transform } from 'node:stream'
import { AppError, DriveErrors, GenericErrors, TUS_VERSION } from '@cumulus/protocol'
import { ERRORS, type MemoryLocker } from '@tus/server'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { UploadsTable } from '../../db/schema.js'
import type { Selectable } from 'kysely'
import type { DriveDeps } from '../../deps.js'
import { finishUpload, UploadNotFinishable } from './finish-upload.js'
import { drainUnread, pipeUntil } from './pipe-until.js'
import { recordUploadProgress } from './progress.js'
import { tusAppError } from './tus-errors.js'
import { type StagingArea } from '../../domain/index.js'

/** A PATCH body went past the upload's declared size. */
class TooManyBytes extends Error {}

/**
 * tus PATCH (core protocol), served here rather than by @tus/server: its web-stream bridge
 * (Node stream → web stream → Node stream, a promise per 64 KiB chunk) cost more than writing the
 * bytes. Same rules as tus's handler: Tus-Resumable required (412), Upload-Offset required (403)
 * and equal to the stored offset (409), expired uploads 410, never past the declared size (413),
 * the upload's lock held while writing (the same locker tus uses for HEAD and DELETE).
 *
 * When `shutdown` aborts (the server is closing), the body is cut where it is: the bytes already
 * received are written, the reply is the usual 204 with the new Upload-Offset on a connection
 * that then closes, and the client resumes from that offset later (tus core protocol). Waiting
 * for the rest of a large body would hold the shutdown for as long as the client cares to send.
 */
export async function patchUpload(
  deps: DriveDeps,
  staging: StagingArea,
  locker: MemoryLocker,
  upload: Selectable<UploadsTable>,
  request: FastifyRequest,
  reply: FastifyReply,
  shutdown: AbortSignal,
): Promise<FastifyReply> {
  // Errors keep tus's status and headers (clients act on them) and get the contract's body.
  const tusError = (error: { status_code: number; body: string }): never => {
    reply.header('tus-resumable', TUS_VERSION)
    throw tusAppError(error.status_code, error.body)
  }
  if (request.headers['tus-resumable'] === undefined) {
    reply.header('tus-version', TUS_VERSION)
    throw tusAppError(412, 'Tus-Resumable Required')
  }
  const offsetHeader = request.headers['upload-offset']
  if (typeof offsetHeader !== 'string') return tusError(ERRORS.MISSING_OFFSET)
  if (!/^\d{1,16}$/.test(offsetHeader)) return tusError(ERRORS.INVALID_OFFSET)
  if (request.headers['upload-length'] !== undefined) return tusError(ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION)
  const offset = Number(offsetHeader)

  const lock = locker.newLock(upload.id)
  const stop = new AbortController()
  // Another request wants this upload (a client retrying after a dead connection): give way.
  await lock.lock(stop.signal, () => {
    stop.abort()
    request.raw.destroy()
  })
  let newOffset: number
  try {
    const current = await staging.store.getUpload(upload.id).catch(() => null)
    if (!current) return tusError(ERRORS.FILE_NOT_FOUND)
    if (upload.expires_at < deps.clock.nowMs()) return tusError(ERRORS.FILE_NO_LONGER_EXISTS)
    if (current.offset !== offset) return tusError(ERRORS.INVALID_OFFSET)
    const room = upload.size - offset
    const length = request.headers['content-length']
    if (length !== undefined && Number(length) > room) return tusError(ERRORS.ERR_SIZE_EXCEEDED)
    let received = 0
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length
        if (received > room) {
          // Keep what fits; the rest is refused.
          const fits = chunk.length - (received - room)
          if (fits > 0) this.push(chunk.subarray(0, fits))
          callback(new TooManyBytes())
          return
        }
        callback(null, chunk)
      },
    })
    // The write below reports every failure (its pipeline rejects); this only keeps an error
    // raised before the pipeline is attached from being unhandled.
    limit.on('error', () => {})
    const cutShort = pipeUntil(request.raw, limit, shutdown)
    request.raw.on('error', (error) => limit.destroy(error))
    request.raw.on('aborted', () => limit.destroy(new Error('client went away')))
    try {
      newOffset = await staging.store.write(limit, upload.id, offset)
    } catch (error) {
      // What the client still sends is read to nowhere, so that its connection carries its next request.
      drainUnread(request.raw, shutdown)
      if (received > room) return tusError(ERRORS.ERR_SIZE_EXCEEDED)
      // The client went away mid-body (a reload, a pause): nobody is left to read a reply, and
      // it is no fault of ours, so it is logged as a cancelled request rather than an internal error.
      if (request.raw.destroyed) throw new AppError(GenericErrors.cancelled, { description: 'the client went away during the PATCH body', cause: error })
      return tusError(ERRORS.FILE_WRITE_ERROR)
    }
    // The rest of the body will not be read: this connection cannot carry another request.
    if (cutShort()) reply.header('connection', 'close')
  } finally {
    await lock.unlock()
  }

  if (newOffset === upload.size) {
    try {
      await finishUpload(deps, upload.id)
    } catch (error) {
      if (error instanceof UploadNotFinishable) {
        reply.header('tus-resumable', TUS_VERSION)
        throw new AppError(DriveErrors.file_upload_incomplete, { description: error.message })
      }
      throw error
    }
  } else {
    await recordUploadProgress(deps, upload, newOffset)
    reply.header('upload-expires', new Date(upload.expires_at).toUTCString())
  }
  return reply.code(204).headers({ 'tus-resumable': TUS_VERSION, 'upload-offset': String(newOffset), 'cache-control': 'no-store' }).send()
}
