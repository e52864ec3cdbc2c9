import type { ErrorEntry } from './catalogue.js'

export interface AppErrorOptions {
  /** English, for developers; goes to `error_description`. Defaults to the entry's English message. */
  description?: string
  /** Goes to the ErrorInfo detail's `reason` (e.g. CAPTCHA_REJECT, or the invalid field). */
  detailReason?: string
  /** ErrorInfo metadata (string values only, as in google.rpc.ErrorInfo). */
  metadata?: Record<string, string>
  /** Sets `Retry-After` on the reply. */
  retryAfterSeconds?: number
  cause?: unknown
}

/**
 * The one error type the services throw. The catalogue entry fixes code and status;
 * the error handler renders it as the contract's error body.
 */
export class AppError extends Error {
  readonly entry: ErrorEntry
  readonly description: string | undefined
  readonly detailReason: string | undefined
  readonly metadata: Record<string, string>
  readonly retryAfterSeconds: number | undefined

  constructor(entry: ErrorEntry, options: AppErrorOptions = {}) {
    super(options.description ?? entry.reason, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'AppError'
    this.entry = entry
    this.description = options.description
    this.detailReason = options.detailReason
    this.metadata = options.metadata ?? {}
    this.retryAfterSeconds = options.retryAfterSeconds
  }

  /** The entry's HTTP status, for an app without our error handler (Fastify's default reads `statusCode`). */
  get statusCode(): number {
    return this.entry.status
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError
}
