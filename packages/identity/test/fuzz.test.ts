import { GenericErrors, HttpErrors, OAuthErrors, findErrorByReason } from '@cumulus/protocol'
import fc from 'fast-check'
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseServerOptions, buildIdentityApp, identityRoutes } from '../src/app.js'
import type { IdentityConfig } from '../src/config.js'
import type { IdentityDeps } from '../src/deps.js'
import { startSession } from '../src/features/tokens/sessions.js'
import { httpKit } from '../src/http/http-kit.js'
import {
  type FuzzPayload,
  type HeaderChoices,
  MAX_BODY_BYTES,
  type RouteInfo,
  FUZZ_USER,
  LIVE_ACCESS_TOKEN,
  asciiWord,
  headersArb,
  hugeBody,
  jwtLike,
  methodArb,
  payloadFor,
  pathFor,
  queryFor,
  remoteAddressArb,
  routeInfo,
} from './arbitraries.js'
import { call, expectErrorReply, signUpByEmail } from './http.js'
import { type TestDeps, buildTestDeps } from './test-app.js'

/**
 * identity.md "Reliability and security rules" and style.md 6: every public endpoint, whatever
 * it is sent, answers with success or a contract-shaped 4xx error — never a 5xx, never Fastify's
 * own error JSON, never text/plain. Every route the app registers is fuzzed: the list is
 * collected with an onRoute hook, so a new route is fuzzed without touching this file.
 */

/** Runs per route and captcha mode; 2 modes x ~25 routes keeps each project well under a minute. */
const RUNS_PER_ROUTE = Number(process.env['FUZZ_RUNS'] ?? 60)
const RUNS_UNROUTED = Number(process.env['FUZZ_RUNS'] ?? 80)

interface RegisteredRoute {
  method: string
  url: string
  schema?: { body?: unknown; querystring?: unknown; params?: unknown }
}

/**
 * The identity app exactly as buildIdentityApp assembles it (same server options, http kit and
 * route plugin), with an onRoute hook in front so every route is seen with its schema. The test
 * below checks the real buildIdentityApp has the same route tree, so the two cannot drift apart.
 */
async function collectRoutes(deps: IdentityDeps): Promise<{ routes: RegisteredRoute[]; tree: string }> {
  const app = Fastify(baseServerOptions(deps)) as unknown as FastifyInstance
  const routes: RegisteredRoute[] = []
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url ?? route.path, schema: route.schema as RegisteredRoute['schema'] })
  })
  await app.register(httpKit, { corsOrigins: deps.config.corsOrigins, domain: 'identity' })
  await app.register(identityRoutes, { deps })
  await app.ready()
  const tree = app.printRoutes({ commonPrefix: false })
  await app.close()
  return { routes, tree }
}

const COLLECTED = await (async () => {
  const testDeps = await buildTestDeps()
  try {
    return await collectRoutes(testDeps.deps)
  } finally {
    await testDeps.close()
  }
})()
const ROUTES: RouteInfo[] = COLLECTED.routes.map(routeInfo).sort((a, b) => `${a.url} ${a.method}`.localeCompare(`${b.url} ${b.method}`))

// ---------------------------------------------------------------------------------------------
// The app under test, with its error log captured so a 5xx reports the server-side stack.

interface FuzzApp extends TestDeps {
  app: FastifyInstance
  mode: IdentityConfig['captcha']['mode']
  /** A live access token of a new session of FUZZ_USER (a real account with a password). */
  userBearer(): Promise<string>
  /** Error-level log lines of the request with this id (the server's stack for a 5xx). */
  serverErrors(requestId: string | undefined): string[]
}

/** The request id of a log line, under the configured label or Fastify's default one. */
function requestIdOfLine(line: string): unknown {
  const entry = JSON.parse(line) as { request_id?: unknown; reqId?: unknown }
  return entry.request_id ?? entry.reqId
}

