import fc from 'fast-check'

/**
 * Pieces an attacker strings together to make a path or URL that a naive check reads as ours
 * while a browser goes elsewhere: doubled and mixed slashes, their percent-encodings (once and
 * twice), tabs and newlines (which the URL parser drops), the Unicode look-alikes of `/`
 * (U+2044 fraction slash, U+2215 division slash, U+FF0F fullwidth solidus, U+29F8 big solidus),
 * userinfo `@`, schemes, dot segments, and a foreign host name.
 */
const PIECES = [
  '/', '//', '\\', '/\\', '\\/', '%2f', '%2F', '%5c', '%5C', '%252f', '%255c', '\t', '\n', '\r', '%09', '%0a', '%0d', '%00',
  '\u2044', '\u2215', '\uFF0F', '\u29F8', '%E2%81%84', '%EF%BC%8F', '@', '%40', ':', '.', '..', '/./', '/../', '?', '#', ' ',
  'evil.example', 'evil.example:8080', 'user:pass@evil.example', 'http:', 'https:', 'javascript:alert(1)', '//evil.example', '/\\evil.example',
]

/** A string of hostile pieces (and some plain text), as found after a path prefix. */
export const hostileFragment: fc.Arbitrary<string> = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }), { minLength: 1, maxLength: 8 })
  .map((parts) => parts.join(''))

/** A hostile path: `/` followed by hostile pieces (`//evil.example`, `/%5c%5cevil.example`, …). */
export const hostilePath: fc.Arbitrary<string> = hostileFragment.map((rest) => `/${rest}`)

/** A hostile redirect value: a path, a protocol-relative or absolute URL, or anything. */
export const hostileRedirect: fc.Arbitrary<string> = fc.oneof(hostilePath, hostileFragment, fc.webUrl(), fc.string())

/**
 * Whether `location`, as a browser resolves it against `origin`, stays on `origin`. A Location
 * the URL parser cannot read at all counts as leaving.
 */
export function staysOnOrigin(location: string, origin: string): boolean {
  try {
    return new URL(location, origin).origin === new URL(origin).origin
  } catch {
    return false
  }
}
