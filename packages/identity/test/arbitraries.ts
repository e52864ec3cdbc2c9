import fc from 'fast-check'

/**
 * fast-check generators for fuzzing the identity HTTP surface: hostile bodies, content types,
 * query strings and headers, shaped after each route's own schema so that some inputs get past
 * validation and reach the handlers.
 */

/** What the fuzzer knows about one registered route, read from its schema (see routeInfo). */
export interface RouteInfo {
  method: string
  url: string
  /** Property names of the body schema ([] when the route has none). */
  bodyFields: string[]
  /** Property names of the querystring schema. */
  queryFields: string[]
  /** Path parameter names (`:size` in `/v1/assets/vip-:size.svg`). */
  params: string[]
  /** For fields whose schema is a union of literals (verification `usage`, asset `size`): the literals. */
  literals: Record<string, string[]>
  /** For string fields with a `pattern` (directly or in a union member): the pattern. */
  patterns: Record<string, string>
}

/** A real account the fuzz apps create, so sign-in, sudo and password calls can succeed. */
export const FUZZ_USER = { email: 'fuzz@example.com', password: 'correct horse battery' } as const

/** Stands for a live access token; the sender replaces it (in the body or query) with a real one. */
export const LIVE_ACCESS_TOKEN = 'LIVE-ACCESS-TOKEN'

export const KNOWN_CLIENT_IDS = ['cumulus-web', 'test-confidential', 'test-other'] as const
export const MAX_BODY_BYTES = 256 * 1024

type JsonSchema = { properties?: Record<string, JsonSchema>; anyOf?: JsonSchema[]; const?: unknown; type?: unknown; pattern?: string }

function patternOf(schema: JsonSchema | undefined): string | undefined {
  if (!schema) return undefined
  return schema.pattern ?? (schema.anyOf ?? []).map(patternOf).find((p) => p !== undefined)
}

function literalsOf(schema: JsonSchema | undefined): string[] {
  if (!schema) return []
  if (typeof schema.const === 'string') return [schema.const]
  return (schema.anyOf ?? []).flatMap(literalsOf)
}

/** Reads field names and literal values out of a route's TypeBox (JSON Schema) body/querystring/params. */
export function routeInfo(route: { method: string; url: string; schema?: { body?: unknown; querystring?: unknown; params?: unknown } }): RouteInfo {
  const props = (schema: unknown) => (schema as JsonSchema | undefined)?.properties ?? {}
  const literals: Record<string, string[]> = {}
  const patterns: Record<string, string> = {}
  for (const part of [route.schema?.body, route.schema?.querystring, route.schema?.params]) {
    for (const [name, schema] of Object.entries(props(part))) {
      const values = literalsOf(schema)
      if (values.length > 0) literals[name] = values
      const pattern = patternOf(schema)
      if (pattern !== undefined) patterns[name] = pattern
    }
  }
  return {
    method: route.method,
    url: route.url,
    bodyFields: Object.keys(props(route.schema?.body)),
    queryFields: Object.keys(props(route.schema?.querystring)),
    params: [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!),
    literals,
    patterns,
  }
}

// ---------------------------------------------------------------------------------------------
// Strings

const asciiWord = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_'.split('')), minLength: 1, maxLength: 24 })
/** Any UTF-16, lone surrogates included. */
const binaryText = fc.string({ unit: 'binary', maxLength: 40 })
const graphemes = fc.string({ unit: 'grapheme', maxLength: 20 })
const base64url = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split('')), minLength: 0, maxLength: 120 })
/** Longer than any schema's maxLength (the largest is 4096), without generating it char by char. */
const hugeText = fc.tuple(fc.integer({ min: 257, max: 20_000 }), fc.constantFrom('a', 'é', '😀', '\u0000', '%', ' ')).map(([n, c]) => c.repeat(n))
const nastyText = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202e',
  '\ufeff',
  '../../etc/passwd',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '%00',
  '%E0%A4%A',
  'null',
  'undefined',
  'NaN',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '0',
  '-1',
  '1e999',
  '\r\nx-injected: 1',
)