async function buildFuzzApp(mode: IdentityConfig['captcha']['mode']): Promise<FuzzApp> {
  const testDeps = await buildTestDeps({ config: { captcha: { mode } } })
  const lines: { requestId: unknown; line: string }[] = []
  const logger = pino({ level: 'error' }, { write: (line: string) => lines.push({ requestId: requestIdOfLine(line), line }) })
  // The real buildIdentityApp, over the real deps with a logger that keeps errors.
  const app = await buildIdentityApp({ ...testDeps.deps, logger })
  await app.ready()
  const { sub } = await signUpByEmail({ ...testDeps, app }, FUZZ_USER.email, FUZZ_USER.password)
  const webClient = await testDeps.deps.clients.require('cumulus-web')
  return {
    ...testDeps,
    app,
    mode,
    // Straight from the session layer: fuzzed calls may lock the account out or change its password.
    userBearer: async () => (await startSession(testDeps.deps, { userId: sub, client: webClient, deviceId: '' })).access_token,
    serverErrors: (requestId) => lines.filter((l) => requestId === undefined || l.requestId === requestId).map((l) => l.line),
    async close() {
      await app.close()
      await testDeps.close()
    },
  }
}

let addressCounter = 0
/** A fresh caller address, so helper calls never trip a per-IP limit the fuzzed calls exercise. */
function freshAddress(): string {
  addressCounter++
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`
}

/** A live access token of a fresh anonymous user (fuzzed calls may revoke or break it). */
async function mintBearer(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v1/auth/signup/anonymously', remoteAddress: freshAddress(), payload: { client_id: 'cumulus-web' } })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().access_token
}

/** A captcha token for this route's action, for cumulus-web and the device the request names. */
async function mintCaptcha(app: FastifyInstance, route: RouteInfo, deviceId: string | undefined): Promise<string | undefined> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/shield/captcha/init',
    remoteAddress: freshAddress(),
    payload: { client_id: 'cumulus-web', action: `${route.method}:${route.url}`, ...(deviceId ? { device_id: deviceId } : {}) },
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().captcha_token
}

// ---------------------------------------------------------------------------------------------
// The contract

interface SentRequest {
  method: string
  url: string
  headers: Record<string, string>
  payload: FuzzPayload
  remoteAddress: string
}

function describeRequest(req: SentRequest): string {
  const payload = req.payload.payload === undefined ? '(none)' : String(req.payload.payload).slice(0, 300)
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, v.length > 80 ? `${v.slice(0, 80)}…(${v.length})` : v]))
  return `${req.method} ${req.url.slice(0, 300)} from ${req.remoteAddress}\n  body [${req.payload.kind}, ${req.payload.contentType ?? 'no content-type'}]: ${payload}\n  headers: ${JSON.stringify(headers)}`
}

/**
 * 2xx/3xx, or a 4xx whose body is exactly the contract's error (identity.md "Error body"), whose
 * code is a catalogue entry with that reason and status, with a request id on the reply.
 */
function expectContractReply(res: LightMyRequestResponse, req: SentRequest, fuzz: FuzzApp) {
  const where = () => {
    const log = res.statusCode >= 500 ? `\n  server error: ${serverStack(fuzz, res)}` : ''
    return `${describeRequest(req)}\n  -> ${res.statusCode} ${res.headers['content-type']} ${res.body.slice(0, 400)}${log}`
  }
  expect(res.statusCode, where()).toBeGreaterThanOrEqual(200)
  expect(res.statusCode, where()).toBeLessThan(500)
  expect(res.headers['x-request-id'], where()).toMatch(/^[A-Za-z0-9._:-]{1,128}$/)
  if (res.statusCode < 400) return
  expect(res.headers['content-type'], where()).toMatch(/^application\/json; charset=utf-8$/)
  if (req.method === 'HEAD') return
  let body: Record<string, unknown>
  try {
    body = res.json()
  } catch {
    throw new Error(`error reply is not JSON\n${where()}`)
  }
  expect(body, where()).toEqual({
    error: expect.any(String),
    error_code: expect.any(Number),
    error_description: expect.any(String),
    error_uri: expect.any(String),
    details: expect.any(Array),
  })
  // By reason: HTTP's own entries (413, 415) repeat a generic number, as the drive's do.
  const entry = findErrorByReason(body.error as string)
  expect(entry, where()).not.toBeNull()
  expect({ code: body.error_code, status: res.statusCode }, where()).toEqual({ code: entry!.code, status: entry!.status })
}

/** One fuzzed request: its path, query, body and headers, then the real tokens it asked for. */
async function send(fuzz: FuzzApp, method: string, route: RouteInfo | null, path: string, query: string, payload: FuzzPayload, choices: HeaderChoices, remoteAddress: string) {
  const headers = { ...choices.headers }
  if (route && choices.realBearer === 'anonymous') headers['authorization'] = `Bearer ${await mintBearer(fuzz.app)}`
  if (route && choices.realBearer === 'user') headers['authorization'] = `Bearer ${await fuzz.userBearer()}`
  if (route && choices.realCaptcha && fuzz.mode !== 'off' && route.method === 'POST') {
    headers['x-client-id'] = 'cumulus-web'
    const token = await mintCaptcha(fuzz.app, route, headers['x-device-id']?.trim().slice(0, 128))
    if (token) headers['x-captcha-token'] = token
  }
  if (payload.contentType !== undefined) headers['content-type'] = payload.contentType
  // A generated `token` field may ask for a live access token (SSO exchange, introspection, revoke).
  if (route && (query.includes(LIVE_ACCESS_TOKEN) || (typeof payload.payload === 'string' && payload.payload.includes(LIVE_ACCESS_TOKEN)))) {
    const live = await fuzz.userBearer()
    query = query.replaceAll(LIVE_ACCESS_TOKEN, live)
    if (typeof payload.payload === 'string') payload = { ...payload, payload: payload.payload.replaceAll(LIVE_ACCESS_TOKEN, live) }
  }
  const req: SentRequest = { method, url: query ? `${path}?${query}` : path, headers, payload, remoteAddress }
  const res = await fuzz.app.inject({
    method: method as 'GET',
    url: req.url,
    headers,
    remoteAddress,
    ...(payload.payload !== undefined ? { payload: payload.payload } : {}),
  })
  expectContractReply(res, req, fuzz)
  if (route && OUTCOMES) {
    const key = `${fuzz.mode} ${route.method} ${route.url} -> ${res.statusCode} ${res.statusCode >= 400 && method !== 'HEAD' ? errorSummary(res) : ''}`
    OUTCOMES.set(key, (OUTCOMES.get(key) ?? 0) + 1)
  }
  return res
}

function errorSummary(res: LightMyRequestResponse): string {
  const body = res.json() as { error: string; error_description: string }
  return process.env['FUZZ_STATS'] === 'descriptions' ? `${body.error}: ${body.error_description.replace(/\s+/g, ' ').slice(0, 60)}` : body.error
}

/** FUZZ_STATS=1 (or =descriptions) prints how often each route answered with each status and error: are the handlers reached? */
const OUTCOMES = process.env['FUZZ_STATS'] ? new Map<string, number>() : null
afterAll(() => {
  if (OUTCOMES) console.log([...OUTCOMES].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${String(n).padStart(5)} ${k}`).join('\n'))
})

