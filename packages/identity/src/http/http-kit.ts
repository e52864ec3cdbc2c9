import { randomUUID } from 'node:crypto'
import cors from '@fastify/cors'
import { AppError, GenericErrors, HEADERS } from '@cumulus/protocol'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { authContext } from './authenticate.js'
import { bodyParsers } from './body-parsers.js'
import { errorHandler } from './error-handler.js'

export interface HttpKitOptions {
  /** Allowed CORS origins; '*' allows any. */
  corsOrigins: string[]
  /** The ErrorInfo domain of errors this app renders, or how to tell it from the request. */
  domain: string | ((request: FastifyRequest) => string)
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** Uses the caller's `x-request-id` when it is sane, else makes one (identity.md transport rules). */
export function requestIdOf(header: unknown): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID()
}

/**
 * What every Cumulus HTTP app shares: the error renderer, lenient body parsers, request ids
 * echoed on every reply, CORS and the auth context. Wrapped with fastify-plugin so it covers
 * every route of the app it is registered on.
 */
export const httpKit = fp(
  async (app: FastifyInstance, options: HttpKitOptions) => {
    await app.register(errorHandler, { domain: options.domain })
    await app.register(bodyParsers)
    await app.register(authContext)
    // Callback-style hooks: an async one costs every request a promise and a microtask hop.
    app.addHook('onRequest', (request, reply, done) => {
      reply.header(HEADERS.requestId, request.id)
      // RFC 9112 3.2: a server must answer 400 to an HTTP/1.1 request without Host.
      if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
        done(new AppError(GenericErrors.invalid_argument, { description: 'the Host header is required', metadata: { field: 'host' } }))
        return
      }
      done()
    })
    const anyOrigin = options.corsOrigins.includes('*')
    await app.register(cors, {
      origin: anyOrigin ? true : options.corsOrigins,
      credentials: false,
      // PATCH and DELETE are part of both APIs (profile, files, tasks, tus termination).
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      // tus replies carry the offset, the new upload's location and its expiry in headers.
      exposedHeaders: ['x-request-id', 'retry-after', 'location', 'upload-offset', 'upload-length', 'upload-expires', 'tus-resumable', 'tus-version', 'tus-extension', 'tus-max-size', 'content-range', 'content-disposition', 'etag'],
      maxAge: 600,
      // A bare OPTIONS (no Origin) is not a preflight; let it reach the router, which answers
      // in the contract shape, instead of the plugin's plain-text 400.
      strictPreflight: false,
    })
  },
  { fastify: '5.x', name: 'cumulus-http-kit' },
)
