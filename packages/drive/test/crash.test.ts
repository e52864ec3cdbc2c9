import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { buildServer, loadConfig } from '@cumulus/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testEnvironment, type TestEnvironment } from '../../server/test/test-env.js'
import { gcidOf } from '../src/blobs/gcid.js'
import { collectGarbageBlobs } from '../src/features/blobs/collect-garbage-blobs.js'
import { maintainUploads } from '../src/features/uploads/cancel-upload.js'
import { buildServerPackages, call, exited, killAll, signUp, startChild as startChildOn } from './child-server.js'
import { OCTETS, TUS, pathOf, stagingFiles, storedBlobs } from './upload-kit.js'

const startChild = () => startChildOn(childEnv, children)

/*
 * A crash (SIGKILL) of the real server in the middle of an upload loses no committed file, leaves
 * the unfinished upload resumable from its offset, and leaves no blob that no file uses once the
 * housekeeping has run (issue 5). The server runs in a child process built from the packages'
 * dist (crash-server.mjs); the test builds them first, incrementally.
 */

let environment: TestEnvironment
let childEnv: Record<string, string>
const children: ChildProcess[] = []

beforeAll(async () => {
  buildServerPackages()
  // Sign-ups come from the child's loopback socket; trusting X-Forwarded-For gives each its own address for the per-IP limit.
  environment = await testEnvironment({ PUBLIC_URL: 'http://127.0.0.1:3000', CAPTCHA_MODE: 'off', TRUST_PROXY: 'true', LOG_LEVEL: 'silent' })
  childEnv = { ...environment.env, PATH: process.env['PATH'] ?? '' }
}, 120_000)

afterAll(async () => {
  killAll(children)
  await environment?.cleanup()
})

async function create(base: string, token: string, name: string, size: number) {
  const reply = await call(base, 'POST', '/drive/v1/files', { token, json: { kind: 'drive#file', name, size: String(size), upload_type: 'UPLOAD_TYPE_RESUMABLE' } })
  expect(reply.status).toBe(200)
  return { fileId: reply.body.file.id as string, endpoint: pathOf(reply.body.resumable.params.endpoint as string) }
}

function patch(base: string, token: string, endpoint: string, offset: number, bytes: Uint8Array) {
  return call(base, 'PATCH', endpoint, { token, headers: { ...TUS, 'upload-offset': String(offset), 'content-type': OCTETS }, body: bytes })
}

async function downloaded(base: string, token: string, fileId: string) {
  const file = (await call(base, 'GET', `/drive/v1/files/${fileId}`, { token })).body
  expect(file.phase).toBe('PHASE_TYPE_COMPLETE')
  return { file, content: (await call(base, 'GET', pathOf(file.web_content_link))).raw }
}

