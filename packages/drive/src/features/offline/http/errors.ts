/**
 * Why an offline HTTP download stopped. The task runner maps these to the catalogue (too_large
 * to file_space_not_enough, the rest to the task's message) and decides from `retryable`
 * whether to keep the staging file for a later attempt.
 */

/** The URL, or a redirect on the way, leads somewhere the drive must not go. Never retryable. */
export type RefusalReason =
  /** Not a URL the WHATWG parser accepts (a Location included), or one with no host. */
  | 'bad_url'
  /** Not http: or https: (file:, ftp:, data:, javascript:, a thunder:// still wrapped, …). */
  | 'bad_scheme'
  /** A port the Fetch standard blocks (SMTP, SSH, IRC, …): see BAD_PORTS. */
  | 'bad_port'
  /** The host is, or resolves to, an address that is not public and not in the operator's allow-list. */
  | 'private_address'
  /** More than MAX_REDIRECTS redirects. */
  | 'too_many_redirects'

export type FailureReason =
  /** The final answer was not 2xx (after redirects); `status` says which. */
  | 'http_status'
  /** The content is larger than the quota left; `sizeBytes` is the announced size, or the bytes seen when the server announced none. */
  | 'too_large'
  /** The host name does not resolve. */
  | 'dns_failed'
  /** No connection, or no response headers, within the headers timeout. */
  | 'headers_timeout'
  /** No byte of the body for the idle timeout. */
  | 'idle_timeout'
  /** Refused, reset or closed before the announced end of the body. */
  | 'connection_lost'
  /** The TLS handshake failed: an untrusted or mismatched certificate, an old protocol. */
  | 'tls_failed'
  /** The server broke HTTP: a malformed response, a 206 we did not ask for, a Content-Range that does not fit. */
  | 'bad_response'

/** Common shape of both errors, so the caller can switch on `reason` alone. */
export abstract class OfflineHttpError extends Error {
  abstract readonly reason: RefusalReason | FailureReason
  /** Whether trying again later (resuming from the staging file) can succeed. */
  abstract readonly retryable: boolean
}

/** The request was refused by the address policy or the URL rules, before any byte was sent to the target. */
export class OfflineUrlRefused extends OfflineHttpError {
  override readonly name = 'OfflineUrlRefused'
  readonly retryable = false

  constructor(
    readonly reason: RefusalReason,
    message: string,
    /** The URL (original or redirect) that was refused, without its userinfo. */
    readonly url: string | null = null,
    /** The address that was refused, for private_address. */
    readonly address: string | null = null,
  ) {
    super(message)
  }
}

const RETRYABLE: ReadonlySet<FailureReason> = new Set(['dns_failed', 'headers_timeout', 'idle_timeout', 'connection_lost'])

/** The download started (or tried to) and failed. */
export class OfflineDownloadFailed extends OfflineHttpError {
  override readonly name = 'OfflineDownloadFailed'
  readonly retryable: boolean

  constructor(
    readonly reason: FailureReason,
    message: string,
    readonly details: { status?: number; sizeBytes?: number; limitBytes?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    // A server error or rate limit may pass; a 404 or 403 will not.
    const status = details.status
    this.retryable = RETRYABLE.has(reason) || (reason === 'http_status' && status !== undefined && (status >= 500 || status === 408 || status === 429))
  }

  get status(): number | null {
    return this.details.status ?? null
  }

  get sizeBytes(): number | null {
    return this.details.sizeBytes ?? null
  }
}
