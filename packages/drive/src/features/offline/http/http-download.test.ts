import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type LocalHttpServer, startLocalHttpServer } from '../../../../../../test-support/local-http-server.js'
import { gcidOf } from '../../../blobs/gcid.js'
import { createAddressPolicy } from './address-policy.js'
import { OfflineDownloadFailed, OfflineUrlRefused } from './errors.js'
import { type DownloadProgress, downloadHttp, type HttpDownloadDeps, type HttpDownloadInput, type HttpResumeState } from './http-download.js'

// Several GCID blocks (256 KiB each at this size), so block boundaries and resumption points differ.
const CONTENT = randomBytes(1536 * 1024 + 123)
const ETAG = '"v1"'

const deps: HttpDownloadDeps = { addresses: createAddressPolicy({ allowedPrivateRanges: ['127.0.0.1/32'] }), clock: { nowMs: () => Date.now() } }
const neverAborted = new AbortController().signal

let dir = ''
let servers: LocalHttpServer[] = []
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'offline-http-'))
})
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()))
  servers = []
  await rm(dir, { recursive: true, force: true })
})

interface ContentServerOptions {
  content?: Buffer
  etag?: string
  /** Answer Range requests whose If-Range matches with 206 (default), ignore Range (200), or refuse them (416). */
  ranges?: 'honour' | 'ignore' | 416
  /** No Content-Length: the body goes chunked. */
  chunked?: boolean
  /** Send this many bytes, wait until `waitForFile` holds them, then cut the connection. */
  cutAfterBytes?: number
  waitForFile?: string
  /** Send this many bytes and then nothing, keeping the connection open. */
  stallAfterBytes?: number
  headers?: Record<string, string>
}

async function sizeOnDisk(path: string): Promise<number> {
  return existsSync(path) ? (await stat(path)).size : 0
}

/** Waits (on the event loop, not a timer guess) until the file at `path` holds `bytes`. */
async function untilFileHolds(path: string, bytes: number): Promise<void> {
  while ((await sizeOnDisk(path)) < bytes) await new Promise((resolve) => setTimeout(resolve, 5))
}

