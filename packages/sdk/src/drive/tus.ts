import { GenericErrors, LocalErrors, TUS_VERSION } from '@cumulus/protocol'
import { IdentityError } from '../errors.js'

/**
 * A tus 1.0 client (https://tus.io/protocols/resumable-upload), core protocol plus termination:
 * HEAD for the offset, PATCH for bytes, DELETE to cancel. The drive server creates the upload
 * resource itself (`POST /drive/v1/files` replies with its endpoint), so creation is not needed.
 */

/** One tus reply, whichever way it was sent (fetch or XMLHttpRequest). */
export interface TusReply {
  status: number
  header(name: string): string | null
  body: string
}

export interface TusRequest {
  method: 'HEAD' | 'PATCH' | 'DELETE'
  url: string
  headers: Record<string, string>
  body?: Blob | Uint8Array
  signal: AbortSignal
  /** PATCH through XMLHttpRequest: bytes of `body` sent so far. */
  onBodyProgress?: (loadedBytes: number) => void
}

/**
 * Sends one tus request and resolves with whatever reply arrives, error statuses included.
 * Rejects only when no reply arrives: `unreachable` (8000) for a network failure, `cancelled`
 * (1, status 0) when `signal` aborts.
 */
export type TusSender = (request: TusRequest) => Promise<TusReply>

/** The part of XMLHttpRequest the upload uses (tests pass a fake). */
export interface XhrLike {
  open(method: string, url: string): void
  setRequestHeader(name: string, value: string): void
  getResponseHeader(name: string): string | null
  send(body: Blob | Uint8Array): void
  abort(): void
  readonly status: number
  readonly responseText: string
  readonly upload: { onprogress: ((event: { loaded: number }) => void) | null }
  onload: (() => void) | null
  onerror: (() => void) | null
  onabort: (() => void) | null
  ontimeout: (() => void) | null
}

const aborted = (cause?: unknown) => IdentityError.of(GenericErrors.cancelled, 'upload request aborted', { cause, status: 0 })
const unreachable = (url: string, cause?: unknown) => IdentityError.of(LocalErrors.unreachable, `${new URL(url).origin} is unreachable`, { cause })

/** Sends tus requests with a fetch function. */
export function fetchSender(fetchFn: (input: string, init?: RequestInit) => Promise<Response>): TusSender {
  return async (request) => {
    if (request.signal.aborted) throw aborted()
    let response: Response
    try {
      response = await fetchFn(request.url, {
        method: request.method,
        headers: request.headers,
        // A Uint8Array view over a SharedArrayBuffer is not a BodyInit; uploads never use one.
        ...(request.body === undefined ? {} : { body: request.body as BodyInit }),
        signal: request.signal,
      })
    } catch (cause) {
      throw request.signal.aborted ? aborted(cause) : unreachable(request.url, cause)
    }
    let body = ''
    try {
      body = request.method === 'HEAD' ? '' : await response.text()
    } catch (cause) {
      // The connection dropped mid-body: the request may or may not have been applied.
      throw request.signal.aborted ? aborted(cause) : unreachable(request.url, cause)
    }
    return { status: response.status, header: (name) => response.headers.get(name), body }
  }
}

/** Sends tus requests with XMLHttpRequest, which (unlike fetch) reports upload progress. */
export function xhrSender(createXhr: () => XhrLike): TusSender {
  return (request) =>
    new Promise<TusReply>((resolve, reject) => {
      if (request.signal.aborted) {
        reject(aborted())
        return
      }
      const xhr = createXhr()
      const onAbort = () => xhr.abort()
      const settle = (outcome: () => void) => {
        request.signal.removeEventListener('abort', onAbort)
        outcome()
      }
      xhr.open(request.method, request.url)
      for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value)
      if (request.onBodyProgress) {
        const report = request.onBodyProgress
        xhr.upload.onprogress = (event) => report(event.loaded)
      }
      xhr.onload = () =>
        settle(() => resolve({ status: xhr.status, header: (name) => xhr.getResponseHeader(name), body: xhr.responseText ?? '' }))
      xhr.onerror = () => settle(() => reject(unreachable(request.url)))
      xhr.ontimeout = xhr.onerror
      xhr.onabort = () => settle(() => reject(request.signal.aborted ? aborted() : unreachable(request.url)))
      request.signal.addEventListener('abort', onAbort, { once: true })
      xhr.send(request.body ?? new Uint8Array(0))
    })
}

/** `XMLHttpRequest` when the platform has it (browsers), else null (Node, service workers). */
export function platformXhr(): (() => XhrLike) | null {
  const Xhr = (globalThis as { XMLHttpRequest?: new () => unknown }).XMLHttpRequest
  return typeof Xhr === 'function' ? () => new Xhr() as XhrLike : null
}

/** Statuses after which the same request, after re-reading the offset, may succeed. */
const RETRYABLE_STATUSES = new Set([409, 423, 429])

/**
 * Whether a failed tus request is worth trying again (after a back-off and a HEAD for the
 * server's offset): no reply at all, a 5xx, an offset conflict (409), a lock held by a request
 * the server has not noticed is dead yet (423), or rate limiting (429).
 */
export function isRetryableTusError(error: IdentityError): boolean {
  if (error.is(LocalErrors.unreachable)) return true
  return error.status >= 500 || RETRYABLE_STATUSES.has(error.status)
}