/** A JWT-looking string: three base64url segments, sometimes with a real-looking header. */
export const jwtLike = fc
  .tuple(
    fc.oneof(
      base64url,
      fc.constantFrom(
        Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url'),
        Buffer.from('{"alg":"ES256","typ":"JWT","kid":"x"}').toString('base64url'),
        Buffer.from('{"alg":"HS256"}').toString('base64url'),
        Buffer.from('{"alg":"ES256","crit":["b64"],"b64":false}').toString('base64url'),
      ),
    ),
    fc.oneof(base64url, fc.jsonValue({ maxDepth: 2 }).map((v) => Buffer.from(JSON.stringify(v ?? null)).toString('base64url'))),
    base64url,
  )
  .map(([a, b, c]) => `${a}.${b}.${c}`)

export const anyText = fc.oneof(
  { weight: 3, arbitrary: asciiWord },
  { weight: 2, arbitrary: binaryText },
  { weight: 1, arbitrary: graphemes },
  { weight: 2, arbitrary: nastyText },
  { weight: 1, arbitrary: hugeText },
  { weight: 1, arbitrary: jwtLike },
)

const email = fc.oneof(
  fc.emailAddress(),
  fc.tuple(asciiWord, asciiWord).map(([a, b]) => `${a}@${b}.example`),
  fc.constantFrom('a@b', '@', 'a@', '@b.c', 'A@EXAMPLE.COM ', ' a@example.com', 'a@@example.com', 'ü@exämple.com'),
)
const phone = fc.oneof(
  fc.stringMatching(/^\+[1-9][0-9]{6,14}$/),
  fc.constantFrom('+', '+0', '+1 (555) 010-0000', '+86 138 0000 0000', '0123456789', '++1555'),
)

/** A plausible value for a field, chosen by its name, so some requests reach the handlers' logic. */
export function plausibleValue(field: string, literals: string[] = []): fc.Arbitrary<unknown> {
  if (literals.length > 0) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...literals) }, { weight: 1, arbitrary: asciiWord.map((s) => s.toUpperCase()) })
  switch (field) {
    case 'client_id':
      return fc.oneof(fc.constantFrom(...KNOWN_CLIENT_IDS), asciiWord)
    case 'client_secret':
      return fc.oneof(fc.constant('test-secret-value'), asciiWord)
    case 'email':
      return fc.oneof(fc.constant(FUZZ_USER.email), email)
    case 'phone_number':
      return phone
    case 'username':
      return fc.oneof(fc.constant(FUZZ_USER.email), email, phone, asciiWord)
    case 'password':
    case 'old_password':
      return fc.oneof(fc.string({ minLength: 0, maxLength: 40 }), fc.constant(FUZZ_USER.password))
    case 'verification_code':
      return fc.oneof(fc.stringMatching(/^[0-9]{6}$/), fc.stringMatching(/^[0-9]{0,16}$/))
    case 'grant_type':
      return fc.oneof(fc.constantFrom('refresh_token', 'authorization_code', 'urn:ietf:params:oauth:grant-type:device_code', 'password', 'client_credentials'), asciiWord)
    case 'action':
      return fc.oneof(
        fc.constantFrom('POST:/v1/auth/signin', 'POST:/v1/auth/signup', 'POST:/v1/auth/verification', 'POST:/v1/auth/reset', 'POST:https://host/v1/auth/signin', 'GET:/', ':', 'POST:', 'POST:http://[::1', 'POST:https://a@b:99999/x?y#z'),
        fc.tuple(fc.constantFrom('GET', 'POST', 'DELETE', 'x'), fc.webUrl()).map(([m, u]) => `${m}:${u}`),
      )
    case 'redirect_uri':
      return fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.constantFrom('http://127.0.0.1:9/callback', 'http://127.0.0.1:3000/', 'javascript:alert(1)', '//evil.example', 'http://[::1', ''))
    case 'ids':
      return fc.oneof(fc.array(base64url, { maxLength: 5 }).map((a) => a.join(',')), fc.array(base64url, { maxLength: 120 }))
    case 'size':
      return fc.constantFrom('large', 'small')
    case 'locale':
      return fc.constantFrom('en-US', 'zh-CN', 'zh-TW', 'ja-JP', 'ko-KR', 'id-ID', 'xx', 'en', '*')
    case 'meta':
      return fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.record({ username: anyText, email: anyText, phone_number: anyText }, { requiredKeys: [] }))
    case 'name':
      return fc.oneof(graphemes, asciiWord, fc.constantFrom('', ' ', '\u202eevil', 'a'.repeat(256)))
    case 'picture':
      return fc.oneof(fc.webUrl(), fc.constantFrom('', 'javascript:alert(1)', 'data:image/png;base64,AAAA', 'not a url'))
    case 'state':
      return fc.oneof(asciiWord, graphemes)
    case 'token_type_hint':
      return fc.oneof(fc.constantFrom('access_token', 'refresh_token'), asciiWord)
    case 'device_id':
      return fc.oneof(asciiWord, fc.constantFrom('', ' ', 'd'.repeat(1024)))
    case 'target':
      return fc.constantFrom('ANY', 'USER', 'CUR_USER')
    case 'token':
      return fc.oneof(fc.constant(LIVE_ACCESS_TOKEN), base64url, jwtLike)
    case 'challenge':
    case 'nonce':
    case 'refresh_token':
    case 'verification_token':
    case 'verification_id':
    case 'sudo_token':
    case 'captcha_token':
    case 'code':
    case 'device_code':
      return fc.oneof(base64url, jwtLike)
    default:
      return anyText
  }
}

