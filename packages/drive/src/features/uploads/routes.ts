import { setMaxListeners } from 'node:events'
import { PassThrough, Readable } from 'node:stream'
import { AppError, DriveErrors, TUS_VERSION } from '@cumulus/protocol'
import { ERRORS, MemoryLocker, Metadata, Server, type Upload } from '@tus/server'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Caller, DriveDeps } from '../../deps.js'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { IdStr } from '../../http/schemas.js'
import { isId } from '../../lib/ids.js'
import { dropUploadRows, cancelUpload } from './cancel-upload.js'
import { startUpload, uploadEndpoint } from './create-upload.js'
import { finishUpload, UploadNotFinishable } from './finish-upload.js'
import { patchUpload } from './patch-upload.js'
import { drainUnread, pipeUntil } from './pipe-until.js'
import { tusAppError } from './tus-errors.js'
import { stagingOf } from '../../domain/index.js'

export const UPLOADS_PATH = '/drive/v1/uploads'

const TUS_BODY_TYPE = 'application/offset+octet-stream'

/**
 * The request as tus takes it (a web Request), with `body` as its body when given (a creation
 * with upload; HEAD, DELETE and OPTIONS carry none). Header values a web Headers object cannot
 * hold (control characters) are dropped rather than failing the request.
 */
