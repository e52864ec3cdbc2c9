import {
  AppError,
  ERROR_INFO_TYPE,
  type ErrorEntry,
  GenericErrors,
  HttpErrors,
  LOCALIZED_MESSAGE_TYPE,
  type WireError,
  messageForReason,
  negotiateLocale,
} from '@cumulus/protocol'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

export interface ErrorHandlerOptions {
  /** The ErrorInfo `domain` of this service's errors ("identity", "drive"), or how to tell it from the request when one app serves several. */
  domain: string | ((request: FastifyRequest) => string)
}

function domainOf(domain: ErrorHandlerOptions['domain'], request: FastifyRequest): string {
  return typeof domain === 'string' ? domain : domain(request)
}

/** Builds the contract's error body (identity.md "Error body") for an AppError. */
export function renderError(error: AppError, locale: string | undefined, domain: string): WireError {
  const resolved = negotiateLocale(locale)
  const entry = error.entry
  const detailReason = error.detailReason
  const message =
    (detailReason && messageForReason(detailReasonMessageKey(entry, detailReason), resolved)) ||
    messageForReason(entry.reason, resolved) ||
    entry.reason
  return {
    error: entry.reason,
    error_code: entry.code,
    error_description: error.description ?? messageForReason(entry.reason, 'en-US') ?? entry.reason,
    error_uri: '',
    details: [
      { '@type': ERROR_INFO_TYPE, reason: detailReason ?? entry.reason.toUpperCase(), domain, metadata: error.metadata },
      { '@type': LOCALIZED_MESSAGE_TYPE, locale: resolved, message },
    ],
  }
}

// A captcha token refused for abuse has its own text (spec 8), and so has a refusal to remove an
// account's last way in; other detail reasons use the entry's.
function detailReasonMessageKey(entry: ErrorEntry, detailReason: string): string {
  if (entry.reason === 'captcha_invalid' && detailReason === 'CAPTCHA_REJECT') return 'captcha_reject'
  if (entry.reason === 'failed_precondition' && detailReason === LAST_SIGN_IN_METHOD) return 'last_sign_in_method'
  return entry.reason
}

/** The detail reason of failed_precondition when unbinding or moving would leave an account with no way in. */
export const LAST_SIGN_IN_METHOD = 'LAST_SIGN_IN_METHOD'

/** Turns any thrown value into an AppError; only AppErrors and Fastify's own 4xx keep their meaning. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error
  const fastifyError = error as Partial<FastifyError> & { validation?: { instancePath?: string; params?: Record<string, unknown>; message?: string }[]; validationContext?: string }
  if (fastifyError?.validation) {
    const first = fastifyError.validation[0]
    const missing = first?.params?.['missingProperty']
    const path = (first?.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.')
    const field = typeof missing === 'string' ? (path ? `${path}.${missing}` : missing) : path || (fastifyError.validationContext ?? 'body')
    // A whole part of the wrong kind (a JSON array or string as the body) reads "body must be object", not "body.body ...".
    const subject = typeof missing !== 'string' && !path ? (fastifyError.validationContext ?? 'request') : `${fastifyError.validationContext ?? 'request'}.${field}`
    return new AppError(GenericErrors.invalid_argument, {
      description: `${subject} ${first?.message ?? 'is invalid'}`.replace(/\.\s/, ' '),
      metadata: { field },
    })
  }
  const status = fastifyError?.statusCode
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 404) return new AppError(GenericErrors.not_found, { description: fastifyError.message })
    if (status === 429) return new AppError(GenericErrors.resource_exhausted, { description: fastifyError.message })
    if (status === 431) return new AppError(HttpErrors.request_header_too_large, { description: fastifyError.message })
    if (status === 408) return new AppError(HttpErrors.request_timeout, { description: fastifyError.message })
    // FST_ERR_CTP_BODY_TOO_LARGE and FST_ERR_CTP_INVALID_MEDIA_TYPE: the status says what a
    // client should do (send less, send another type), so it is kept, as HTTP's own entries.
    if (status === 413) return new AppError(HttpErrors.request_body_too_large, { description: fastifyError.message })
    if (status === 415) return new AppError(HttpErrors.unsupported_media_type, { description: fastifyError.message })
    // Bad JSON, a body shorter than its Content-Length, bad header...
    return new AppError(GenericErrors.invalid_argument, { description: fastifyError.message ?? 'invalid request' })
  }
  return new AppError(GenericErrors.internal, { cause: error })
}

/** Sends an AppError as the contract's error body. The one place errors become wire bodies. */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError, domain: string) {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds))))
  else if (error.entry === GenericErrors.resource_exhausted) reply.header('retry-after', '60')
  return reply
    .code(error.entry.status || 500)
    .type('application/json; charset=utf-8')
    .send(renderError(error, request.headers['accept-language'], domain))
}

/**
 * The app-wide error handler (wrapped with fastify-plugin so it applies to every route).
 * Anything that is not an AppError is logged in full and rendered as `internal`: no stack,
 * cause or SQL reaches the client.
 */
export const errorHandler = fp(
  async (app: FastifyInstance, options: ErrorHandlerOptions) => {
    app.setErrorHandler((error, request, reply) => {
      const appError = toAppError(error)
      if (appError.entry === GenericErrors.internal) request.log.error({ err: error }, 'unhandled error')
      else request.log.info({ error: appError.entry.reason, description: appError.description }, 'request failed')
      return sendError(request, reply, appError, domainOf(options.domain, request))
    })
    app.setNotFoundHandler((request, reply) =>
      sendError(request, reply, new AppError(GenericErrors.not_found, { description: `no route for ${request.method} ${request.url.split('?')[0]}` }), domainOf(options.domain, request)),
    )
  },
  { fastify: '5.x', name: 'cumulus-error-handler' },
)