/** A value of the wrong kind, or of the right kind but hostile. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  anyText,
  hugeText,
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }),
  fc.array(anyText, { minLength: 101, maxLength: 150 }),
  fc.dictionary(asciiWord, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.constant(JSON.parse('{"__proto__":{"polluted":"yes"}}')),
  fc.constant({ constructor: { prototype: { polluted: 'yes' } } }),
)

/**
 * A JSON object using the route's real field names plus stray keys: either every field plausible
 * (so the call reaches the handler), plausible but one field wrong or hostile (so the error names
 * that field), or each field anything.
 */
export function fieldsObject(fields: string[], literals: Record<string, string[]>): fc.Arbitrary<Record<string, unknown>> {
  const plausible = (f: string) => plausibleValue(f, literals[f])
  const record = (pick: (f: string) => fc.Arbitrary<unknown>, requiredKeys: string[]) =>
    fields.length ? (fc.record(Object.fromEntries(fields.map((f) => [f, pick(f)])) as Record<string, fc.Arbitrary<unknown>>, { requiredKeys }) as fc.Arbitrary<Record<string, unknown>>) : fc.constant({})
  const allPlausible = fc.oneof(record(plausible, fields), record(plausible, []))
  const oneWrong = fields.length
    ? fc.tuple(allPlausible, fc.constantFrom(...fields), wrongValue).map(([o, f, v]) => ({ ...o, [f]: v }))
    : allPlausible
  const anything = record((f) => fc.oneof({ weight: 2, arbitrary: plausible(f) }, { weight: 1, arbitrary: wrongValue }), [])
  const known = fc.oneof({ weight: 3, arbitrary: allPlausible }, { weight: 2, arbitrary: oneWrong }, { weight: 1, arbitrary: anything })
  const extra = fc.dictionary(fc.oneof(asciiWord, fc.constantFrom('__proto__', 'constructor', 'prototype', 'captcha_token', 'client_id', 'meta')), wrongValue, { maxKeys: 2 })
  return fc.tuple(known, fc.option(extra, { freq: 3 })).map(([k, e]) => {
    // JSON.parse, not a spread, so a "__proto__" key stays an own property, as the wire would carry it.
    const out = JSON.parse('{}') as Record<string, unknown>
    for (const [key, value] of [...Object.entries(e ?? {}), ...Object.entries(k)]) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
    return out
  })
}

// ---------------------------------------------------------------------------------------------
// Bodies

export interface FuzzPayload {
  /** undefined: no content-type header at all. */
  contentType: string | undefined
  payload: string | Buffer | undefined
  /** What the generator meant to produce, for the failure message. */
  kind: string
}