/** The server's error message and the first frames in identity's own source, for a 5xx. */
function serverStack(fuzz: FuzzApp, res: LightMyRequestResponse): string {
  return fuzz
    .serverErrors(res.headers['x-request-id'] as string)
    .map((line) => {
      const err = (JSON.parse(line) as { err?: { message?: string; stack?: string } }).err
      const frames = (err?.stack ?? '').split('\n').filter((f) => f.includes('packages/identity/src')).slice(0, 3)
      return [err?.message, ...frames.map((f) => f.trim())].join(' / ')
    })
    .join(' | ')
}

function expectPrototypesUntouched() {
  const probe = {} as Record<string, unknown>
  expect(probe['polluted']).toBeUndefined()
  expect(probe['isAdmin']).toBeUndefined()
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES)
}
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort()

/** Valid-looking values per field name, so a sweep over one field gets past the others. */
const SAMPLE_VALUES: Record<string, string> = {
  client_id: 'cumulus-web',
  email: 'fuzz@example.com',
  phone_number: '+15550100000',
  username: 'fuzz@example.com',
  password: FUZZ_USER.password,
  old_password: FUZZ_USER.password,
  verification_code: '123456',
  verification_token: 'vt_xxxxxxxxxxxxxxxx',
  verification_id: 'vi_xxxxxxxxxxxxxxxx',
  grant_type: 'refresh_token',
  refresh_token: 'rt_xxxxxxxxxxxxxxxx',
  token: 'tok_xxxxxxxxxxxxxxxx',
  sudo_token: 'st_xxxxxxxxxxxxxxxx',
  action: 'POST:/v1/auth/signin',
  ids: 'anon_xxxxxxxxxxxx,u_1',
  name: 'Fuzz',
  picture: 'https://example.com/a.png',
  locale: 'en-US',
}

