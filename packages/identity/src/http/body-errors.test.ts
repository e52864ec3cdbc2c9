import { HttpErrors, messageForReason } from '@cumulus/protocol'
import fc from 'fast-check'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectCatalogueError } from '../../../../test-support/catalogue-error.js'
import { type TestApp, buildTestApp } from '../../test/test-app.js'
import { MAX_JSON_BODY_BYTES } from './body-parsers.js'

// Issue 11, "Close the holes that an attack run found": Fastify's own body errors reached the
// error handler as plain 4xx errors and were all rendered as invalid_argument (400). A JSON body
// over the limit (FST_ERR_CTP_BODY_TOO_LARGE) answered 400 where HTTP says 413, and a Content-Type
// that cannot be parsed (FST_ERR_CTP_INVALID_MEDIA_TYPE) 400 where HTTP says 415.

/** Content types Fastify cannot parse at all: FST_ERR_CTP_INVALID_MEDIA_TYPE. */
const MALFORMED_CONTENT_TYPES = ['garbage', ';;;', 'application/', '', '/json', 'a b/c', 'text/ plain']
/** Content types the lenient parsers take (identity.md: JSON under a wrong type is accepted). */
const PARSED_CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/x-www-form-urlencoded', 'text/plain', 'application/octet-stream', 'image/png', 'multipart/form-data; boundary=x', '*/*', 'x/y']

/** A few body-taking routes, public and authenticated: the body is read before any pre-handler runs. */
const ROUTES = [
  ['POST', '/v1/shield/captcha/init'],
  ['POST', '/v1/auth/signin'],
  ['POST', '/v1/auth/token'],
  ['POST', '/v1/auth/verification'],
  ['PATCH', '/v1/user/profile'],
  ['DELETE', '/v1/user/me'],
] as const

function expectCatalogueShape(res: LightMyRequestResponse, context: string) {
  expect(res.statusCode, context).toBeGreaterThanOrEqual(400)
  expect(res.statusCode, context).toBeLessThan(500)
  return expectCatalogueError({ status: res.statusCode, contentType: res.headers['content-type'], text: res.body }, 'identity', context)
}

describe('body errors in the catalogue shape', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp()
  })
  afterAll(async () => {
    await t?.close()
  })

  const send = (method: string, url: string, contentType: string | undefined, payload: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: method as 'POST', url, headers: { 'x-client-id': 'cumulus-web', ...(contentType === undefined ? {} : { 'content-type': contentType }), ...headers }, payload })

  it('answers a JSON body over the limit with request_body_too_large (413), in the caller\'s language', async () => {
    const body = JSON.stringify({ client_id: 'cumulus-web', action: 'POST:/v1/auth/signin', meta: { username: 'a'.repeat(MAX_JSON_BODY_BYTES) } })
    const res = await send('POST', '/v1/shield/captcha/init', 'application/json', body, { 'accept-language': 'ko' })
    expect(res.statusCode).toBe(413)
    expect(expectCatalogueShape(res, 'oversized JSON')).toMatchObject({
      error: HttpErrors.request_body_too_large.reason,
      error_code: HttpErrors.request_body_too_large.code,
      details: [{ reason: 'REQUEST_BODY_TOO_LARGE' }, { locale: 'ko', message: messageForReason('request_body_too_large', 'ko') }],
    })
  })

  it('answers a body over the limit before authentication (413, not 401)', async () => {
    const res = await send('PATCH', '/v1/user/profile', 'application/json', JSON.stringify({ name: 'n'.repeat(MAX_JSON_BODY_BYTES) }))
    expect(expectCatalogueShape(res, 'oversized profile').error).toBe(HttpErrors.request_body_too_large.reason)
  })

  it.each(MALFORMED_CONTENT_TYPES)('answers the Content-Type %j with unsupported_media_type (415)', async (contentType) => {
    const res = await send('POST', '/v1/auth/signin', contentType, '{"client_id":"cumulus-web"}')
    expect(res.statusCode).toBe(415)
    expect(expectCatalogueShape(res, contentType)).toMatchObject({ error: HttpErrors.unsupported_media_type.reason, error_code: HttpErrors.unsupported_media_type.code })
  })

  it('answers random oversized and odd bodies under any content type with the catalogue shape, never a 5xx', async () => {
    const oversized = fc.tuple(fc.integer({ min: 1, max: 32 * 1024 }), fc.constantFrom('json', 'form', 'raw', 'binary')).map(([extra, shape]) => {
      const size = MAX_JSON_BODY_BYTES + extra
      if (shape === 'json') return { oversized: true, payload: `{"client_id":"cumulus-web","username":"${'u'.repeat(size)}"}` }
      if (shape === 'form') return { oversized: true, payload: `client_id=cumulus-web&password=${'p'.repeat(size)}` }
      if (shape === 'binary') return { oversized: true, payload: Buffer.alloc(size, 0xff).toString('latin1') }
      return { oversized: true, payload: 'z'.repeat(size) }
    })
    const odd = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.jsonValue().map((v) => JSON.stringify(v) ?? ''), fc.constantFrom('', '{', '[]', 'null', '\ufeff{}', '{"__proto__":{"x":1}}')).map((payload) => ({ oversized: false, payload }))
    const contentType = fc.oneof(
      fc.constantFrom(...PARSED_CONTENT_TYPES).map((value) => ({ value, malformed: false })),
      fc.constantFrom(...MALFORMED_CONTENT_TYPES).map((value) => ({ value, malformed: true })),
    )
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), fc.oneof(oversized, odd), contentType, async ([method, url], body, type) => {
        const res = await send(method, url, type.value, body.payload)
        const context = `${method} ${url} [${JSON.stringify(type.value)}, ${body.payload.length} chars] -> ${res.statusCode} ${res.body.slice(0, 200)}`
        expectCatalogueShape(res, context)
        // Fastify looks at the type before it reads a byte, then counts the bytes.
        if (type.malformed) expect(res.json().error, context).toBe(HttpErrors.unsupported_media_type.reason)
        else if (body.oversized) expect(res.json().error, context).toBe(HttpErrors.request_body_too_large.reason)
        else expect([413, 415], context).not.toContain(res.statusCode)
      }),
      { numRuns: 60 },
    )
  })
})
