import type { SendVerificationInput } from '@cumulus/sdk'
import type { ContactKind } from './contact-switch'
import type { SentCode } from './use-verification'

type Usage = SendVerificationInput['usage']

/**
 * The last code sent from this tab for each use (sign-up, sign-in, password reset), kept in the
 * tab's sessionStorage until it expires or is used, so that reloading the page does not lose it:
 * the server sends one code per address per minute, and without the code's id the one in the
 * user's inbox could not be entered. The id alone proves nothing (the code is needed with it),
 * and sessionStorage is this tab's and this origin's only.
 */
const KEY_PREFIX = 'cumulus.sentCode.'
/** No code lives longer (the server's are minutes); a kept entry claiming more is not believed. */
const MAX_LIFETIME_MS = 24 * 60 * 60 * 1000

interface Kept {
  kind: ContactKind
  code: SentCode
}

export function keepSentCode(usage: Usage, kind: ContactKind, code: SentCode): void {
  try {
    window.sessionStorage.setItem(KEY_PREFIX + usage, JSON.stringify({ kind, code }))
  } catch {
    // Storage refused (private mode, quota): the code lives as long as the page, as before.
  }
}

export function forgetSentCode(usage: Usage): void {
  try {
    window.sessionStorage.removeItem(KEY_PREFIX + usage)
  } catch {
    // Nothing kept, or no storage: nothing to forget.
  }
}

/** The code kept for `usage` while it is still valid at `nowMs`; null when none, expired or unreadable. */
export function keptSentCode(usage: Usage, nowMs: number): Kept | null {
  let raw: string | null
  try {
    raw = window.sessionStorage.getItem(KEY_PREFIX + usage)
  } catch {
    return null
  }
  const kept = parseKept(raw, nowMs)
  if (!kept && raw !== null) forgetSentCode(usage)
  return kept
}

/** A kept entry as written by keepSentCode, checked field by field (storage is the user's to edit). */
export function parseKept(raw: string | null, nowMs: number): Kept | null {
  if (raw === null) return null
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return null
  }
  if (!value || typeof value !== 'object') return null
  const { kind, code } = value as { kind?: unknown; code?: Partial<Record<keyof SentCode, unknown>> }
  if ((kind !== 'email' && kind !== 'phone') || !code || typeof code !== 'object') return null
  const { address, verificationId, expiresAtMs, resendAtMs } = code
  if (typeof address !== 'string' || address === '' || address.length > 320 || typeof verificationId !== 'string' || verificationId === '' || verificationId.length > 256) return null
  if (typeof expiresAtMs !== 'number' || typeof resendAtMs !== 'number' || !Number.isFinite(expiresAtMs) || !Number.isFinite(resendAtMs)) return null
  if (expiresAtMs <= nowMs || expiresAtMs > nowMs + MAX_LIFETIME_MS) return null
  return { kind, code: { address, verificationId, expiresAtMs, resendAtMs: Math.min(resendAtMs, expiresAtMs) } }
}
