/**
 * `Content-Disposition` with the file's UTF-8 name (RFC 6266): an ASCII `filename` for old
 * clients, with every other character replaced, and the exact name in `filename*` (RFC 8187).
 */
export function contentDisposition(disposition: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_')
  // encodeURIComponent leaves ' ( ) * unescaped; RFC 8187's attr-char does not allow them.
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`
}
