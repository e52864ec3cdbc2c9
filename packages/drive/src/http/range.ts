/**
 * The one byte range of a `Range` header this server serves (RFC 9110 §14). A header it does not
 * understand (another unit, bad syntax) or asks for several ranges is ignored and the whole
 * content is sent, as the RFC allows; only a well-formed range that misses the content is
 * unsatisfiable (416).
 */
export type ByteRange = { kind: 'whole' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' }

const WHOLE: ByteRange = { kind: 'whole' }
const SPEC = /^(\d*)-(\d*)$/

export function parseRange(header: string | undefined, sizeBytes: number): ByteRange {
  if (header === undefined) return WHOLE
  const match = /^\s*bytes\s*=(.*)$/i.exec(header)
  if (!match) return WHOLE
  const specs = (match[1] ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')
  if (specs.length !== 1) return WHOLE
  const parts = SPEC.exec(specs[0] ?? '')
  if (!parts) return WHOLE
  const [, first = '', last = ''] = parts
  // An empty file has no bytes to select: send it (empty) whole rather than a 416.
  if (sizeBytes === 0) return WHOLE
  if (first === '') {
    if (last === '') return WHOLE
    const suffix = Number(last)
    if (suffix === 0) return { kind: 'unsatisfiable' }
    return { kind: 'partial', start: Math.max(0, sizeBytes - suffix), end: sizeBytes - 1 }
  }
  const start = Number(first)
  // "5-1" is not a range at all (ignored), "10000-" on 10,000 bytes is one that misses (416).
  if (last !== '' && Number(last) < start) return WHOLE
  if (start >= sizeBytes) return { kind: 'unsatisfiable' }
  return { kind: 'partial', start, end: last === '' ? sizeBytes - 1 : Math.min(Number(last), sizeBytes - 1) }
}

/** Whether an `If-None-Match` list names `etag` (weak comparison, RFC 9110 §13.1.2). */
export function matchesAnyEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  const bare = (tag: string) => tag.trim().replace(/^W\//, '')
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag))
}
