/**
 * The one function every server-built redirect goes through (issue 11, "The web origin"): a
 * Location built from request input (a path, a `?redirect=` value) must never leave our origin.
 *
 * `target` is read as a browser reads a Location: a URL reference resolved against `origin`.
 * That is the point: `//evil.example`, `/\evil.example`, `https:evil.example` or a tab or newline
 * inside `//` are other hosts to a browser even though they start with a slash, so a string
 * check (`startsWith('/')`) is not enough. The WHATWG parser used here is the browser's own.
 */

/**
 * A Location that stays on `origin`: `target`'s path, query and fragment when `target`, resolved
 * against `origin`, lands on `origin`, else `fallback`. The result is always a path starting with
 * exactly one slash (a dot segment can turn `/.//evil.example` into `//evil.example`, so leading
 * slashes are collapsed), percent-encoded by the parser, so it cannot carry a CR, LF or another
 * host into the header.
 */
export function sameOriginLocation(target: string, origin: string, fallback = '/'): string {
  let base: URL
  let url: URL
  try {
    base = new URL(origin)
    url = new URL(target, base)
  } catch {
    return fallback
  }
  if (url.origin !== base.origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fallback
  return `${url.pathname.replace(/^\/+/, '/')}${url.search}${url.hash}`
}
