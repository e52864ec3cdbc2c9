import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/** Largest body any identity or drive JSON call accepts. */
export const MAX_JSON_BODY_BYTES = 256 * 1024

/**
 * identity.md transport rules: accept JSON, form-urlencoded (OAuth clients send the token
 * grant that way), and a JSON body sent with a wrong Content-Type (an existing client labels
 * JSON as form-urlencoded). Non-JSON-looking bodies of unknown types parse as forms.
 */
export const bodyParsers = fp(
  async (app: FastifyInstance) => {
    const parseJson = app.getDefaultJsonParser('error', 'error')
    const parseLenient = (body: string, done: (err: Error | null, value?: unknown) => void) => {
      const trimmed = body.trim()
      if (trimmed === '') return done(null, {})
      if (trimmed.startsWith('{') || trimmed.startsWith('[')) return parseJson({} as never, trimmed, done)
      const out: Record<string, string | string[]> = Object.create(null)
      for (const [key, value] of new URLSearchParams(trimmed)) {
        if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue
        const existing = out[key]
        if (existing === undefined) out[key] = value
        else out[key] = Array.isArray(existing) ? [...existing, value] : [existing, value]
      }
      return done(null, { ...out })
    }
    // An empty JSON body reads as {}, so schema validation names the missing field.
    app.removeContentTypeParser(['application/json', 'text/plain'])
    app.addContentTypeParser(['application/json', 'application/x-www-form-urlencoded', 'text/plain'], { parseAs: 'string', bodyLimit: MAX_JSON_BODY_BYTES }, (_req, body, done) =>
      parseLenient(body as string, done),
    )
    app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_JSON_BODY_BYTES }, (_req, body, done) => parseLenient(body as string, done))
  },
  { fastify: '5.x', name: 'cumulus-body-parsers' },
)
