import { randomBytes } from 'node:crypto'
import { appendFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Agent, request } from 'node:http'
import { Readable } from 'node:stream'
import { DriveErrors, GenericErrors } from '@cumulus/protocol'
import { ManualClock } from '@cumulus/identity'
import { type CumulusServer, buildServer, loadConfig } from '@cumulus/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fullCollection } from '../../../test-support/full-collection.js'
import { gcidOf } from '../src/blobs/gcid.js'
import { announceBlob } from '../src/domain/blob-refs.js'
import { maintainUploads } from '../src/features/uploads/cancel-upload.js'
import { stagingOf } from '../src/domain/staging.js'
import { runDriveHousekeeping } from '../src/housekeeping.js'
import { type DriveTestApp, type Reply, startDriveTestApp } from './drive-test-app.js'
import { type Caller, OCTETS, TUS, createUpload, download, head, patch, pathOf, stagingFiles, storedBlobs, uploadFile } from './upload-kit.js'

let t: DriveTestApp
beforeAll(async () => {
  t = await startDriveTestApp()
})
afterAll(async () => {
  await t?.close()
})

const db = () => t.server.drive.db
const usageOf = async (token: string) => (await t.call('GET', '/drive/v1/about', { token })).body.quota.usage as string
const uploadRow = (id: string) => db().selectFrom('drive_uploads').selectAll().where('id', '=', id).executeTakeFirst()
const taskOf = (fileId: string) => db().selectFrom('drive_tasks').selectAll().where('file_id', '=', fileId).executeTakeFirstOrThrow()
const uploadIdOf = (endpoint: string) => new URL(endpoint).pathname.split('/').pop() as string

/** Resolves once the staging file of `uploadId` has `bytes` bytes (the server wrote what it was sent). */
async function stagedBytes(uploadId: string, bytes: number): Promise<void> {
  const staging = stagingOf(t.server.drive.config)
  while ((await staging.offsetOf(uploadId)) !== bytes) await new Promise((resolve) => setImmediate(resolve))
}