/** A server of one content, with what each request asked for recorded in `seen`. */
async function contentServer(options: ContentServerOptions = {}): Promise<{ server: LocalHttpServer; seen: IncomingHttpHeaders[]; url: (path?: string) => string }> {
  const content = options.content ?? CONTENT
  const etag = options.etag ?? ETAG
  const seen: IncomingHttpHeaders[] = []
  const server = await startLocalHttpServer((req, res) => {
    seen.push(req.headers)
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '')
    const validatorMatches = req.headers['if-range'] === undefined || req.headers['if-range'] === etag
    let body = content
    const headers: Record<string, string> = { 'content-type': 'video/x-matroska', 'accept-ranges': 'bytes', etag, ...options.headers }
    if (range !== null && options.ranges === 416) {
      res.writeHead(416, { 'content-range': `bytes */${content.length}` }).end()
      return
    }
    if (range !== null && (options.ranges ?? 'honour') === 'honour' && validatorMatches) {
      const start = Number(range[1])
      body = content.subarray(start)
      res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${content.length - 1}/${content.length}`, 'content-length': String(body.length) })
    } else {
      res.writeHead(200, options.chunked ? headers : { ...headers, 'content-length': String(body.length) })
    }
    void send(res, body, options)
  })
  servers.push(server)
  return { server, seen, url: (path = '/films/movie.mkv') => `${server.origin}${path}` }
}

async function send(res: ServerResponse, body: Buffer, options: ContentServerOptions): Promise<void> {
  if (options.cutAfterBytes !== undefined) {
    res.write(body.subarray(0, options.cutAfterBytes))
    if (options.waitForFile !== undefined) await untilFileHolds(options.waitForFile, options.cutAfterBytes)
    res.socket?.destroy()
  } else if (options.stallAfterBytes !== undefined) {
    res.write(body.subarray(0, options.stallAfterBytes))
  } else if (options.chunked) {
    // Several writes before end: Node sends them chunked.
    for (let at = 0; at < body.length; at += 100_000) res.write(body.subarray(at, at + 100_000))
    res.end()
  } else {
    res.end(body)
  }
}

function input(url: string, overrides: Partial<HttpDownloadInput> = {}): HttpDownloadInput {
  return { url, stagingPath: join(dir, 'staging'), expectedMaxBytes: 10 * 1024 * 1024, resume: null, ...overrides }
}

async function failureOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

describe('downloadHttp', () => {
  it('streams a body of announced size to the staging file and hashes it on the way', async () => {
    const { url } = await contentServer()
    const states: (HttpResumeState | null)[] = []
    const result = await downloadHttp(deps, input(url(), { onResumeState: (state) => void states.push(state) }), neverAborted)
    expect(result).toEqual({ gcid: gcidOf(CONTENT), sizeBytes: CONTENT.length, fileName: 'movie.mkv', mimeType: 'video/x-matroska', finalUrl: url() })
    expect((await readFile(join(dir, 'staging'))).equals(CONTENT)).toBe(true)
    expect(states).toEqual([{ finalUrl: url(), totalBytes: CONTENT.length, etag: ETAG, lastModified: null }])
  })

  it("counts every body byte toward the process's young-garbage collections", async () => {
    const { url } = await contentServer()
    let counted = 0
    const result = await downloadHttp({ ...deps, youngGarbage: { add: (bytes) => void (counted += bytes) } }, input(url()), neverAborted)
    expect(result.sizeBytes).toBe(CONTENT.length)
    expect(counted).toBe(CONTENT.length)
  })

  it('hashes a chunked body of unknown size in a second pass, and says it cannot be resumed', async () => {
    const { url } = await contentServer({ chunked: true })
    const states: (HttpResumeState | null)[] = []
    const result = await downloadHttp(deps, input(url(), { onResumeState: (state) => void states.push(state) }), neverAborted)
    expect(result.gcid).toBe(gcidOf(CONTENT))
    expect(result.sizeBytes).toBe(CONTENT.length)
    expect(states).toEqual([null])
  })

  it('stores an empty body with the GCID of nothing', async () => {
    const { url } = await contentServer({ content: Buffer.alloc(0) })
    expect(await downloadHttp(deps, input(url('/empty')), neverAborted)).toMatchObject({ gcid: gcidOf(new Uint8Array(0)), sizeBytes: 0, fileName: 'empty' })
  })

  it('names the file after Content-Disposition, filename* first', async () => {
    const { url } = await contentServer({ headers: { 'content-disposition': `attachment; filename="fallback.bin"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%20%E2%80%AEfdp.exe` } })
    expect((await downloadHttp(deps, input(url('/download?id=3')), neverAborted)).fileName).toBe('日本 fdp.exe')
  })

  it('follows redirects and names the file after the URL that answered', async () => {
    const { server: target, url } = await contentServer()
    const front = await startLocalHttpServer((_req, res) => res.writeHead(302, { location: `${target.origin}/mirror/pkg.tar.gz` }).end())
    servers.push(front)
    const result = await downloadHttp(deps, input(`${front.origin}/get?id=1`), neverAborted)
    expect(result).toMatchObject({ fileName: 'pkg.tar.gz', finalUrl: url('/mirror/pkg.tar.gz'), gcid: gcidOf(CONTENT) })
  })

  it('refuses a redirect to the metadata service, and stores nothing', async () => {
    const front = await startLocalHttpServer((_req, res) => res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end())
    servers.push(front)
    const error = await failureOf(downloadHttp(deps, input(`${front.origin}/`), neverAborted))
    expect(error).toBeInstanceOf(OfflineUrlRefused)
    expect(error).toMatchObject({ reason: 'private_address', retryable: false, address: '169.254.169.254' })
    expect(existsSync(join(dir, 'staging'))).toBe(false)
  })

  it('refuses an announced size over the quota before storing a byte', async () => {
    const { url } = await contentServer()
    const error = await failureOf(downloadHttp(deps, input(url(), { expectedMaxBytes: CONTENT.length - 1 }), neverAborted))
    expect(error).toBeInstanceOf(OfflineDownloadFailed)
    expect(error).toMatchObject({ reason: 'too_large', retryable: false, sizeBytes: CONTENT.length, details: { limitBytes: CONTENT.length - 1 } })
    expect(existsSync(join(dir, 'staging'))).toBe(false)
  })

  it('cuts an unannounced body at the quota', async () => {
    const { url } = await contentServer({ chunked: true })
    const limit = 500_000
    const error = await failureOf(downloadHttp(deps, input(url(), { expectedMaxBytes: limit }), neverAborted))
    expect(error).toMatchObject({ reason: 'too_large', retryable: false })
    expect((error as OfflineDownloadFailed).sizeBytes).toBeGreaterThan(limit)
    expect(await sizeOnDisk(join(dir, 'staging'))).toBeLessThanOrEqual(limit)
  })

  it('keeps what arrived when the connection drops, then resumes with Range and If-Range', async () => {
    const staging = join(dir, 'staging')
    const cutAt = 700_000
    const first = await contentServer({ cutAfterBytes: cutAt, waitForFile: staging })
    let state: HttpResumeState | null = null
    const error = await failureOf(downloadHttp(deps, input(first.url(), { onResumeState: (s) => void (state = s) }), neverAborted))
    expect(error).toBeInstanceOf(OfflineDownloadFailed)
    expect(error).toMatchObject({ reason: 'connection_lost', retryable: true })
    expect(await sizeOnDisk(staging)).toBe(cutAt)
    expect(state).toEqual({ finalUrl: first.url(), totalBytes: CONTENT.length, etag: ETAG, lastModified: null })

    const second = await contentServer()
    const progress: DownloadProgress[] = []
    const result = await downloadHttp(deps, input(second.url(), { resume: state, onProgress: (p) => progress.push(p) }), neverAborted)
    expect(second.seen.map((h) => [h.range, h['if-range']])).toEqual([[`bytes=${cutAt}-`, ETAG]])
    expect(result).toMatchObject({ gcid: gcidOf(CONTENT), sizeBytes: CONTENT.length, fileName: 'movie.mkv' })
    expect((await readFile(staging)).equals(CONTENT)).toBe(true)
    expect(progress.at(-1)).toMatchObject({ receivedBytes: CONTENT.length, totalBytes: CONTENT.length })
  })

  it('resumes with Last-Modified when the server gives no strong ETag', async () => {
    const lastModified = 'Tue, 03 Feb 2026 10:00:00 GMT'
    const { url, seen } = await contentServer({ etag: 'W/"weak"', headers: { 'last-modified': lastModified } })
    const states: (HttpResumeState | null)[] = []
    await downloadHttp(deps, input(url(), { onResumeState: (s) => void states.push(s) }), neverAborted)
    expect(states).toEqual([{ finalUrl: url(), totalBytes: CONTENT.length, etag: null, lastModified }])
    await writeFile(join(dir, 'staging'), CONTENT.subarray(0, 1000))
    const result = await downloadHttp(deps, input(url(), { resume: states[0] ?? null }), neverAborted)
    expect(seen[1]).toMatchObject({ range: 'bytes=1000-', 'if-range': lastModified })
    expect(result.gcid).toBe(gcidOf(CONTENT))
  })

  it('starts over when the server ignores Range and sends everything (200)', async () => {
    const staging = join(dir, 'staging')
    // A prefix that is not this content's: a restart must not keep any of it.
    await writeFile(staging, randomBytes(300_000))
    const { url, seen } = await contentServer({ ranges: 'ignore' })
    const resume: HttpResumeState = { finalUrl: url(), totalBytes: CONTENT.length, etag: ETAG, lastModified: null }
    const result = await downloadHttp(deps, input(url(), { resume }), neverAborted)
    expect(seen[0]?.range).toBe('bytes=300000-')
    expect(result).toMatchObject({ gcid: gcidOf(CONTENT), sizeBytes: CONTENT.length })
    expect((await readFile(staging)).equals(CONTENT)).toBe(true)
  })

  it('starts over with the new content when the validator no longer matches', async () => {
    const staging = join(dir, 'staging')
    await writeFile(staging, CONTENT.subarray(0, 400_000))
    const changed = randomBytes(900_000)
    const { url } = await contentServer({ content: changed, etag: '"v2"' })
    const resume: HttpResumeState = { finalUrl: url(), totalBytes: CONTENT.length, etag: ETAG, lastModified: null }
    const result = await downloadHttp(deps, input(url(), { resume }), neverAborted)
    expect(result).toMatchObject({ gcid: gcidOf(changed), sizeBytes: changed.length })
    expect((await readFile(staging)).equals(changed)).toBe(true)
  })

  it('starts over after 416 Range Not Satisfiable', async () => {
    await writeFile(join(dir, 'staging'), CONTENT.subarray(0, 10))
    const { url, seen } = await contentServer({ ranges: 416 })
    const resume: HttpResumeState = { finalUrl: url(), totalBytes: CONTENT.length, etag: ETAG, lastModified: null }
    const result = await downloadHttp(deps, input(url(), { resume }), neverAborted)
    expect(seen.map((h) => h.range)).toEqual(['bytes=10-', undefined])
    expect(result.gcid).toBe(gcidOf(CONTENT))
  })

  it('ignores a resume state the staging file does not fit', async () => {
    const { url, seen } = await contentServer()
    const resume: HttpResumeState = { finalUrl: url(), totalBytes: CONTENT.length, etag: ETAG, lastModified: null }
    // No staging file yet, then one already as long as the content.
    await downloadHttp(deps, input(url(), { resume }), neverAborted)
    await downloadHttp(deps, input(url(), { resume }), neverAborted)
    expect(seen.map((h) => h.range)).toEqual([undefined, undefined])
  })

  it('gives up when the body stalls (idle timeout), keeping the partial file', async () => {
    const staging = join(dir, 'staging')
    const { url } = await contentServer({ stallAfterBytes: 100_000 })
    const error = await failureOf(downloadHttp({ ...deps, idleTimeoutMs: 150 }, input(url()), neverAborted))
    expect(error).toMatchObject({ reason: 'idle_timeout', retryable: true })
    expect(await sizeOnDisk(staging)).toBe(100_000)
  })

  it("stops promptly on abort with the caller's reason, leaving the partial file", async () => {
    const staging = join(dir, 'staging')
    const { url } = await contentServer({ stallAfterBytes: 100_000 })
    const controller = new AbortController()
    const reason = new Error('task cancelled')
    const download = downloadHttp(deps, input(url()), controller.signal)
    await untilFileHolds(staging, 100_000)
    controller.abort(reason)
    expect(await failureOf(download)).toBe(reason)
    expect(existsSync(staging)).toBe(true)
  })

  it('reports a non-2xx answer with its status, retryable only for server-side trouble', async () => {
    for (const [status, retryable] of [
      [404, false],
      [403, false],
      [503, true],
      [429, true],
    ] as const) {
      const server = await startLocalHttpServer((_req, res) => res.writeHead(status).end('nope'))
      servers.push(server)
      const error = await failureOf(downloadHttp(deps, input(`${server.origin}/x`), neverAborted))
      expect(error).toBeInstanceOf(OfflineDownloadFailed)
      expect(error).toMatchObject({ reason: 'http_status', status, retryable })
    }
    expect(existsSync(join(dir, 'staging'))).toBe(false)
  })

  it('passes a staging file error through as it is, not as a network failure', async () => {
    const { url } = await contentServer()
    const error = await failureOf(downloadHttp(deps, input(url(), { stagingPath: join(dir, 'missing-folder', 'staging') }), neverAborted))
    expect(error).not.toBeInstanceOf(OfflineDownloadFailed)
    expect(error).toMatchObject({ code: 'ENOENT' })
  })

  it('reports progress at most every interval, and once at the end', async () => {
    const { url } = await contentServer({ chunked: true })
    // A clock that moves 100 ms each time it is read.
    let nowMs = 0
    const clock = { nowMs: () => (nowMs += 100) }
    const reports: { atMs: number; progress: DownloadProgress }[] = []
    await downloadHttp({ ...deps, clock, progressIntervalMs: 500 }, input(url(), { onProgress: (progress) => reports.push({ atMs: nowMs, progress }) }), neverAborted)
    expect(reports.length).toBeGreaterThan(1)
    for (let i = 1; i < reports.length - 1; i += 1) expect((reports[i]?.atMs ?? 0) - (reports[i - 1]?.atMs ?? 0)).toBeGreaterThanOrEqual(500)
    expect(reports.at(-1)?.progress).toMatchObject({ receivedBytes: CONTENT.length, totalBytes: null })
    expect(reports.every(({ progress }) => progress.bytesPerSecond > 0)).toBe(true)
  })
})
