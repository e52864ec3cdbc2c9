import {
  type ErrorDetail,
  type ErrorEntry,
  type ErrorLike,
  ERROR_INFO_TYPE,
  GenericErrors,
  LocalErrors,
  OAuthErrors,
  type WireError,
  chooseErrorMessage,
  findErrorByCode,
  findErrorByReason,
} from '@cumulus/protocol'

/** The fields of an `IdentityError`, camelCase, as a caller may build one. */
export interface IdentityErrorInit {
  error: string
  errorCode: number
  errorDescription?: string
  errorUri?: string
  details?: ErrorDetail[]
  /** HTTP status of the reply; 0 for errors raised inside the SDK. */
  status?: number
  /** How long the server asked the caller to wait before trying again (its `Retry-After`). */
  retryAfterSeconds?: number | undefined
  cause?: unknown
}

/**
 * The one error type the SDK throws: a server's error body (identity.md "Error body") or
 * a local error of the catalogue (unreachable 8000, local 8001, local_timeout 8002,
 * local_invalid_response 8003), plus the HTTP status of the reply.
 */
export class IdentityError extends Error {
  readonly error: string
  readonly errorCode: number
  readonly errorDescription: string
  readonly errorUri: string
  readonly details: ErrorDetail[]
  readonly status: number
  /**
   * Seconds to wait before the same call can succeed, from the reply's `Retry-After` (a
   * `resource_exhausted` or lockout reply carries one); undefined when the reply gave none.
   */
  readonly retryAfterSeconds: number | undefined

  constructor(init: IdentityErrorInit) {
    super(init.errorDescription || init.error, init.cause === undefined ? undefined : { cause: init.cause })
    this.name = 'IdentityError'
    this.error = init.error
    this.errorCode = init.errorCode
    this.errorDescription = init.errorDescription ?? ''
    this.errorUri = init.errorUri ?? ''
    this.details = init.details ?? []
    this.status = init.status ?? 0
    this.retryAfterSeconds = init.retryAfterSeconds
  }

  /** An error of the catalogue; the status is the entry's own (0 for local errors). */
  static of(entry: ErrorEntry, description?: string, options: { cause?: unknown; status?: number } = {}): IdentityError {
    return new IdentityError({
      error: entry.reason,
      errorCode: entry.code,
      errorDescription: description ?? '',
      status: options.status ?? entry.status,
      cause: options.cause,
    })
  }

  /**
   * Reads a reply's error body. Whatever the body holds (a proxy's HTML page, a partial
   * object), the result is an IdentityError: missing fields are taken from the catalogue
   * entry of the code or reason, or from the HTTP status.
   */
  static fromWire(body: unknown, status: number, retryAfter?: string | null, nowMs: number = Date.now()): IdentityError {
    const wire = (body !== null && typeof body === 'object' ? body : {}) as Partial<Record<keyof WireError, unknown>>
    const reason = typeof wire.error === 'string' && wire.error !== '' ? wire.error : undefined
    const code = typeof wire.error_code === 'number' && Number.isFinite(wire.error_code) ? wire.error_code : undefined
    const entry =
      (reason !== undefined ? findErrorByReason(reason) : null) ??
      (code !== undefined ? findErrorByCode(code) : null) ??
      (reason === undefined && code === undefined ? entryForStatus(status) : null)
    return new IdentityError({
      error: reason ?? entry?.reason ?? GenericErrors.unknown.reason,
      errorCode: code ?? entry?.code ?? GenericErrors.unknown.code,
      errorDescription: typeof wire.error_description === 'string' ? wire.error_description : '',
      errorUri: typeof wire.error_uri === 'string' ? wire.error_uri : '',
      details: Array.isArray(wire.details) ? (wire.details as ErrorDetail[]) : [],
      status,
      retryAfterSeconds: parseRetryAfter(retryAfter, nowMs),
    })
  }