describe('resumable upload over tus', () => {
  it('continues an interrupted upload from the offset the server reports and stores it byte for byte', async () => {
    const token = await t.signUp()
    const content = randomBytes(1_500_000)
    const created = await createUpload(t, token, { name: 'movie.mp4', size: String(content.length) })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({
      upload_type: 'UPLOAD_TYPE_RESUMABLE',
      file: { kind: 'drive#file', name: 'movie.mp4', size: '1500000', phase: 'PHASE_TYPE_PENDING', hash: '', web_content_link: '' },
      task: { kind: 'drive#task', type: 'upload', phase: 'PHASE_TYPE_PENDING', progress: 0, file_id: created.body.file.id, file_size: '1500000' },
      resumable: { kind: 'drive#resumable', provider: 'PROVIDER_TUS' },
    })
    const { endpoint, expiration } = created.body.resumable.params
    const uploadId = uploadIdOf(endpoint)
    expect(endpoint).toBe(`http://127.0.0.1:3000/drive/v1/uploads/${uploadId}`)
    expect(Date.parse(expiration)).toBeGreaterThan(Date.now())

    // The upload resource exists already: HEAD first, as a client resuming from nothing does.
    const fresh = await head(t, token, endpoint)
    expect([fresh.status, fresh.headers['upload-offset'], fresh.headers['upload-length'], fresh.headers['tus-resumable']]).toEqual([200, '0', '1500000', '1.0.0'])

    const first = await patch(t, token, endpoint, 0, content.subarray(0, 300_000))
    expect([first.status, first.headers['upload-offset']]).toEqual([204, '300000'])
    expect(first.headers['upload-expires']).toBeTruthy()
    expect(await taskOf(created.body.file.id)).toMatchObject({ phase: 'PHASE_TYPE_RUNNING', progress: 20 })

    // The second PATCH breaks off after 400,000 more bytes, as a dropped connection does.
    let sent = 300_000
    const body = new Readable({
      read() {
        if (sent < 700_000) {
          this.push(content.subarray(sent, sent + 100_000))
          sent += 100_000
        }
      },
    })
    const broken = t.server.app.inject({ method: 'PATCH', url: pathOf(endpoint), headers: { authorization: `Bearer ${token}`, ...TUS, 'upload-offset': '300000', 'content-type': OCTETS }, payload: body })
    await stagedBytes(uploadId, 700_000)
    body.destroy(new Error('connection reset'))
    await broken.catch(() => undefined)

    const resumed = await head(t, token, endpoint)
    expect(resumed.headers['upload-offset']).toBe('700000')
    // A PATCH at a stale offset changes nothing.
    expect((await patch(t, token, endpoint, 300_000, content.subarray(300_000))).status).toBe(409)
    const last = await patch(t, token, endpoint, 700_000, content.subarray(700_000))
    expect([last.status, last.headers['upload-offset']]).toEqual([204, '1500000'])

    const file = (await t.call('GET', `/drive/v1/files/${created.body.file.id}`, { token })).body
    expect(file).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', hash: gcidOf(content), size: '1500000', mime_type: 'video/mp4' })
    const got = await download(t, file)
    expect(got.status).toBe(200)
    expect(got.raw.equals(content)).toBe(true)

    expect(await taskOf(file.id)).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', progress: 100 })
    expect(await uploadRow(uploadId)).toBeUndefined()
    // tus's own files are gone: the data became the blob, the info file was removed.
    expect(stagingFiles(t.environment.dataDir).filter((f) => f.startsWith(uploadId))).toEqual([])
    expect(storedBlobs(t.environment.dataDir)).toContain(gcidOf(content))
    // A finished upload is no longer an upload resource.
    expect((await head(t, token, endpoint)).status).toBe(404)
    const events = await db().selectFrom('drive_events').select('type').where('file_id', '=', file.id).execute()
    expect(events.map((e) => e.type)).toEqual(['TYPE_UPLOAD'])
  })

  it('stores the same content once: two uploads share one blob with two references', async () => {
    const alice = await t.signUp()
    const bob = await t.signUp()
    const content = randomBytes(600_000)
    const a = await uploadFile(t, alice, 'a.bin', content)
    const b = await uploadFile(t, bob, 'b.bin', content)
    expect([a.hash, b.hash]).toEqual([gcidOf(content), gcidOf(content)])
    expect(storedBlobs(t.environment.dataDir).filter((g) => g === a.hash)).toHaveLength(1)
    expect(await db().selectFrom('drive_blobs').select(['size', 'ref_count']).where('gcid', '=', a.hash).executeTakeFirst()).toEqual({ size: 600_000, ref_count: 2 })
    expect((await download(t, b)).raw.equals(content)).toBe(true)
    expect([await usageOf(alice), await usageOf(bob)]).toEqual(['600000', '600000'])
  })

  it("never completes at once from another account's content: a GCID and a size are no proof of holding the bytes", async () => {
    // Issue 11: anyone who knew a file's GCID and size got the bytes of another user's private file.
    const alice = await t.signUp()
    const mallory = await t.signUp()
    const secret = randomBytes(300_000)
    const original = await uploadFile(t, alice, 'secret.bin', secret)

    const attempt = await createUpload(t, mallory, { name: 'loot.bin', size: secret.length, hash: original.hash })
    expect(attempt.status).toBe(200)
    expect(attempt.body.file).toMatchObject({ phase: 'PHASE_TYPE_PENDING', hash: '' })
    expect(attempt.body.resumable.provider).toBe('PROVIDER_TUS')
    expect((await t.call('GET', `/drive/v1/files/${attempt.body.file.id}`, { token: mallory })).body.web_content_link).toBe('')
    expect((await db().selectFrom('drive_blobs').select('ref_count').where('gcid', '=', original.hash).executeTakeFirstOrThrow()).ref_count).toBe(1)

    // Sending the real bytes proves possession: the upload completes and storage keeps one copy.
    const sent = await patch(t, mallory, attempt.body.resumable.params.endpoint, 0, secret)
    expect(sent.status).toBe(204)
    expect((await db().selectFrom('drive_blobs').select('ref_count').where('gcid', '=', original.hash).executeTakeFirstOrThrow()).ref_count).toBe(2)
    expect(storedBlobs(t.environment.dataDir).filter((g) => g === original.hash)).toHaveLength(1)
  })

  it('completes at once across accounts when the operator turned on global dedup', async () => {
    const shared = await startDriveTestApp({ DRIVE_GLOBAL_DEDUP: 'true' })
    try {
      const alice = await shared.signUp()
      const bob = await shared.signUp()
      const content = randomBytes(200_000)
      const original = await uploadFile(shared, alice, 'a.bin', content)
      const instant = await createUpload(shared, bob, { name: 'b.bin', size: content.length, hash: original.hash })
      expect(instant.body.file).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', hash: original.hash })
      expect(instant.body.resumable).toBeUndefined()
    } finally {
      await shared.close()
    }
  })

  it('completes an upload at once when the GCID and size are stored already, transferring nothing', async () => {
    const token = await t.signUp()
    const content = randomBytes(400_000)
    const original = await uploadFile(t, token, 'first.bin', content)
    const stagedBefore = stagingFiles(t.environment.dataDir)

    const instant = await createUpload(t, token, { name: 'again.bin', size: 400_000, hash: original.hash.toLowerCase() })
    expect(instant.status).toBe(200)
    expect(instant.body.file).toMatchObject({ name: 'again.bin', phase: 'PHASE_TYPE_COMPLETE', hash: original.hash })
    expect(instant.body.task).toMatchObject({ type: 'upload', phase: 'PHASE_TYPE_COMPLETE', progress: 100 })
    expect(instant.body.resumable).toBeUndefined()
    expect(stagingFiles(t.environment.dataDir)).toEqual(stagedBefore)
    expect((await db().selectFrom('drive_blobs').select('ref_count').where('gcid', '=', original.hash).executeTakeFirstOrThrow()).ref_count).toBe(2)
    expect((await download(t, instant.body.file)).raw.equals(content)).toBe(true)
    expect(await usageOf(token)).toBe('800000')

    // The same GCID with another size is not that content: a normal upload.
    const other = await createUpload(t, token, { name: 'other.bin', size: 399_999, hash: original.hash })
    expect(other.body.file.phase).toBe('PHASE_TYPE_PENDING')
    expect(other.body.resumable.provider).toBe('PROVIDER_TUS')
  })

  it('completes an empty file at once', async () => {
    const token = await t.signUp()
    const created = await createUpload(t, token, { name: 'empty.txt', size: 0 })
    expect(created.body.file).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', size: '0', hash: gcidOf(new Uint8Array()) })
    expect(created.body.resumable).toBeUndefined()
    const got = await download(t, created.body.file)
    expect([got.status, got.headers['content-length'], got.raw.length]).toEqual([200, '0', 0])
  })

  it('refuses sizes that are not whole numbers of bytes', async () => {
    const token = await t.signUp()
    for (const size of [-1, 1.5, 'abc', Number.MAX_SAFE_INTEGER + 2, null]) {
      const reply = await createUpload(t, token, { name: 'x.bin', size: size as number })
      expect(reply.status, String(size)).toBe(400)
      expect(reply.body.error).toBe(GenericErrors.invalid_argument.reason)
    }
  })

  it('terminates an upload on DELETE: the file goes, the space comes back', async () => {
    const token = await t.signUp()
    const created = await createUpload(t, token, { name: 'big.iso', size: 500_000 })
    const { endpoint } = created.body.resumable.params
    await patch(t, token, endpoint, 0, randomBytes(200_000))
    expect(await usageOf(token)).toBe('500000')

    const deleted = await t.call('DELETE', pathOf(endpoint), { token, headers: TUS })
    expect([deleted.status, deleted.headers['tus-resumable']]).toEqual([204, '1.0.0'])
    expect(await usageOf(token)).toBe('0')
    expect((await t.call('GET', `/drive/v1/files/${created.body.file.id}`, { token })).body.error).toBe(DriveErrors.file_not_found.reason)
    expect(await taskOf(created.body.file.id)).toMatchObject({ phase: 'PHASE_TYPE_ERROR', message: 'cancelled' })
    expect(stagingFiles(t.environment.dataDir).filter((f) => f.startsWith(uploadIdOf(endpoint)))).toEqual([])
    expect((await head(t, token, endpoint)).body.error).toBe(DriveErrors.file_not_found.reason)
  })

  it('never takes more bytes than the declared size', async () => {
    const token = await t.signUp()
    const created = await createUpload(t, token, { name: 'small.bin', size: 1000 })
    const { endpoint } = created.body.resumable.params
    expect((await patch(t, token, endpoint, 0, randomBytes(1001))).status).toBe(413)
    // Without a Content-Length the server counts the bytes as they come.
    const streamed = await t.server.app.inject({ method: 'PATCH', url: pathOf(endpoint), headers: { authorization: `Bearer ${token}`, ...TUS, 'upload-offset': '0', 'content-type': OCTETS }, payload: Readable.from([randomBytes(1500)]) })
    expect(streamed.statusCode).toBe(413)
    expect((await head(t, token, endpoint)).headers['upload-offset']).toBe('0')
    const content = randomBytes(1000)
    expect((await patch(t, token, endpoint, 0, content)).status).toBe(204)
    const file = (await t.call('GET', `/drive/v1/files/${created.body.file.id}`, { token })).body
    expect(file.hash).toBe(gcidOf(content))
  })

  it('keeps uploads to their owner and asks for a bearer', async () => {
    const alice = await t.signUp()
    const bob = await t.signUp()
    const { endpoint } = (await createUpload(t, alice, { name: 'mine.bin', size: 10 })).body.resumable.params
    for (const method of ['HEAD', 'PATCH', 'DELETE']) {
      const reply = await t.call(method, pathOf(endpoint), { token: bob, headers: { ...TUS, 'upload-offset': '0', 'content-type': OCTETS }, ...(method === 'PATCH' ? { payload: Buffer.alloc(10) } : {}) })
      expect(reply.status, method).toBe(404)
      if (method !== 'HEAD') expect(reply.body.error, method).toBe(DriveErrors.file_not_found.reason)
      const anonymous = await t.call(method, pathOf(endpoint), { headers: TUS })
      expect(anonymous.status, method).toBe(401)
    }
    expect((await head(t, alice, endpoint)).headers['upload-offset']).toBe('0')
  })
})

