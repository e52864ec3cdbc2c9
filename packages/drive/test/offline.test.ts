import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { DriveErrors } from '@cumulus/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LocalHttpServer, startLocalHttpServer } from '../../../test-support/local-http-server.js'
import { gcidOf } from '../src/blobs/gcid.js'
import { offlineStagingPath } from '../src/domain/index.js'
import { type DriveTestApp, startDriveTestApp } from './drive-test-app.js'

/** Content served by the local origin, by path. */
const FILES = new Map<string, Buffer>([
  ['/film.mp4', randomBytes(2.5 * 1024 * 1024 + 17)],
  ['/again.bin', randomBytes(200_000)],
  ['/named', randomBytes(1000)],
  ['/big.iso', randomBytes(3 * 1024 * 1024)],
])

describe('offline downloads over HTTP, end to end', () => {
  let t: DriveTestApp
  let origin: LocalHttpServer
  const hits = new Map<string, number>()
  /** Requests to /slow wait here until a test lets them go. */
  let releaseSlow: () => void = () => {}

  beforeAll(async () => {
    origin = await startLocalHttpServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname
      hits.set(path, (hits.get(path) ?? 0) + 1)
      if (path === '/to-private') {
        // A public-looking hop that sends the fetcher to an address outside the allow-list.
        res.writeHead(302, { location: 'http://127.0.0.2:8080/secret' }).end()
        return
      }
      if (path === '/slow') {
        res.writeHead(200, { 'content-length': String(4 * 1024 * 1024) })
        res.write(Buffer.alloc(64 * 1024))
        releaseSlow = () => res.destroy()
        return
      }
      const body = FILES.get(path)
      if (!body) {
        res.writeHead(404).end('not here')
        return
      }
      const headers: Record<string, string> = { 'content-length': String(body.length), 'content-type': 'application/octet-stream' }
      if (path === '/named') headers['content-disposition'] = `attachment; filename="fallback.txt"; filename*=UTF-8''${encodeURIComponent('报告 2026.txt')}`
      res.writeHead(200, headers).end(body)
    })
    // The tests' origin is on loopback: the operator's allow-list lets exactly it through.
    t = await startDriveTestApp({ OFFLINE_ALLOW_NETWORKS: '127.0.0.1/32', DRIVE_QUOTA_FREE: '5MiB', OFFLINE_RUNNING_TASKS_FREE: '1' }, { offlineDownloads: true })
  })
  afterAll(async () => {
    releaseSlow()
    await t?.close()
    await origin?.close()
  })

  async function add(token: string, url: string, extra: Record<string, unknown> = {}) {
    const reply = await t.call('POST', '/drive/v1/files', { token, body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url }, ...extra } })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body as { file: any; task: any }
  }

  async function settled(token: string, id: string, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const task = (await t.call('GET', `/drive/v1/tasks/${id}`, { token })).body
      if (task.phase === 'PHASE_TYPE_COMPLETE' || task.phase === 'PHASE_TYPE_ERROR') return task
      if (Date.now() > deadline) throw new Error(`task ${id} still ${task.phase} (${task.message})`)
      await sleep(100)
    }
  }

  async function content(token: string, fileId: string): Promise<Buffer> {
    const file = (await t.call('GET', `/drive/v1/files/${fileId}`, { token })).body
    const url = new URL(file.web_content_link)
    return (await t.call('GET', url.pathname + url.search)).raw
  }

  it('downloads a link into the download folder with the right GCID, then completes the same link at once for anyone', async () => {
    const token = await t.signUp()
    const { task } = await add(token, `${origin.origin}/film.mp4`)
    expect(task.phase).toBe('PHASE_TYPE_PENDING')
    const done = await settled(token, task.id)
    expect(done).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', progress: 100, message: 'Saved', file_name: 'film.mp4', file_size: String(FILES.get('/film.mp4')!.length) })
    const file = (await t.call('GET', `/drive/v1/files/${done.file_id}`, { token })).body
    expect(file).toMatchObject({ name: 'film.mp4', hash: gcidOf(FILES.get('/film.mp4')!), parent_id: done.params.parent_id, phase: 'PHASE_TYPE_COMPLETE' })
    expect(done.reference_resource).toMatchObject({ kind: 'drive#file', id: done.file_id, name: 'film.mp4' })
    expect(Buffer.compare(await content(token, done.file_id), FILES.get('/film.mp4')!)).toBe(0)
    expect(existsSync(offlineStagingPath(t.server.drive.config, task.id))).toBe(false)
    expect(hits.get('/film.mp4')).toBe(1)
    // The downloaded file is in the search index as it lands (issue 15).
    const found = (await t.call('GET', '/drive/v1/search', { token, query: { q: 'film' } })).body.files
    expect(found.map((f: { id: string }) => f.id)).toEqual([done.file_id])

    // Another account adds the same link: it lands at once from the stored blob.
    const other = await t.signUp()
    const instant = await add(other, `${origin.origin}/film.mp4#ignored-fragment`)
    expect(instant.file).toMatchObject({ name: 'film.mp4', hash: gcidOf(FILES.get('/film.mp4')!), phase: 'PHASE_TYPE_COMPLETE' })
    expect(instant.task).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', progress: 100, file_id: instant.file.id })
    expect(instant.task.message).toMatch(/downloaded before/)
    expect(hits.get('/film.mp4')).toBe(1)
    const about = (await t.call('GET', '/drive/v1/about', { token: other })).body
    expect(about.quota.usage).toBe(String(FILES.get('/film.mp4')!.length))
    expect(about.quotas.offline_daily).toEqual({ kind: 'drive#quota', limit: '10', usage: '1' })
  })

  it('names the file after Content-Disposition when the user gave no name', async () => {
    const token = await t.signUp()
    const { task } = await add(token, `${origin.origin}/named`)
    const done = await settled(token, task.id)
    expect(done).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', file_name: '报告 2026.txt' })
    const given = await add(token, `${origin.origin}/again.bin`, { name: 'mine.bin' })
    expect(await settled(token, given.task.id)).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', file_name: 'mine.bin' })
  })

  it('fails a task with the catalogue reason: a redirect to a private address, a missing file, content over the quota', async () => {
    const token = await t.signUp()
    const refused = await add(token, `${origin.origin}/to-private`)
    expect(await settled(token, refused.task.id)).toMatchObject({ phase: 'PHASE_TYPE_ERROR', message: DriveErrors.offline_url_refused.reason })
    const missing = await add(token, `${origin.origin}/nothing-here`)
    expect(await settled(token, missing.task.id)).toMatchObject({ phase: 'PHASE_TYPE_ERROR', message: DriveErrors.offline_source_failed.reason })
    // 3 MiB fits the 5 MiB quota once, not twice.
    const first = await add(token, `${origin.origin}/big.iso`)
    expect((await settled(token, first.task.id)).phase).toBe('PHASE_TYPE_COMPLETE')
    const second = await add(token, `${origin.origin}/big.iso?again`)
    expect(await settled(token, second.task.id)).toMatchObject({ phase: 'PHASE_TYPE_ERROR', message: DriveErrors.offline_source_too_large.reason })
    expect(existsSync(offlineStagingPath(t.server.drive.config, second.task.id))).toBe(false)

    // A failed task can be retried; it fails the same way, with its run queued again.
    const retried = await t.call('POST', '/drive/v1/task', { token, body: { type: 'offline', create_type: 'RETRY', id: missing.task.id } })
    expect(retried.body.task.phase).toBe('PHASE_TYPE_PENDING')
    expect(await settled(token, missing.task.id)).toMatchObject({ phase: 'PHASE_TYPE_ERROR', message: DriveErrors.offline_source_failed.reason })
    expect(hits.get('/nothing-here')).toBe(2)
  })

  it('holds the plan\'s running cap, and a cancelled download leaves no partial data', async () => {
    const token = await t.signUp()
    const slow = await add(token, `${origin.origin}/slow`)
    // The slow one runs; the cap of 1 keeps a second PENDING while it does. The second is added
    // once the first holds the slot: added together, either job may be picked first, and a small
    // download that takes the slot first is done before the slow one starts (seen once in CI).
    const deadline = Date.now() + 10_000
    let running: any
    for (;;) {
      running = (await t.call('GET', `/drive/v1/tasks/${slow.task.id}`, { token })).body
      if (running.phase === 'PHASE_TYPE_RUNNING' && existsSync(offlineStagingPath(t.server.drive.config, slow.task.id))) break
      if (Date.now() > deadline) throw new Error(`slow task is ${running.phase}`)
      await sleep(100)
    }
    const waiting = await add(token, `${origin.origin}/again.bin?cap`)
    await sleep(1500)
    expect((await t.call('GET', `/drive/v1/tasks/${waiting.task.id}`, { token })).body.phase).toBe('PHASE_TYPE_PENDING')

    const deleted = await t.call('DELETE', '/drive/v1/tasks', { token, query: { task_ids: slow.task.id, delete_files: 'true' } })
    expect(deleted.status).toBe(200)
    expect(existsSync(offlineStagingPath(t.server.drive.config, slow.task.id))).toBe(false)
    // The slot is free: the second one runs and finishes.
    expect((await settled(token, waiting.task.id)).phase).toBe('PHASE_TYPE_COMPLETE')
    const files = (await t.call('GET', '/drive/v1/files', { token, query: { parent_id: waiting.task.params.parent_id } })).body.files
    expect(files.map((f: { name: string }) => f.name)).toEqual(['again.bin'])
  })
  it('gives each account 30 previews a minute and each address 60, counted exactly under a burst of parallel requests', async () => {
    const [token, other] = [await t.signUp(), await t.signUp()]
    // A link written as a private address is answered without any connection: the budget is the only limit.
    const preview = (who: string) => t.call('POST', '/drive/v1/resource/list', { token: who, body: { urls: 'http://10.0.0.1/a.bin' } })
    const replies = await Promise.all(Array.from({ length: 45 }, () => preview(token)))
    const ok = replies.filter((r) => r.status === 200)
    const refused = replies.filter((r) => r.status === 429)
    expect(ok).toHaveLength(30)
    expect(refused).toHaveLength(15)
    expect(ok[0]!.body.list.resources[0].meta.status).toBe('offline_url_refused')
    for (const reply of refused) {
      expect(reply.body).toMatchObject({ error: 'resource_exhausted', error_code: 8 })
      expect(Number(reply.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    }
    // Another account's budget is its own, but the address's is shared: 60 a minute in all.
    expect((await preview(other)).status).toBe(200)
    const more = await Promise.all(Array.from({ length: 14 }, () => preview(other)))
    expect(more.every((r) => r.status === 200)).toBe(true)
    expect((await preview(other)).status).toBe(429)
  })
})
