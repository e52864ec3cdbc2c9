import { checkPassword, checkPasswordConfirmation, checkPasswordEntered, type PatternMessageKey } from '../../forms/patterns'

/**
 * The account page's checks that the shared pattern check (app/forms/patterns.ts) has no rule
 * for. Each returns null when the value is fine, else the key of the message to show.
 */
export type AccountCheckKey =
  | 'accountHome.checks.emailSame'
  | 'accountHome.checks.phoneSame'
  | 'accountHome.checks.passwordUnchanged'
  | 'accountHome.checks.nameRequired'
  | 'accountHome.checks.nameTooLong'

/** The server's limit on display names (identity sign-up `cleanName`: 1 to 64 characters). */
export const NAME_MAX_LENGTH = 64

/** A display name as the server cleans it: control characters dropped, trimmed, 1 to 64 code points. */
export function checkName(name: string): AccountCheckKey | null {
  const clean = cleanDisplayName(name)
  if (clean === '') return 'accountHome.checks.nameRequired'
  if ([...clean].length > NAME_MAX_LENGTH) return 'accountHome.checks.nameTooLong'
  return null
}

export function cleanDisplayName(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f]/g, '').trim()
}

/** The new address is the one already bound (e-mail compared case-insensitively, as the server stores it). */
export function checkNewContact(kind: 'email' | 'phone', next: string, current: string): AccountCheckKey | null {
  if (current === '') return null
  if (kind === 'email') return next.trim().toLowerCase() === current.toLowerCase() ? 'accountHome.checks.emailSame' : null
  return next === current ? 'accountHome.checks.phoneSame' : null
}

/** A new password equal to the current one changes nothing (and ends the other sessions for nothing). */
export function checkPasswordChanged(current: string, next: string): AccountCheckKey | null {
  return current !== '' && current === next ? 'accountHome.checks.passwordUnchanged' : null
}

export interface PasswordChangeInput {
  current: string
  next: string
  confirm: string
}

/** The first problem of the change-password form, with the field to point at; null when it may be sent. */
export function checkPasswordChange(input: PasswordChangeInput): { field: keyof PasswordChangeInput; key: PatternMessageKey | AccountCheckKey } | null {
  const current = checkPasswordEntered(input.current)
  if (current) return { field: 'current', key: current }
  const next = checkPassword(input.next) ?? checkPasswordChanged(input.current, input.next)
  if (next) return { field: 'next', key: next }
  const confirm = checkPasswordConfirmation(input.next, input.confirm)
  if (confirm) return { field: 'confirm', key: confirm }
  return null
}
