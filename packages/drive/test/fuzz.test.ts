import { ERROR_INFO_TYPE, LOCALIZED_MESSAGE_TYPE, findErrorByReason } from '@cumulus/protocol'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeFolder, storeFile, userIdOf } from './batch-fixtures.js'
import { type DriveTestApp, type Reply, startDriveTestApp } from './drive-test-app.js'

/*
 * Property: whatever arrives at a drive route — wrong types, huge or NUL-laden strings, bad JSON,
 * bad filters and page tokens, random ids, random methods and paths under /drive/v1 — the answer
 * is never a 5xx, and a 4xx is the contract's error body (identity.md "Error body") with a
 * catalogue entry whose code and status match. That includes tus protocol replies on the upload
 * paths and a 416 on a download (issue 11: they were text/plain or empty bodies; they keep their
 * status and Tus-Resumable or Content-Range, and carry the contract's body).
 */

let t: DriveTestApp
let token: string
const known: { folder: string; file: string; task: string } = { folder: '', file: '', task: '' }

beforeAll(async () => {
  t = await startDriveTestApp()
  token = await t.signUp()
  const userId = await userIdOf(t, token)
  known.folder = (await makeFolder(t, token, 'fuzz')).id
  known.file = (await storeFile(t, userId, { name: 'fuzz.txt', parentId: known.folder, content: 'fuzz content' })).id
  const offline = await t.call('POST', '/drive/v1/files', { token, body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: 'https://example.com/a' } } })
  known.task = offline.body.task.id
})
afterAll(async () => {
  await t?.close()
})

const RUNS = 150

/** Strings meant to break things. */
const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '*', '-1', '0', '1e309', 'NaN', 'null', 'true', '[]', '{}', '{"a":', '%', '%00', '../..', 'é'.repeat(300), '\ud800', '9'.repeat(40)),
  fc.constantFrom('{"trashed":{"eq":"maybe"}}', '{"phase":{"eq":5}}', '{"id":{"in":[1,2]}}', '{"modified_time":{"gt":"yesterday"}}', '{"kind":{"eq":{}}}', '{"phase":{"in":"A,B"}}', '{"mime_type":{"prefix":7}}'),
  fc.nat({ max: 20_000 }).map((n) => 'x'.repeat(n)),
  fc.base64String({ maxLength: 80 }),
)
/** Ids: real ones (so some requests reach real items), malformed ones and strangers. */
const anId = fc.oneof(fc.constantFrom(() => known.folder, () => known.file, () => known.task).map((f) => f()), fc.constantFrom('', 'V', 'Vmissing', 'T1', '*', 'a:b', 'a/b', '..'), nasty)
/** JSON values of every shape, including the right keys with the wrong types. */
const jsonish: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record(
    {
      ids: fc.oneof(fc.array(anId, { maxLength: 5 }), fc.jsonValue({ maxDepth: 2 })),
      to: fc.oneof(fc.record({ parent_id: fc.oneof(anId, fc.jsonValue({ maxDepth: 1 })) }), fc.jsonValue({ maxDepth: 1 })),
      kind: fc.oneof(fc.constantFrom('drive#folder', 'drive#file'), nasty),
      name: fc.oneof(nasty, fc.jsonValue({ maxDepth: 1 })),
      parent_id: fc.oneof(anId, fc.jsonValue({ maxDepth: 1 })),
      upload_type: fc.oneof(fc.constantFrom('UPLOAD_TYPE_URL', 'UPLOAD_TYPE_RESUMABLE'), nasty),
      url: fc.oneof(fc.record({ url: fc.oneof(nasty, fc.constantFrom('magnet:?dn=x', 'thunder://!!', 'ed2k://|file|')) }), nasty),
      size: fc.oneof(fc.integer(), nasty, fc.double()),
      hash: nasty,
      starred: fc.oneof(fc.boolean(), nasty),
      type: fc.oneof(fc.constantFrom('offline', 'batch'), nasty),
      create_type: fc.oneof(fc.constant('RETRY'), nasty),
      id: anId,
    },
    { requiredKeys: [] },
  ),
)

type Request = { method: string; url: string; query?: Record<string, string>; body?: unknown; payload?: string; headers?: Record<string, string>; auth: 'valid' | 'none' | 'garbage' }

function expectContractAnswer(request: Request, reply: Reply): void {
  const context = `${request.method} ${request.url} ${JSON.stringify(request.query ?? {}).slice(0, 200)} ${String(request.payload ?? JSON.stringify(request.body) ?? '').slice(0, 200)} → ${reply.status} ${String(reply.raw.toString('utf8')).slice(0, 300)}`
  expect(reply.status, context).toBeLessThan(500)
  if (reply.status < 400 || request.method === 'HEAD') return
  const body = reply.body
  expect(body, context).toMatchObject({ error: expect.any(String), error_code: expect.any(Number), error_description: expect.any(String), error_uri: '' })
  const entry = findErrorByReason(body.error)
  expect(entry, context).not.toBeNull()
  expect({ code: body.error_code, status: reply.status }, context).toEqual({ code: entry?.code, status: entry?.status })
  // Every drive path, even an error Fastify raises before routing (an over-long path parameter,
  // a malformed %-escape), names the drive's domain; a path whose dot segments lead out of
  // /drive/ is identity's.
  const leavesDrive = request.url.split('?')[0]?.split('/').includes('..') ?? false
  expect(body.details, context).toEqual([
    { '@type': ERROR_INFO_TYPE, reason: expect.any(String), domain: leavesDrive ? expect.any(String) : 'drive', metadata: expect.any(Object) },
    { '@type': LOCALIZED_MESSAGE_TYPE, locale: expect.any(String), message: expect.any(String) },
  ])
}

