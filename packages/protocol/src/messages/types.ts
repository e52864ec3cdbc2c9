import type { ErrorReason } from '../errors/catalogue.js'

/** Texts the message-choice order needs beyond the per-reason ones. */
export interface SpecialMessages {
  /** Shown for a network-unreachable error (8000). */
  network_unreachable: string
  /** Shown for captcha_invalid whose first detail reason is CAPTCHA_REJECT. */
  captcha_reject: string
  /** Shown for failed_precondition whose detail reason is LAST_SIGN_IN_METHOD (unbinding or moving the account's only way in). */
  last_sign_in_method: string
  /** The start of the fallback text; the error and its description follow in brackets. */
  default: string
}

/** One locale's error texts: one per catalogue reason, plus the special texts. */
export type MessageTable = Readonly<Record<ErrorReason, string> & SpecialMessages>