// ---------------------------------------------------------------------------------------------

describe('the fuzzed route list', () => {
  it('is every route buildIdentityApp registers, and includes the contract routes', async () => {
    const fuzz = await buildFuzzApp('auto')
    try {
      expect(fuzz.app.printRoutes({ commonPrefix: false })).toBe(COLLECTED.tree)
      for (const route of ROUTES.filter((r) => !r.url.includes('*'))) expect(fuzz.app.hasRoute({ method: route.method as 'GET', url: route.url }), `${route.method} ${route.url}`).toBe(true)
    } finally {
      await fuzz.close()
    }
    const keys = ROUTES.map((r) => `${r.method} ${r.url}`)
    expect(keys).toEqual(
      expect.arrayContaining([
        'POST /v1/shield/captcha/init',
        'POST /v1/auth/verification',
        'POST /v1/auth/verification/verify',
        'POST /v1/auth/signup',
        'POST /v1/auth/signup/anonymously',
        'POST /v1/auth/signin',
        'POST /v1/auth/signin/token',
        'POST /v1/auth/reset',
        'POST /v1/auth/token',
        'POST /v1/auth/revoke',
        'GET /v1/auth/token/introspect',
        'GET /v1/user/me',
        'DELETE /v1/user/me',
        'PATCH /v1/user/profile',
        'PATCH /v1/user/password',
        'PATCH /v1/user/contact',
        'POST /v1/user/sudo',
        'GET /v1/user/query',
      ]),
    )
  })
})

