import { ANONYMOUS_SUB_PREFIX, classifyUsername } from '@cumulus/protocol'

export { classifyUsername, type UsernameKind } from '@cumulus/protocol'

/** The captcha `meta` for a sign-in: the username under the key of its kind. */
export function usernameMeta(username: string): Record<string, string> {
  return { [classifyUsername(username)]: username }
}

/** Minimum length of an anonymous sub: the spec says "longer than 5 characters". */
const ANONYMOUS_SUB_MIN_LENGTH = 6

/** Spec 4: an anonymous account's sub starts with the fixed prefix and is longer than 5 characters. */
export function isAnonymousSub(sub: string | null | undefined): boolean {
  return typeof sub === 'string' && sub.length >= ANONYMOUS_SUB_MIN_LENGTH && sub.startsWith(ANONYMOUS_SUB_PREFIX)
}
