import type { Readable, Writable } from 'node:stream'

/**
 * How an upload body (a PATCH's, a creation-with-upload's) ends where it is when the server
 * closes: pipes `body` into `into` until the body ends or `stop` aborts. On abort, what `body` has
 * already received (and buffered) still goes through, then `into` ends there and `body` stays
 * paused. Returns a function telling whether the body was cut short that way.
 */
export function pipeUntil(body: Readable, into: Writable, stop: AbortSignal): () => boolean {
  let cut = false
  const cutHere = () => {
    if (body.readableEnded || into.writableEnded) return
    cut = true
    body.unpipe(into)
    body.pause()
    for (let chunk: Buffer | null = body.read(); chunk !== null; chunk = body.read()) into.write(chunk)
    into.end()
  }
  if (stop.aborted) {
    cutHere()
  } else {
    body.pipe(into)
    stop.addEventListener('abort', cutHere, { once: true })
    into.once('close', () => stop.removeEventListener('abort', cutHere))
  }
  return () => cut
}

/**
 * Reads the rest of a request body nobody will read, to nowhere, as Node does with any body left
 * unread (its own drain skips a request once it has been piped somewhere): a body left paused
 * keeps its keep-alive connection from carrying another request. Not once the server is closing
 * (`stop` aborted): that connection closes anyway.
 */
export function drainUnread(body: Readable, stop: AbortSignal): void {
  if (body.readableEnded || body.destroyed || stop.aborted) return
  body.unpipe()
  body.resume()
}