describe.each(['off', 'auto'] as const)('with captcha mode %s, every identity route', (mode) => {
  let fuzz: FuzzApp
  beforeAll(async () => {
    fuzz = await buildFuzzApp(mode)
  })
  afterAll(async () => {
    await fuzz?.close()
  })

  it.each(ROUTES)('$method $url answers success or a contract error for any input', async (route) => {
    await fc.assert(
      fc.asyncProperty(pathFor(route), queryFor(route), payloadFor(route), headersArb, remoteAddressArb, async (path, query, payload, choices, remoteAddress) => {
        await send(fuzz, route.method, route, path, query, payload, choices, remoteAddress)
      }),
      { numRuns: RUNS_PER_ROUTE },
    )
    expectPrototypesUntouched()
  })

  it('unknown paths, wrong methods and malformed URLs get a contract error', async () => {
    const pathArb = fc.oneof(
      fc.array(asciiWord, { maxLength: 4 }).map((parts) => `/v1/${parts.join('/')}`),
      fc.constantFrom(...ROUTES.map((r) => r.url.replace(/:[A-Za-z0-9_]+/g, 'x'))),
      fc.constantFrom('/', '//', '/v1', '/v1/', '/%25', '/v1/%E0%A4%AA', '/v1/assets/vip-%C3%A9.svg', '/v1/user/me%00', '/v1/../v1/user/me', '/.well-known/', '/v1/user/me;jsessionid=1', '/v1/user/me%2F'),
    )
    await fc.assert(
      fc.asyncProperty(methodArb, pathArb, payloadFor(routeInfo({ method: 'POST', url: '/' })), headersArb, async (method, path, payload, choices) => {
        await send(fuzz, method, null, path, '', payload, choices, '127.0.0.1')
      }),
      { numRuns: RUNS_UNROUTED },
    )
  })

  it('bodies over 256 KiB are refused with request_body_too_large (413) on every body-taking route', async () => {
    const bodyRoutes = ROUTES.filter((r) => r.method === 'POST' || r.method === 'PATCH' || r.method === 'DELETE' || r.method === 'PUT')
    expect(bodyRoutes.length).toBeGreaterThan(0)
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...bodyRoutes), hugeBody, fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/octet-stream'), async (route, body, contentType) => {
        expect(Buffer.byteLength(body)).toBeGreaterThan(MAX_BODY_BYTES)
        const res = await send(fuzz, route.method, null, route.url, '', { contentType, payload: body, kind: 'over the body limit' }, { headers: { 'x-client-id': 'cumulus-web' }, realBearer: false, realCaptcha: false }, '127.0.0.1')
        expectErrorReply(res, HttpErrors.request_body_too_large)
      }),
      { numRuns: 20 },
    )
  })

  it('prototype-pollution payloads never pollute and never fail the server', async () => {
    const payloads: FuzzPayload[] = [
      { contentType: 'application/json', payload: '{"__proto__":{"polluted":"yes"},"client_id":"cumulus-web","action":"POST:/v1/auth/signin"}', kind: '__proto__' },
      { contentType: 'application/json', payload: '{"constructor":{"prototype":{"polluted":"yes"}},"client_id":"cumulus-web"}', kind: 'constructor.prototype' },
      { contentType: 'application/x-www-form-urlencoded', payload: '__proto__[polluted]=yes&constructor[prototype][polluted]=yes&__proto__=x&client_id=cumulus-web', kind: 'form' },
      { contentType: 'text/plain', payload: '{"meta":{"__proto__":{"isAdmin":true}},"client_id":"cumulus-web","action":"POST:/v1/auth/signin"}', kind: 'nested __proto__ as text' },
    ]
    for (const route of ROUTES) {
      for (const payload of payloads) {
        await send(fuzz, route.method, null, route.url.replace(':size', 'large'), '__proto__[polluted]=yes&constructor[prototype][polluted]=yes', payload, { headers: { 'x-client-id': 'cumulus-web' }, realBearer: false, realCaptcha: false }, '127.0.0.1')
      }
    }
    expectPrototypesUntouched()
  })

  it('deeply nested JSON is refused or ignored, never a 5xx', async () => {
    for (const route of ROUTES.filter((r) => r.method === 'POST')) {
      for (const depth of [1_000, 100_000]) {
        const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`
        for (const payload of [nested, `{"client_id":"cumulus-web","action":"POST:/v1/auth/signin","meta":${nested}}`, `{"meta":${'{"a":'.repeat(depth / 10)}{"__proto__":{}}${'}'.repeat(depth / 10)}}`]) {
          await send(fuzz, 'POST', null, route.url, '', { contentType: 'application/json', payload, kind: `nested ${depth}` }, { headers: { 'x-client-id': 'cumulus-web' }, realBearer: false, realCaptcha: false }, '127.0.0.1')
        }
      }
    }
  })

  it('refuses a NUL character in any string field, never a 5xx (PostgreSQL rejects 0x00 in text)', async () => {
    const failures: string[] = []
    for (const route of ROUTES.filter((r) => r.bodyFields.length + r.queryFields.length > 0)) {
      for (const field of [...route.bodyFields, ...route.queryFields]) {
        if (route.literals[field]) continue
        const inQuery = route.queryFields.includes(field)
        const fields = inQuery ? route.queryFields : route.bodyFields
        const values: Record<string, string> = Object.fromEntries(fields.map((f) => [f, route.literals[f]?.[0] ?? SAMPLE_VALUES[f] ?? 'x']))
        values[field] = `${SAMPLE_VALUES[field] ?? 'x'}\u0000`
        const headers = { 'x-client-id': 'cumulus-web', authorization: `Bearer ${await mintBearer(fuzz.app)}`, 'content-type': 'application/json' }
        if (fuzz.mode !== 'off' && route.method === 'POST') headers['x-captcha-token' as 'x-client-id'] = (await mintCaptcha(fuzz.app, route, undefined)) ?? ''
        const url = inQuery ? `${route.url}?${new URLSearchParams(values)}` : route.url
        const res = await fuzz.app.inject({ method: route.method as 'GET', url, headers, remoteAddress: freshAddress(), ...(inQuery ? {} : { payload: JSON.stringify(values) }) })
        if (res.statusCode >= 500) {
          failures.push(`${route.method} ${route.url} ${field}: ${res.statusCode} ${serverStack(fuzz, res)}`)
          continue
        }
        expectContractReply(res, { method: route.method, url, headers, payload: { contentType: 'application/json', payload: JSON.stringify(values), kind: `NUL in ${field}` }, remoteAddress: 'fresh' }, fuzz)
        // Schema'd strings refuse it up front, naming the field (HEAD replies carry no body to read).
        const pattern = route.patterns[field]
        if (pattern !== undefined && !new RegExp(pattern, 'u').test(values[field]!) && route.method !== 'HEAD') {
          const body = expectErrorReply(res, GenericErrors.invalid_argument)
          expect(body.details[0].metadata.field, `${route.method} ${route.url}: ${res.body}`).toBe(field)
        }
      }
    }
    expect(failures).toEqual([])
  })

  it('names the field of a schema violation in an invalid_argument (3) error', async () => {
    const cases: { method: 'POST' | 'GET' | 'PATCH'; url: string; body?: unknown; query?: Record<string, string>; field: string }[] = [
      { method: 'POST', url: '/v1/auth/signin', body: { client_id: 'cumulus-web', username: { nested: true }, password: 'x' }, field: 'username' },
      { method: 'POST', url: '/v1/auth/signin', body: { client_id: 'cumulus-web', password: 'correct horse battery' }, field: 'username' },
      { method: 'POST', url: '/v1/auth/verification/verify', body: { client_id: 'cumulus-web', verification_id: 'v', verification_code: '1'.repeat(17) }, field: 'verification_code' },
      { method: 'POST', url: '/v1/auth/verification', body: { client_id: 'cumulus-web', email: 'a@example.com', usage: 'NOT_A_PURPOSE' }, field: 'usage' },
      { method: 'POST', url: '/v1/shield/captcha/init', body: { client_id: 'cumulus-web', action: '' }, field: 'action' },
      { method: 'POST', url: '/v1/auth/token', body: { client_id: 'cumulus-web', grant_type: ['a', 'b'] }, field: 'grant_type' },
      { method: 'GET', url: '/v1/auth/token/introspect', query: {}, field: 'token' },
    ]
    for (const c of cases) {
      const res = await call(fuzz.app, c.method, c.url, { ...(c.body !== undefined ? { body: c.body } : {}), ...(c.query ? { query: c.query } : {}) })
      const body = expectErrorReply(res, GenericErrors.invalid_argument)
      expect(body.details[0].metadata.field, `${c.method} ${c.url}: ${res.body}`).toBe(c.field)
      expect(body.error_description, `${c.method} ${c.url}`).toContain(c.field)
    }
  })

  it('names the body itself when the whole body is of the wrong kind', async () => {
    // Regression: a JSON array body was described as "body.body must be object".
    // (Only bodies that look like JSON parse as JSON; anything else parses as a form, by design.)
    for (const payload of ['[1,2]', '[]', '[{"username":"a","password":"b"}]']) {
      const res = await fuzz.app.inject({ method: 'POST', url: '/v1/auth/signin', headers: { 'content-type': 'application/json', 'x-client-id': 'cumulus-web' }, payload })
      const body = expectErrorReply(res, GenericErrors.invalid_argument)
      expect({ field: body.details[0].metadata.field, description: body.error_description }).toEqual({ field: 'body', description: 'body must be object' })
    }
  })

  it('answers unauthorized_client (4122, 401) for an unknown client id, wherever it is given', async () => {
    const unknown = 'no-such-client'
    expectErrorReply(await call(fuzz.app, 'POST', '/v1/auth/signup/anonymously', { headers: { 'x-client-id': unknown }, body: {} }), OAuthErrors.unauthorized_client)
    expectErrorReply(await call(fuzz.app, 'POST', '/v1/auth/signup/anonymously', { body: { client_id: unknown } }), OAuthErrors.unauthorized_client)
    expectErrorReply(await call(fuzz.app, 'POST', '/v1/auth/signup/anonymously', { query: { client_id: unknown }, headers: { 'x-client-id': '' }, body: {} }), OAuthErrors.unauthorized_client)
    expectErrorReply(await call(fuzz.app, 'POST', '/v1/shield/captcha/init', { body: { client_id: unknown, action: 'POST:/v1/auth/signin' } }), OAuthErrors.unauthorized_client)
    expectErrorReply(await call(fuzz.app, 'POST', '/v1/auth/token', { body: { client_id: unknown, grant_type: 'refresh_token', refresh_token: 'x' } }), OAuthErrors.unauthorized_client)
    expectErrorReply(await call(fuzz.app, 'POST', '/v1/auth/signin', { body: { client_id: unknown, username: 'a@example.com', password: 'whatever-pass' } }), OAuthErrors.unauthorized_client)
  })

  it('answers unauthenticated (16, 401) on /v1/user/me for any garbage bearer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(jwtLike, asciiWord, fc.constantFrom('', 'x'.repeat(10_000), 'null', 'a.b.c')), async (token) => {
        const res = await fuzz.app.inject({ method: 'GET', url: '/v1/user/me', headers: { 'x-client-id': 'cumulus-web', authorization: `Bearer ${token}` } })
        expectErrorReply(res, GenericErrors.unauthenticated)
      }),
      { numRuns: 40 },
    )
  })
})

/** Errors raised before routing: each was a non-contract reply found by this file, now fixed. */
describe('errors raised before routing keep the contract', () => {
  let fuzz: FuzzApp
  beforeAll(async () => {
    fuzz = await buildFuzzApp('off')
  })
  afterAll(async () => {
    await fuzz?.close()
  })
  const bare: HeaderChoices = { headers: {}, realBearer: false, realCaptcha: false }
  const noBody: FuzzPayload = { contentType: undefined, payload: undefined, kind: 'no body' }

  // Regression: a malformed percent-escape in the path got Fastify's own FST_ERR_BAD_URL body with
  // no x-request-id (no `frameworkErrors` in baseServerOptions, so no hook or error handler ran).
  it.each(['/v1/auth/%zz', '/v1/assets/vip-%.svg', '/%', '/v1/user/me%E0%A4%A'])('a malformed escape in %s gets a contract error', async (path) => {
    await send(fuzz, 'GET', null, path, '', noBody, bare, '127.0.0.1')
  })

  // Regression: a path parameter over maxParamLength (500) got Fastify's own 414
  // FST_ERR_MAX_PARAM_LENGTH body; same cause.
  it('an over-long path parameter gets a contract error', async () => {
    await send(fuzz, 'GET', null, `/v1/assets/vip-${'x'.repeat(600)}.svg`, '', noBody, bare, '127.0.0.1')
  })

  // Regression: OPTIONS without Origin or Access-Control-Request-Method got @fastify/cors's
  // `400 text/plain "Invalid Preflight Request"` (strictPreflight).
  it.each(['/v1/user/me', '/v1/auth/signin', '/no/such/path'])('a bare OPTIONS %s gets a contract reply', async (path) => {
    await send(fuzz, 'OPTIONS', null, path, '', noBody, bare, '127.0.0.1')
  })
})