async function send(request: Request): Promise<Reply> {
  const headers: Record<string, string> = { ...request.headers }
  if (request.auth === 'garbage') headers.authorization = 'Bearer not-a-token'
  return t.call(request.method, request.url, {
    ...(request.auth === 'valid' ? { token } : {}),
    headers,
    ...(request.query ? { query: request.query } : {}),
    ...(request.payload !== undefined ? { payload: request.payload } : request.body !== undefined ? { body: request.body } : {}),
  })
}

const auth = fc.constantFrom<Request['auth']>('valid', 'valid', 'valid', 'valid', 'none', 'garbage')
const method = fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS')
const queryKeys = ['parent_id', 'limit', 'page_token', 'filters', 'order_by', 'direction', 'type', 'task_ids', 'delete_files', 'thumbnail_size', 'e', 's', 'disposition']
const query = fc.dictionary(fc.constantFrom(...queryKeys), nasty, { maxKeys: 4 })
/** A body as sent: JSON of any shape, or raw text that is not JSON, under a JSON content type or none. */
const payload = fc.oneof(
  jsonish.map((body) => ({ body })),
  fc.oneof(nasty, fc.constantFrom('{"ids": [', '{"ids": ["a"]}}', '\u0000', 'ids=a&ids=b', '[1,2]')).map((raw) => ({ payload: raw, headers: { 'content-type': 'application/json' } })),
  fc.constant({}),
)

/** A path segment as a client would escape it (a lone surrogate becomes U+FFFD, as on the wire). */
const escape = (segment: string) => encodeURIComponent(Buffer.from(segment, 'utf8').toString('utf8'))

const BATCH_PATHS = ['batchTrash', 'batchUntrash', 'batchDelete', 'batchMove', 'batchCopy', 'star', 'unstar'].map((a) => `/drive/v1/files:${a}`)

async function check(request: Request) {
  expectContractAnswer(request, await send(request))
}

describe('random and malformed requests to the drive', () => {
  it('listing, tasks and events queries', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/drive/v1/files', '/drive/v1/tasks', '/drive/v1/events', '/drive/v1/about', '/drive/v1/privilege/vip', '/vip/v1/vip/info', '/vip/v1/quantity/list'), fc.constantFrom('GET', 'DELETE'), query, auth, async (url, m, q, a) => {
        await check({ method: m, url, query: q, auth: a })
      }),
      { numRuns: RUNS },
    )
  })

  it('items by id: get, rename, tasks, content', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/drive/v1/files/', '/drive/v1/tasks/', '/drive/v1/content/'), anId, method, query, payload, auth, async (prefix, id, m, q, p, a) => {
        await check({ method: m, url: `${prefix}${escape(id)}`, query: q, ...p, auth: a })
      }),
      { numRuns: RUNS },
    )
  })

  it('bodies for create, batch, retry and empty trash', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/drive/v1/files', '/drive/v1/task', '/drive/v1/files/trash:empty', ...BATCH_PATHS), fc.constantFrom('POST', 'PATCH', 'POST'), payload, auth, async (url, m, p, a) => {
        await check({ method: m, url, ...p, auth: a })
      }),
      { numRuns: RUNS * 2 },
    )
  })

  it('well-formed batch requests with random ids and targets', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...BATCH_PATHS), fc.array(anId, { minLength: 1, maxLength: 4 }), fc.option(anId), async (url, ids, to) => {
        await check({ method: 'POST', url, body: { ids, ...(to === null ? {} : { to: { parent_id: to } }) }, auth: 'valid' })
      }),
      { numRuns: RUNS },
    )
  })

  it('random methods and paths under /drive/v1', async () => {
    const segment = fc.oneof(
      fc.constantFrom('files', 'tasks', 'task', 'events', 'about', 'content', 'privilege', 'vip', 'trash:empty', 'files:batchNope', ':', '::', '..').map(escape),
      // Sent as they are: malformed and awkward escapes.
      fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '%2F', '%3A', 'a%20b'),
      anId.map(escape),
    )
    await fc.assert(
      fc.asyncProperty(method, fc.array(segment, { minLength: 1, maxLength: 4 }), query, payload, auth, async (m, segments, q, p, a) => {
        await check({ method: m, url: `/drive/v1/${segments.join('/')}`, query: q, ...p, auth: a })
      }),
      { numRuns: RUNS * 2 },
    )
  })

})

// tus answers its own protocol errors in its plain-text form (tus clients read the status and
// the Tus-Resumable header); everything else on these paths is in the contract shape.
describe('random and malformed requests to the tus upload paths', () => {
  it('tus uploads with random methods, headers and bodies', async () => {
    const header = fc.dictionary(fc.constantFrom('tus-resumable', 'upload-length', 'upload-offset', 'upload-metadata', 'upload-defer-length', 'upload-concat', 'content-type'), fc.oneof(nasty, fc.constantFrom('1.0.0', '0', '5', '99999999999999999', 'filename YS50eHQ=', 'application/offset+octet-stream')), { maxKeys: 5 })
    await fc.assert(
      fc.asyncProperty(method, fc.constantFrom('/drive/v1/uploads', '/drive/v1/uploads/Vmissing', '/drive/v1/uploads/a:b'), header, payload, auth, async (m, url, headers, p, a) => {
        await check({ method: m, url, ...p, headers: { ...headers, ...('headers' in p ? p.headers : {}) }, auth: a })
      }),
      { numRuns: RUNS },
    )
  })
})
