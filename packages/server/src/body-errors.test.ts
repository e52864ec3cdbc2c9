import { randomInt } from 'node:crypto'
import { DriveErrors, HttpErrors, TUS_VERSION, WEB_CLIENT_ID } from '@cumulus/protocol'
import fc from 'fast-check'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectCatalogueError } from '../../../test-support/catalogue-error.js'
import { type TestEnvironment, testEnvironment } from '../test/test-env.js'
import { loadConfig } from './config.js'
import { type CumulusServer, buildServer } from './server.js'

// Issue 11, "Close the holes that an attack run found": in the composed server too, a JSON body
// over the limit (FST_ERR_CTP_BODY_TOO_LARGE) and a Content-Type Fastify cannot parse
// (FST_ERR_CTP_INVALID_MEDIA_TYPE) answered invalid_argument (400), on identity and drive routes
// alike. They now keep HTTP's status, 413 and 415, in the catalogue's shape with each service's
// domain; a tus route answers the tus 415 with Tus-Resumable.

/** Largest JSON body (identity's MAX_JSON_BODY_BYTES, which the composed server uses for every JSON route). */
const BODY_LIMIT_BYTES = 256 * 1024
const MALFORMED_CONTENT_TYPES = ['garbage', ';;;', 'application/', '', '/json', 'a b/c']
const PARSED_CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/x-www-form-urlencoded', 'text/plain', 'application/octet-stream', 'image/png', 'multipart/form-data; boundary=x']

const ROUTES = [
  ['POST', '/v1/shield/captcha/init', 'identity'],
  ['POST', '/v1/auth/signin', 'identity'],
  ['PATCH', '/v1/user/profile', 'identity'],
  ['POST', '/drive/v1/files', 'drive'],
  ['POST', '/drive/v1/files:batchTrash', 'drive'],
  ['PATCH', '/drive/v1/files/trash:empty', 'drive'],
] as const

function expectCatalogueShape(res: LightMyRequestResponse, domain: string, context: string) {
  expect(res.statusCode, context).toBeGreaterThanOrEqual(400)
  expect(res.statusCode, context).toBeLessThan(500)
  return expectCatalogueError({ status: res.statusCode, contentType: res.headers['content-type'], text: res.body }, domain, context)
}

describe('body errors in the composed server', () => {
  let environment: TestEnvironment
  let server: CumulusServer
  let bearer: string
  beforeAll(async () => {
    environment = await testEnvironment({ PUBLIC_URL: 'http://127.0.0.1:3000', CAPTCHA_MODE: 'off' })
    server = await buildServer(loadConfig(environment.env), { web: false, housekeeping: false })
    // Its own loopback address: anonymous sign-ups are limited per IP, in the Redis runs share.
    const remoteAddress = `127.${randomInt(256)}.${randomInt(256)}.${1 + randomInt(254)}`
    const signUp = await server.app.inject({ method: 'POST', url: '/v1/auth/signup/anonymously', payload: { client_id: WEB_CLIENT_ID }, remoteAddress })
    expect(signUp.statusCode, signUp.body).toBe(200)
    bearer = signUp.json().access_token
  })
  afterAll(async () => {
    await server?.close()
    await environment?.cleanup()
  })

  const send = (method: string, url: string, contentType: string | undefined, payload: string | Buffer, headers: Record<string, string> = {}) =>
    server.app.inject({
      method: method as 'POST',
      url,
      headers: { 'x-client-id': WEB_CLIENT_ID, authorization: `Bearer ${bearer}`, ...(contentType === undefined ? {} : { 'content-type': contentType }), ...headers },
      payload,
    })

  it.each(ROUTES)('%s %s: a JSON body over the limit is request_body_too_large (413)', async (method, url, domain) => {
    const res = await send(method, url, 'application/json', JSON.stringify({ name: 'n'.repeat(BODY_LIMIT_BYTES), client_id: WEB_CLIENT_ID }))
    expect(res.statusCode).toBe(413)
    expect(expectCatalogueShape(res, domain, `${method} ${url}`)).toMatchObject({ error: HttpErrors.request_body_too_large.reason, error_code: HttpErrors.request_body_too_large.code })
  })

  it.each(ROUTES)('%s %s: an unparseable Content-Type is unsupported_media_type (415)', async (method, url, domain) => {
    const res = await send(method, url, 'garbage', '{}')
    expect(res.statusCode).toBe(415)
    expect(expectCatalogueShape(res, domain, `${method} ${url}`)).toMatchObject({ error: HttpErrors.unsupported_media_type.reason, error_code: HttpErrors.unsupported_media_type.code })
  })

  it('a tus PATCH with an unparseable Content-Type gets the tus 415, with Tus-Resumable', async () => {
    const created = await send('POST', '/drive/v1/files', 'application/json', JSON.stringify({ kind: 'drive#file', name: 'a.bin', size: 10, upload_type: 'UPLOAD_TYPE_RESUMABLE', resumable: { provider: 'PROVIDER_TUS' } }))
    expect(created.statusCode, created.body).toBe(200)
    const endpoint = new URL(created.json().resumable.params.endpoint).pathname
    const res = await send('PATCH', endpoint, ';;;', Buffer.alloc(10), { 'tus-resumable': TUS_VERSION, 'upload-offset': '0' })
    expect(res.headers['tus-resumable']).toBe(TUS_VERSION)
    expect(expectCatalogueShape(res, 'drive', 'tus PATCH')).toMatchObject({ error: DriveErrors.upload_content_type_invalid.reason })
  })

  it('answers random oversized and odd bodies under any content type with the catalogue shape, never a 5xx', async () => {
    const oversized = fc.tuple(fc.integer({ min: 1, max: 32 * 1024 }), fc.constantFrom('json', 'form', 'raw')).map(([extra, shape]) => {
      const size = BODY_LIMIT_BYTES + extra
      if (shape === 'json') return { oversized: true, payload: `{"ids":["${'i'.repeat(size)}"]}` }
      if (shape === 'form') return { oversized: true, payload: `name=${'n'.repeat(size)}` }
      return { oversized: true, payload: 'z'.repeat(size) }
    })
    const odd = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.jsonValue().map((v) => JSON.stringify(v) ?? ''), fc.constantFrom('', '{', '[]', 'null', '{"ids":[1]}')).map((payload) => ({ oversized: false, payload }))
    const contentType = fc.oneof(
      fc.constantFrom(...PARSED_CONTENT_TYPES).map((value) => ({ value, malformed: false })),
      fc.constantFrom(...MALFORMED_CONTENT_TYPES).map((value) => ({ value, malformed: true })),
    )
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), fc.oneof(oversized, odd), contentType, async ([method, url, domain], body, type) => {
        const res = await send(method, url, type.value, body.payload)
        const context = `${method} ${url} [${JSON.stringify(type.value)}, ${body.payload.length} chars] -> ${res.statusCode} ${res.body.slice(0, 200)}`
        expect(res.statusCode, context).toBeLessThan(500)
        // The odd bodies some routes accept (an empty trash, a batch of nothing) are no errors.
        if (res.statusCode < 400) return
        expectCatalogueShape(res, domain, context)
        if (type.malformed) expect(res.json().error, context).toBe(HttpErrors.unsupported_media_type.reason)
        else if (body.oversized) expect(res.json().error, context).toBe(HttpErrors.request_body_too_large.reason)
      }),
      { numRuns: 60 },
    )
  })
})
