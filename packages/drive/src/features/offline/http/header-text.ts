const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/** `bytes` as UTF-8 text, or null when they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes)
  } catch {
    return null
  }
}

/**
 * A header value as the server meant it. Node hands header values over as Latin-1, one
 * character per byte, and servers send raw UTF-8 in Content-Disposition names and Location
 * URLs; when the bytes are valid UTF-8 with something beyond ASCII, that is what they meant
 * (browsers read them the same way).
 */
export function utf8HeaderValue(value: string): string {
  if (!/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value
  return decodeUtf8(Buffer.from(value, 'latin1')) ?? value
}
