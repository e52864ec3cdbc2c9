/**
 * The proof that a share's pass code was given (`pass_code_token`), kept for this tab only
 * (sessionStorage): a reload, or the trip through the login page to save the share, opens the
 * share again without asking for the code, and closing the tab forgets it.
 */
const KEY_PREFIX = 'cumulus:share-pass-code-token:'

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage
  } catch {
    // Storage turned off (some private modes): the code is simply asked for again.
    return null
  }
}

/** The token kept for `shareId`, or undefined. */
export function findPassCodeToken(shareId: string): string | undefined {
  return storage()?.getItem(KEY_PREFIX + shareId) || undefined
}

export function keepPassCodeToken(shareId: string, token: string): void {
  try {
    storage()?.setItem(KEY_PREFIX + shareId, token)
  } catch {
    // A full storage only costs asking for the code again.
  }
}

export function forgetPassCodeToken(shareId: string): void {
  storage()?.removeItem(KEY_PREFIX + shareId)
}
