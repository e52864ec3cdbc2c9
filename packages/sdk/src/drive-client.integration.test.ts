import { gcidOf } from '@cumulus/drive'
import { DriveErrors, WEB_CLIENT_ID } from '@cumulus/protocol'
import { DriveClient, IdentityClient, IdentityError, MemoryStorage, type UploadHandle, type UploadProgress, type UploadState, errorMessage } from '@cumulus/sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FetchFunction, type RealService, startRealService, testBackend } from '../test/real-service.js'

/**
 * The real DriveClient against the real server (`@cumulus/server`: identity and drive on one
 * app), with no socket: every request, tus included, goes through `app.inject`. Runs in the
 * `sqlite` and `postgres` projects.
 */

const MIB = 1024 * 1024

/** Deterministic content that differs per seed, so uploads never share a blob by accident. */
function content(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + seed * 7) % 251
  return bytes
}

/** A fetch that forwards to the service and lets a test act when a PATCH starts. */
function tappedFetch(service: RealService) {
  const tap = { patches: 0, onPatch: null as ((n: number) => void) | null }
  const fetch: FetchFunction = async (input, init) => {
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase()
    if (method === 'PATCH') {
      tap.patches += 1
      tap.onPatch?.(tap.patches)
    }
    return service.fetch(input, init)
  }
  return { fetch, tap }
}

async function signedIn(service: RealService, fetch: FetchFunction, storage = new MemoryStorage()) {
  const identity = new IdentityClient({ clientId: WEB_CLIENT_ID, origins: [service.origin], fetch: fetch as typeof globalThis.fetch, storage, locale: 'en-US', env: 'test' })
  if (!identity.credentials()) await identity.signUpAnonymously()
  return identity
}

function driveFor(identity: IdentityClient, storage = new MemoryStorage()) {
  return new DriveClient({ identity, storage, chunkSize: MIB, xhr: false, sleep: async () => undefined })
}

/** The bytes behind a signed download URL. */
async function download(service: RealService, url: string): Promise<Uint8Array> {
  const res = await service.fetch(url)
  expect(res.status).toBe(200)
  return new Uint8Array(await res.arrayBuffer())
}

/** Tus HEAD straight to the service: the server's offset, or the status when there is none. */
async function serverOffset(service: RealService, identity: IdentityClient, endpoint: string): Promise<number | { status: number }> {
  const res = await service.fetch(endpoint, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0', authorization: await identity.authorization() } })
  return res.status === 200 ? Number(res.headers.get('upload-offset')) : { status: res.status }
}

/** Pauses the upload as its `n`th PATCH starts; resolves then. */
function pauseAtPatch(tap: ReturnType<typeof tappedFetch>['tap'], handle: UploadHandle, n: number): Promise<void> {
  return new Promise((resolve) => {
    tap.onPatch = (count) => {
      if (count !== n) return
      handle.pause()
      resolve()
    }
  })
}

/** Lets queued promise callbacks and injected requests run. */
async function settle(rounds = 20) {
  for (let i = 0; i < rounds; i += 1) await new Promise((resolve) => setImmediate(resolve))
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b))

