import { GenericErrors, HEADERS, LocalErrors, PROTOCOL_VERSION, RETRY_ATTEMPT_CAP, SDK_VERSION } from '@cumulus/protocol'
import { IdentityError } from './errors.js'
import { randomUuid } from './random.js'

export type QueryValue = string | number | boolean | null | undefined
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface TransportConfig {
  clientId: string
  origins: readonly string[]
  /** Retries after the first attempt, 0 to 5. */
  retry: number
  fetch: typeof fetch
  sleep: (ms: number) => Promise<void>
  /** Headers known at send time (locale, device, platform); read on every attempt. */
  dynamicHeaders?: () => Record<string, string | undefined>
}

export interface SendRequest {
  method: HttpMethod | string
  path: string
  query?: Record<string, QueryValue>
  body?: unknown
  /** Extra headers (authorization, x-captcha-token). */
  headers?: Record<string, string | undefined>
  signal?: AbortSignal
  /** Overrides the client's retry count for this request. */
  retry?: number
  /** fetch `keepalive`: the request may outlive the page. */
  keepalive?: boolean
}

/** Spec 7: 5xx errors worth trying again; anything else from the server is final. */
const RETRYABLE_SERVER_ERRORS = new Set<string>([
  GenericErrors.unavailable.reason,
  GenericErrors.deadline_exceeded.reason,
  GenericErrors.internal.reason,
])

/** Spec 7: back-off before retry number n (1-based) is 2^n seconds. */
export function backoffMs(retryNumber: number): number {
  return 2 ** retryNumber * 1000
}

/** Whether a failed attempt may be tried again: unreachable, or a 5xx unavailable / deadline / internal. */
export function isRetryable(error: IdentityError): boolean {
  if (error.is(LocalErrors.unreachable)) return true
  return error.status >= 500 && RETRYABLE_SERVER_ERRORS.has(error.error)
}

/**
 * Sends one logical request: protocol headers, origin rotation, retries with back-off.
 * The origin that last answered is remembered for later requests.
 */
export class Transport {
  readonly #config: TransportConfig
  #current = 0

  constructor(config: TransportConfig) {
    if (config.origins.length === 0) throw new Error('Transport needs at least one origin')
    this.#config = config
  }

  /** The origin requests go to first. */
  get origin(): string {
    return this.#config.origins[this.#current] as string
  }

  /**
   * Sends the request and returns the parsed JSON body of a 2xx reply ({} when empty).
   * Throws IdentityError: the server's error body, `unreachable` (8000) when no origin
   * answers, `local_invalid_response` (8003) for a 2xx body that is not JSON, `cancelled`
   * (1) when `signal` aborts.
   *
   * An unreachable origin hands over to the next one at once; when every origin of the
   * round was unreachable, or the server answered a retryable 5xx, one retry is spent and
   * the next attempt waits 2^n seconds. At most RETRY_ATTEMPT_CAP attempts in total.
   */
  async send<T = unknown>(request: SendRequest): Promise<T> {
    const { origins, sleep } = this.#config
    const retry = request.retry ?? this.#config.retry
    let retries = 0
    let attempts = 0
    let unreachableInRound = 0
    for (;;) {
      attempts += 1
      const origin = this.origin
      let response: Response
      try {
        response = await this.#config.fetch(buildUrl(origin, request.path, request.query), this.#init(request))
      } catch (cause) {
        if (request.signal?.aborted) throw IdentityError.of(GenericErrors.cancelled, 'request aborted', { cause, status: 0 })
        const error = IdentityError.of(LocalErrors.unreachable, `${origin} is unreachable`, { cause })
        unreachableInRound += 1
        this.#current = (this.#current + 1) % origins.length
        if (attempts >= RETRY_ATTEMPT_CAP) throw error
        if (unreachableInRound < origins.length) continue
        unreachableInRound = 0
        if (retries >= retry) throw error
        retries += 1
        await sleep(backoffMs(retries))
        continue
      }
      unreachableInRound = 0
      const result = await readReply(response)
      if (!(result instanceof IdentityError)) return result as T
      if (!isRetryable(result) || retries >= retry || attempts >= RETRY_ATTEMPT_CAP) throw result
      retries += 1
      await sleep(backoffMs(retries))
    }
  }

  #init(request: SendRequest): RequestInit {
    const headers: Record<string, string> = {
      accept: 'application/json',
      [HEADERS.clientId]: this.#config.clientId,
      [HEADERS.sdkVersion]: SDK_VERSION,
      [HEADERS.protocolVersion]: String(PROTOCOL_VERSION),
      // A fresh id per attempt: each attempt is its own request in the server's log.
      [HEADERS.requestId]: randomUuid(),
    }
    for (const source of [this.#config.dynamicHeaders?.(), request.headers]) {
      for (const [name, value] of Object.entries(source ?? {})) if (value !== undefined && value !== '') headers[name] = value
    }
    const method = request.method.toUpperCase()
    const hasBody = request.body !== undefined && method !== 'GET' && method !== 'HEAD'
    // Only with a body: a JSON content type on an empty DELETE is a 400 on strict servers.
    if (hasBody) headers['content-type'] = 'application/json'
    return {
      method,
      headers,
      mode: 'cors',
      ...(hasBody ? { body: JSON.stringify(request.body) } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.keepalive ? { keepalive: true } : {}),
    }
  }
}

export function buildUrl(origin: string, path: string, query?: Record<string, QueryValue>): string {
  const url = `${origin.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(name, String(value))
  }
  const search = params.toString()
  return search === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${search}`
}

/** The parsed body of a 2xx reply, or the IdentityError a failing reply stands for. */
async function readReply(response: Response): Promise<unknown> {
  let text: string
  try {
    text = await response.text()
  } catch (cause) {
    // The connection dropped mid-body: as good as unreachable, and as retryable.
    return IdentityError.of(LocalErrors.unreachable, 'reply body could not be read', { cause })
  }
  let body: unknown
  let parsed = true
  try {
    body = text === '' ? {} : JSON.parse(text)
  } catch {
    parsed = false
  }
  if (response.ok) {
    if (!parsed) return IdentityError.of(LocalErrors.local_invalid_response, `reply is not JSON (status ${response.status})`, { status: response.status })
    return body
  }
  return IdentityError.fromWire(parsed ? body : null, response.status, response.headers.get('retry-after'))
}
