import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { HttpErrors, GenericErrors } from '@cumulus/protocol'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectCatalogueError } from '../../../test-support/catalogue-error.js'
import { type TestEnvironment, testEnvironment } from '../test/test-env.js'
import { loadConfig } from './config.js'
import { type CumulusServer, buildServer } from './server.js'

// Issue 11, "Errors outside the catalogue's shape": requests Node's parser refuses never reach
// Fastify's routing, and Fastify's default clientErrorHandler answered them in its own shape:
// 20 KB of headers got `{"error":"Request Header Fields Too Large","message":…,"statusCode":431}`,
// `Content-Length: abc` got `{"error":"Bad Request","message":"Client Error","statusCode":400}`.
// These tests speak raw HTTP over a real socket on 127.0.0.1, as an attacker would.

interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/** Writes `raw`, half-closes, and collects every byte until the server closes. */
function exchange(port: number, raw: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = connect({ host: '127.0.0.1', port }, () => socket.end(raw))
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve(Buffer.concat(chunks)) : reject(error)))
    socket.on('close', () => resolve(Buffer.concat(chunks)))
  })
}

/** The first response in `bytes`, or null when the server sent nothing. */
function firstResponse(bytes: Buffer): RawResponse | null {
  if (bytes.length === 0) return null
  const text = bytes.toString('utf8')
  const end = text.indexOf('\r\n\r\n')
  expect(end, text.slice(0, 300)).toBeGreaterThan(0)
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1])
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  let rest = bytes.subarray(Buffer.byteLength(text.slice(0, end + 4)))
  let body: Buffer
  if (headers['transfer-encoding'] === 'chunked') {
    const parts: Buffer[] = []
    for (;;) {
      const lineEnd = rest.indexOf('\r\n')
      const size = parseInt(rest.subarray(0, lineEnd).toString(), 16)
      if (!size) break
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size))
      rest = rest.subarray(lineEnd + 2 + size + 2)
    }
    body = Buffer.concat(parts)
  } else {
    body = rest.subarray(0, Number(headers['content-length'] ?? rest.length))
  }
  return { status, headers, body: body.toString('utf8') }
}


/** Identity or drive, whichever route the raw request aimed at. */
const DOMAINS = /^(identity|drive)$/
const asReply = (response: RawResponse) => ({ status: response.status, contentType: response.headers['content-type'], text: response.body })