export const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8',
  'text/plain',
  'text/plain; charset=utf-8',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/octet-stream',
  'application/xml',
  'image/png',
  'garbage',
  ';;;',
  '*/*',
  'application/',
  'application/json;;;;charset="',
)

const optionalContentType = fc.option(contentTypes, { nil: undefined, freq: 6 })

function formEncode(value: Record<string, unknown>): string {
  const params = new URLSearchParams()
  for (const [key, v] of Object.entries(value)) {
    if (Array.isArray(v)) for (const item of v) params.append(key, typeof item === 'string' ? item : JSON.stringify(item) ?? '')
    else params.append(key, typeof v === 'string' ? v : JSON.stringify(v) ?? '')
  }
  return params.toString()
}

/** Deeply nested JSON (arrays or objects), optionally under a real field and with a __proto__ key. */
const deepJson = fc
  .tuple(fc.integer({ min: 500, max: 60_000 }), fc.constantFrom('array', 'object', 'mixed'), fc.boolean(), fc.constantFrom('', 'meta', 'username', 'client_id'))
  .map(([depth, shape, proto, field]) => {
    const open = shape === 'array' ? '[' : shape === 'object' ? '{"a":' : '{"a":['
    const close = shape === 'array' ? ']' : shape === 'object' ? '}' : ']}'
    const inner = `${open.repeat(depth)}${proto ? '{"__proto__":{"polluted":"yes"}}' : '1'}${close.repeat(depth)}`
    return field ? `{"client_id":"cumulus-web","${field}":${inner}}` : inner
  })

const pollutionJson = fc.constantFrom(
  '{"__proto__":{"polluted":"yes"}}',
  '{"client_id":"cumulus-web","__proto__":{"polluted":"yes","isAdmin":true}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"meta":{"__proto__":{"polluted":"yes"}},"client_id":"cumulus-web","action":"POST:/v1/auth/signin"}',
  '{"a":{"b":{"__proto__":{"polluted":"yes"}}}}',
  '[{"__proto__":{"polluted":"yes"}}]',
  '{"__proto__":null}',
  '{"toString":"x","valueOf":1,"hasOwnProperty":false}',
)
const pollutionForm = fc.constantFrom(
  '__proto__[polluted]=yes',
  '__proto__.polluted=yes&client_id=cumulus-web',
  'constructor[prototype][polluted]=yes',
  '__proto__=x&constructor=y&prototype=z&client_id=cumulus-web',
  'client_id=cumulus-web&client_id=test-other',
  'hasOwnProperty=1&toString=2',
)

/** Just over the body limit; sometimes valid JSON with one huge field, sometimes plain filler. */
const hugeBody = fc.tuple(fc.integer({ min: 1, max: 64 * 1024 }), fc.constantFrom('json', 'form', 'raw')).map(([extra, shape]): string => {
  const size = MAX_BODY_BYTES + extra
  if (shape === 'json') return `{"client_id":"cumulus-web","username":"${'a'.repeat(size)}"}`
  if (shape === 'form') return `client_id=cumulus-web&password=${'b'.repeat(size)}`
  return 'z'.repeat(size)
})