/** Resolves once upload `id`'s staging file holds more than `bytes` bytes. */
/** Waits until the staged file holds more than `bytes`, or `unless` settles first. */
async function stagedMoreThan(id: string, bytes: number, unless?: Promise<unknown>): Promise<void> {
  const { stat } = await import('node:fs/promises')
  const path = `${environment.dataDir}/uploads/${id}`
  let settled = false
  void unless?.finally(() => (settled = true))
  while (!settled) {
    const size = await stat(path).then((s) => s.size, () => 0)
    if (size > bytes) return
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe('a crash in the middle of an upload', () => {
  it('loses no committed file, resumes the unfinished one from its offset and leaves no orphan blob', async () => {
    const complete = randomBytes(1_200_000)
    const half = randomBytes(3_000_000)
    const finishing = randomBytes(2_000_000)
    const deleted = randomBytes(500_000)

    let child = await startChild()
    const token = await signUp(child.base)
    const a = await create(child.base, token, 'complete.bin', complete.length)
    expect((await patch(child.base, token, a.endpoint, 0, complete)).status).toBe(204)
    const b = await create(child.base, token, 'half.bin', half.length)
    expect((await patch(child.base, token, b.endpoint, 0, half.subarray(0, 1_000_000))).status).toBe(204)
    // A file deleted for good: its blob is garbage the housekeeping must remove.
    const d = await create(child.base, token, 'deleted.bin', deleted.length)
    expect((await patch(child.base, token, d.endpoint, 0, deleted)).status).toBe(204)
    expect((await call(child.base, 'POST', '/drive/v1/files:batchDelete', { token, json: { ids: [d.fileId] } })).status).toBe(200)
    const c = await create(child.base, token, 'finishing.bin', finishing.length)

    // When the process dies, one PATCH is on the wire with half its body sent, and another has
    // just delivered the last byte of its upload, so the kill lands somewhere in its completion.
    const uploadId = b.endpoint.split('/').pop() as string
    const lastPatch = patch(child.base, token, c.endpoint, 0, finishing).catch(() => null)
    const inFlight = request(`${child.base}${b.endpoint}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, ...TUS, 'upload-offset': '1000000', 'content-type': OCTETS, 'content-length': String(half.length - 1_000_000) },
    })
    inFlight.on('error', () => undefined)
    inFlight.write(half.subarray(1_000_000, 2_000_000))
    await stagedMoreThan(uploadId, 1_000_000)
    // Its completion may already have adopted the staged file (gone from uploads/) when the poll
    // looks: then the PATCH has answered, and the kill lands after the completion.
    await stagedMoreThan(c.endpoint.split('/').pop() as string, finishing.length - 1, lastPatch)
    child.process.kill('SIGKILL')
    await exited(child.process)
    inFlight.destroy()

    child = await startChild()
    // The committed file survived, byte for byte.
    const first = await downloaded(child.base, token, a.fileId)
    expect(first.file.hash).toBe(gcidOf(complete))
    expect(first.content.equals(complete)).toBe(true)
    // The unfinished one goes on from what reached the disk.
    const offset = Number((await call(child.base, 'HEAD', b.endpoint, { token, headers: TUS })).headers.get('upload-offset'))
    expect(offset).toBeGreaterThan(1_000_000)
    expect(offset).toBeLessThanOrEqual(2_000_000)
    expect((await patch(child.base, token, b.endpoint, offset, half.subarray(offset))).status).toBe(204)
    const second = await downloaded(child.base, token, b.fileId)
    expect(second.file.hash).toBe(gcidOf(half))
    expect(second.content.equals(half)).toBe(true)
    // Wherever its completion stopped, asking for its offset finishes it (or it was finished).
    await lastPatch
    const asked = await call(child.base, 'HEAD', c.endpoint, { token, headers: TUS })
    expect([200, 404]).toContain(asked.status)
    if (asked.status === 200) expect(asked.headers.get('upload-offset')).toBe(String(finishing.length))
    const third = await downloaded(child.base, token, c.fileId)
    expect(third.file.hash).toBe(gcidOf(finishing))
    expect(third.content.equals(finishing)).toBe(true)

    child.process.kill('SIGTERM')
    await exited(child.process)

    // Housekeeping with no grace period: the blob store holds exactly the blobs files use.
    const server = await buildServer(loadConfig(environment.env), { web: false, housekeeping: false })
    try {
      await maintainUploads(server.drive, { orphanGraceMs: 0 })
      await collectGarbageBlobs(server.drive, 0)
      const used = await server.drive.db.selectFrom('drive_files').select('gcid').distinct().where('gcid', 'is not', null).execute()
      const rows = await server.drive.db.selectFrom('drive_blobs').select(['gcid', 'ref_count']).orderBy('gcid').execute()
      expect(storedBlobs(environment.dataDir)).toEqual(used.map((r) => r.gcid).sort())
      expect(rows).toEqual([gcidOf(complete), gcidOf(half), gcidOf(finishing)].sort().map((gcid) => ({ gcid, ref_count: 1 })))
      expect(storedBlobs(environment.dataDir)).not.toContain(gcidOf(deleted))
      expect(stagingFiles(environment.dataDir)).toEqual([])
    } finally {
      await server.close()
    }
  }, 60_000)
})