/** The test app over real sockets, for what inject's stand-in requests cannot show (started once). */
let address: Promise<string> | undefined
const listening = () => (address ??= t.server.app.listen({ port: 0, host: '127.0.0.1' }))

/**
 * Sends one request over `agent` (one keep-alive connection for all, so each request after a
 * refused one must be answered on it) and resolves with its status once the reply has ended.
 */
async function sendOver(agent: Agent, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<number> {
  const url = `${await listening()}${path}`
  return new Promise<number>((resolve, reject) => {
    const sent = request(url, { method, agent, headers }, (reply) => {
      reply.resume()
      reply.on('end', () => resolve(reply.statusCode ?? 0))
    })
    sent.on('error', reject)
    sent.setTimeout(5000, () => sent.destroy(new Error('no answer: the connection carried no further request')))
    sent.end(body)
  })
}

describe('tus creation', () => {
  const metadata = (fields: Record<string, string>) =>
    Object.entries(fields)
      .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
      .join(',')

  it('creates the pending file from Upload-Length and Upload-Metadata, then takes PATCHes', async () => {
    const token = await t.signUp()
    const folder = (await t.call('POST', '/drive/v1/files', { token, body: { kind: 'drive#folder', name: 'docs' } })).body.file
    const content = Buffer.from('hello, 世界\n')
    const created = await t.call('POST', '/drive/v1/uploads', { token, headers: { ...TUS, 'upload-length': String(content.length), 'upload-metadata': metadata({ filename: 'notes.txt', parent_id: folder.id }) } })
    expect(created.status).toBe(201)
    expect(created.headers.location).toMatch(/^http:\/\/127\.0\.0\.1:3000\/drive\/v1\/uploads\/U\w+$/)
    expect(created.headers['upload-expires']).toBeTruthy()
    const listed = (await t.call('GET', '/drive/v1/files', { token, query: { parent_id: folder.id } })).body.files
    expect(listed).toMatchObject([{ name: 'notes.txt', phase: 'PHASE_TYPE_PENDING', size: String(content.length) }])

    expect((await patch(t, token, created.headers.location as string, 0, content)).status).toBe(204)
    const file = (await t.call('GET', `/drive/v1/files/${listed[0].id}`, { token })).body
    expect(file).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', mime_type: 'text/plain', parent_id: folder.id, hash: gcidOf(content) })
  })

  it('takes the first bytes with the creation request (creation-with-upload)', async () => {
    const token = await t.signUp()
    const content = randomBytes(5000)
    const created = await t.call('POST', '/drive/v1/uploads', { token, headers: { ...TUS, 'upload-length': '5000', 'upload-metadata': metadata({ filename: 'all-at-once.bin' }), 'content-type': OCTETS }, payload: content })
    expect([created.status, created.headers['upload-offset']]).toEqual([201, '5000'])
    const [file] = (await t.call('GET', '/drive/v1/files', { token })).body.files
    expect(file).toMatchObject({ name: 'all-at-once.bin', phase: 'PHASE_TYPE_COMPLETE', hash: gcidOf(content) })
  })

  it('answers bad creations in the contract shape (names) or as tus does (protocol), creating nothing', async () => {
    const token = await t.signUp()
    const nameless = await t.call('POST', '/drive/v1/uploads', { token, headers: { ...TUS, 'upload-length': '10' } })
    expect([nameless.status, nameless.body.error]).toEqual([400, DriveErrors.file_name_empty.reason])
    expect((await t.call('POST', '/drive/v1/uploads', { token, headers: { 'upload-length': '10', 'upload-metadata': metadata({ filename: 'a' }) } })).status).toBe(412)
    expect((await t.call('POST', '/drive/v1/uploads', { token, headers: { ...TUS, 'upload-defer-length': '1', 'upload-metadata': metadata({ filename: 'a' }) } })).status).toBe(501)
    expect((await t.call('POST', '/drive/v1/uploads', { headers: { ...TUS, 'upload-length': '10', 'upload-metadata': metadata({ filename: 'a' }) } })).status).toBe(401)
    expect((await t.call('GET', '/drive/v1/files', { token })).body.files).toEqual([])
    expect(await usageOf(token)).toBe('0')
  })

  it('lets go of a creation body that tus never reads (a refused creation keeps nothing of it)', async () => {
    const token = await t.signUp()
    // Over real sockets: inject's stand-in request keeps an unread payload referenced on its own.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const post = (body: Buffer) => sendOver(agent, 'POST', '/drive/v1/uploads', { ...TUS, authorization: `Bearer ${token}`, 'upload-metadata': metadata({ filename: 'never.bin' }), 'content-type': OCTETS, 'content-length': String(body.length) }, body)
    try {
      const gc = fullCollection()
      gc()
      const before = process.memoryUsage().arrayBuffers
      // No Upload-Length: tus answers 400 without reading the body. What the server had read of
      // each body stayed referenced, through a listener on its shutdown signal, until it closed.
      for (let i = 0; i < 40; i++) expect(await post(Buffer.alloc(256 * 1024, i))).toBe(400)
      gc()
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(2 * 1024 * 1024)
    } finally {
      agent.destroy()
    }
  })

  it('answers the next request on a keep-alive connection after a PATCH refused midway (more bytes than the upload has room for)', async () => {
    const token = await t.signUp()
    const created = await createUpload(t, token, { name: 'small.bin', size: 10 })
    const endpoint = new URL(created.body.resumable.params.endpoint)
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const send = (method: string, headers: Record<string, string>, body?: Buffer) => sendOver(agent, method, endpoint.pathname, { ...TUS, authorization: `Bearer ${token}`, ...headers }, body)
    try {
      // Chunked, so the size is known only as the bytes come: refused once they pass the room.
      expect(await send('PATCH', { 'upload-offset': '0', 'content-type': OCTETS, 'transfer-encoding': 'chunked' }, Buffer.alloc(512 * 1024, 1))).toBe(413)
      expect(await send('HEAD', {})).toBe(200)
    } finally {
      agent.destroy()
    }
  })

  it('advertises its version and extensions on OPTIONS, without a bearer', async () => {
    const reply = await t.call('OPTIONS', '/drive/v1/uploads')
    expect(reply.status).toBe(204)
    expect(reply.headers['tus-version']).toBe('1.0.0')
    expect(String(reply.headers['tus-extension']).split(',').sort()).toEqual(['creation', 'creation-with-upload', 'expiration', 'termination'])
  })
})

describe('quota', () => {
  let small: DriveTestApp
  beforeAll(async () => {
    // No session cache: a membership ended in the database shows on the next request.
    small = await startDriveTestApp({ DRIVE_QUOTA_FREE: '1000000', SESSION_CACHE_SECONDS: '0' })
  })
  afterAll(async () => {
    await small?.close()
  })

  it('refuses an upload that does not fit before storing anything', async () => {
    const token = await small.signUp()
    const refused = await createUpload(small, token, { name: 'huge.bin', size: 1_000_001 })
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ error: DriveErrors.file_space_not_enough.reason, error_code: 8 })
    const viaTus = await small.call('POST', '/drive/v1/uploads', { token, headers: { ...TUS, 'upload-length': '1000001', 'upload-metadata': `filename ${Buffer.from('huge.bin').toString('base64')}` } })
    expect([viaTus.status, viaTus.body.error]).toEqual([403, DriveErrors.file_space_not_enough.reason])

    const sub = await small.server.drive.db.selectFrom('drive_files').select('id').where('name', '=', 'huge.bin').execute()
    expect(sub).toEqual([])
    expect(stagingFiles(small.environment.dataDir)).toEqual([])
    expect((await small.call('GET', '/drive/v1/about', { token })).body.quota.usage).toBe('0')

    // A pending upload holds its space: two of 600,000 bytes do not both fit.
    expect((await createUpload(small, token, { name: 'a.bin', size: 600_000 })).status).toBe(200)
    expect((await createUpload(small, token, { name: 'b.bin', size: 600_000 })).body.error).toBe(DriveErrors.file_space_not_enough.reason)
  })

  it('keeps an over-quota account readable and deletable once its membership ends, but lets it add nothing', async () => {
    const token = await small.signUp()
    await small.makeVip(token)
    const big = randomBytes(1_200_000)
    const file = await uploadFile(small, token, 'big.bin', big)
    expect((await small.call('GET', '/drive/v1/about', { token })).body.quota.usage).toBe('1200000')

    // The membership runs out: the free plan's 1,000,000 bytes are less than what is stored.
    const sub = (await small.call('GET', '/v1/user/me', { token })).body.sub as string
    await small.server.drive.db.updateTable('identity_memberships' as never).set({ expires_at: Date.now() - 1000 } as never).where('user_id' as never, '=', sub as never).execute()
    const about = (await small.call('GET', '/drive/v1/about', { token })).body
    expect(about.quota).toMatchObject({ limit: '1000000', usage: '1200000' })
    expect((await small.call('GET', '/drive/v1/privilege/vip', { token })).body.data.status).toBe('invalid')

    // Readable: listed, and its bytes download.
    expect((await small.call('GET', '/drive/v1/files', { token })).body.files.map((f: { name: string }) => f.name)).toContain('big.bin')
    const link = (await small.call('GET', `/drive/v1/files/${file.id}`, { token })).body.web_content_link as string
    const download = await small.call('GET', new URL(link).pathname + new URL(link).search)
    expect(download.status).toBe(200)
    expect(download.raw.length).toBe(big.length)
    // Nothing new: not even a byte, nor a copy of what is there.
    expect((await createUpload(small, token, { name: 'one.bin', size: 1 })).body.error).toBe(DriveErrors.file_space_not_enough.reason)
    expect((await small.call('POST', '/drive/v1/files:batchCopy', { token, body: { ids: [file.id], to: { parent_id: '' } } })).body.error).toBe(DriveErrors.file_space_not_enough.reason)
    // Deletable: trash and delete free the space, and then it fits again.
    expect((await small.call('POST', '/drive/v1/files:batchDelete', { token, body: { ids: [file.id] } })).status).toBe(200)
    expect((await small.call('GET', '/drive/v1/about', { token })).body.quota.usage).toBe('0')
    expect((await createUpload(small, token, { name: 'one.bin', size: 1 })).status).toBe(200)
  })

  it('shows the space unfinished uploads hold as usage_in_uploads, apart from finished files and the trash', async () => {
    // Regression: an abandoned upload counted against storage (38.1 MB used) while the drive
    // showed only 9 bytes of files, and nothing said where the rest went.
    const token = await t.signUp()
    const quota = async () => (await t.call('GET', '/drive/v1/about', { token })).body.quota
    expect(await quota()).toMatchObject({ usage: '0', usage_in_trash: '0', usage_in_uploads: '0' })

    await uploadFile(t, token, 'done.txt', randomBytes(9))
    const pending = await createUpload(t, token, { name: 'big.bin', size: 400_000 })
    await patch(t, token, pending.body.resumable.params.endpoint, 0, randomBytes(100_000))
    const trashed = await createUpload(t, token, { name: 'gone.bin', size: 50_000 })
    expect(await quota()).toMatchObject({ usage: '450009', usage_in_trash: '0', usage_in_uploads: '450000' })

    // A trashed upload counts as trash, not twice.
    expect((await t.call('POST', '/drive/v1/files:batchTrash', { token, body: { ids: [trashed.body.file.id] } })).status).toBe(200)
    expect(await quota()).toMatchObject({ usage: '450009', usage_in_trash: '50000', usage_in_uploads: '400000' })

    // Finishing turns the reservation into a file.
    await patch(t, token, pending.body.resumable.params.endpoint, 100_000, randomBytes(300_000))
    expect(await quota()).toMatchObject({ usage: '450009', usage_in_trash: '50000', usage_in_uploads: '0' })
  })
})

