/**
 * An uploaded HTML or SVG file is served from our own origin: it must never run script there or
 * load anything. `sandbox` gives the document an opaque origin with scripts disabled; media and
 * inline styles stay allowed so previews of media and plain pages still render. Every route that
 * serves a file's content (the owner's links, a share's links) sends it.
 */
export const CONTENT_SECURITY_POLICY = "default-src 'none'; media-src 'self'; style-src 'unsafe-inline'; sandbox"

/** The Content-Type a file is served with: its MIME type, text in UTF-8. */
export function contentTypeOf(mimeType: string): string {
  const type = mimeType || 'application/octet-stream'
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type
}
