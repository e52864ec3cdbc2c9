/**
 * The kind of identifier a sign-in username is (spec 5), named as the wire names it: the captcha
 * `meta` key a client files it under, and the field it matches on the server.
 */
export type UsernameKind = 'phone_number' | 'email' | 'username'

/**
 * Spec 5: a leading `+` is a phone number, an `@` anywhere an e-mail address, anything else a
 * plain username. Surrounding spaces are ignored. The one rule clients (the SDK, the web app's
 * forms) and the identity service share; whether the value is then valid is each kind's own check.
 */
export function classifyUsername(username: string): UsernameKind {
  const trimmed = username.trim()
  if (trimmed.startsWith('+')) return 'phone_number'
  if (trimmed.includes('@')) return 'email'
  return 'username'
}