  /** The reason of the first ErrorInfo detail (e.g. CAPTCHA_REJECT), or null. */
  get detailReason(): string | null {
    const info = this.details.find((d) => d?.['@type'] === ERROR_INFO_TYPE) as { reason?: unknown } | undefined
    const first = (info ?? this.details[0]) as { reason?: unknown } | undefined
    return typeof first?.reason === 'string' ? first.reason : null
  }

  /** Whether this error is the catalogue entry (compared by reason or code). */
  is(entry: ErrorEntry): boolean {
    return this.error === entry.reason || this.errorCode === entry.code
  }

  /** The error body shape, snake_case, for logging or for `chooseErrorMessage`. */
  toJSON(): WireError {
    return {
      error: this.error,
      error_code: this.errorCode,
      error_description: this.errorDescription,
      error_uri: this.errorUri,
      details: this.details,
    }
  }
}

/** The longest wait a reply may ask for: a larger or far-future value is taken as this. */
const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60

/**
 * A `Retry-After` value (RFC 9110 10.2.3) as whole seconds from now: delay-seconds, or an
 * HTTP-date (a date already past is 0). Anything else, or no header, is undefined.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (typeof value !== 'string') return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Math.min(Number(text), MAX_RETRY_AFTER_SECONDS)
  // An IMF-fixdate names its weekday and GMT; Date.parse alone would take far looser text.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) return undefined
  const atMs = Date.parse(text)
  if (Number.isNaN(atMs)) return undefined
  return Math.min(Math.max(0, Math.ceil((atMs - nowMs) / 1000)), MAX_RETRY_AFTER_SECONDS)
}

export function isIdentityError(value: unknown): value is IdentityError {
  return value instanceof IdentityError
}

/** A catalogue entry for a reply with no usable error body, from its HTTP status. */
function entryForStatus(status: number): ErrorEntry {
  switch (status) {
    case 400:
      return GenericErrors.invalid_argument
    case 401:
      return GenericErrors.unauthenticated
    case 403:
      return GenericErrors.permission_denied
    case 404:
      return GenericErrors.not_found
    case 409:
      return GenericErrors.aborted
    case 429:
      return GenericErrors.resource_exhausted
    case 499:
      return GenericErrors.cancelled
    case 501:
      return GenericErrors.unimplemented
    case 502:
    case 503:
      return GenericErrors.unavailable
    case 504:
      return GenericErrors.deadline_exceeded
    default:
      return status >= 500 ? GenericErrors.internal : GenericErrors.unknown
  }
}

/** Thrown for a bad constructor option; the message is the spec's `wrong options param: <name>`. */
export function wrongOptionsParam(name: string): IdentityError {
  return IdentityError.of(LocalErrors.local, `wrong options param: ${name}`)
}

/** Errors after which stored credentials are no longer usable (spec 4, token refresh). */
export const CREDENTIAL_CLEARING_ERRORS: readonly ErrorEntry[] = [
  GenericErrors.unauthenticated,
  OAuthErrors.invalid_grant,
  OAuthErrors.unauthorized_client,
]

/**
 * The text a user sees for an error, in the spec's choice order (section 8): a localized
 * message in details, the network-unreachable text, the captcha rejection text, the text
 * of the code (17 and above), else a default naming the error. Accepts an IdentityError,
 * a wire error body, or anything else (a non-error becomes `unknown`).
 */
export function errorMessage(error: unknown, locale?: string | null): string {
  return chooseErrorMessage(toErrorLike(error), locale)
}

function toErrorLike(error: unknown): ErrorLike {
  if (error instanceof IdentityError) return error.toJSON()
  if (error !== null && typeof error === 'object') {
    const e = error as Record<string, unknown>
    // A camelCase object shaped like an IdentityError (e.g. after structured cloning).
    if (typeof e.errorCode === 'number' || typeof e.errorDescription === 'string') {
      return {
        error: typeof e.error === 'string' ? e.error : undefined,
        error_code: typeof e.errorCode === 'number' ? e.errorCode : undefined,
        error_description: typeof e.errorDescription === 'string' ? e.errorDescription : undefined,
        details: Array.isArray(e.details) ? (e.details as ErrorDetail[]) : undefined,
      }
    }
    return e as ErrorLike
  }
  return {}
}
