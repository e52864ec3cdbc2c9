import type { Locale } from '../locales.js'

export const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo'
export const LOCALIZED_MESSAGE_TYPE = 'type.googleapis.com/google.rpc.LocalizedMessage'

export interface ErrorInfoDetail {
  '@type': typeof ERROR_INFO_TYPE
  reason: string
  domain: string
  metadata: Record<string, string>
}

export interface LocalizedMessageDetail {
  '@type': typeof LOCALIZED_MESSAGE_TYPE
  locale: Locale | string
  message: string
}

export type ErrorDetail = ErrorInfoDetail | LocalizedMessageDetail

/** The error body every failing endpoint returns (identity.md "Error body"). */
export interface WireError {
  error: string
  error_code: number
  error_description: string
  error_uri: string
  details: ErrorDetail[]
}

/** Detail reason marking a captcha token refused for abuse (spec 8). */
export const CAPTCHA_REJECT = 'CAPTCHA_REJECT'