/** Whether the upload resource no longer exists (expired, cancelled elsewhere, or finished and cleaned up). */
export function isUploadGone(error: IdentityError): boolean {
  return error.status === 404 || error.status === 410
}

/**
 * The IdentityError a failing tus reply stands for: the contract's error body when the server
 * sent one, else a catalogue entry chosen from the status (tus servers answer in plain text).
 */
export function tusReplyError(reply: TusReply, what: string): IdentityError {
  let body: unknown = null
  try {
    body = reply.body === '' ? null : JSON.parse(reply.body)
  } catch {
    body = null
  }
  const wire = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : null
  if (wire && (typeof wire.error === 'string' || typeof wire.error_code === 'number')) return IdentityError.fromWire(wire, reply.status)
  const text = reply.body.trim().slice(0, 200)
  const description = `${what} failed with HTTP ${reply.status}${text === '' ? '' : `: ${text}`}`
  const entry = entryForTusStatus(reply.status)
  return entry ? IdentityError.of(entry, description, { status: reply.status }) : withDescription(IdentityError.fromWire(null, reply.status), description)
}

/** The tus-specific statuses; the others map as any reply without an error body does. */
function entryForTusStatus(status: number) {
  switch (status) {
    case 404:
    case 410:
      return GenericErrors.not_found
    case 409:
    case 423:
      return GenericErrors.aborted
    case 412:
      // Tus-Resumable version not supported.
      return GenericErrors.failed_precondition
    case 413:
      return GenericErrors.out_of_range
    case 460:
      // Checksum mismatch (checksum extension).
      return GenericErrors.data_loss
    default:
      return null
  }
}

function withDescription(error: IdentityError, description: string): IdentityError {
  return new IdentityError({ error: error.error, errorCode: error.errorCode, errorDescription: description, status: error.status })
}

export interface TusClientDeps {
  /** Sends HEAD and DELETE, and PATCH when `sendPatch` is not given. */
  send: TusSender
  /** Sends PATCH (XMLHttpRequest in browsers, for progress within a chunk). */
  sendPatch?: TusSender
  /** The current `authorization` value, refreshed when expired. */
  authorization: () => Promise<string>
  /** After a 401: a fresh `authorization` value, or null when refreshing gave nothing new. */
  refreshAuthorization: (used: string) => Promise<string | null>
}

export interface TusOffset {
  /** Bytes the server has (`Upload-Offset`). */
  offset: number
  /** `Upload-Length`, or null when the server did not send it. */
  length: number | null
}

/** The tus requests of one client; every failure is an IdentityError. */
export class TusClient {
  readonly #deps: TusClientDeps

  constructor(deps: TusClientDeps) {
    this.#deps = deps
  }

  /** HEAD: how many bytes the server has. Rejects `not_found` (404/410) when the upload is gone. */
  async offset(url: string, signal: AbortSignal): Promise<TusOffset> {
    const reply = await this.#send(this.#deps.send, { method: 'HEAD', url, headers: {}, signal })
    if (reply.status < 200 || reply.status > 299) throw tusReplyError(reply, 'HEAD')
    const offset = parseByteCount(reply.header('upload-offset'))
    if (offset === null) {
      throw IdentityError.of(LocalErrors.local_invalid_response, 'tus HEAD reply without a valid Upload-Offset', { status: reply.status })
    }
    return { offset, length: parseByteCount(reply.header('upload-length')) }
  }

  /**
   * PATCH: appends `body` at `offset`. Resolves with the server's new offset, or null when the
   * reply did not say (the caller then asks with HEAD). `onBodyProgress` is called only when
   * the sender can observe the upload (XMLHttpRequest).
   */
  async patch(url: string, offset: number, body: Blob | Uint8Array, signal: AbortSignal, onBodyProgress?: (loadedBytes: number) => void): Promise<number | null> {
    const headers = { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }
    const request: TusRequest = { method: 'PATCH', url, headers, body, signal, ...(onBodyProgress ? { onBodyProgress } : {}) }
    const reply = await this.#send(this.#deps.sendPatch ?? this.#deps.send, request)
    if (reply.status < 200 || reply.status > 299) throw tusReplyError(reply, 'PATCH')
    return parseByteCount(reply.header('upload-offset'))
  }

  /** DELETE (termination): discards the upload. Idempotent: an upload already gone counts as deleted. */
  async terminate(url: string, signal: AbortSignal = new AbortController().signal): Promise<void> {
    const reply = await this.#send(this.#deps.send, { method: 'DELETE', url, headers: {}, signal })
    if ((reply.status < 200 || reply.status > 299) && reply.status !== 404 && reply.status !== 410) throw tusReplyError(reply, 'DELETE')
  }

  /** Sends with the tus version and the bearer; after a 401, once more with a refreshed bearer. */
  async #send(sender: TusSender, request: TusRequest): Promise<TusReply> {
    const authorization = await this.#deps.authorization()
    const withAuth = (value: string): TusRequest => ({
      ...request,
      headers: { ...request.headers, 'tus-resumable': TUS_VERSION, authorization: value },
    })
    const reply = await sender(withAuth(authorization))
    if (reply.status !== 401) return reply
    const fresh = await this.#deps.refreshAuthorization(authorization)
    return fresh === null ? reply : sender(withAuth(fresh))
  }
}

/** A non-negative integer header value, or null when missing or malformed. */
function parseByteCount(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value.trim())) return null
  const n = Number(value.trim())
  return Number.isSafeInteger(n) ? n : null
}
