import { DriveErrors, GenericErrors, LocalErrors } from '@cumulus/protocol'
import { describe, expect, it } from 'vitest'
import { type Call, FakeDrive, ORIGIN, deferred, json, patternBytes, signedInIdentity, wire } from '../../test/fake-drive.js'
import { IdentityError } from '../errors.js'
import { MemoryStorage } from '../storage.js'
import { DriveClient, type DriveClientOptions } from './drive-client.js'
import type { UploadProgress } from './progress.js'
import type { UploadState } from './upload.js'
import { UPLOAD_INDEX_KEY, UPLOAD_KEY_PREFIX } from './upload-records.js'

const KIB = 1024
const CHUNK = 16 * KIB

function setup(options: Partial<DriveClientOptions> = {}, drive = new FakeDrive(), storage = new MemoryStorage()) {
  const identity = signedInIdentity(drive)
  const sleeps: number[] = []
  const client = new DriveClient({
    identity,
    storage,
    chunkSize: CHUNK,
    xhr: false,
    sleep: async (ms) => {
      sleeps.push(ms)
    },
    ...options,
  })
  return { drive, client, storage, sleeps }
}

/** Records every progress report and state change of one upload. */
function watch() {
  const progress: UploadProgress[] = []
  const states: UploadState[] = []
  return {
    progress,
    states,
    sent: () => progress.map((p) => p.sentBytes),
    onProgress: (p: UploadProgress) => progress.push(p),
    onStateChange: (s: UploadState) => states.push(s),
  }
}

function expectMonotonicToTotal(progress: UploadProgress[], total: number) {
  const sent = progress.map((p) => p.sentBytes)
  for (let i = 1; i < sent.length; i += 1) expect(sent[i]).toBeGreaterThan(sent[i - 1] as number)
  expect(sent.at(-1)).toBe(total)
  expect(progress.every((p) => p.totalBytes === total && p.bytesPerSecond >= 0)).toBe(true)
}

async function rejection(promise: Promise<unknown>): Promise<IdentityError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the upload to fail')
    },
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(IdentityError)
  return error as IdentityError
}

const isPatch = (call: Call) => call.method === 'PATCH'

/** The server holds exactly these bytes for the upload (compared as buffers: deep equality of large arrays is slow). */
function expectStored(drive: FakeDrive, uploadId: string, bytes: Uint8Array) {
  const stored = drive.uploads.get(uploadId)?.data
  expect(stored && Buffer.from(stored).equals(bytes)).toBe(true)
}

/** Lets every pending promise callback run (the fakes only ever wait on promises). */
async function settle(rounds = 20) {
  for (let i = 0; i < rounds; i += 1) await new Promise((resolve) => setImmediate(resolve))
}