describe('housekeeping', () => {
  it('drops expired uploads and gives their space back', async () => {
    const token = await t.signUp()
    const created = await createUpload(t, token, { name: 'stale.bin', size: 300_000 })
    const { endpoint } = created.body.resumable.params
    const uploadId = uploadIdOf(endpoint)
    await patch(t, token, endpoint, 0, randomBytes(100_000))
    await db().updateTable('drive_uploads').set({ expires_at: Date.now() - 1 }).where('id', '=', uploadId).execute()

    const done = await maintainUploads(t.server.drive)
    expect(done.expired).toBeGreaterThanOrEqual(1)
    expect(await usageOf(token)).toBe('0')
    expect((await t.call('GET', `/drive/v1/files/${created.body.file.id}`, { token })).status).toBe(404)
    expect(await taskOf(created.body.file.id)).toMatchObject({ phase: 'PHASE_TYPE_ERROR', message: 'expired' })
    expect(stagingFiles(t.environment.dataDir).filter((f) => f.startsWith(uploadId))).toEqual([])
  })

  it('reclaims an abandoned upload once housekeeping runs past its expiry: space, staging files, pending file', async () => {
    // Its own server: the housekeeping below runs days ahead, and would expire every upload of a shared one.
    const app = await startDriveTestApp()
    try {
      const token = await app.signUp()
      const quota = async () => (await app.call('GET', '/drive/v1/about', { token })).body.quota
      const created = await createUpload(app, token, { name: 'abandoned.bin', size: 300_000 })
      const uploadId = uploadIdOf(created.body.resumable.params.endpoint)
      await patch(app, token, created.body.resumable.params.endpoint, 0, randomBytes(100_000))
      const { expires_at: expiresAtMs, created_at: createdAtMs } = await app.server.drive.db.selectFrom('drive_uploads').select(['expires_at', 'created_at']).where('id', '=', uploadId).executeTakeFirstOrThrow()
      expect(Number(expiresAtMs) - Number(createdAtMs)).toBe(app.server.drive.config.uploadExpirySeconds * 1000)
      const stagedFiles = () => stagingFiles(app.environment.dataDir).filter((f) => f.startsWith(uploadId))
      expect(stagedFiles()).toEqual([uploadId, `${uploadId}.json`])

      const clock = new ManualClock(Number(expiresAtMs) - 1)
      const deps = { ...app.server.drive, clock }
      await runDriveHousekeeping(deps)
      expect(await quota()).toMatchObject({ usage: '300000', usage_in_uploads: '300000' })
      expect(stagedFiles()).toHaveLength(2)

      clock.set(Number(expiresAtMs))
      await runDriveHousekeeping(deps)
      expect(await quota()).toMatchObject({ usage: '0', usage_in_trash: '0', usage_in_uploads: '0' })
      expect(stagedFiles()).toEqual([])
      expect(await app.server.drive.db.selectFrom('drive_files').select('id').where('id', '=', created.body.file.id).execute()).toEqual([])
      expect(await app.server.drive.db.selectFrom('drive_uploads').select('id').where('id', '=', uploadId).execute()).toEqual([])
      expect((await head(app, token, created.body.resumable.params.endpoint)).status).toBe(404)
    } finally {
      await app.close()
    }
  })

  it('removes staging files no upload points at, once they are old', async () => {
    const uploads = join(t.environment.dataDir, 'uploads')
    writeFileSync(join(uploads, 'Uold'), 'x')
    writeFileSync(join(uploads, 'Uold.json'), '{}')
    const hourAndMinuteAgo = new Date(Date.now() - 61 * 60_000)
    utimesSync(join(uploads, 'Uold'), hourAndMinuteAgo, hourAndMinuteAgo)
    utimesSync(join(uploads, 'Uold.json'), hourAndMinuteAgo, hourAndMinuteAgo)
    writeFileSync(join(uploads, 'Ufresh'), 'x')

    await maintainUploads(t.server.drive)
    const left = stagingFiles(t.environment.dataDir)
    expect(left).not.toContain('Uold')
    expect(left).not.toContain('Uold.json')
    expect(left).toContain('Ufresh')
  })

  it('finishes an upload whose completion was interrupted, at the next HEAD or housekeeping run', async () => {
    const token = await t.signUp()
    const deps = t.server.drive
    const staging = stagingOf(deps.config)

    // Every byte is in the staging file, but no PATCH saw the end (the process died first).
    const first = randomBytes(50_000)
    const one = await createUpload(t, token, { name: 'one.bin', size: first.length })
    const oneId = uploadIdOf(one.body.resumable.params.endpoint)
    appendFileSync(staging.dataPath(oneId), first)
    const asked = await head(t, token, one.body.resumable.params.endpoint)
    expect([asked.status, asked.headers['upload-offset'], asked.headers['upload-length']]).toEqual([200, '50000', '50000'])
    expect((await t.call('GET', `/drive/v1/files/${one.body.file.id}`, { token })).body).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', hash: gcidOf(first) })

    // The staging file had become the blob, but the file was never marked complete.
    const second = randomBytes(70_000)
    const two = await createUpload(t, token, { name: 'two.bin', size: second.length })
    const twoId = uploadIdOf(two.body.resumable.params.endpoint)
    appendFileSync(staging.dataPath(twoId), second)
    const gcid = gcidOf(second)
    await announceBlob(deps.db, gcid, second.length, deps.clock.nowMs())
    await staging.recordGcid(twoId, gcid)
    await deps.blobs.adopt(staging.dataPath(twoId), second.length, gcid)

    expect((await maintainUploads(deps)).finished).toBe(1)
    const file = (await t.call('GET', `/drive/v1/files/${two.body.file.id}`, { token })).body
    expect(file).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', hash: gcid })
    expect((await download(t, file)).raw.equals(second)).toBe(true)
    expect((await deps.db.selectFrom('drive_blobs').select('ref_count').where('gcid', '=', gcid).executeTakeFirstOrThrow()).ref_count).toBe(1)
  })
})

