// `npm run bench -- soak`: the composed server (identity + drive + web, as `cumulus serve` runs
// it) under a mixed workload for a set time, watching its memory. Goal: RSS flat over the second
// half of the run (the last sample within 10% of the sample at the half-way mark).
//
// The server runs in a child process (bench/lib/soak-server.mjs, started with --expose-gc) on
// 127.0.0.1, SQLite in a temp data folder and blobs on local disk; with BENCH_BACKENDS=postgres
// on a fresh PostgreSQL schema, dropped at the end. This process is the load: BENCH_SOAK_USERS
// simulated users in parallel, each signed in with a password and then looping, with no think
// time, over a weighted mix (WEIGHTS below): refresh grant, GET /v1/user/me, list its folder or
// its trash, create a folder, upload a small file through tus (POST /drive/v1/files, PATCH the
// upload's endpoint, GET the file for its links), download it through its signed link, trash,
// delete, empty the trash, now and then a password sign-in (argon2id is expensive) and, when the
// web app is served, a page.
//
// Each tenth of the run (each minute once the run is 10 minutes or longer) it prints the ops/s
// per kind and in total, the failed requests, the server's RSS and heap used (and, after a
// forced full GC, the live heap). At the end: a table per operation, the memory samples and
// the verdict. Results go to bench/results/soak-*.json.
//
// Environment: BENCH_SOAK_MINUTES (10; fractions allowed), BENCH_SOAK_USERS (32),
// BENCH_BACKENDS (sqlite; or postgres, or sqlite,postgres: each backend gets the full time),
// BENCH_SOAK_WEB (auto: serve the web app when packages/web/build is there; true; false),
// BENCH_SOAK_GC (true: a full GC after each sample to read the live heap; false),
// BENCH_SOAK_SNAPSHOTS (false; true writes heap snapshots of the server at the half-way mark
// and at the end, into bench/results/, to compare with bench/lib/heap-growth.mjs or in Chrome
// DevTools: they block the server and swell its RSS, so the verdict of such a run means little),
// BENCH_POSTGRES_URL,
// BENCH_LOG_LEVEL (warn). Runs against the built packages (`npx tsc -b`).
import { fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'

import { WEB_CLIENT_ID } from '@cumulus/protocol'
import { BENCH_DIR, createBenchSchema, freePort, machineCpu, pct, systemBusy, writeResults } from './lib/harness.mjs'

const CPU_COUNT = availableParallelism()
const SERVER_SCRIPT = join(BENCH_DIR, 'lib', 'soak-server.mjs')
/** The goal: the last RSS sample at most this many times the one at the half-way mark. */
const MAX_SECOND_HALF_GROWTH = 1.1
/** More failed requests than this share makes the run's figures meaningless. */
const MAX_ERROR_SHARE = 0.01
const PASSWORD = 'soak test password 7c1f'
const SAMPLE_EVERY_MAX_MS = 60_000
const SAMPLES_PER_SHORT_RUN = 10
/** Live items a user keeps in its folder before trashing wins over creating more. */
const MAX_LIVE_FILES = 24
const MAX_LIVE_FOLDERS = 12
const UPLOAD_MIN_BYTES = 1024
const UPLOAD_MAX_BYTES = 64 * 1024
const MIB = 1024 * 1024

/** How often each operation is picked, relative to the others. */
const WEIGHTS = {
  signin: 0.4,
  refresh: 4,
  me: 14,
  list: 20,
  mkdir: 4,
  upload: 12,
  download: 16,
  trash: 9,
  delete: 2,
  emptyTrash: 1.2,
  page: 2,
}
/** Reported operations; `get` is the GET of a file after its upload (for its links). */
const KINDS = ['signin', 'refresh', 'me', 'list', 'mkdir', 'upload', 'get', 'download', 'trash', 'delete', 'emptyTrash', 'page']

function settings() {
  const number = (name, fallback, { whole = false } = {}) => {
    const raw = process.env[name]
    if (raw === undefined || raw === '') return fallback
    const n = Number(raw)
    if (!Number.isFinite(n) || n <= 0 || (whole && !Number.isInteger(n))) throw new Error(`${name} must be a positive ${whole ? 'whole ' : ''}number, got ${JSON.stringify(raw)}`)
    return n
  }
  const choice = (name, fallback, allowed) => {
    const raw = process.env[name] ?? fallback
    if (!allowed.includes(raw)) throw new Error(`${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`)
    return raw
  }
  const backends = (process.env.BENCH_BACKENDS ?? 'sqlite').split(',').map((b) => b.trim()).filter(Boolean)
  for (const b of backends) if (b !== 'sqlite' && b !== 'postgres') throw new Error(`BENCH_BACKENDS: unknown backend ${b} (sqlite, postgres)`)
  const web = choice('BENCH_SOAK_WEB', 'auto', ['auto', 'true', 'false'])
  return {
    minutes: number('BENCH_SOAK_MINUTES', 10),
    users: number('BENCH_SOAK_USERS', 32, { whole: true }),
    backends,
    web: web === 'auto' ? 'auto' : web === 'true',
    gc: choice('BENCH_SOAK_GC', 'true', ['true', 'false']) === 'true',
    snapshots: choice('BENCH_SOAK_SNAPSHOTS', 'false', ['true', 'false']) === 'true',
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  }
}

// ---------------------------------------------------------------------------------------------
// The server process


/** Forks the server; resolves once it listens, with a handle to sample, snapshot and close it. */
async function startServer(spec, log) {
  const child = fork(SERVER_SCRIPT, [JSON.stringify(spec)], { execArgv: ['--expose-gc', '--max-semi-space-size=1'], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
  // Its log lines (warn and above) go to our stderr, each marked as the server's.
  for (const stream of [child.stdout, child.stderr]) {
    let pending = ''
    stream.on('data', (chunk) => {
      pending += chunk
      const lines = pending.split('\n')
      pending = lines.pop()
      for (const line of lines) if (line.trim()) process.stderr.write(`  [server] ${line}\n`)
    })
  }
  const waiting = new Map()
  let exited = null
  const exit = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal }
      for (const [, { reject }] of waiting) reject(new Error(`the server process exited (${signal ?? code})`))
      waiting.clear()
      resolve(exited)
    })
  })
  child.on('message', (message) => {
    const pendingReply = waiting.get(message?.type)
    if (pendingReply) {
      waiting.delete(message.type)
      pendingReply.resolve(message)
    }
  })
  /** Sends `message` and waits for the reply of type `replyType` (one request of a type at a time). */
  const ask = (message, replyType, timeoutMs) =>
    new Promise((resolve, reject) => {
      if (exited) return reject(new Error(`the server process exited (${exited.signal ?? exited.code})`))
      const timer = setTimeout(() => {
        waiting.delete(replyType)
        reject(new Error(`the server sent no ${replyType} within ${timeoutMs} ms`))
      }, timeoutMs)
      waiting.set(replyType, {
        resolve: (value) => (clearTimeout(timer), resolve(value)),
        reject: (err) => (clearTimeout(timer), reject(err)),
      })
      if (message) child.send(message)
    })
  const ready = await ask(null, 'ready', 120_000)
  log(`  server pid ${child.pid} listening on http://127.0.0.1:${spec.port} (web app ${ready.web ? 'served' : 'not served'}), ${ready.emails.length} users created`)
  return {
    pid: child.pid,
    emails: ready.emails,
    web: ready.web,
    exit,
    sample: (gc) => ask({ type: 'sample', gc }, 'sample', 30_000),
    snapshot: (path) => ask({ type: 'snapshot', path }, 'snapshot', 300_000),
    async close() {
      if (exited) return
      try {
        await ask({ type: 'close' }, 'closed', 20_000)
      } catch {
        child.kill('SIGKILL')
      }
      await exit
    },
  }
}