/** A request body for a route: fields of its schema, or anything at all, under any content type. */
export function payloadFor(route: RouteInfo): fc.Arbitrary<FuzzPayload> {
  const fields = [...new Set([...route.bodyFields, ...route.queryFields])]
  const objectValue = fieldsObject(fields, route.literals)
  return fc.oneof(
    { weight: 6, arbitrary: fc.tuple(objectValue, optionalContentType).map(([v, ct]) => ({ contentType: ct ?? 'application/json', payload: JSON.stringify(v), kind: 'fields as JSON' })) },
    { weight: 2, arbitrary: fc.tuple(objectValue, optionalContentType).map(([v, ct]) => ({ contentType: ct, payload: formEncode(v), kind: 'fields as a form' })) },
    { weight: 2, arbitrary: fc.tuple(fc.jsonValue(), optionalContentType).map(([v, ct]) => ({ contentType: ct, payload: JSON.stringify(v) ?? '', kind: 'any JSON value' })) },
    { weight: 1, arbitrary: fc.tuple(fc.uint8Array({ maxLength: 300 }), optionalContentType).map(([b, ct]) => ({ contentType: ct, payload: Buffer.from(b), kind: 'random bytes' })) },
    { weight: 1, arbitrary: fc.tuple(fc.string({ unit: 'binary', maxLength: 200 }), optionalContentType).map(([s, ct]) => ({ contentType: ct, payload: s, kind: 'random text' })) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('', ' ', '\n', '{', '[', '{"', '{}garbage', 'null', 'true', '"string"', '0', '-', '{"client_id":}', '\ufeff{}'), optionalContentType).map(([s, ct]) => ({ contentType: ct, payload: s, kind: 'empty or broken' })) },
    { weight: 1, arbitrary: fc.constant({ contentType: undefined, payload: undefined, kind: 'no body' }) },
    { weight: 1, arbitrary: fc.tuple(pollutionJson, optionalContentType).map(([s, ct]) => ({ contentType: ct ?? 'application/json', payload: s, kind: 'prototype pollution (JSON)' })) },
    { weight: 1, arbitrary: fc.tuple(pollutionForm, fc.constantFrom('application/x-www-form-urlencoded', 'text/plain', undefined)).map(([s, ct]) => ({ contentType: ct, payload: s, kind: 'prototype pollution (form)' })) },
    { weight: 1, arbitrary: fc.tuple(deepJson, optionalContentType).map(([s, ct]) => ({ contentType: ct ?? 'application/json', payload: s, kind: 'deeply nested JSON' })) },
  )
}

export { hugeBody }

// ---------------------------------------------------------------------------------------------
// Query strings, paths and headers

/** encodeURIComponent for any string: lone surrogates (which cannot be sent) become U+FFFD. */
export function encodeAny(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'))
}

const rawQueryKey = fc.oneof(asciiWord, fc.constantFrom('__proto__', 'constructor', 'prototype', '__proto__[polluted]', 'constructor[prototype][polluted]', 'a[b][c]', '', '%', '%E0%A4%A', 'client_id'))
const rawQueryValue = fc.oneof(asciiWord, binaryText.map(encodeAny), nastyText, fc.constantFrom('%', '%zz', '%E0%A4%A', '+', '&', '=', ''), jwtLike)

/** A raw query string (without '?'): the route's fields (right, wrong, repeated) and hostile keys. */
export function queryFor(route: RouteInfo): fc.Arbitrary<string> {
  const known = route.queryFields.map((f) =>
    fc.tuple(fc.constant(f), fc.oneof(plausibleValue(f, route.literals[f]).map((v) => encodeAny(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))), rawQueryValue)),
  )
  const pair = known.length ? fc.oneof({ weight: 2, arbitrary: fc.oneof(...known) }, { weight: 1, arbitrary: fc.tuple(rawQueryKey, rawQueryValue) }) : fc.tuple(rawQueryKey, rawQueryValue)
  return fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.map(([k, v]) => (v === '' && k === '' ? '' : `${k}=${v}`)).join('&'))
}

/**
 * The route's path with its parameters filled: valid literals, garbage, encoded unicode, malformed
 * escapes and parameters over the router's 500-character limit (rendered by `frameworkErrors`).
 */