describe(`DriveClient against the real service (${testBackend()})`, () => {
  let service: RealService
  beforeAll(async () => {
    service = await startRealService()
  })
  afterAll(async () => {
    await service?.close()
  })

  it('uploads 3 MiB in 1 MiB chunks with a pause, then lists, renames, moves, trashes, untrashes and deletes', async () => {
    const { fetch, tap } = tappedFetch(service)
    const identity = await signedIn(service, fetch)
    const storage = new MemoryStorage()
    const drive = driveFor(identity, storage)
    const before = await drive.about()

    const folder = await drive.createFolder({ name: 'Holiday' })
    expect(folder).toMatchObject({ kind: 'drive#folder', name: 'Holiday', parent_id: '' })

    const bytes = content(3 * MIB, 1)
    const progress: UploadProgress[] = []
    const states: UploadState[] = []
    const handle = drive.upload({ file: bytes, name: 'beach.bin', parentId: folder.id, lastModified: 1_700_000_000_000, onProgress: (p) => progress.push(p), onStateChange: (s) => states.push(s) })
    // Pause as the second chunk starts: its request is aborted before it reaches the server.
    await pauseAtPatch(tap, handle, 2)
    expect(handle.state).toBe('paused')
    await settle()
    const [pending] = drive.pendingUploads()
    expect(pending).toMatchObject({ fileId: handle.fileId, name: 'beach.bin', size: 3 * MIB, parentId: folder.id })
    expect(await serverOffset(service, identity, pending!.endpoint)).toBe(MIB)
    const patchesWhilePaused = tap.patches
    await settle()
    expect(tap.patches).toBe(patchesWhilePaused)

    tap.onPatch = null
    handle.resume()
    const file = await handle.promise

    expect(file).toMatchObject({ id: handle.fileId, name: 'beach.bin', parent_id: folder.id, size: String(3 * MIB), phase: 'PHASE_TYPE_COMPLETE', hash: gcidOf(bytes) })
    expect(states).toEqual(['paused', 'uploading', 'done'])
    expect(progress.at(-1)).toMatchObject({ sentBytes: 3 * MIB, totalBytes: 3 * MIB })
    expect(progress.map((p) => p.sentBytes)).toEqual([...progress.map((p) => p.sentBytes)].sort((a, b) => a - b))
    expect(drive.pendingUploads()).toEqual([])
    expect(sameBytes(await download(service, await drive.downloadUrl(file.id)), bytes)).toBe(true)

    const inFolder = await drive.list({ parentId: folder.id })
    expect(inFolder.files.map((f) => f.name)).toEqual(['beach.bin'])

    const renamed = await drive.rename(file.id, 'sunset.bin')
    expect(renamed.name).toBe('sunset.bin')
    const duplicate = await drive.createFolder({ name: 'Other', parentId: folder.id })
    const clash = await drive.rename(duplicate.id, 'sunset.bin').catch((e: unknown) => e)
    expect(clash).toBeInstanceOf(IdentityError)
    expect((clash as IdentityError).error).toBe(DriveErrors.file_duplicated_name.reason)

    expect(await drive.move([file.id], '')).toEqual({ taskId: expect.any(String), task: expect.objectContaining({ kind: 'drive#task', type: 'batch', phase: 'PHASE_TYPE_COMPLETE' }) })
    expect((await drive.get(file.id)).parent_id).toBe('')
    const root = await drive.list()
    expect(root.files.map((f) => f.name)).toEqual(['Holiday', 'sunset.bin'])

    await drive.trash([file.id])
    expect((await drive.list()).files.map((f) => f.name)).toEqual(['Holiday'])
    const trashed = await drive.list({ parentId: '*', filters: { trashed: { eq: true } } })
    expect(trashed.files.map((f) => f.id)).toEqual([file.id])

    await drive.untrash([file.id])
    expect((await drive.get(file.id)).trashed).toBe(false)

    const quota = (await drive.about()).quota
    expect(Number(quota.usage) - Number(before.quota.usage)).toBe(3 * MIB)

    await drive.delete([file.id])
    const gone = await drive.get(file.id).catch((e: unknown) => e)
    expect(gone).toBeInstanceOf(IdentityError)
    expect((gone as IdentityError).error).toBe(DriveErrors.file_not_found.reason)
    expect((await drive.about()).quota.usage).toBe(before.quota.usage)
  })

  it('continues an upload after a reload from the stored endpoint, without creating another file', async () => {
    const { fetch, tap } = tappedFetch(service)
    const storage = new MemoryStorage()
    const identity = await signedIn(service, fetch, storage)
    const bytes = content(2 * MIB + 123, 2)
    const page = new AbortController()
    tap.onPatch = (n) => {
      if (n === 2) page.abort()
    }
    const first = driveFor(identity, storage).upload({ file: bytes, name: 'big.bin', lastModified: 5, signal: page.signal })
    await expect(first.promise).rejects.toMatchObject({ error: 'cancelled' })
    tap.onPatch = null

    const again = driveFor(identity, storage)
    expect(again.pendingUploads().map((u) => u.fileId)).toEqual([first.fileId])
    const requestsBefore = service.requests.length
    const file = await again.upload({ file: bytes, name: 'big.bin', lastModified: 5 }).promise
    const paths = service.requests.slice(requestsBefore).map((r) => `${r.method} ${new URL(r.url).pathname}`)
    expect(paths.filter((p) => p === 'POST /drive/v1/files')).toEqual([])
    expect(paths[0]).toMatch(/^HEAD \/drive\/v1\/uploads\//)
    expect(file).toMatchObject({ id: first.fileId, phase: 'PHASE_TYPE_COMPLETE', hash: gcidOf(bytes) })
    expect(sameBytes(await download(service, await again.downloadUrl(file.id)), bytes)).toBe(true)
  })

  it('completes at once, sending no byte, when the server already has the content (instant upload)', async () => {
    const { fetch } = tappedFetch(service)
    const identity = await signedIn(service, fetch)
    const drive = driveFor(identity)
    const bytes = content(MIB + 1, 3)
    const original = await drive.upload({ file: bytes, name: 'one.bin' }).promise

    const requestsBefore = service.requests.length
    const copy = await drive.upload({ file: bytes, name: 'two.bin', hash: gcidOf(bytes) }).promise
    const paths = service.requests.slice(requestsBefore).map((r) => `${r.method} ${new URL(r.url).pathname}`)
    expect(paths).toEqual(['POST /drive/v1/files'])
    expect(copy).toMatchObject({ name: 'two.bin', phase: 'PHASE_TYPE_COMPLETE', hash: original.hash })
    expect(copy.id).not.toBe(original.id)
  })

  it('remembers where a video was left, lists the subtitle file beside it, and the track loads from its signed URL without the bearer', async () => {
    const { fetch } = tappedFetch(service)
    const drive = driveFor(await signedIn(service, fetch))
    // Not a real video: the position and the subtitle list need only a video's name.
    const video = await drive.upload({ file: content(4096, 4), name: 'talk.mp4', lastModified: 1_700_000_000_000 }).promise
    await drive.upload({ file: new TextEncoder().encode('1\n00:00:01,000 --> 00:00:02,500\nHello there\n'), name: 'talk.en.srt', lastModified: 1_700_000_000_000 }).promise

    expect(await drive.playback(video.id)).toEqual({ kind: 'drive#playback', file_id: video.id, position_seconds: 0, duration_seconds: 0, updated_time: '' })
    expect(await drive.savePlayback(video.id, { positionSeconds: 754.5, durationSeconds: 3600 })).toMatchObject({ file_id: video.id, position_seconds: 754.5, duration_seconds: 3600 })
    await drive.savePlayback(video.id, { positionSeconds: 760, durationSeconds: 3600 }, { keepalive: true })
    expect(await drive.playback(video.id)).toMatchObject({ position_seconds: 760, duration_seconds: 3600 })
    await expect(drive.savePlayback(video.id, { positionSeconds: -1 })).rejects.toMatchObject({ error: 'invalid_argument' })

    const { subtitles } = await drive.subtitles(video.id)
    expect(subtitles).toEqual([{ id: expect.any(String), label: 'talk.en.srt', language: 'en', source: 'file', url: expect.stringMatching(new RegExp(`^${service.origin}/drive/v1/media/`)), is_default: false }])
    const track = await service.fetch(subtitles[0]!.url)
    expect(track.status).toBe(200)
    expect(track.headers.get('content-type')).toMatch(/^text\/vtt/)
    expect(await track.text()).toMatch(/^WEBVTT[\s\S]*(00:)?00:01\.000 --> (00:)?00:02\.500\nHello there/)
  })

  it('cancel deletes the tus upload on the server', async () => {
    const { fetch, tap } = tappedFetch(service)
    const identity = await signedIn(service, fetch)
    const storage = new MemoryStorage()
    const drive = driveFor(identity, storage)
    const handle = drive.upload({ file: content(2 * MIB, 4), name: 'drop.bin', lastModified: 9 })
    await pauseAtPatch(tap, handle, 2)
    const [pending] = drive.pendingUploads()
    expect(await serverOffset(service, identity, pending!.endpoint)).toBe(MIB)

    await handle.cancel()

    await expect(handle.promise).rejects.toMatchObject({ error: 'cancelled' })
    expect(await serverOffset(service, identity, pending!.endpoint)).toEqual({ status: 404 })
    const gone = await drive.get(handle.fileId as string).catch((e: unknown) => e)
    expect(gone).toBeInstanceOf(IdentityError)
    expect((gone as IdentityError).error).toBe(DriveErrors.file_not_found.reason)
    // The server's localized text, through the SDK's message choice.
    expect(errorMessage(gone, 'en-US')).toBe('The file does not exist or has been deleted')
    expect(drive.pendingUploads()).toEqual([])
    expect((await drive.list()).files.map((f) => f.name)).not.toContain('drop.bin')
  })
})

describe(`DriveClient with shares (${testBackend()})`, () => {
  let service: RealService
  beforeAll(async () => {
    service = await startRealService()
  })
  afterAll(async () => {
    await service?.close()
  })

  it('shares with a pass code; a visitor without an account opens and downloads; another account saves it; the owner cancels it', async () => {
    const fetch = service.fetch as FetchFunction
    const owner = driveFor(await signedIn(service, fetch))
    const folder = await owner.createFolder({ name: 'trip' })
    const uploaded = await owner.upload({ file: content(1000, 21), name: 'notes.bin', parentId: folder.id }).promise
    const created = await owner.createShare({ fileIds: [folder.id], passCode: true, expirationDays: 7 })
    expect(created.pass_code).toMatch(/^[a-z0-9]{6}$/)
    expect(created.share_list[0]).toMatchObject({ title: 'trip', pass_code_option: 'REQUIRED', expiration_days: '7' })

    // A visitor's client that never signed in.
    const visitor = driveFor(new IdentityClient({ clientId: WEB_CLIENT_ID, origins: [service.origin], fetch: fetch as typeof globalThis.fetch, storage: new MemoryStorage(), locale: 'en-US', env: 'test' }))
    expect((await visitor.openShare({ shareId: created.share_id })).share_status).toBe('PASS_CODE_EMPTY')
    const opened = await visitor.openShare({ shareId: created.share_id, passCode: created.pass_code })
    expect(opened).toMatchObject({ share_status: 'OK', title: 'trip', file_num: '1' })
    const token = opened.pass_code_token
    const inside = await visitor.shareFolder({ shareId: created.share_id, parentId: folder.id, passCodeToken: token })
    expect(inside.files.map((f) => f.name)).toEqual(['notes.bin'])
    const { file_info } = await visitor.shareFile({ shareId: created.share_id, fileId: uploaded.id, passCodeToken: token })
    expect(sameBytes(await download(service, file_info!.web_content_link), content(1000, 21))).toBe(true)

    const saver = driveFor(await signedIn(service, fetch))
    const saved = await saver.restoreShare({ shareId: created.share_id, passCodeToken: token })
    expect(saved.restore_status).toBe('RESTORE_COMPLETE')
    expect((await saver.list({ parentId: saved.file_id })).files.map((f) => f.name)).toEqual(['trip'])
    const own = await owner.restoreShare({ shareId: created.share_id, passCodeToken: token }).catch((e: unknown) => e)
    expect((own as IdentityError).error).toBe(DriveErrors.file_restore_own.reason)

    const listed = (await owner.listShares()).data.find((s) => s.share_id === created.share_id)
    expect(listed).toMatchObject({ view_count: '1', restore_count: '1', download_count: '1' })
    await owner.deleteShares([created.share_id])
    expect((await visitor.openShare({ shareId: created.share_id, passCodeToken: token })).share_status).toBe('DELETED')
  })
})

describe(`DriveClient following batch jobs (${testBackend()})`, () => {
  let service: RealService
  beforeAll(async () => {
    // Any batch over two items outgrows its request and runs as a job on the server.
    service = await startRealService({ env: { BATCH_INLINE_MAX_ITEMS: '2' } })
  })
  afterAll(async () => {
    await service?.close()
  })

  it('resolves a batch once the job behind it has finished, so the next listing shows its result', async () => {
    const identity = await signedIn(service, service.fetch)
    // A real pause between reads of the task: the job runs beside the requests.
    const drive = new DriveClient({ identity, storage: new MemoryStorage(), xhr: false })
    const top = await drive.createFolder({ name: 'Archive' })
    for (const name of ['2019', '2020', '2021']) await drive.createFolder({ name, parentId: top.id })

    const trashed = await drive.trash([top.id])
    expect(trashed.task).toMatchObject({ id: trashed.taskId, phase: 'PHASE_TYPE_COMPLETE' })
    expect((await drive.list()).files.map((f) => f.name)).not.toContain('Archive')

    const copyTarget = await drive.createFolder({ name: 'Copies' })
    await drive.untrash([top.id])
    const copied = await drive.copy([top.id], copyTarget.id)
    expect(copied.task?.phase).toBe('PHASE_TYPE_COMPLETE')
    const [copy] = (await drive.list({ parentId: copyTarget.id })).files
    expect(copy).toMatchObject({ name: 'Archive', kind: 'drive#folder' })
    expect((await drive.list({ parentId: copy!.id })).files.map((f) => f.name).sort()).toEqual(['2019', '2020', '2021'])
  })
})
