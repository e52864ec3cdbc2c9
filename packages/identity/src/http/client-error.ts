import { randomUUID } from 'node:crypto'
import type { Socket } from 'node:net'
import { AppError, GenericErrors, HttpErrors, type ErrorEntry } from '@cumulus/protocol'
import { renderError } from './error-handler.js'

/** What Node's `clientError` event carries. */
type ConnectionError = Error & { code?: string; rawPacket?: unknown }

/**
 * What Node's HTTP parser refused, as a catalogue entry: headers over the size limit (431), a
 * request that took too long to arrive (408), anything else malformed (a `Content-Length: abc`,
 * a bad request line, an invalid header character) as invalid_argument (400).
 */
function entryOf(error: ConnectionError): ErrorEntry {
  if (error.code === 'HPE_HEADER_OVERFLOW') return HttpErrors.request_header_too_large
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return HttpErrors.request_timeout
  return GenericErrors.invalid_argument
}

/** The request target of a raw request Node could not parse, when its first line is readable. */
function targetOf(error: { rawPacket?: unknown }): string {
  // Node hands over the bytes it had read (Fastify's types say otherwise).
  const raw = Buffer.isBuffer(error.rawPacket) ? error.rawPacket : Buffer.alloc(0)
  const firstLine = raw.subarray(0, 2048).toString('latin1').split('\r\n', 1)[0] ?? ''
  return /^[A-Z]+ (\/\S*)/.exec(firstLine)?.[1] ?? '/'
}

/**
 * The raw reply to a request Node's parser refused, before any routing: there is no request, so
 * no hooks, no error handler, no accept-language. Written by hand in the contract's shape
 * (identity.md "Error body"), English, with a fresh request id, and the connection closed, since
 * the rest of the bytes on it cannot be trusted. Fastify's default wrote
 * `{"error":"Request Header Fields Too Large","message":…,"statusCode":431}`.
 */
export function clientErrorResponse(error: ConnectionError, domainOf: (path: string) => string): Buffer {
  const entry = entryOf(error)
  const requestId = randomUUID()
  const body = JSON.stringify(renderError(new AppError(entry, { description: `the request could not be read (${error.code ?? 'malformed'})` }), undefined, domainOf(targetOf(error))))
  const head = [
    `HTTP/1.1 ${entry.status} ${statusText(entry.status)}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    'cache-control: no-store',
    'x-content-type-options: nosniff',
    'connection: close',
  ]
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${body}`)
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }

function statusText(status: number): string {
  return STATUS_TEXT[status] ?? 'Error'
}

/**
 * Fastify's `clientErrorHandler` (base server options): answers what Node's parser refused in
 * the catalogue's shape. A reset connection gets nothing; a response already under way is not
 * interrupted with a second status line (Node's own rule), the socket is only closed.
 */
export function clientErrorHandler(domainOf: (path: string) => string) {
  return (error: ConnectionError, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
    if (socket.writable && !inFlight?.headersSent) socket.end(clientErrorResponse(error, domainOf))
    else socket.destroy()
  }
}