export function pathFor(route: RouteInfo): fc.Arbitrary<string> {
  if (route.params.length === 0 && !route.url.includes('*')) return fc.constantFrom(route.url, route.url + '/', route.url.replace(/^\//, '//'))
  const paramValue = (name: string) =>
    fc.oneof(
      { weight: 3, arbitrary: plausibleValue(name, route.literals[name]).map((v) => encodeAny(String(v))) },
      { weight: 1, arbitrary: asciiWord },
      { weight: 1, arbitrary: binaryText.map(encodeAny) },
      { weight: 1, arbitrary: fc.constantFrom('%25', '%00', '..', '%2F', '%2E%2E', 'x'.repeat(500), 'x'.repeat(600), '%zz', '%', '%E0%A4%A') },
    )
  return fc.tuple(...route.params.map(paramValue), asciiWord).map((values) => {
    let url = route.url
    route.params.forEach((name, i) => {
      url = url.replace(`:${name}`, values[i] as string)
    })
    const rest = values[values.length - 1] as string
    return url === '*' ? `/${rest}` : url.replace('*', rest)
  })
}

/** Header values as they can arrive over HTTP/1.1: visible ASCII, spaces, tabs and obs-text (latin1). */
const headerText = (maxLength: number) =>
  fc.string({ unit: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) }, { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) }, { weight: 1, arbitrary: fc.constant(9) }).map((c) => String.fromCharCode(c)), maxLength }).map((s) => s.trim())
const hugeHeader = fc.tuple(fc.integer({ min: 1_000, max: 16_000 }), fc.constantFrom('a', 'Z', '.', ' x')).map(([n, c]) => c.repeat(n).trim())
const headerValue = fc.oneof({ weight: 4, arbitrary: headerText(40) }, { weight: 1, arbitrary: hugeHeader }, { weight: 1, arbitrary: fc.constantFrom('', 'null', '__proto__', '%E0%A4%A', '\u00ff\u00fe', '0') })

export interface HeaderChoices {
  headers: Record<string, string>
  /** Whether to replace `authorization` with a real, live bearer token: none, a fresh anonymous user's, or FUZZ_USER's. */
  realBearer: false | 'anonymous' | 'user'
  /** Whether to send a real captcha token for this route (when the mode asks for one). */
  realCaptcha: boolean
}

/** The client headers of identity.md "Transport rules", each absent, plausible, garbage or huge. */
export const headersArb: fc.Arbitrary<HeaderChoices> = fc
  .record(
    {
      'x-client-id': fc.oneof(fc.constantFrom(...KNOWN_CLIENT_IDS), fc.constantFrom('no-such-client', 'CUMULUS-WEB', 'cumulus-web '), headerValue),
      authorization: fc.oneof(
        jwtLike.map((t) => `Bearer ${t}`),
        headerValue.map((t) => `Bearer ${t}`),
        fc.constantFrom('Bearer', 'Bearer ', 'bearer  x', 'Basic', 'Basic !!!', 'Basic ' + Buffer.from('%E0%A4%A:%').toString('base64'), 'Basic ' + Buffer.from('no-colon').toString('base64'), 'Basic ' + Buffer.from('test-confidential:test-secret-value').toString('base64'), 'Digest x'),
        base64url.map((s) => `Basic ${s}`),
        headerValue,
      ),
      'x-captcha-token': fc.oneof(headerValue, jwtLike, base64url),
      'accept-language': fc.oneof(fc.constantFrom('zh-CN,zh;q=0.9', 'en;q=abc', '*;q=0', 'xx-YY;q=-1,,;;', 'ja-JP;q=1.5', 'q=0.5'), headerValue),
      'x-request-id': headerValue,
      'x-device-id': headerValue,
      'x-device-model': headerValue,
      'x-device-name': headerValue,
      'x-client-version': headerValue,
      'x-sdk-version': headerValue,
      'x-protocol-version': headerValue,
      'x-platform-version': headerValue,
      origin: fc.oneof(fc.constantFrom('http://127.0.0.1:3000', 'https://evil.example', 'null'), headerValue),
    },
    { requiredKeys: [] },
  )
  .chain((headers) => fc.record({
      headers: fc.constant(headers as Record<string, string>),
      realBearer: fc.constantFrom(false as const, 'anonymous' as const, 'user' as const),
      realCaptcha: fc.boolean(),
    }))

/** Caller addresses: the usual loopback, or any IPv4/IPv6 (spreads per-IP limits, exercises keys). */
export const remoteAddressArb = fc.oneof({ weight: 2, arbitrary: fc.constant('127.0.0.1') }, { weight: 1, arbitrary: fc.ipV4() }, { weight: 1, arbitrary: fc.ipV6() })

export const methodArb = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'SEARCH')
export { asciiWord }