describe('raw requests over a socket', () => {
  let environment: TestEnvironment
  let server: CumulusServer
  let port: number
  beforeAll(async () => {
    environment = await testEnvironment()
    server = await buildServer(loadConfig(environment.env), { housekeeping: false })
    await server.app.listen({ host: '127.0.0.1', port: 0 })
    port = (server.app.server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await server?.close()
    await environment?.cleanup()
  })

  const send = async (raw: string | Buffer) => firstResponse(await exchange(port, Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'latin1')))

  it('answers 20 KB of headers with request_header_too_large (431) in the catalogue shape', async () => {
    const response = await send(`GET /v1/user/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(20 * 1024)}\r\n\r\n`)
    expect(response?.status).toBe(HttpErrors.request_header_too_large.status)
    expectCatalogueError(asReply(response!), DOMAINS, '431')
    expect(JSON.parse(response!.body)).toMatchObject({ error: HttpErrors.request_header_too_large.reason, details: [{}, { locale: 'en-US' }] })
    expect(response!.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('answers a malformed request (Content-Length: abc) with invalid_argument (400) in the catalogue shape', async () => {
    const response = await send('POST /drive/v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n{}')
    expect(response?.status).toBe(GenericErrors.invalid_argument.status)
    expectCatalogueError(asReply(response!), DOMAINS, 'content-length')
    expect(JSON.parse(response!.body).details[0].domain).toBe('drive')
  })

  // Issue 11: Fastify's body errors answered invalid_argument (400) here too.
  it('answers a body over the limit with request_body_too_large (413) and closes the connection, whether announced or streamed', async () => {
    const oversized = `{"client_id":"cumulus-web","username":"${'a'.repeat(256 * 1024)}"}`
    const announced = await send(`POST /v1/auth/signin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${oversized.length}\r\n\r\n${oversized}`)
    const chunk = (text: string) => `${text.length.toString(16)}\r\n${text}\r\n`
    const streamed = await send(`POST /drive/v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk(oversized.slice(0, 1000))}${chunk(oversized.slice(1000))}0\r\n\r\n`)
    for (const [response, domain] of [[announced, 'identity'], [streamed, 'drive']] as const) {
      expect(response?.status).toBe(HttpErrors.request_body_too_large.status)
      expectCatalogueError(asReply(response!), DOMAINS, domain)
      expect(JSON.parse(response!.body)).toMatchObject({ error: HttpErrors.request_body_too_large.reason, details: [{ domain }, {}] })
      expect(response!.headers['connection']).toBe('close')
    }
  })

  it('answers a Content-Type that cannot be parsed with unsupported_media_type (415)', async () => {
    const response = await send('POST /v1/shield/captcha/init HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ;;;\r\nContent-Length: 2\r\n\r\n{}')
    expect(response?.status).toBe(HttpErrors.unsupported_media_type.status)
    expectCatalogueError(asReply(response!), DOMAINS, '415')
    expect(JSON.parse(response!.body).error).toBe(HttpErrors.unsupported_media_type.reason)
  })

  // Found by the property below (seed -293751696): the web app read `*` as the path `/*` and
  // answered its HTML 404 page.
  it('answers the asterisk-form target of anything but OPTIONS with invalid_argument (400)', async () => {
    for (const host of ['127.0.0.1', '!']) {
      const response = await send(`GET * HTTP/1.1\r\nHost: ${host}\r\n\r\n`)
      expect(response?.status).toBe(400)
      expectCatalogueError(asReply(response!), DOMAINS, `GET * with Host ${host}`)
    }
  })

  it('answers every hostile raw request with the catalogue shape whenever it is an error', async () => {
    const token = fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'G\u0000T', '', 'GET GET', 'get', 'PRI')
    const path = fc.oneof(
      fc.constantFrom('/v1/user/me', '/v1/auth/signin', '/v1/auth/token', '/drive/v1/files', '/drive/v1/uploads', '/drive/v1/uploads/Vx', '/drive/v1/content/x', '/v1/shield/captcha/init', '/.well-known/jwks.json', '/v1/%', '/drive/v1/%zz', '*', 'http://evil.example/v1/user/me', '/v1/\u0000', '/v1/ a'),
      fc.string({ maxLength: 30 }).map((s) => `/v1/${s}`),
    )
    const version = fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1x', '', 'HTTP/9')
    const headerName = fc.constantFrom('Host', 'Content-Length', 'Transfer-Encoding', 'Content-Type', 'Tus-Resumable', 'Upload-Offset', 'Authorization', 'Accept-Language', 'X-Request-Id', 'Bad Header', 'X\u0000Y', '')
    const headerValue = fc.oneof(
      fc.constantFrom('abc', '-1', '99999999999999999999', 'chunked', 'chunked, chunked', 'gzip', 'application/json', 'application/offset+octet-stream', 'Bearer x', 'ko', '1.0.0', '\u0000', '\u00ff\u00fe', ''),
      fc.nat({ max: 24 * 1024 }).map((n) => 'h'.repeat(n)),
      fc.string({ maxLength: 40 }),
    )
    const headers = fc.array(fc.tuple(headerName, headerValue), { maxLength: 6 })
    const body = fc.oneof(fc.constant(''), fc.string({ maxLength: 64 }), fc.constantFrom('{', '{"client_id":1}', '0\r\n\r\n', 'zz\r\nabc\r\n0\r\n\r\n'))
    const lineEnd = fc.constantFrom('\r\n', '\n', '\r')
    await fc.assert(
      fc.asyncProperty(token, path, version, headers, body, lineEnd, async (method, target, http, fields, payload, eol) => {
        const head = [`${method} ${target} ${http}`.trimEnd(), ...fields.map(([name, value]) => `${name}: ${value}`)].join(eol)
        const raw = Buffer.from(`${head}${eol}${eol}${payload}`, 'utf8')
        const response = await send(raw)
        const context = JSON.stringify(raw.toString('utf8').slice(0, 300))
        // A connection that closed without a reply (a body promised but never sent) is not an answer.
        if (response === null || response.status < 400) return
        // Every answer to these API paths, and to what could not be parsed at all, is the catalogue's.
        expectCatalogueError(asReply(response), DOMAINS, context)
      }),
      { numRuns: 150 },
    )
  })
})