/** Requests to a server rebuilt on the test app's data, as DriveTestApp.call sends them. */
function callerOn(server: CumulusServer): Caller {
  return {
    async call(method, url, options = {}) {
      const headers: Record<string, string> = { ...options.headers }
      if (options.token) headers.authorization = `Bearer ${options.token}`
      const payload = options.payload ?? (options.body as object | undefined)
      const reply = await server.app.inject({ method: method as 'GET', url, headers, ...(options.query ? { query: options.query } : {}), ...(payload !== undefined ? { payload } : {}) })
      const type = String(reply.headers['content-type'] ?? '')
      return { status: reply.statusCode, headers: reply.headers as Reply['headers'], body: (type.includes('json') && reply.body ? reply.json() : reply.body) as never, raw: reply.rawPayload }
    },
  }
}

describe('restart', () => {
  it('keeps upload sessions across a server restart', async () => {
    const app = await startDriveTestApp()
    let restarted: CumulusServer | undefined
    try {
      const token = await app.signUp()
      const content = randomBytes(800_000)
      const created = await createUpload(app, token, { name: 'across.bin', size: content.length })
      const { endpoint } = created.body.resumable.params
      expect((await patch(app, token, endpoint, 0, content.subarray(0, 350_000))).status).toBe(204)
      await app.server.close()

      restarted = await buildServer(loadConfig(app.environment.env), { web: false, housekeeping: false })
      const again = callerOn(restarted)
      expect((await head(again, token, endpoint)).headers['upload-offset']).toBe('350000')
      expect((await patch(again, token, endpoint, 350_000, content.subarray(350_000))).status).toBe(204)
      const file = (await again.call('GET', `/drive/v1/files/${created.body.file.id}`, { token })).body
      expect(file).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', hash: gcidOf(content) })
      expect((await download(again, file)).raw.equals(content)).toBe(true)
    } finally {
      await restarted?.close()
      await app.close()
    }
  })
})