function toTusRequest(request: FastifyRequest, body?: Readable): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.raw.headers)) {
    if (value === undefined) continue
    for (const one of Array.isArray(value) ? value : [value]) {
      try {
        headers.append(name, one)
      } catch {
        // An invalid header value: tus never needs it.
      }
    }
  }
  return new Request(new URL(request.url, 'http://drive.internal'), {
    method: request.method,
    headers,
    ...(body ? { body: Readable.toWeb(body) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit)
}

/**
 * The body of a creation with upload as tus reads it: the raw, unread request stream, ended
 * where it is when `shutdown` aborts, as a PATCH's is (patch-upload.ts). tus then stores what
 * came and answers 201 with the upload's URL and that offset, so the client can resume; without
 * the cut, the close waited out its grace period and cut the connection, and the client never
 * learnt the URL of the bytes it had sent. Only a tus body (application/offset+octet-stream) is
 * passed on: any other body Fastify has already parsed.
 */
function creationBody(request: FastifyRequest, shutdown: AbortSignal): { body: Readable | undefined; cutShort(): boolean } {
  if (!isTusBody(request)) return { body: undefined, cutShort: () => false }
  const body = new PassThrough()
  const cutShort = pipeUntil(request.raw, body, shutdown)
  // pipe() does not pass a failing or vanishing client on: tus's read must fail, not wait forever.
  request.raw.on('error', (error) => body.destroy(error))
  request.raw.on('aborted', () => body.destroy(new Error('client went away')))
  return { body, cutShort }
}

function isTusBody(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() === TUS_BODY_TYPE
}

function notFound(id: string): AppError {
  return new AppError(DriveErrors.file_not_found, { description: `no upload ${id}`, metadata: { id } })
}

/** The caller's unfinished upload `id`, or file_not_found (another user's upload is "not found" too). */
async function requireOwnUpload(deps: DriveDeps, caller: Caller, id: string) {
  if (!isId(id)) throw notFound(id)
  const upload = await deps.db.selectFrom('drive_uploads').selectAll().where('id', '=', id).where('user_id', '=', caller.userId).executeTakeFirst()
  if (!upload) throw notFound(id)
  return upload
}

interface Creation {
  sizeBytes: number
  name: string | undefined
  parentId: string | undefined
}

/**
 * The tus creation request's own fields, or null when they are not there or malformed: then tus
 * itself answers (412, 400) and nothing is created.
 */
function creationOf(request: FastifyRequest): Creation | null {
  const header = (name: string) => {
    const value = request.headers[name]
    return typeof value === 'string' ? value : undefined
  }
  const length = header('upload-length')
  if (!header('tus-resumable') || length === undefined || !/^\d{1,16}$/.test(length) || header('upload-defer-length') !== undefined || header('upload-concat') !== undefined) return null
  const sizeBytes = Number(length)
  if (!Number.isSafeInteger(sizeBytes)) return null
  let metadata: Record<string, string | null> = {}
  const raw = header('upload-metadata')
  if (raw !== undefined && raw.trim() !== '') {
    try {
      metadata = Metadata.parse(raw)
    } catch {
      return null
    }
  }
  return { sizeBytes, name: metadata['filename'] ?? metadata['name'] ?? undefined, parentId: metadata['parent_id'] || undefined }
}

/**
 * tus 1.0 (creation, creation-with-upload, termination, expiration) through @tus/server on
 * `/drive/v1/uploads`. Fastify authenticates and checks that the upload is the caller's (errors
 * in the contract shape); then tus gets the raw request and response. A creation makes the
 * pending file, the task and the quota reservation exactly as `POST /drive/v1/files` does.
 */
export async function uploadRoutes(base: FastifyInstance, { deps, authenticate, callerOf }: DriveRouteOptions) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  const staging = stagingOf(deps.config)
  /** The upload a creation request prepared, for tus's naming function and creation hook. */
  const prepared = new WeakMap<object, { id: string; createdAtMs: number; metadata: Record<string, string> }>()

  // Aborted as the server starts closing: PATCHes in flight then end with the bytes they have.
  const shutdown = new AbortController()
  // Every PATCH in flight listens; their number is not bounded by Node's leak warning threshold.
  setMaxListeners(0, shutdown.signal)
  app.addHook('preClose', async () => shutdown.abort())

  // One locker for tus (HEAD, DELETE, creation-with-upload) and our PATCH.
  const locker = new MemoryLocker()
  const tus = new Server({
    path: UPLOADS_PATH,
    locker,
    datastore: staging.store,
    generateUrl: (_request, { id }) => uploadEndpoint(deps, id),
    getFileIdFromRequest: (request) => {
      const last = new URL(request.url).pathname.split('/').pop() ?? ''
      return isId(last) ? last : undefined
    },
    namingFunction: (request) => {
      const upload = prepared.get(request)
      if (!upload) throw ERRORS.UNKNOWN_ERROR
      return upload.id
    },
    onUploadCreate: async (request, upload: Upload) => {
      const created = prepared.get(request)
      // Our creation time and metadata, so Upload-Expires matches the database's expiry and
      // nothing from the client reaches the info file unchecked.
      if (created) upload.creation_date = new Date(created.createdAtMs).toISOString()
      return created ? { metadata: created.metadata } : {}
    },
    onIncomingRequest: async (request, id) => {
      // Termination: the rows go first (the space is given back), then tus removes the staging
      // files under the upload's lock. A crash in between leaves files the housekeeping removes.
      if (request.method === 'DELETE') await dropUploadRows(deps, id, 'cancelled')
    },
    onResponseError: (_request, error) => {
      if (error instanceof UploadNotFinishable) return { status_code: 409, body: `${error.message}\n` }
      if ('status_code' in error && typeof error.status_code === 'number') return undefined
      // Anything that is not tus's own error is ours: logged in full, never shown.
      deps.logger.error({ err: error }, 'tus request failed')
      return { status_code: 500, body: 'Internal error\n' }
    },
    // CORS is the app's plugin's business: tus sets no Allow-Origin of its own, only the headers a browser may read.
    allowedOrigins: () => false,
    exposedHeaders: ['x-request-id', 'retry-after'],
  })

  /** Sends tus's Response through Fastify, so the reply gets the app's own headers (request id, CORS) and logging like any other. */
  async function sendTusResponse(request: FastifyRequest, reply: FastifyReply, response: Response): Promise<FastifyReply> {
    const failed = response.status >= 400
    response.headers.forEach((value, name) => {
      // A preflight's allowances are the app's CORS policy (it reflects the requested headers); tus's fixed lists would narrow them.
      if ((name.startsWith('access-control-allow-') || name === 'access-control-max-age') && reply.hasHeader(name)) return
      // An error's body is ours (below): tus's text length and type do not describe it.
      if (failed && (name === 'content-type' || name === 'content-length')) return
      reply.header(name, value)
    })
    if (failed) {
      // tus 1.0: a 412 names the versions the server speaks.
      if (response.status === 412) reply.header('tus-version', TUS_VERSION)
      throw tusAppError(response.status, await response.text())
    }
    reply.code(response.status)
    const body = response.status === 204 || request.method === 'HEAD' ? undefined : await response.text()
    return reply.send(body)
  }

  async function handOver(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    return sendTusResponse(request, reply, await tus.handleWeb(toTusRequest(request)))
  }

  // PATCH bodies (and creation-with-upload) go to tus as the raw stream, unread. Any other type is
  // left unread too, so the handler answers tus's 415: the app's lenient JSON parsers (which read a
  // text/plain body that starts with `{` as JSON) must not turn a wrong type into a 400 first.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null))
  app.addContentTypeParser('*', (_request, _payload, done) => done(null))

  // A Content-Type Fastify cannot even parse (FST_ERR_CTP_INVALID_MEDIA_TYPE) is refused before
  // the handler runs; a tus client gets the same 415 as for any other wrong type, with
  // Tus-Resumable. Everything else goes on to the app's error handler.
  app.setErrorHandler((error, _request, reply) => {
    if ((error as FastifyError).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      reply.header('tus-resumable', TUS_VERSION)
      throw tusAppError(415, `bodies must be ${TUS_BODY_TYPE}`)
    }
    throw error
  })

  // The app's CORS plugin answers preflights itself; on these paths it lets tus add its discovery
  // headers (Tus-Version, Tus-Extension) and allows the tus methods.
  const preflight = { config: { cors: { methods: 'GET,HEAD,POST,PATCH,DELETE,OPTIONS', preflightContinue: true } } as Record<string, unknown> }
  app.options(UPLOADS_PATH, preflight, handOver)
  app.options(`${UPLOADS_PATH}/:id`, preflight, handOver)

  app.post(UPLOADS_PATH, { preHandler: authenticate }, async (request, reply) => {
    const creation = creationOf(request)
    const { body, cutShort } = creationBody(request, shutdown.signal)
    try {
      return await createWithTus(request, reply, creation, body, cutShort)
    } finally {
      // A body tus did not read to its end (a creation it refused, one over quota): let go of it,
      // and read the rest of the request to nowhere, as Node does with any body nobody reads.
      // Kept, its listener on the server's shutdown signal held it, and the request, until the
      // server closed; and the request, piped into it and paused, was never read to its end, so
      // a keep-alive connection carried no further request.
      if (body && !body.readableEnded) {
        body.destroy()
        drainUnread(request.raw, shutdown.signal)
      }
    }
  })

  async function createWithTus(request: FastifyRequest, reply: FastifyReply, creation: Creation | null, body: Readable | undefined, cutShort: () => boolean) {
    const tusRequest = toTusRequest(request, body)
    let uploadId: string | undefined
    if (creation) {
      const started = await startUpload(deps, callerOf(request), { name: creation.name, parentId: creation.parentId, sizeBytes: creation.sizeBytes, completeAtOnce: false })
      const upload = started.upload as { id: string }
      uploadId = upload.id
      prepared.set(tusRequest, { id: upload.id, createdAtMs: started.file.created_at, metadata: { filename: started.file.name, file_id: started.file.id } })
    }
    let response: Response
    try {
      response = await tus.handleWeb(tusRequest)
    } catch (error) {
      if (uploadId !== undefined) await cancelUpload(deps, uploadId, 'cancelled')
      throw error
    }
    if (uploadId !== undefined) {
      if (response.status !== 201) {
        // tus refused the creation after all (or its body failed): the client has no URL to resume, so nothing stays reserved.
        await cancelUpload(deps, uploadId, 'cancelled')
      } else if ((await staging.offsetOf(uploadId)) === creation?.sizeBytes) {
        // Every byte came with the creation (or there were none): finish here, after tus, which
        // reads the upload back after its finish hook.
        await finishUpload(deps, uploadId)
      }
    }
    // The rest of the body will not be read: this connection cannot carry another request.
    if (cutShort()) reply.header('connection', 'close')
    return sendTusResponse(request, reply, response)
  }

  app.route({
    method: ['HEAD', 'PATCH', 'DELETE'],
    url: `${UPLOADS_PATH}/:id`,
    preHandler: authenticate,
    schema: { params: Type.Object({ id: IdStr }) },
    handler: async (request, reply) => {
      const upload = await requireOwnUpload(deps, callerOf(request), request.params.id)
      if (request.method === 'PATCH') {
        if (!isTusBody(request)) {
          reply.header('tus-resumable', TUS_VERSION)
          throw tusAppError(415, `PATCH bodies must be ${TUS_BODY_TYPE}`)
        }
        return patchUpload(deps, staging, locker, upload, request, reply, shutdown.signal)
      }
      if (request.method === 'HEAD') {
        // Every byte arrived but a crash interrupted the completion: finish now, so a client that
        // asks for the offset (and then stops, as the upload looks complete) gets a complete file.
        const offset = await staging.offsetOf(upload.id)
        if (offset === upload.size || (offset === null && (await staging.recordedGcid(upload.id)) !== null)) {
          await finishUpload(deps, upload.id)
          return reply
            .code(200)
            .headers({ 'tus-resumable': TUS_VERSION, 'upload-offset': String(upload.size), 'upload-length': String(upload.size), 'cache-control': 'no-store' })
            .send()
        }
      }
      // HEAD and DELETE; PATCH was served above. (A creation-with-upload is finished by the POST route.)
      return sendTusResponse(request, reply, await tus.handleWeb(toTusRequest(request)))
    },
  })
}