describe('upload over tus', () => {
  it('creates the file, then HEAD and one PATCH per chunk with the offsets, and resolves with the completed file', async () => {
    const { drive, client, storage } = setup()
    const bytes = patternBytes(2 * CHUNK + 1000)
    const seen = watch()

    const handle = client.upload({ file: bytes, name: 'clip.bin', parentId: 'folder1', lastModified: 42, hash: '', ...seen })
    const file = await handle.promise

    const create = drive.calls.find((c) => c.method === 'POST')
    expect(create?.json).toEqual({
      kind: 'drive#file',
      name: 'clip.bin',
      parent_id: 'folder1',
      size: String(bytes.byteLength),
      upload_type: 'UPLOAD_TYPE_RESUMABLE',
      resumable: { provider: 'PROVIDER_TUS' },
    })
    expect(drive.trail).toEqual([
      'POST /drive/v1/files',
      'HEAD /drive/v1/uploads/up1',
      'PATCH /drive/v1/uploads/up1',
      'PATCH /drive/v1/uploads/up1',
      'PATCH /drive/v1/uploads/up1',
      `GET /drive/v1/files/${file.id}`,
    ])
    expect(drive.tusTrail).toEqual(['HEAD', 'PATCH 0', `PATCH ${CHUNK}`, `PATCH ${2 * CHUNK}`])
    const patches = drive.calls.filter(isPatch)
    expect(patches.map((c) => c.bytes?.byteLength)).toEqual([CHUNK, CHUNK, 1000])
    for (const call of drive.calls.filter((c) => c.path.startsWith('/drive/v1/uploads/'))) {
      expect(call.headers).toMatchObject({ 'tus-resumable': '1.0.0', authorization: 'Bearer at1' })
    }
    expect(patches.every((c) => c.headers['content-type'] === 'application/offset+octet-stream')).toBe(true)
    expectStored(drive, 'up1', bytes)
    expect(file).toMatchObject({ id: handle.fileId, phase: 'PHASE_TYPE_COMPLETE', name: 'clip.bin' })
    expect(handle.state).toBe('done')
    expect(seen.states).toEqual(['done'])
    expect(seen.sent()).toEqual([0, CHUNK, 2 * CHUNK, bytes.byteLength])
    expectMonotonicToTotal(seen.progress, bytes.byteLength)
    // Nothing left to resume.
    expect(storage.getItem(UPLOAD_KEY_PREFIX + handle.fingerprint)).toBeNull()
    expect(storage.getItem(UPLOAD_INDEX_KEY)).toBeNull()
    expect(client.pendingUploads()).toEqual([])
  })

  it('sends the hash and skips tus altogether when the server already has the content', async () => {
    const { drive, client } = setup()
    drive.knownHashes.add('ABC')
    const seen = watch()
    const handle = client.upload({ file: patternBytes(5000), name: 'known.bin', hash: 'ABC', ...seen })
    const file = await handle.promise
    expect(drive.trail).toEqual(['POST /drive/v1/files'])
    expect(drive.calls[0]?.json).toMatchObject({ hash: 'ABC', size: '5000', parent_id: '' })
    expect(file).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', hash: 'ABC' })
    expect(seen.progress).toEqual([{ sentBytes: 5000, totalBytes: 5000, bytesPerSecond: 0 }])
    expect(handle.state).toBe('done')
  })

  it('uploads a File (Blob slices) and resolves a relative endpoint against the origin', async () => {
    const drive = new FakeDrive()
    drive.endpointStyle = 'relative'
    const { client } = setup({}, drive)
    const bytes = patternBytes(CHUNK + 10)
    const file = new File([bytes], 'ignored.bin', { lastModified: 1_700_000_000_000 })
    const done = await client.upload({ file, name: 'photo.jpg' }).promise
    expect(done.phase).toBe('PHASE_TYPE_COMPLETE')
    expect(drive.calls.filter(isPatch).map((c) => c.url.origin)).toEqual([ORIGIN, ORIGIN])
    expectStored(drive, 'up1', bytes)
  })

  it('after a PATCH fails midway, backs off, asks HEAD for the offset and continues from the server offset', async () => {
    const { drive, client, sleeps } = setup()
    const bytes = patternBytes(3 * CHUNK)
    let patches = 0
    // The connection drops after the server stored half of the second chunk.
    drive.interceptors.push((call, d) => {
      if (!isPatch(call) || ++patches !== 2) return undefined
      d.accept(d.uploadOf(call), call.bytes as Uint8Array, CHUNK / 2)
      return new TypeError('fetch failed')
    })
    const seen = watch()

    await client.upload({ file: bytes, name: 'a.bin', ...seen }).promise

    expect(drive.tusTrail).toEqual(['HEAD', 'PATCH 0', `PATCH ${CHUNK}`, 'HEAD', `PATCH ${CHUNK + CHUNK / 2}`, `PATCH ${2 * CHUNK + CHUNK / 2}`])
    expect(sleeps).toEqual([1000])
    expectStored(drive, 'up1', bytes)
    expectMonotonicToTotal(seen.progress, bytes.byteLength)
  })

  it('retries 5xx replies and offset conflicts, resetting the retry budget after each accepted chunk', async () => {
    const { drive, client, sleeps } = setup({ retryDelays: [10, 20] })
    let patches = 0
    // Two failures before each chunk: within a budget of two retries only because it resets.
    drive.interceptors.push((call) => {
      if (!isPatch(call)) return undefined
      patches += 1
      if (patches % 3 === 1) return new Response('busy', { status: 503 })
      if (patches % 3 === 2) return new Response('Upload-Offset conflict', { status: 409 })
      return undefined
    })
    const bytes = patternBytes(2 * CHUNK)
    await client.upload({ file: bytes, name: 'a.bin' }).promise
    expect(sleeps).toEqual([10, 20, 10, 20])
    expectStored(drive, 'up1', bytes)
  })

  it('gives up after the last retry with an IdentityError carrying the status, and keeps the upload stored', async () => {
    const { drive, client, sleeps } = setup({ retryDelays: [10, 20, 30] })
    drive.interceptors.push((call) => (isPatch(call) ? new Response('<html>Bad gateway</html>', { status: 502 }) : undefined))
    const seen = watch()
    const handle = client.upload({ file: patternBytes(1000), name: 'a.bin', lastModified: 1, ...seen })

    const error = await rejection(handle.promise)

    expect(error.is(GenericErrors.unavailable)).toBe(true)
    expect(error.status).toBe(502)
    expect(error.errorDescription).toContain('PATCH failed with HTTP 502')
    expect(sleeps).toEqual([10, 20, 30])
    expect(drive.calls.filter(isPatch)).toHaveLength(4)
    expect(handle.state).toBe('error')
    expect(seen.states).toEqual(['error'])
    // Still on the server: a later upload() of the same file may continue it.
    expect(client.pendingUploads().map((u) => u.fingerprint)).toEqual([handle.fingerprint])
  })

  it('does not retry a refusal, and the error is the server body', async () => {
    const { drive, client, sleeps } = setup()
    drive.interceptors.push((call) => (isPatch(call) ? wire(DriveErrors.file_space_not_enough, 'quota') : undefined))
    const error = await rejection(client.upload({ file: patternBytes(10), name: 'a.bin' }).promise)
    expect(error.toJSON()).toMatchObject({ error: 'file_space_not_enough', error_code: 8, error_description: 'quota' })
    expect(error.status).toBe(403)
    expect(sleeps).toEqual([])
  })

  it('forgets the stored upload when the server says it is gone', async () => {
    const { drive, client, storage } = setup()
    drive.interceptors.push((call) => (isPatch(call) ? new Response('The file for this url was not found\n', { status: 404 }) : undefined))
    const handle = client.upload({ file: patternBytes(10), name: 'a.bin', lastModified: 5 })
    const error = await rejection(handle.promise)
    expect(error.is(GenericErrors.not_found)).toBe(true)
    expect(error.status).toBe(404)
    expect(storage.getItem(UPLOAD_KEY_PREFIX + handle.fingerprint)).toBeNull()
  })

  it('refreshes the bearer once after a 401 on a tus request and repeats it', async () => {
    const { drive, client } = setup()
    // The server revokes at1 right after creating the upload.
    drive.interceptors.push((call, d) => {
      if (call.method === 'HEAD') d.validTokens.delete('at1')
      return undefined
    })
    const bytes = patternBytes(100)
    await client.upload({ file: bytes, name: 'a.bin' }).promise
    expect(drive.trail).toEqual([
      'POST /drive/v1/files',
      'HEAD /drive/v1/uploads/up1',
      'POST /v1/auth/token',
      'HEAD /drive/v1/uploads/up1',
      'PATCH /drive/v1/uploads/up1',
      expect.stringMatching(/^GET \/drive\/v1\/files\//),
    ])
    expect(drive.calls.filter(isPatch)[0]?.headers['authorization']).toBe('Bearer at2')
    expectStored(drive, 'up1', bytes)
  })

  it('rejects file_upload_incomplete when the file is still pending after its last byte', async () => {
    const { drive, client, sleeps } = setup({ retryDelays: [7, 8, 9] })
    drive.interceptors.push((call) =>
      call.method === 'GET' && call.path.startsWith('/drive/v1/files/') ? json({ id: 'x', phase: 'PHASE_TYPE_PENDING' }) : undefined,
    )
    const error = await rejection(client.upload({ file: patternBytes(10), name: 'a.bin' }).promise)
    expect(error.is(DriveErrors.file_upload_incomplete)).toBe(true)
    expect(drive.calls.filter((c) => c.method === 'GET')).toHaveLength(3)
    expect(sleeps).toEqual([7, 8])
  })

  it('rejects a creation reply without an endpoint as an invalid response', async () => {
    const { drive, client } = setup()
    drive.routes['POST /drive/v1/files'] = () => json({ upload_type: 'UPLOAD_TYPE_RESUMABLE', file: { id: 'f', phase: 'PHASE_TYPE_PENDING' }, task: null })
    const error = await rejection(client.upload({ file: patternBytes(10), name: 'a.bin' }).promise)
    expect(error.is(LocalErrors.local_invalid_response)).toBe(true)
  })
})

describe('pause, resume and cancel', () => {
  it('pause aborts the PATCH in flight and sends nothing until resume, which continues from HEAD', async () => {
    const { drive, client } = setup()
    const bytes = patternBytes(3 * CHUNK)
    const second = deferred<Call>()
    let patches = 0
    // The second PATCH hangs (until aborted) after the server took a quarter of it.
    drive.interceptors.push((call, d) => {
      if (!isPatch(call) || ++patches !== 2) return undefined
      d.accept(d.uploadOf(call), call.bytes as Uint8Array, CHUNK / 4)
      second.resolve(call)
      return new Promise<undefined>(() => undefined)
    })
    const seen = watch()
    const handle = client.upload({ file: bytes, name: 'a.bin', ...seen })

    const hanging = await second.promise
    handle.pause()
    expect(handle.state).toBe('paused')
    expect(hanging.signal.aborted).toBe(true)
    await settle()
    const whilePaused = drive.calls.length
    await settle()
    expect(drive.calls.length).toBe(whilePaused)
    expect(drive.tusTrail).toEqual(['HEAD', 'PATCH 0', `PATCH ${CHUNK}`])

    handle.resume()
    const file = await handle.promise

    expect(drive.tusTrail).toEqual(['HEAD', 'PATCH 0', `PATCH ${CHUNK}`, 'HEAD', `PATCH ${CHUNK + CHUNK / 4}`, `PATCH ${2 * CHUNK + CHUNK / 4}`])
    expect(file.phase).toBe('PHASE_TYPE_COMPLETE')
    expectStored(drive, 'up1', bytes)
    expect(seen.states).toEqual(['paused', 'uploading', 'done'])
    expectMonotonicToTotal(seen.progress, bytes.byteLength)
  })

  it('pause and resume are no-ops in the wrong state', async () => {
    const { client } = setup()
    const handle = client.upload({ file: patternBytes(10), name: 'a.bin' })
    handle.resume()
    expect(handle.state).toBe('uploading')
    await handle.promise
    handle.pause()
    expect(handle.state).toBe('done')
    await handle.cancel()
    expect(handle.state).toBe('done')
  })

  it('cancel aborts the PATCH in flight, DELETEs the upload, forgets it and rejects cancelled', async () => {
    const { drive, client, storage } = setup()
    const first = deferred()
    drive.interceptors.push((call) => {
      if (!isPatch(call)) return undefined
      first.resolve()
      return new Promise<undefined>(() => undefined)
    })
    const seen = watch()
    const handle = client.upload({ file: patternBytes(2 * CHUNK), name: 'a.bin', lastModified: 9, ...seen })
    await first.promise
    expect(client.pendingUploads()).toHaveLength(1)

    await handle.cancel()

    const error = await rejection(handle.promise)
    expect(error.is(GenericErrors.cancelled)).toBe(true)
    expect(drive.tusTrail).toEqual(['HEAD', 'PATCH 0', 'DELETE'])
    expect(drive.calls.at(-1)?.headers).toMatchObject({ 'tus-resumable': '1.0.0', authorization: 'Bearer at1' })
    expect(drive.uploads.size).toBe(0)
    expect(handle.state).toBe('cancelled')
    expect(seen.states).toEqual(['cancelled'])
    expect(storage.getItem(UPLOAD_KEY_PREFIX + handle.fingerprint)).toBeNull()
    expect(client.pendingUploads()).toEqual([])
  })

  it('cancel while paused discards the upload too', async () => {
    const { drive, client } = setup()
    const first = deferred()
    drive.interceptors.push((call) => {
      if (!isPatch(call)) return undefined
      first.resolve()
      return new Promise<undefined>(() => undefined)
    })
    const handle = client.upload({ file: patternBytes(CHUNK), name: 'a.bin' })
    await first.promise
    handle.pause()
    await handle.cancel()
    expect(drive.tusTrail).toEqual(['HEAD', 'PATCH 0', 'DELETE'])
    expect((await rejection(handle.promise)).is(GenericErrors.cancelled)).toBe(true)
  })

  it('cancel during creation lets the creation finish, then deletes what it created', async () => {
    const { drive, client } = setup()
    const release = deferred()
    drive.interceptors.push(async (call) => {
      if (call.method === 'POST') await release.promise
      return undefined
    })
    const handle = client.upload({ file: patternBytes(10), name: 'a.bin' })
    await settle()
    const cancelling = handle.cancel()
    release.resolve()
    await cancelling
    expect(drive.trail).toEqual(['POST /drive/v1/files', 'DELETE /drive/v1/uploads/up1'])
    expect(drive.files.size).toBe(0)
  })

  it('a failing DELETE rejects cancel and keeps the stored record; a second cancel tries again', async () => {
    const { drive, client } = setup()
    let deletes = 0
    const first = deferred()
    drive.interceptors.push((call) => {
      if (isPatch(call)) {
        first.resolve()
        return new Promise<undefined>(() => undefined)
      }
      if (call.method === 'DELETE' && ++deletes === 1) return new TypeError('fetch failed')
      return undefined
    })
    const handle = client.upload({ file: patternBytes(CHUNK), name: 'a.bin', lastModified: 3 })
    await first.promise
    const error = await rejection(handle.cancel())
    expect(error.is(LocalErrors.unreachable)).toBe(true)
    expect(client.pendingUploads()).toHaveLength(1)
    await handle.cancel()
    expect(client.pendingUploads()).toEqual([])
    expect(drive.uploads.size).toBe(0)
  })
})

describe('resuming after a reload', () => {
  it('stores the upload, and a new client continues it from the server offset without creating another file', async () => {
    const drive = new FakeDrive()
    const storage = new MemoryStorage()
    const bytes = patternBytes(3 * CHUNK)
    const file = new File([bytes], 'movie.mp4', { lastModified: 1_700_000_000_000 })

    // First page: the upload stops (page closed) while the second chunk is on its way.
    const page1 = setup({}, drive, storage)
    const closing = new AbortController()
    let patches = 0
    drive.interceptors.push((call) => {
      if (!isPatch(call) || ++patches !== 2) return undefined
      closing.abort()
      return new Promise<undefined>(() => undefined)
    })
    const first = page1.client.upload({ file, name: 'movie.mp4', parentId: 'p1', signal: closing.signal })
    expect((await rejection(first.promise)).is(GenericErrors.cancelled)).toBe(true)
    expect(first.state).toBe('cancelled')
    expect(drive.uploads.get('up1')?.offset).toBe(CHUNK)
    drive.interceptors.length = 0

    // Second page: the same storage lists it, and the same file continues it.
    const page2 = setup({}, drive, storage)
    const pending = page2.client.pendingUploads()
    expect(pending).toEqual([
      {
        fingerprint: first.fingerprint,
        endpoint: `${ORIGIN}/drive/v1/uploads/up1`,
        fileId: first.fileId,
        name: 'movie.mp4',
        size: bytes.byteLength,
        lastModified: 1_700_000_000_000,
        parentId: 'p1',
        userId: 'u1',
        createdAt: expect.any(Number),
        expiresAt: Date.parse('2030-01-08T00:00:00.000Z'),
      },
    ])
    const before = drive.calls.length
    const seen = watch()
    const second = page2.client.upload({ file, name: 'movie.mp4', parentId: 'p1', ...seen })
    const done = await second.promise

    expect(drive.trail.slice(before)).toEqual([
      'HEAD /drive/v1/uploads/up1',
      'PATCH /drive/v1/uploads/up1',
      'PATCH /drive/v1/uploads/up1',
      `GET /drive/v1/files/${first.fileId}`,
    ])
    expect(drive.tusTrail.slice(-2)).toEqual([`PATCH ${CHUNK}`, `PATCH ${2 * CHUNK}`])
    expect(second.fingerprint).toBe(first.fingerprint)
    expect(done.id).toBe(first.fileId)
    expectStored(drive, 'up1', bytes)
    expect(seen.sent()).toEqual([CHUNK, 2 * CHUNK, 3 * CHUNK])
    expect(page2.client.pendingUploads()).toEqual([])
  })

  it('starts over when the stored upload is gone from the server', async () => {
    const drive = new FakeDrive()
    const storage = new MemoryStorage()
    const bytes = patternBytes(CHUNK)
    const closing = new AbortController()
    drive.interceptors.push((call) => {
      if (isPatch(call)) closing.abort()
      return undefined
    })
    const first = setup({}, drive, storage).client.upload({ file: bytes, name: 'a.bin', lastModified: 7, signal: closing.signal })
    await rejection(first.promise)
    drive.interceptors.length = 0
    drive.uploads.clear()

    const before = drive.calls.length
    const second = setup({}, drive, storage).client.upload({ file: bytes, name: 'a.bin', lastModified: 7 })
    const done = await second.promise

    expect(drive.trail.slice(before)).toEqual([
      'HEAD /drive/v1/uploads/up1',
      'POST /drive/v1/files',
      'HEAD /drive/v1/uploads/up2',
      'PATCH /drive/v1/uploads/up2',
      `GET /drive/v1/files/${done.id}`,
    ])
    expect(done.id).not.toBe(first.fileId)
    expectStored(drive, 'up2', bytes)
  })

  it('starts over when the stored upload has another length', async () => {
    const drive = new FakeDrive()
    const storage = new MemoryStorage()
    const { client } = setup({}, drive, storage)
    // A record left by an older page whose upload now holds a different file length.
    drive.uploads.set('old', { id: 'old', fileId: 'f-old', size: 5, offset: 0, data: new Uint8Array(5) })
    const bytes = patternBytes(10)
    const probe = client.upload({ file: bytes, name: 'a.bin', lastModified: 1 })
    await probe.promise
    const fingerprint = probe.fingerprint as string
    const record = { fingerprint, endpoint: `${ORIGIN}/drive/v1/uploads/old`, fileId: 'f-old', name: 'a.bin', size: 10, lastModified: 1, parentId: '', userId: 'u1', createdAt: 1, expiresAt: 0 }
    storage.setItem(UPLOAD_KEY_PREFIX + fingerprint, JSON.stringify(record))

    const before = drive.calls.length
    await client.upload({ file: bytes, name: 'a.bin', lastModified: 1 }).promise
    expect(drive.trail.slice(before, before + 2)).toEqual(['HEAD /drive/v1/uploads/old', 'POST /drive/v1/files'])
    expect(drive.uploads.get('old')?.offset).toBe(0)
  })

  it('does not store uploads it could not tell apart (bytes with neither lastModified nor hash)', async () => {
    const { client, storage } = setup()
    const handle = client.upload({ file: patternBytes(10), name: 'a.bin' })
    expect(handle.fingerprint).toBeUndefined()
    await handle.promise
    expect(storage.length).toBe(0)
  })

  it('an already aborted signal stops the upload before any request', async () => {
    const { drive, client } = setup()
    const handle = client.upload({ file: patternBytes(10), name: 'a.bin', signal: AbortSignal.abort() })
    expect((await rejection(handle.promise)).is(GenericErrors.cancelled)).toBe(true)
    expect(handle.state).toBe('cancelled')
    expect(drive.calls).toEqual([])
  })

  it('a second upload of the same file while the first runs gets a tus upload of its own', async () => {
    const { drive, client } = setup()
    const bytes = patternBytes(100)
    const a = client.upload({ file: bytes, name: 'a.bin', lastModified: 1 })
    const b = client.upload({ file: bytes, name: 'a.bin', lastModified: 1 })
    await Promise.all([a.promise, b.promise])
    expect(a.fingerprint).toBeDefined()
    expect(b.fingerprint).toBeUndefined()
    expect(drive.trail.filter((t) => t === 'POST /drive/v1/files')).toHaveLength(2)
    expect([...drive.uploads.values()].map((u) => u.offset)).toEqual([100, 100])
  })

  it('lists only the signed-in account uploads, and forgetUpload / discardUpload remove them', async () => {
    const { drive, client, storage } = setup()
    const closing = new AbortController()
    drive.interceptors.push((call) => {
      if (isPatch(call)) closing.abort()
      return undefined
    })
    const handle = client.upload({ file: patternBytes(10), name: 'a.bin', lastModified: 1, signal: closing.signal })
    await rejection(handle.promise)
    const fingerprint = handle.fingerprint as string
    const other = { fingerprint: 'x', endpoint: `${ORIGIN}/drive/v1/uploads/zz`, fileId: 'f', name: 'b', size: 1, lastModified: 0, parentId: '', userId: 'someone-else', createdAt: 1, expiresAt: 0 }
    storage.setItem(`${UPLOAD_KEY_PREFIX}x`, JSON.stringify(other))
    storage.setItem(UPLOAD_INDEX_KEY, JSON.stringify([fingerprint, 'x']))
    expect(client.pendingUploads().map((u) => u.fingerprint)).toEqual([fingerprint])

    drive.interceptors.length = 0
    await client.discardUpload(fingerprint)
    expect(drive.trail.at(-1)).toBe('DELETE /drive/v1/uploads/up1')
    expect(drive.uploads.size).toBe(0)
    expect(client.pendingUploads()).toEqual([])
    client.forgetUpload('x')
    expect(storage.getItem(`${UPLOAD_KEY_PREFIX}x`)).toBeNull()
    expect(storage.getItem(UPLOAD_INDEX_KEY)).toBeNull()
  })
})

describe('progress through XMLHttpRequest', () => {
  it('sends PATCH through XMLHttpRequest and reports bytes within each chunk, monotonic, ending at the total', async () => {
    const drive = new FakeDrive()
    const { client } = setup({ xhr: drive.xhr }, drive)
    const bytes = patternBytes(2 * CHUNK + 500)
    const seen = watch()
    await client.upload({ file: bytes, name: 'a.bin', ...seen }).promise

    expect(drive.calls.filter(isPatch).map((c) => c.via)).toEqual(['xhr', 'xhr', 'xhr'])
    expect(drive.calls.filter((c) => c.method === 'HEAD').map((c) => c.via)).toEqual(['fetch'])
    expect(drive.calls.filter(isPatch)[0]?.headers).toMatchObject({ 'tus-resumable': '1.0.0', authorization: 'Bearer at1', 'upload-offset': '0' })
    expect(seen.sent()).toEqual([0, CHUNK / 2, CHUNK, CHUNK + CHUNK / 2, 2 * CHUNK, 2 * CHUNK + 250, 2 * CHUNK + 500])
    expectMonotonicToTotal(seen.progress, bytes.byteLength)
    expectStored(drive, 'up1', bytes)
  })

  it('never reports less after a chunk fails past what the server kept', async () => {
    const drive = new FakeDrive()
    const { client } = setup({ xhr: drive.xhr }, drive)
    let patches = 0
    // The XHR reports the whole chunk as sent, but the server keeps only 10 bytes of it.
    drive.interceptors.push((call, d) => {
      if (!isPatch(call) || ++patches !== 1) return undefined
      d.accept(d.uploadOf(call), call.bytes as Uint8Array, 10)
      return new TypeError('network error')
    })
    const seen = watch()
    const bytes = patternBytes(CHUNK)
    await client.upload({ file: bytes, name: 'a.bin', ...seen }).promise
    expect(drive.tusTrail).toEqual(['HEAD', 'PATCH 0', 'HEAD', 'PATCH 10'])
    expectMonotonicToTotal(seen.progress, CHUNK)
    expectStored(drive, 'up1', bytes)
  })

  it('pause aborts the XMLHttpRequest in flight', async () => {
    const drive = new FakeDrive()
    const { client } = setup({ xhr: drive.xhr }, drive)
    const hanging = deferred<Call>()
    let patches = 0
    drive.interceptors.push((call) => {
      if (!isPatch(call) || ++patches !== 1) return undefined
      hanging.resolve(call)
      return new Promise<undefined>(() => undefined)
    })
    const handle = client.upload({ file: patternBytes(100), name: 'a.bin' })
    const call = await hanging.promise
    handle.pause()
    expect(call.signal.aborted).toBe(true)
    handle.resume()
    await handle.promise
    expect(drive.tusTrail).toEqual(['HEAD', 'PATCH 0', 'HEAD', 'PATCH 0'])
  })
})
