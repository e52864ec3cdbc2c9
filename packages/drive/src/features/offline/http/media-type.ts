/** Longest media type kept (RFC 6838 caps each half at 127 characters). */
const MAX_MEDIA_TYPE_LENGTH = 255
/** type "/" subtype, each a restricted-name (RFC 6838 4.2). */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/

/**
 * The media type a Content-Type header names, lower-cased and without parameters
 * ("text/plain; charset=utf-8" → "text/plain"), or null when there is none or it is not a
 * well-formed type: the server's word is stored and shown, so nothing else gets through.
 */
export function mediaTypeOf(contentType: string | undefined): string | null {
  if (contentType === undefined) return null
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase()
  return type.length <= MAX_MEDIA_TYPE_LENGTH && MEDIA_TYPE.test(type) ? type : null
}
