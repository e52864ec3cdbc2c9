import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LocalHttpServer, startLocalHttpServer } from '../../../test-support/local-http-server.js'
import { testEnvironment, type TestEnvironment } from '../../server/test/test-env.js'
import { gcidOf } from '../src/blobs/gcid.js'
import { buildServerPackages, call, exited, killAll, signUp, startChild } from './child-server.js'
import { testBackend } from './drive-test-app.js'

/*
 * Offline downloads run as jobs on the durable runner (issue 12): a server killed with SIGKILL in
 * the middle of a download is started again, the job's lease runs out, and the run resumes the
 * partial file with a Range request and finishes with the right GCID; and two server processes on
 * one PostgreSQL share the queued downloads without running any of them twice.
 */

const CHUNK = 256 * 1024

/** A throttled origin with ranges and a strong ETag, recording every request. */
async function startOrigin(files: Map<string, Buffer>) {
  const requests: { path: string; range: string | null }[] = []
  let sent = 0
  const origin = await startLocalHttpServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const range = req.headers.range ?? null
    requests.push({ path, range })
    const body = files.get(path)
    if (!body) return void res.writeHead(404).end()
    const from = range ? Number(/^bytes=(\d+)-$/.exec(range)?.[1] ?? 0) : 0
    const headers: Record<string, string> = { 'accept-ranges': 'bytes', etag: '"v1"', 'content-length': String(body.length - from) }
    if (range) headers['content-range'] = `bytes ${from}-${body.length - 1}/${body.length}`
    res.writeHead(range ? 206 : 200, headers)
    let offset = from
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer)
      const next = body.subarray(offset, offset + CHUNK)
      offset += next.length
      sent += next.length
      if (offset >= body.length) {
        clearInterval(timer)
        res.end(next)
      } else res.write(next)
    }, 40)
    res.on('close', () => clearInterval(timer))
  })
  return { origin, requests, sent: () => sent }
}

async function untilComplete(base: string, token: string, id: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const task = (await call(base, 'GET', `/drive/v1/tasks/${id}`, { token })).body
    if (task.phase === 'PHASE_TYPE_COMPLETE' || task.phase === 'PHASE_TYPE_ERROR') return task
    if (Date.now() > deadline) throw new Error(`task ${id} still ${task.phase} (${task.message})`)
    await sleep(250)
  }
}

const add = async (base: string, token: string, url: string) => {
  const reply = await call(base, 'POST', '/drive/v1/files', { token, json: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url } } })
  expect(reply.status).toBe(200)
  return reply.body.task.id as string
}

describe('offline downloads survive crashes and share nodes', () => {
  let environment: TestEnvironment
  let childEnv: Record<string, string>
  let origin: LocalHttpServer | undefined
  const children: ChildProcess[] = []

  beforeAll(async () => {
    buildServerPackages()
    environment = await testEnvironment({ PUBLIC_URL: 'http://127.0.0.1:3000', CAPTCHA_MODE: 'off', TRUST_PROXY: 'true', LOG_LEVEL: 'info', OFFLINE_ALLOW_NETWORKS: '127.0.0.1/32', OFFLINE_WORKERS: '2' })
    childEnv = { ...environment.env, PATH: process.env['PATH'] ?? '' }
  }, 120_000)
  afterAll(async () => {
    killAll(children)
    await origin?.close()
    await environment?.cleanup()
  })

  it.skipIf(testBackend() !== 'sqlite')('resumes a download after the server was killed mid-way, with a Range request, and finishes it with the right GCID', async () => {
    const content = randomBytes(24 * 1024 * 1024)
    const served = await startOrigin(new Map([['/big.bin', content]]))
    origin = served.origin
    const first = await startChild(childEnv, children)
    const token = await signUp(first.base)
    const id = await add(first.base, token, `${served.origin.origin}/big.bin`)
    while (served.sent() < 6 * 1024 * 1024) await sleep(50)
    first.process.kill('SIGKILL')
    await exited(first.process)

    // The next start takes the job over once its lease has run out, and continues the file.
    const second = await startChild(childEnv, children)
    const task = await untilComplete(second.base, token, id, 90_000)
    expect(task).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', file_size: String(content.length) })
    const resumed = served.requests.filter((r) => r.path === '/big.bin')
    expect(resumed.length).toBe(2)
    expect(resumed[0]!.range).toBeNull()
    expect(Number(/^bytes=(\d+)-$/.exec(resumed[1]!.range ?? '')?.[1])).toBeGreaterThan(0)
    const file = (await call(second.base, 'GET', `/drive/v1/files/${task.file_id}`, { token })).body
    expect(file.hash).toBe(gcidOf(content))
    // Less than the whole file a second time: the part before the crash was not fetched again.
    expect(served.sent()).toBeLessThan(2 * content.length)
    second.process.kill('SIGTERM')
    await exited(second.process)
  }, 150_000)

  it.skipIf(testBackend() !== 'postgres')('lets two server processes on one PostgreSQL share the downloads, running each once', async () => {
    const files = new Map<string, Buffer>(Array.from({ length: 6 }, (_, i) => [`/f${i}.bin`, randomBytes(1024 * 1024 + i)]))
    const served = await startOrigin(files)
    origin = served.origin
    const [a, b] = await Promise.all([startChild(childEnv, children), startChild(childEnv, children)])
    const work: { token: string; id: string; path: string; base: string }[] = []
    for (const [i, path] of [...files.keys()].entries()) {
      const base = i % 2 === 0 ? a!.base : b!.base
      const token = await signUp(base)
      work.push({ token, id: await add(base, token, `${served.origin.origin}${path}`), path, base })
    }
    for (const w of work) {
      const task = await untilComplete(w.base, w.token, w.id, 60_000)
      expect(task.phase).toBe('PHASE_TYPE_COMPLETE')
      const file = (await call(w.base, 'GET', `/drive/v1/files/${task.file_id}`, { token: w.token })).body
      expect(file.hash).toBe(gcidOf(files.get(w.path)!))
    }
    // Each file was fetched once: no job ran twice, on one node or across both.
    for (const path of files.keys()) expect(served.requests.filter((r) => r.path === path), path).toHaveLength(1)
    const savedBy = (child: { output(): string }) => child.output().split('\n').filter((l) => l.includes('offline download saved')).length
    expect(savedBy(a!) + savedBy(b!)).toBe(6)
    expect(savedBy(a!)).toBeGreaterThan(0)
    expect(savedBy(b!)).toBeGreaterThan(0)
  }, 120_000)
})
