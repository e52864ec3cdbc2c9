/** The letters and digits of a device's user code (RFC 8628 6.1: shown as two groups of four). */
export const USER_CODE_LENGTH = 8

/**
 * A user code as typed, in the form the server issues: `wdjb mjht`, `WDJBMJHT` and `wdjb-mjht`
 * all read `WDJB-MJHT` (RFC 8628 6.1: case and punctuation are not significant). Null when it
 * does not have exactly eight letters or digits.
 */
export function normalizeUserCode(typed: string): string | null {
  const characters = typed.toUpperCase().replace(/[^A-Z0-9]/g, '')
  if (characters.length !== USER_CODE_LENGTH) return null
  return `${characters.slice(0, 4)}-${characters.slice(4)}`
}

/** Why a typed code cannot be sent (an `oauth.device.*` message key), or null. */
export function checkUserCode(typed: string): 'oauth.device.codeRequired' | 'oauth.device.codeInvalid' | null {
  if (typed.trim() === '') return 'oauth.device.codeRequired'
  return normalizeUserCode(typed) === null ? 'oauth.device.codeInvalid' : null
}