/** A fresh database for the run: SQLite in the data folder, or a new PostgreSQL schema (dropped by destroy). */
async function openBackend(kind, s) {
  if (kind === 'sqlite') return { databaseUrl: undefined, detail: 'SQLite file in a temp data folder', destroy: async () => {} }
  const { schema, drop } = await createBenchSchema(s.postgresUrl, 'soak')
  const url = new URL(s.postgresUrl)
  url.searchParams.set('schema', schema)
  return { databaseUrl: url.href, detail: `PostgreSQL schema ${schema} at ${url.host}${url.pathname}`, destroy: drop }
}

// ---------------------------------------------------------------------------------------------
// HTTP

class RequestFailed extends Error {
  constructor(what, status, body) {
    super(`${what} answered ${status}: ${String(body).slice(0, 300)}`)
    this.status = status
  }
}

/** One request on the shared keep-alive agent: { status, body: Buffer }. */
function http(agent, url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${url}: no answer within 60 s`)))
    req.on('error', reject)
    req.end(body)
  })
}

/** A request that must answer `expected` (2xx by default); returns the parsed JSON body, or null when empty. */
async function call(agent, url, options = {}, expected = (status) => status >= 200 && status < 300) {
  const reply = await http(agent, url, options)
  if (!expected(reply.status)) throw new RequestFailed(`${options.method ?? 'GET'} ${new URL(url).pathname}`, reply.status, reply.body)
  return reply.body.length && (reply.headers['content-type'] ?? '').includes('json') ? JSON.parse(reply.body.toString('utf8')) : reply
}

const jsonBody = (value) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) })

// ---------------------------------------------------------------------------------------------
// Statistics

function newCounts() {
  return Object.fromEntries(KINDS.map((k) => [k, { ok: 0, failed: 0 }]))
}

class Stats {
  constructor() {
    this.total = newCounts()
    this.interval = newCounts()
    this.latencies = Object.fromEntries(KINDS.map((k) => [k, []]))
    this.requests = 0
    /** Failures by `kind status`, with the first few bodies. */
    this.failures = new Map()
  }

  ok(kind, ms) {
    this.total[kind].ok++
    this.interval[kind].ok++
    this.latencies[kind].push(ms)
  }

  failed(kind, err) {
    this.total[kind].failed++
    this.interval[kind].failed++
    const key = `${kind} ${err instanceof RequestFailed ? err.status : 'network'}`
    const entry = this.failures.get(key) ?? { count: 0, examples: [] }
    entry.count++
    if (entry.examples.length < 3) entry.examples.push(String(err?.message ?? err).slice(0, 300))
    this.failures.set(key, entry)
  }

  /** The interval's counts, and a fresh interval. */
  takeInterval() {
    const counts = this.interval
    this.interval = newCounts()
    return counts
  }
}

const percentile = (sorted, p) => (sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))])

// ---------------------------------------------------------------------------------------------
// The simulated user

function pickWeighted(weights) {
  const entries = Object.entries(weights).filter(([, w]) => w > 0)
  let roll = Math.random() * entries.reduce((sum, [, w]) => sum + w, 0)
  for (const [name, w] of entries) {
    roll -= w
    if (roll <= 0) return name
  }
  return entries.at(-1)[0]
}

const randomInt = (min, max) => min + Math.floor(Math.random() * (max - min + 1))
const takeRandom = (items) => items.splice(Math.floor(Math.random() * items.length), 1)[0]

/**
 * One user: signs in, makes its working folder, then loops over the mix until `deadline`. It
 * keeps track of what it has (live files with their links, live folders, whether the trash has
 * anything) so every request is one that should succeed; any failure is counted as an error.
 */
async function runUser({ base, agent, email, deadline, stats, web, index }) {
  let tokens
  let counter = 0
  const files = []
  const folders = []
  let trashHolds = false
  const auth = () => ({ authorization: `Bearer ${tokens.access_token}` })
  const headers = (extra = {}) => ({ ...auth(), 'x-device-id': `soak-device-${index}`, ...extra })
  const timed = async (kind, run) => {
    const t0 = performance.now()
    try {
      const result = await run()
      stats.ok(kind, performance.now() - t0)
      return result
    } catch (err) {
      stats.failed(kind, err)
      return undefined
    } finally {
      stats.requests++
    }
  }
  const signIn = async () => {
    tokens = await call(agent, `${base}/v1/auth/signin`, { method: 'POST', ...jsonBody({ client_id: WEB_CLIENT_ID, username: email, password: PASSWORD }) })
  }

  await timed('signin', signIn)
  if (!tokens) return
  let workFolderId = ''
  await timed('mkdir', async () => {
    const created = await call(agent, `${base}/drive/v1/files`, { method: 'POST', headers: headers({ 'content-type': 'application/json' }), body: JSON.stringify({ kind: 'drive#folder', name: `soak work ${index}`, parent_id: '' }) })
    workFolderId = created.file.id
  })

  const ops = {
    signin: signIn,
    async refresh() {
      tokens = await call(agent, `${base}/v1/auth/token`, { method: 'POST', ...jsonBody({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: WEB_CLIENT_ID }) })
    },
    async me() {
      await call(agent, `${base}/v1/user/me`, { headers: headers() })
    },
    async list() {
      // Mostly the working folder (as the web app lists it); now and then the trash view.
      const trashView = Math.random() < 0.2
      const query = trashView
        ? { parent_id: '*', filters: JSON.stringify({ trashed: { eq: true } }), limit: '100' }
        : { parent_id: workFolderId, filters: JSON.stringify({ trashed: { eq: false }, phase: { eq: 'PHASE_TYPE_COMPLETE' } }), limit: '100' }
      const page = await call(agent, `${base}/drive/v1/files?${new URLSearchParams(query)}`, { headers: headers() })
      if (page.kind !== 'drive#fileList' || !Array.isArray(page.files)) throw new Error(`listing has no files: ${JSON.stringify(page).slice(0, 200)}`)
    },
    async mkdir() {
      const created = await call(agent, `${base}/drive/v1/files`, { method: 'POST', headers: headers({ 'content-type': 'application/json' }), body: JSON.stringify({ kind: 'drive#folder', name: `folder ${++counter}`, parent_id: workFolderId }) })
      folders.push(created.file.id)
    },
    async upload() {
      const size = randomInt(UPLOAD_MIN_BYTES, UPLOAD_MAX_BYTES)
      const content = randomBytes(size)
      const created = await call(agent, `${base}/drive/v1/files`, {
        method: 'POST',
        headers: headers({ 'content-type': 'application/json' }),
        body: JSON.stringify({ kind: 'drive#file', name: `file ${++counter}.bin`, parent_id: workFolderId, size: String(size), upload_type: 'UPLOAD_TYPE_RESUMABLE', resumable: { provider: 'PROVIDER_TUS' } }),
      })
      stats.requests++
      await call(
        agent,
        created.resumable.params.endpoint,
        { method: 'PATCH', headers: headers({ 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(size) }), body: content },
        (status) => status === 204,
      )
      return { id: created.file.id, size }
    },
    /** After an upload: the client reads the file back for its links, as the web app does. */
    async get({ id, size }) {
      const file = await call(agent, `${base}/drive/v1/files/${id}`, { headers: headers() })
      if (file.phase !== 'PHASE_TYPE_COMPLETE' || file.size !== String(size) || !file.web_content_link) throw new Error(`upload did not complete: ${file.phase} ${file.size}`)
      files.push({ id: file.id, size, link: file.web_content_link, expiresAtMs: Date.parse(file.links['application/octet-stream'].expire) })
    },
    async download() {
      const file = files[Math.floor(Math.random() * files.length)]
      if (file.expiresAtMs - Date.now() < 60_000) {
        const fresh = await call(agent, `${base}/drive/v1/files/${file.id}`, { headers: headers() })
        stats.requests++
        file.link = fresh.web_content_link
        file.expiresAtMs = Date.parse(fresh.links['application/octet-stream'].expire)
      }
      const reply = await http(agent, file.link)
      if (reply.status !== 200 || reply.body.length !== file.size) throw new RequestFailed('GET signed link', reply.status, `${reply.body.length} bytes, expected ${file.size}`)
    },
    async trash() {
      // Files more often than folders; the oldest file, as a user clearing out.
      const id = folders.length > 0 && (files.length === 0 || Math.random() < 0.3) ? takeRandom(folders) : files.shift().id
      await call(agent, `${base}/drive/v1/files:batchTrash`, { method: 'POST', headers: headers({ 'content-type': 'application/json' }), body: JSON.stringify({ ids: [id] }) })
      trashHolds = true
    },
    async delete() {
      const { id } = takeRandom(files)
      await call(agent, `${base}/drive/v1/files:batchDelete`, { method: 'POST', headers: headers({ 'content-type': 'application/json' }), body: JSON.stringify({ ids: [id] }) })
    },
    async emptyTrash() {
      await call(agent, `${base}/drive/v1/files/trash:empty`, { method: 'PATCH', headers: headers() })
      trashHolds = false
    },
    async page() {
      // A first visit's HTML, rendered (or served from the render cache) by the web app.
      const path = Math.random() < 0.5 ? '/' : '/account/login'
      await call(agent, `${base}${path}`, { headers: { accept: 'text/html', 'accept-encoding': 'gzip, br' } })
    },
  }

  while (performance.now() < deadline) {
    // What makes sense now: nothing to download without files, no more creating past the caps.
    const weights = {
      ...WEIGHTS,
      page: web ? WEIGHTS.page : 0,
      upload: files.length < MAX_LIVE_FILES ? WEIGHTS.upload : 0,
      mkdir: folders.length < MAX_LIVE_FOLDERS ? WEIGHTS.mkdir : 0,
      download: files.length > 0 ? WEIGHTS.download : 0,
      delete: files.length > 0 ? WEIGHTS.delete : 0,
      trash: files.length + folders.length > 0 ? WEIGHTS.trash * (files.length >= MAX_LIVE_FILES ? 3 : 1) : 0,
      emptyTrash: trashHolds ? WEIGHTS.emptyTrash : 0,
    }
    const kind = pickWeighted(weights)
    const uploaded = await timed(kind, ops[kind])
    if (kind === 'upload' && uploaded) await timed('get', () => ops.get(uploaded))
  }
}

// ---------------------------------------------------------------------------------------------
// One run

const mib = (bytes) => (bytes === undefined || bytes === null ? '-' : (bytes / MIB).toFixed(1))
const rate = (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(1))
const clock = (ms) => {
  const seconds = Math.round(ms / 1000)
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
}

function table(header, rows, rightAligned = () => true) {
  const cells = [header, ...rows].map((r) => r.map(String))
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)))
  const line = (r) => r.map((c, i) => (i > 0 && rightAligned(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ')
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n')
}

async function soakBackend(kind, s, log) {
  const durationMs = s.minutes * 60_000
  const sampleEveryMs = Math.min(SAMPLE_EVERY_MAX_MS, durationMs / SAMPLES_PER_SHORT_RUN)
  const dir = mkdtempSync(join(tmpdir(), 'cumulus-bench-soak-'))
  const backend = await openBackend(kind, s)
  const agent = new Agent({ keepAlive: true, maxSockets: s.users * 2 })
  let server
  try {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    log(`[${kind}] starting the server (${backend.detail}) ...`)
    server = await startServer({ dataDir: join(dir, 'data'), port, databaseUrl: backend.databaseUrl, logLevel: s.logLevel, users: s.users, password: PASSWORD, web: s.web }, log)

    const samples = []
    const intervals = []
    const first = await server.sample(s.gc)
    samples.push({ ...first, tMs: 0 })
    log(`[${kind}] before load: RSS ${mib(first.rss)} MiB, heap used ${mib(first.heapUsed)} MiB${first.heapUsedAfterGc !== undefined ? ` (${mib(first.heapUsedAfterGc)} after GC)` : ''}`)
    log(`[${kind}] ${s.users} users for ${s.minutes} min, a sample every ${(sampleEveryMs / 1000).toFixed(0)} s (srv CPU and load CPU: share of one core; machine: share of all ${CPU_COUNT})`)
    log(`  ${'t'.padStart(5)}  ${'ops/s'.padStart(6)}  ${'failed'.padStart(6)}  ${'RSS MiB'.padStart(8)}  ${'heap MiB'.padStart(8)}  ${'live MiB'.padStart(8)}  ${'srv CPU'.padStart(7)}  ${'load CPU'.padStart(8)}  ${'machine'.padStart(7)}  per kind (ops/s)`)

    const stats = new Stats()
    const started = performance.now()
    const deadline = started + durationMs
    let lastCpuMs = first.cpuMs
    let lastLoadCpu = process.cpuUsage()
    let lastMachine = machineCpu()
    let lastAt = started
    let snapshotHalf = null
    const takeSample = async (tMs) => {
      const counts = stats.takeInterval()
      const now = performance.now()
      const seconds = (now - lastAt) / 1000
      lastAt = now
      const sample = await server.sample(s.gc)
      const machine = machineCpu()
      const serverCpuShare = (sample.cpuMs - lastCpuMs) / (seconds * 1000)
      const loadCpu = process.cpuUsage(lastLoadCpu)
      lastLoadCpu = process.cpuUsage()
      const loadCpuShare = (loadCpu.user + loadCpu.system) / 1000 / (seconds * 1000)
      const machineBusy = lastMachine && machine ? (machine.busyMs - lastMachine.busyMs) / ((machine.at - lastMachine.at) * CPU_COUNT) : null
      lastCpuMs = sample.cpuMs
      lastMachine = machine
      const perKind = Object.fromEntries(KINDS.map((k) => [k, counts[k].ok / seconds]))
      const ok = KINDS.reduce((sum, k) => sum + counts[k].ok, 0)
      const failed = KINDS.reduce((sum, k) => sum + counts[k].failed, 0)
      intervals.push({ tMs, seconds, perKind, total: ok / seconds, ok, failed, serverCpuShare, loadCpuShare, machineBusy })
      samples.push({ ...sample, tMs })
      const kinds = KINDS.filter((k) => counts[k].ok + counts[k].failed > 0).map((k) => `${k} ${rate(perKind[k])}`).join(', ')
      log(`  ${clock(tMs).padStart(5)}  ${rate(ok / seconds).padStart(6)}  ${String(failed).padStart(6)}  ${mib(sample.rss).padStart(8)}  ${mib(sample.heapUsed).padStart(8)}  ${mib(sample.heapUsedAfterGc).padStart(8)}  ${pct(serverCpuShare).padStart(7)}  ${pct(loadCpuShare).padStart(8)}  ${pct(machineBusy).padStart(7)}  ${kinds}`)
      if (s.snapshots && !snapshotHalf && tMs >= durationMs / 2) {
        snapshotHalf = (await server.snapshot(join(BENCH_DIR, 'results', `soak-${kind}-half-${Date.now()}.heapsnapshot`))).path
        log(`  heap snapshot: ${snapshotHalf}`)
      }
    }

    // Samples on a fixed schedule while the users run; the last one when the run ends.
    let sampling = Promise.resolve()
    let next = 1
    const timer = setInterval(() => {
      const tMs = next * sampleEveryMs
      if (tMs >= durationMs - 1) return
      next++
      sampling = sampling.then(() => takeSample(tMs))
    }, sampleEveryMs)
    let crashed = null
    server.exit.then((exit) => {
      crashed = exit
    })
    try {
      await Promise.race([
        Promise.all(server.emails.map((email, index) => runUser({ base, agent, email, deadline, stats, web: server.web, index }))),
        server.exit.then((exit) => Promise.reject(new Error(`the server process exited during the run (${exit.signal ?? exit.code})`))),
      ])
    } finally {
      clearInterval(timer)
    }
    await sampling
    if (crashed) throw new Error(`the server process exited during the run (${crashed.signal ?? crashed.code})`)
    await takeSample(durationMs)
    const elapsedSeconds = (performance.now() - started) / 1000
    let snapshotEnd = null
    if (s.snapshots) {
      snapshotEnd = (await server.snapshot(join(BENCH_DIR, 'results', `soak-${kind}-end-${Date.now()}.heapsnapshot`))).path
      log(`  heap snapshot: ${snapshotEnd}`)
    }

    // The verdict: the last sample against the one at (or first past) the half-way mark.
    const half = samples.find((x) => x.tMs >= durationMs / 2)
    const last = samples.at(-1)
    const rssRatio = last.rss / half.rss
    const liveRatio = last.heapUsedAfterGc !== undefined && half.heapUsedAfterGc !== undefined ? last.heapUsedAfterGc / half.heapUsedAfterGc : null

    const operations = KINDS.map((k) => {
      const sorted = stats.latencies[k].sort((a, b) => a - b)
      return { kind: k, ok: stats.total[k].ok, failed: stats.total[k].failed, perSecond: stats.total[k].ok / elapsedSeconds, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: sorted.at(-1) ?? null }
    }).filter((o) => o.ok + o.failed > 0)
    const ok = operations.reduce((sum, o) => sum + o.ok, 0)
    const failed = operations.reduce((sum, o) => sum + o.failed, 0)
    return {
      backend: kind,
      database: backend.detail,
      web: server.web,
      serverPid: server.pid,
      durationMs,
      elapsedSeconds,
      sampleEveryMs,
      operations,
      totals: { ok, failed, perSecond: ok / elapsedSeconds, requests: stats.requests, errorShare: failed / Math.max(1, ok + failed) },
      failures: Object.fromEntries(stats.failures),
      intervals,
      samples,
      verdict: { halfTMs: half.tMs, halfRss: half.rss, lastRss: last.rss, rssRatio, liveHeapRatio: liveRatio, pass: rssRatio <= MAX_SECOND_HALF_GROWTH },
      snapshots: s.snapshots ? { half: snapshotHalf, end: snapshotEnd } : undefined,
    }
  } finally {
    agent.destroy()
    if (server) await server.close()
    await backend.destroy().catch((err) => log(`  cleanup: could not drop the schema: ${err.message}`))
    rmSync(dir, { recursive: true, force: true })
  }
}

function report(run) {
  const fmtMs = (n) => (n === null ? '-' : n >= 100 ? n.toFixed(0) : n.toFixed(1))
  console.log('')
  console.log(`${run.backend}: ${run.database}; web app ${run.web ? 'served' : 'not served'}; ${(run.elapsedSeconds / 60).toFixed(1)} min`)
  console.log(
    table(
      ['operation', 'ok', 'failed', 'ops/s', 'p50 ms', 'p99 ms', 'max ms'],
      [
        ...run.operations.map((o) => [o.kind, o.ok, o.failed, rate(o.perSecond), fmtMs(o.p50Ms), fmtMs(o.p99Ms), fmtMs(o.maxMs)]),
        ['total', run.totals.ok, run.totals.failed, rate(run.totals.perSecond), '', '', ''],
      ],
    ),
  )
  console.log(`  (${run.totals.requests} HTTP requests: an upload is a POST and a PATCH; a download may first GET fresh links)`)
  for (const [key, f] of Object.entries(run.failures)) console.log(`  failed: ${key} x${f.count}, e.g. ${f.examples[0]}`)
  console.log('')
  console.log(
    table(
      ['t', 'RSS MiB', 'heap used MiB', 'live heap MiB', 'external MiB', 'malloced MiB', 'handles'],
      run.samples.map((x) => [clock(x.tMs), mib(x.rss), mib(x.heapUsed), mib(x.heapUsedAfterGc), mib(x.external), mib(x.mallocedMemory), x.handles]),
    ),
  )
  const v = run.verdict
  console.log('')
  console.log(
    `  verdict: RSS at the end ${mib(v.lastRss)} MiB / at ${clock(v.halfTMs)} ${mib(v.halfRss)} MiB = ${v.rssRatio.toFixed(3)} (goal <= ${MAX_SECOND_HALF_GROWTH}) -> ${v.pass ? 'pass: flat over the second half' : 'MISSED: RSS grew over the second half'}` +
      (v.liveHeapRatio === null ? '' : `; live heap (after a full GC) ratio ${v.liveHeapRatio.toFixed(3)}`),
  )
  if (run.snapshots) console.log(`  (heap snapshots were written: every sample after the first one carries its cost, so this verdict means little)`)
}

export async function main() {
  const s = settings()
  const log = (line) => process.stderr.write(`${line}\n`)
  const busy = await systemBusy(CPU_COUNT)
  const environment = { node: process.version, cpus: CPU_COUNT, cpuModel: cpus()[0]?.model ?? 'unknown', loadAverageAtStart: loadavg().map((x) => Number(x.toFixed(2))), cpuBusyBeforeStart: busy }
  log(`soak bench: ${s.backends.join(' + ')}, ${s.users} users, ${s.minutes} min each; ${CPU_COUNT} CPUs (${environment.cpuModel}), busy before start ${pct(busy)}`)
  mkdirSync(join(BENCH_DIR, 'results'), { recursive: true })
  const runs = []
  for (const kind of s.backends) runs.push(await soakBackend(kind, s, log))

  console.log('')
  console.log('Cumulus soak benchmark')
  console.log(`  server: @cumulus/server buildServer (identity + drive${runs.some((r) => r.web) ? ' + web' : ''}, housekeeping on) in a child process, Node ${process.version}; load: ${s.users} users in this process, no think time`)
  console.log(`  machine: ${CPU_COUNT} CPUs, busy before start ${pct(busy)}; the load and the server share these cores`)
  console.log(`  goal: RSS flat over the second half (last sample <= ${MAX_SECOND_HALF_GROWTH} x the sample at the half-way mark)${s.gc ? '; live heap = heap used after a forced full GC, read after RSS' : ''}`)
  for (const run of runs) report(run)
  const file = writeResults('soak', { benchmark: 'soak', settings: s, environment, weights: WEIGHTS, goal: { maxSecondHalfGrowth: MAX_SECOND_HALF_GROWTH }, runs })
  console.log(`\n  results: ${file}`)
  const invalid = runs.filter((r) => r.totals.errorShare > MAX_ERROR_SHARE)
  if (invalid.length) console.log(`  INVALID: more than ${pct(MAX_ERROR_SHARE)} of operations failed on ${invalid.map((r) => r.backend).join(', ')}`)
  return invalid.length === 0 && runs.every((r) => r.verdict.pass) ? 0 : 1
}
