// `npm run bench -- offline`: what offline download and the job runner under it cost, each figure
// against a baseline measured in the same run on the same machine.
//
//   1. HTTP offline download: a file of BENCH_OFFLINE_BYTES (1 GiB) from a bare node:http origin
//      on 127.0.0.1 (bench/lib/offline-origin.mjs, in a child process, content made on the fly)
//      into the blob store through the product path: the composed server as `cumulus serve` runs
//      it (NODE_ENV=production, web app on, SQLite; bench/lib/offline-server.mjs in a child
//      process of its own), POST /drive/v1/files { upload_type: 'UPLOAD_TYPE_URL' }, then GET
//      /drive/v1/tasks/{id} every 100 ms until PHASE_TYPE_COMPLETE; timed from the add to the
//      completion. Baseline: fetch(url) piped to a file on the same disk with pipeline and
//      fs.createWriteStream, then an fsync (the product fsyncs the blob before it lands), in a
//      child process (bench/lib/fetch-to-file.mjs) so its buffers stay out of the server's RSS.
//      Goal: ours/baseline >= 0.8. Also the server process's RSS, sampled inside it every 200 ms
//      while the task runs (the bench's polling, origin and baseline are other processes): goal
//      max < 150 MB, with the growth over the RSS before the task shown beside it. The stored
//      file's `hash` must equal the GCID the bench computes for the content (@cumulus/drive's
//      GcidHasher), or the row is INVALID.
//   2. Job runner: BENCH_JOBS (1,000) no-op jobs enqueued, then the runner started
//      (@cumulus/jobs StoreJobRunner, on the embedded SQLite store and on pg-boss), at queue
//      concurrency 1 and 8: jobs/s from start() to the last completion, and pickup latency
//      (enqueue -> handler start; with the backlog, that is mostly time in the queue). Then a
//      trickle: BENCH_JOBS_TRICKLE (200) jobs enqueued one at a time into the running runner, so
//      the pickup latency is the runner's own. Baseline: the same handler called in a loop (the
//      ratio is information). Goals: >= 200 jobs/s at concurrency 8 on either backend, and
//      trickle pickup p99 < 50 ms.
//   3. BitTorrent: a multi-file torrent of BENCH_TORRENT_BYTES (256 MiB) seeded on 127.0.0.1 by
//      test-support/torrent-swarm.ts (a bittorrent-tracker and an aria2c seeder). Ours: the
//      .torrent uploaded to the drive, then an offline task from it (POST /drive/v1/files with
//      params.torrent_file_id) on the same composed server, from the add until the task is
//      COMPLETE; the landed files' GCIDs must match the content. Baseline: the aria2c CLI
//      fetching the same .torrent, timed to its "Download complete" line (its exit, a second
//      later, is shown too). Goal: baseline time / our time >= 0.8. Also shown: the drive's
//      torrent engine alone (createTorrentEngine(...).start() until done), to split the task's
//      time between aria2 and the rest.
//
// Rounds alternate baseline and ours; figures are medians. Everything listens on and talks to
// 127.0.0.1. Runs against the built packages (`npx tsc -b`).
// Environment: BENCH_ONLY (http,jobs,torrent), BENCH_OFFLINE_BYTES (1GiB), BENCH_OFFLINE_ROUNDS (3),
// BENCH_JOBS (1000), BENCH_JOBS_CONCURRENCY (1,8), BENCH_JOBS_TRICKLE (200), BENCH_BACKENDS
// (sqlite,postgres), BENCH_TORRENT_BYTES (256MiB), BENCH_TORRENT_ROUNDS (3), BENCH_POSTGRES_URL
// (postgres://postgres@127.0.0.1:5432/test), BENCH_LOG_LEVEL (warn).
import { fork, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { pathToFileURL } from 'node:url'

import { GcidHasher, createTorrentEngine, defaultTorrentEngineConfig } from '@cumulus/drive'
import { openDatabase } from '@cumulus/identity'
import { PgBossJobStore, SqliteJobStore, StoreJobRunner, migrateJobs } from '@cumulus/jobs'
import { WEB_CLIENT_ID } from '@cumulus/protocol'
import { buildServer, loadConfig } from '@cumulus/server'
import { pino } from 'pino'
import { BENCH_DIR, createBenchSchema, freePort, machineEnvironment, pct, withPg, writeResults } from './lib/harness.mjs'
import { contentChunks } from './lib/offline-origin.mjs'

const CPU_COUNT = availableParallelism()
const REPO_DIR = dirname(BENCH_DIR)
const MIB = 1024 * 1024
const MB = 1000 * 1000
const GOALS = { httpRatio: 0.8, httpRssMaxMB: 150, jobsPerSecondAtConcurrency8: 200, tricklePickupP99Ms: 50, torrentRatio: 0.8 }
const PARTS = ['http', 'jobs', 'torrent']
/** How often the bench reads the task, and the torrent engine's progress. */
const POLL_MS = 100
/** The Node flags `npm start` and the `cumulus` bin run the server with (decision 023). */
const SERVER_NODE_FLAGS = ['--max-semi-space-size=1']
const RSS_SAMPLE_MS = 200
/** Bounds of each timed step: a stuck download or queue fails the bench instead of hanging it. */
const HTTP_STEP_TIMEOUT_MS = 180_000
const JOBS_STEP_TIMEOUT_MS = 60_000
const TORRENT_STEP_TIMEOUT_MS = 120_000
/** Gap between two trickled enqueues: the runner is idle when each job arrives. */
const TRICKLE_GAP_MS = 5
const TORRENT_PIECE_BYTES = MIB
/** Shares of BENCH_TORRENT_BYTES per file of the torrent (a folder of four files). */
const TORRENT_FILE_SHARES = [8, 4, 3, 1]

const BYTE_UNITS = { '': 1, b: 1, kib: 1024, mib: MIB, gib: 1024 * MIB, kb: 1000, mb: MB, gb: 1000 * MB }

function settings() {
  const list = (name, fallback) => (process.env[name] ?? fallback).split(',').map((x) => x.trim()).filter(Boolean)
  const whole = (name, fallback, min = 1) => {
    const raw = process.env[name]
    if (raw === undefined || raw === '') return fallback
    const n = Number(raw)
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number >= ${min}, got ${JSON.stringify(raw)}`)
    return n
  }
  const bytes = (name, fallback) => {
    const raw = process.env[name] ?? fallback
    const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(raw.trim())
    const unit = match ? BYTE_UNITS[match[2].toLowerCase()] : undefined
    const n = match && unit !== undefined ? Math.floor(Number(match[1]) * unit) : Number.NaN
    if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${name} must be a size such as 64MiB, 1GiB or a number of bytes, got ${JSON.stringify(raw)}`)
    return n
  }
  const only = list('BENCH_ONLY', PARTS.join(','))
  for (const part of only) if (!PARTS.includes(part)) throw new Error(`BENCH_ONLY: unknown part ${part} (${PARTS.join(', ')})`)
  const backends = list('BENCH_BACKENDS', 'sqlite,postgres')
  for (const b of backends) if (b !== 'sqlite' && b !== 'postgres') throw new Error(`BENCH_BACKENDS: unknown backend ${b} (sqlite, postgres)`)
  const concurrencies = list('BENCH_JOBS_CONCURRENCY', '1,8').map((x) => {
    const n = Number(x)
    if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_JOBS_CONCURRENCY: ${x} is not a whole number >= 1`)
    return n
  })
  return {
    only: new Set(only),
    offlineBytes: bytes('BENCH_OFFLINE_BYTES', '1GiB'),
    offlineRounds: whole('BENCH_OFFLINE_ROUNDS', 3),
    jobs: whole('BENCH_JOBS', 1000),
    concurrencies,
    trickleJobs: whole('BENCH_JOBS_TRICKLE', 200, 0),
    backends,
    torrentBytes: bytes('BENCH_TORRENT_BYTES', '256MiB'),
    torrentRounds: whole('BENCH_TORRENT_ROUNDS', 3),
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const percentile = (sorted, p) => (sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))])
const mibps = (bytes, ms) => bytes / MIB / (ms / 1000)
const msText = (ms) => (ms === null ? '-' : `${ms.toFixed(0)} ms`)
const sizeText = (bytes) => (bytes >= 1024 * MIB && bytes % (1024 * MIB) === 0 ? `${bytes / 1024 / MIB} GiB` : `${(bytes / MIB).toFixed(bytes % MIB === 0 ? 0 : 1)} MiB`)

/** Resolves with `promise`, or rejects once `ms` have passed (naming `what`). */
async function within(ms, what, promise) {
  let timer
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms)))
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** A goal row: `ours`/`baseline` are display strings; `pass` null when the row is information. */
function row(part, measure, ours, baseline, ratio, goal, pass, invalid = false) {
  return { part, measure, ours, baseline, ratio, goal, pass, invalid }
}

function printTable(rows) {
  const header = ['part', 'measure', 'ours', 'baseline', 'ratio', 'goal', 'result']
  const body = rows.map((r) => [r.part, r.measure, r.ours, r.baseline, r.ratio === null ? '-' : r.ratio.toFixed(2), r.goal ?? '-', r.invalid ? 'INVALID' : r.pass === null ? 'info' : r.pass ? 'pass' : 'MISSED'])
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)))
  const line = (cells) => cells.map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ')
  console.log(line(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const b of body) console.log(line(b))
}

// --- 1. HTTP offline download -------------------------------------------------------------------

/** Starts bench/lib/offline-origin.mjs in a child process; resolves with its base URL and a stop(). */
function startOrigin(sizeBytes) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(BENCH_DIR, 'lib', 'offline-origin.mjs'), String(sizeBytes)], { stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`the origin did not start: ${err}`))
    }, 10_000)
    child.stderr.on('data', (c) => (err += c))
    child.stdout.on('data', (c) => {
      out += c
      const newline = out.indexOf('\n')
      if (newline < 0) return
      clearTimeout(timer)
      const { port } = JSON.parse(out.slice(0, newline))
      resolve({
        base: `http://127.0.0.1:${port}`,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done()
            child.once('close', () => done())
            child.stdin.end()
          }),
      })
    })
    child.on('error', reject)
  })
}

async function api(base, path, { token, method = 'GET', body } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text)
}

/** Baseline: bench/lib/fetch-to-file.mjs in a child process; resolves with its { ms, rssMaxBytes }. */
function fetchToFile(url, path, sizeBytes) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(BENCH_DIR, 'lib', 'fetch-to-file.mjs'), url, path, String(sizeBytes)], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (c) => (out += c))
    child.stderr.on('data', (c) => (err += c))
    const timer = setTimeout(() => child.kill('SIGKILL'), HTTP_STEP_TIMEOUT_MS)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code !== 0) return reject(new Error(`the fetch baseline exited with ${signal ?? code}: ${err.trim()}`))
      resolve(JSON.parse(out.trim()))
    })
  })
}

/**
 * Ours: adds an offline task (`source`: the `url` and `params` of the add) and reads it every
 * POLL_MS until it completes; returns the timings and the task.
 */
async function offlineTask(base, token, source, timeoutMs) {
  const t0 = performance.now()
  const created = await api(base, '/drive/v1/files', { token, method: 'POST', body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', ...source } })
  const addedMs = performance.now() - t0
  if (!created.task) throw new Error(`the add returned no task: ${JSON.stringify(created).slice(0, 300)}`)
  let runningAtMs = null
  // The task shows 99% once its bytes are all there and until they are landed in the drive.
  let downloadedAtMs = null
  const deadline = t0 + timeoutMs
  for (;;) {
    const task = await api(base, `/drive/v1/tasks/${created.task.id}`, { token })
    if (task.phase === 'PHASE_TYPE_RUNNING' && runningAtMs === null) runningAtMs = performance.now() - t0
    if (task.phase === 'PHASE_TYPE_RUNNING' && task.progress >= 99 && downloadedAtMs === null) downloadedAtMs = performance.now() - t0
    if (task.phase === 'PHASE_TYPE_COMPLETE') return { ms: performance.now() - t0, addedMs, runningAtMs, downloadedAtMs, task }
    if (task.phase === 'PHASE_TYPE_ERROR') throw new Error(`the offline task failed: ${task.message} ${task.params?.error_description ?? ''}`)
    if (performance.now() > deadline) throw new Error(`the offline task did not complete within ${timeoutMs / 1000} s (phase ${task.phase}, ${task.progress}%)`)
    await sleep(POLL_MS)
  }
}

/**
 * The composed server as `cumulus serve` runs it (no web app, no housekeeping), in this process,
 * on SQLite in `dir`, allowed to fetch from 127.0.0.1, with an anonymous account signed up.
 */
async function startServer(dir, s, env = {}) {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const config = loadConfig({
    CUMULUS_DATA_DIR: join(dir, 'data'), LOG_LEVEL: s.logLevel, PORT: String(port), HOST: '127.0.0.1', CAPTCHA_MODE: 'off', PUBLIC_URL: base,
    DRIVE_QUOTA_FREE: '1PiB', OFFLINE_ALLOW_NETWORKS: '127.0.0.1/32', OFFLINE_TASKS_PER_DAY_FREE: '1000000', ...env,
  })
  const server = await buildServer(config, { web: false, housekeeping: false })
  try {
    await server.app.listen({ port, host: '127.0.0.1' })
    const signUp = await api(base, '/v1/auth/signup/anonymously', { method: 'POST', body: { client_id: WEB_CLIENT_ID } })
    return { server, base, token: signUp.access_token }
  } catch (err) {
    await server.close()
    throw err
  }
}

/**
 * The composed server as `cumulus serve` runs it (NODE_ENV=production, the web app when built),
 * in a child process (bench/lib/offline-server.mjs) so the memory it reports is the server's
 * alone; on SQLite in `dir`, allowed to fetch from 127.0.0.1, with an anonymous account.
 */
async function startServerProcess(dir, s) {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const env = {
    CUMULUS_DATA_DIR: join(dir, 'data'), LOG_LEVEL: s.logLevel, PORT: String(port), HOST: '127.0.0.1', CAPTCHA_MODE: 'off', PUBLIC_URL: base,
    DRIVE_QUOTA_FREE: '1PiB', OFFLINE_ALLOW_NETWORKS: '127.0.0.1/32', OFFLINE_TASKS_PER_DAY_FREE: '1000000',
  }
  const child = fork(join(BENCH_DIR, 'lib', 'offline-server.mjs'), [JSON.stringify({ env })], { execArgv: SERVER_NODE_FLAGS, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const replies = []
  const waiting = []
  child.on('message', (message) => (waiting.length > 0 ? waiting.shift()(message) : replies.push(message)))
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)))
  const next = () => within(60_000, 'the offline server', Promise.race([
    new Promise((resolve) => (replies.length > 0 ? resolve(replies.shift()) : waiting.push(resolve))),
    exited.then((code) => Promise.reject(new Error(`the offline server exited (code ${code})`))),
  ]))
  const ask = async (message) => {
    child.send(message)
    return next()
  }
  const ready = await next()
  const close = async () => {
    if (child.exitCode !== null) return
    await ask({ type: 'close' }).catch(() => child.kill('SIGKILL'))
    await exited
  }
  try {
    const signUp = await api(base, '/v1/auth/signup/anonymously', { method: 'POST', body: { client_id: WEB_CLIENT_ID } })
    return { base, token: signUp.access_token, web: ready.web, ask, close }
  } catch (err) {
    await close()
    throw err
  }
}

/** The GCID of the origin's content for `seed`, computed here from the same generator. */
function expectedGcid(seed, sizeBytes) {
  const hasher = new GcidHasher(sizeBytes)
  for (const chunk of contentChunks(seed, sizeBytes)) hasher.update(chunk)
  return hasher.digest()
}

async function benchHttp(s, log) {
  const dir = mkdtempSync(join(tmpdir(), 'cumulus-bench-offline-'))
  const origin = await startOrigin(s.offlineBytes)
  const server = await startServerProcess(dir, s)
  const { base, token } = server
  try {
    const rssIdleBytes = (await server.ask({ type: 'watch', intervalMs: RSS_SAMPLE_MS })).rss
    await server.ask({ type: 'stop' })
    const rounds = []
    for (let round = 0; round < s.offlineRounds; round++) {
      // Each side and each round gets content of its own seed, under its own URL.
      const baseSeed = 1000 + round
      const oursSeed = 2000 + round
      log(`[http] round ${round + 1}/${s.offlineRounds}: baseline fetch -> file…`)
      const target = join(dir, `baseline-${round}.bin`)
      const baseline = await fetchToFile(`${origin.base}/content/${baseSeed}/baseline.bin`, target, s.offlineBytes)
      rmSync(target)

      log(`[http] round ${round + 1}/${s.offlineRounds}: offline task…`)
      const rssBeforeBytes = (await server.ask({ type: 'watch', intervalMs: RSS_SAMPLE_MS })).rss
      let ours
      try {
        ours = await offlineTask(base, token, { url: { url: `${origin.base}/content/${oursSeed}/offline-${round}.bin` } }, HTTP_STEP_TIMEOUT_MS)
      } finally {
        rounds.push({ baselineMs: baseline.ms, baselineRssMaxBytes: baseline.rssMaxBytes, rssBeforeBytes, rss: await server.ask({ type: 'stop' }) })
      }
      const file = await api(base, `/drive/v1/files/${ours.task.file_id}`, { token })
      Object.assign(rounds.at(-1), { oursMs: ours.ms, addedMs: ours.addedMs, runningAtMs: ours.runningAtMs, downloadedAtMs: ours.downloadedAtMs, seed: oursSeed, file: { id: file.id, size: file.size, hash: file.hash, phase: file.phase } })
    }
    log('[http] checking GCIDs…')
    for (const r of rounds) {
      r.expectedGcid = expectedGcid(r.seed, s.offlineBytes)
      r.valid = r.file.hash === r.expectedGcid && r.file.size === String(s.offlineBytes) && r.file.phase === 'PHASE_TYPE_COMPLETE'
    }
    const oursMiBps = mibps(s.offlineBytes, median(rounds.map((r) => r.oursMs)))
    const baseMiBps = mibps(s.offlineBytes, median(rounds.map((r) => r.baselineMs)))
    const rssMaxBytes = Math.max(...rounds.map((r) => r.rss.maxBytes))
    const rssGrowthBytes = Math.max(...rounds.map((r) => r.rss.maxBytes - r.rssBeforeBytes))
    const valid = rounds.every((r) => r.valid)
    const rows = [
      row('http', `offline task ${sizeText(s.offlineBytes)} vs fetch->file+fsync`, `${oursMiBps.toFixed(0)} MiB/s`, `${baseMiBps.toFixed(0)} MiB/s`, oursMiBps / baseMiBps, `>= ${GOALS.httpRatio}`, oursMiBps / baseMiBps >= GOALS.httpRatio, !valid),
      row('http', 'RSS max during the task (server process)', `${(rssMaxBytes / MB).toFixed(0)} MB`, `${(Math.max(...rounds.map((r) => r.baselineRssMaxBytes)) / MB).toFixed(0)} MB`, null, `< ${GOALS.httpRssMaxMB} MB`, rssMaxBytes / MB < GOALS.httpRssMaxMB),
      row('http', '  RSS growth over the task (max - before)', `${(rssGrowthBytes / MB).toFixed(0)} MB`, '-', null, null, null),
    ]
    const notes = [
      `http: server (NODE_ENV=production, web app ${server.web ? 'on' : 'off (not built)'}), origin and fetch baseline each in a child process of their own; server RSS idle after sign-up ${(rssIdleBytes / MB).toFixed(0)} MB, sampled in the server every ${RSS_SAMPLE_MS} ms (baseline column: the fetch child's own max RSS)`,
      ...rounds.map((r, i) => `http round ${i + 1}: RSS before the task ${(r.rssBeforeBytes / MB).toFixed(0)} MB, at its max ${(r.rss.maxBytes / MB).toFixed(0)} MB (V8 heap ${(r.rss.atMax.heapTotal / MB).toFixed(0)} MB of which used ${(r.rss.atMax.heapUsed / MB).toFixed(0)} MB, external ${(r.rss.atMax.external / MB).toFixed(0)} MB, array buffers ${(r.rss.atMax.arrayBuffers / MB).toFixed(0)} MB${r.rss.atMax.anonymous ? `; anonymous ${(r.rss.atMax.anonymous / MB).toFixed(0)} MB, mapped files ${(r.rss.atMax.files / MB).toFixed(0)} MB` : ''})`),
      ...rounds.map((r, i) => `http round ${i + 1}: ours ${(r.oursMs / 1000).toFixed(2)} s (add answered ${r.addedMs.toFixed(0)} ms, first seen RUNNING at ${msText(r.runningAtMs)}, at 99% at ${msText(r.downloadedAtMs)}), baseline ${(r.baselineMs / 1000).toFixed(2)} s; GCID ${r.file.hash} ${r.valid ? '= computed' : `!= computed ${r.expectedGcid} (INVALID)`}`),
    ]
    return { rows, notes, detail: { rounds, rssIdleBytes } }
  } finally {
    await server.close()
    await origin.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

// --- 2. Job runner ------------------------------------------------------------------------------

/** A database of the runner's own, migrated: SQLite in a temp file, or a new PostgreSQL schema. */
async function openJobsDatabase(kind, s) {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'cumulus-bench-jobs-'))
    const opened = openDatabase({ sqlitePath: join(dir, 'jobs.db') })
    await migrateJobs(opened.db, 'sqlite')
    return {
      db: opened.db,
      detail: 'embedded SQLite store (WAL, synchronous=NORMAL) in a temp file',
      store: async () => new SqliteJobStore(opened.db),
      async destroy() {
        await opened.close()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  }
  const { schema, drop } = await createBenchSchema(s.postgresUrl, 'bench_jobs')
  const bossSchema = `${schema}_pgboss`
  const opened = openDatabase({ databaseUrl: s.postgresUrl, sqlitePath: '', postgresSchema: schema, poolSize: 4 })
  await migrateJobs(opened.db, 'postgres', schema)
  return {
    db: opened.db,
    detail: `pg-boss (schema ${bossSchema}, its pool of 4) at ${new URL(s.postgresUrl).host}`,
    store: async () => {
      const store = new PgBossJobStore({ connectionString: s.postgresUrl, schema: bossSchema })
      await store.start()
      return store
    },
    async destroy() {
      await opened.close()
      await drop()
      await withPg(s.postgresUrl, (c) => c.query(`DROP SCHEMA IF EXISTS ${bossSchema} CASCADE`))
    },
  }
}

/**
 * One queue of `count` no-op jobs: enqueued first, then the runner started; then (when
 * `trickle` > 0) `trickle` more enqueued one at a time while it runs.
 */
async function runQueue({ db, store, logger, queue, concurrency, count, trickle }) {
  const enqueuedAt = new Map()
  const startedAt = new Map()
  let completed = 0
  let allDone = () => undefined
  let target = count
  const reached = () => new Promise((resolve) => (allDone = () => completed >= target && resolve()))
  // Completion is the store's write, after the handler: count it there. Claims and completions
  // are timed too, to show where a job's time goes (a queue claims one job at a time).
  const spent = { claimMs: 0, claims: 0, completeMs: 0 }
  const complete = store.complete.bind(store)
  const claim = store.claim.bind(store)
  store.complete = async (...args) => {
    const t = performance.now()
    await complete(...args)
    spent.completeMs += performance.now() - t
    completed++
    allDone()
  }
  store.claim = async (...args) => {
    const t = performance.now()
    try {
      return await claim(...args)
    } finally {
      spent.claimMs += performance.now() - t
      spent.claims++
    }
  }
  const runner = new StoreJobRunner(store, { db, logger })
  runner.register(queue, async (job) => void startedAt.set(job.data.i, performance.now()), { concurrency })
  try {
    const tEnqueue = performance.now()
    for (let i = 0; i < count; i++) {
      enqueuedAt.set(i, performance.now())
      await runner.enqueue(queue, { i })
    }
    const enqueueMs = performance.now() - tEnqueue
    const backlogDone = reached()
    const t0 = performance.now()
    await runner.start()
    await within(JOBS_STEP_TIMEOUT_MS, `${count} jobs at concurrency ${concurrency}`, backlogDone)
    const drainMs = performance.now() - t0
    const drainSpent = { claimMsAvg: spent.claimMs / spent.claims, claims: spent.claims, completeMsAvg: spent.completeMs / count }
    const backlog = [...startedAt.entries()].map(([i, at]) => at - enqueuedAt.get(i)).sort((a, b) => a - b)
    const fromStart = [...startedAt.values()].map((at) => at - t0).sort((a, b) => a - b)

    let trickleResult = null
    if (trickle > 0) {
      target = count + trickle
      const trickleDone = reached()
      for (let i = count; i < count + trickle; i++) {
        enqueuedAt.set(i, performance.now())
        await runner.enqueue(queue, { i })
        await sleep(TRICKLE_GAP_MS)
      }
      await within(JOBS_STEP_TIMEOUT_MS, `${trickle} trickled jobs`, trickleDone)
      const pickups = []
      for (let i = count; i < count + trickle; i++) pickups.push(startedAt.get(i) - enqueuedAt.get(i))
      pickups.sort((a, b) => a - b)
      trickleResult = { count: trickle, pickupMs: { p50: percentile(pickups, 50), p99: percentile(pickups, 99), max: pickups.at(-1) } }
    }
    return {
      count,
      concurrency,
      enqueuePerSecond: count / (enqueueMs / 1000),
      drainMs,
      jobsPerSecond: count / (drainMs / 1000),
      pickupMs: { p50: percentile(backlog, 50), p99: percentile(backlog, 99), max: backlog.at(-1) },
      startToHandlerMs: { p50: percentile(fromStart, 50), p99: percentile(fromStart, 99) },
      trickle: trickleResult,
      drainSpent,
    }
  } finally {
    await runner.stop(2000)
    store.complete = complete
    store.claim = claim
  }
}

/** Baseline: the same no-op handler called `count` times in a loop in this process. */
async function directCalls(count) {
  const startedAt = new Map()
  const handler = async (job) => void startedAt.set(job.data.i, performance.now())
  const t0 = performance.now()
  for (let i = 0; i < count; i++) await handler({ id: String(i), queue: 'direct', data: { i }, attempt: 1, signal: AbortSignal.abort(), progress: async () => true })
  const ms = performance.now() - t0
  if (startedAt.size !== count) throw new Error('the direct loop missed calls')
  return { ms, jobsPerSecond: count / (ms / 1000) }
}

async function benchJobs(s, log) {
  const logger = pino({ level: s.logLevel })
  const rows = []
  const notes = []
  const backends = []
  for (const kind of s.backends) {
    const database = await openJobsDatabase(kind, s)
    const runs = []
    try {
      const store = await database.store()
      try {
        // One warm-up queue so the first measured run does not pay for pg-boss's queue creation or cold statements.
        await runQueue({ db: database.db, store, logger, queue: 'bench.warmup', concurrency: 8, count: Math.min(100, s.jobs), trickle: 0 })
        for (const concurrency of s.concurrencies) {
          log(`[jobs] ${kind}: ${s.jobs} jobs at concurrency ${concurrency}…`)
          const ours = await runQueue({ db: database.db, store, logger, queue: `bench.noop.c${concurrency}`, concurrency, count: s.jobs, trickle: s.trickleJobs })
          const baseline = await directCalls(s.jobs)
          runs.push({ ...ours, baseline })
          const isGoal = concurrency === 8
          const ratio = ours.jobsPerSecond / baseline.jobsPerSecond
          rows.push(row(`jobs ${kind}`, `${s.jobs} no-op jobs, concurrency ${concurrency} (jobs/s)`, ours.jobsPerSecond.toFixed(0), baseline.jobsPerSecond.toFixed(0), ratio, isGoal ? `>= ${GOALS.jobsPerSecondAtConcurrency8}/s` : null, isGoal ? ours.jobsPerSecond >= GOALS.jobsPerSecondAtConcurrency8 : null))
          rows.push(row(`jobs ${kind}`, `  pickup with the backlog, p50 / p99 ms`, `${ours.pickupMs.p50.toFixed(0)} / ${ours.pickupMs.p99.toFixed(0)}`, '-', null, null, null))
          if (ours.trickle) {
            const t = ours.trickle.pickupMs
            rows.push(row(`jobs ${kind}`, `  pickup, ${ours.trickle.count} trickled, p50 / p99 ms`, `${t.p50.toFixed(1)} / ${t.p99.toFixed(1)}`, '-', null, `p99 < ${GOALS.tricklePickupP99Ms} ms`, t.p99 < GOALS.tricklePickupP99Ms))
          }
          notes.push(`jobs ${kind} c${concurrency}: enqueue ${ours.enqueuePerSecond.toFixed(0)}/s (sequential, awaited); drain ${(ours.drainMs / 1000).toFixed(2)} s; handler start after start() p50 ${ours.startToHandlerMs.p50.toFixed(0)} / p99 ${ours.startToHandlerMs.p99.toFixed(0)} ms; while draining, a claim took ${ours.drainSpent.claimMsAvg.toFixed(2)} ms on average (${ours.drainSpent.claims} claims, one at a time per queue), a completion ${ours.drainSpent.completeMsAvg.toFixed(2)} ms; direct loop ${baseline.ms.toFixed(1)} ms for ${s.jobs}`)
        }
      } finally {
        await store.close()
      }
    } finally {
      await database.destroy().catch((err) => log(`  cleanup: ${err?.message ?? err}`))
    }
    backends.push({ kind, database: database.detail, runs })
    notes.push(`jobs ${kind}: ${database.detail}`)
  }
  return { rows, notes, detail: { backends } }
}

// --- 3. BitTorrent --------------------------------------------------------------------------------

/**
 * test-support/torrent-swarm.ts, the tests' local swarm, transpiled for Node (the benchmarks are
 * plain ESM and test-support is not built). Written under node_modules/.cache so its imports
 * resolve from the repository's node_modules.
 */
async function loadTorrentSwarm() {
  const { default: ts } = await import('typescript')
  const source = readFileSync(join(REPO_DIR, 'test-support', 'torrent-swarm.ts'), 'utf8')
  const { outputText } = ts.transpileModule(source, { fileName: 'torrent-swarm.ts', compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } })
  const dir = join(REPO_DIR, 'node_modules', '.cache', 'cumulus-bench')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'torrent-swarm.mjs')
  writeFileSync(file, outputText)
  return import(pathToFileURL(file).href)
}

/** The sizes of the files under `dir`, by path relative to it. */
function filesUnder(dir, prefix = '') {
  const found = {}
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name
    if (entry.isDirectory()) Object.assign(found, filesUnder(join(dir, entry.name), rel))
    else found[rel] = statSync(join(dir, entry.name)).size
  }
  return found
}

/**
 * Baseline: the aria2c CLI fetching the .torrent into `dir`. Resolves with the time to its
 * "Download complete" log line (the moment the engine's status turns complete) and to its exit
 * (about a second later: aria2 works in one-second ticks and announces the stop first).
 */
function aria2cFetch(torrentPath, dir) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    let completeMs = null
    const child = spawn(
      'aria2c',
      ['--seed-time=0', '--enable-dht=false', '--bt-enable-lpd=false', '--enable-peer-exchange=false', '--file-allocation=none', '--summary-interval=0', '--log=-', '--log-level=notice', '-d', dir, torrentPath],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let err = ''
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (text) => {
      if (completeMs === null && text.includes('Download complete:')) completeMs = performance.now() - t0
    })
    child.stderr.on('data', (c) => (err += c))
    const timer = setTimeout(() => child.kill('SIGKILL'), TORRENT_STEP_TIMEOUT_MS)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code !== 0) return reject(new Error(`aria2c exited with ${signal ?? code}: ${err.trim()}`))
      const exitMs = performance.now() - t0
      resolve({ completeMs: completeMs ?? exitMs, exitMs })
    })
  })
}

/** Ours: the drive's engine from start() until done; resolves with the download's files. */
async function engineFetch(engine, torrentFile, dir) {
  const download = await engine.start(torrentFile, { dir })
  const deadline = performance.now() + TORRENT_STEP_TIMEOUT_MS
  for (;;) {
    const progress = await download.progress()
    if (progress.done) break
    if (performance.now() > deadline) throw new Error(`the engine did not finish within ${TORRENT_STEP_TIMEOUT_MS / 1000} s (${progress.downloadedBytes} of ${progress.totalBytes} bytes, ${progress.peers} peers)`)
    await sleep(POLL_MS)
  }
  const files = await download.files()
  // Out of the engine, data kept: what the job would do before landing the files.
  await download.stop()
  return files
}

/** The files under a drive folder, by path (the folder's name first), with their size and hash. */
async function driveTree(base, token, folderId, prefix) {
  const found = {}
  for (let pageToken = ''; ; ) {
    const page = await api(base, `/drive/v1/files?parent_id=${folderId}&limit=100&page_token=${encodeURIComponent(pageToken)}`, { token })
    for (const f of page.files) {
      if (f.kind === 'drive#folder') Object.assign(found, await driveTree(base, token, f.id, `${prefix}/${f.name}`))
      else found[`${prefix}/${f.name}`] = { size: Number(f.size), gcid: f.hash }
    }
    if (!page.next_page_token) return found
    pageToken = page.next_page_token
  }
}

/** Puts the .torrent into the caller's drive through tus (POST, one PATCH); returns its file id. */
async function uploadTorrentFile(base, token, bytes) {
  const created = await api(base, '/drive/v1/files', { token, method: 'POST', body: { kind: 'drive#file', name: 'bench.torrent', parent_id: '', size: String(bytes.length), upload_type: 'UPLOAD_TYPE_RESUMABLE' } })
  const res = await fetch(created.resumable.params.endpoint, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: bytes,
  })
  if (res.status !== 204) throw new Error(`the .torrent upload answered ${res.status}: ${await res.text()}`)
  return created.file.id
}

async function benchTorrent(s, log) {
  const { startLocalSwarm } = await loadTorrentSwarm()
  const dir = mkdtempSync(join(tmpdir(), 'cumulus-bench-torrent-'))
  const swarm = await startLocalSwarm()
  // The engine on its own, for the breakdown: what the task adds on top of it.
  const engine = createTorrentEngine({ ...defaultTorrentEngineConfig(join(dir, 'engine')), dht: false, dhtEntryPoints: [], peerExchange: false, localPeerDiscovery: false })
  let started = null
  try {
    started = await startServer(dir, s, { TORRENT_DHT: 'false', TORRENT_PEER_EXCHANGE: 'false' })
    const { base, token } = started
    log(`[torrent] making and seeding a ${sizeText(s.torrentBytes)} torrent of ${TORRENT_FILE_SHARES.length} files…`)
    const totalShares = TORRENT_FILE_SHARES.reduce((a, b) => a + b, 0)
    let left = s.torrentBytes
    const files = TORRENT_FILE_SHARES.map((share, i) => {
      const size = i === TORRENT_FILE_SHARES.length - 1 ? left : Math.floor((s.torrentBytes * share) / totalShares)
      left -= size
      return { path: i === 0 ? [`part-${i}.bin`] : ['more', `part-${i}.bin`], bytes: randomBytes(size) }
    })
    const tSeed = performance.now()
    const torrent = await swarm.makeTorrent('bench-torrent', files, { pieceLength: TORRENT_PIECE_BYTES })
    await within(TORRENT_STEP_TIMEOUT_MS, 'the seeder', swarm.seed(torrent))
    const seedMs = performance.now() - tSeed
    const torrentPath = join(dir, 'bench.torrent')
    writeFileSync(torrentPath, torrent.torrentFile)
    const expected = Object.fromEntries(files.map((f) => [['bench-torrent', ...f.path].join('/'), { size: f.bytes.length, gcid: new GcidHasher(f.bytes.length).update(f.bytes).digest() }]))
    files.length = 0
    const torrentFileId = await uploadTorrentFile(base, token, torrent.torrentFile)
    // The daemon lives as long as the server; spawning it is not part of a download. (The
    // server's own engine starts its daemon on its first torrent: round 1 pays for that.)
    await engine.requireDaemon()

    const sameSizes = (found) => Object.keys(expected).length === Object.keys(found).length && Object.entries(expected).every(([path, e]) => found[path] === e.size)
    const rounds = []
    for (let round = 0; round < s.torrentRounds; round++) {
      log(`[torrent] round ${round + 1}/${s.torrentRounds}: aria2c CLI…`)
      const cliDir = join(dir, `cli-${round}`)
      const cli = await aria2cFetch(torrentPath, cliDir)
      const cliFiles = filesUnder(cliDir)
      rmSync(cliDir, { recursive: true, force: true })

      log(`[torrent] round ${round + 1}/${s.torrentRounds}: offline task…`)
      const task = await offlineTask(base, token, { url: { url: '' }, params: { torrent_file_id: torrentFileId } }, TORRENT_STEP_TIMEOUT_MS)
      // Keyed under the torrent's name: a later round lands as "bench-torrent(1)", as the drive names a clash.
      const landed = await driveTree(base, token, task.task.file_id, torrent.name)
      const landedOk = Object.keys(expected).length === Object.keys(landed).length && Object.entries(expected).every(([path, e]) => landed[path]?.size === e.size && landed[path]?.gcid === e.gcid)

      log(`[torrent] round ${round + 1}/${s.torrentRounds}: engine alone…`)
      const engineDir = join(dir, `engine-${round}`)
      const t0 = performance.now()
      const got = await within(TORRENT_STEP_TIMEOUT_MS + 10_000, 'the engine download', engineFetch(engine, torrent.torrentFile, engineDir))
      const engineMs = performance.now() - t0
      const engineFiles = filesUnder(engineDir)
      rmSync(engineDir, { recursive: true, force: true })
      rounds.push({
        baselineMs: cli.completeMs, baselineExitMs: cli.exitMs, oursMs: task.ms, runningAtMs: task.runningAtMs, downloadedAtMs: task.downloadedAtMs, engineMs,
        valid: sameSizes(cliFiles) && sameSizes(engineFiles) && got.length === Object.keys(expected).length && landedOk,
        landedOk, landed, cliFiles, engineFiles,
      })
    }
    const oursMs = median(rounds.map((r) => r.oursMs))
    const engineMs = median(rounds.map((r) => r.engineMs))
    const baseMs = median(rounds.map((r) => r.baselineMs))
    const ratio = baseMs / oursMs
    const invalid = !rounds.every((r) => r.valid)
    const rows = [
      row('torrent', `offline task (.torrent) ${sizeText(s.torrentBytes)} vs aria2c CLI`, `${mibps(s.torrentBytes, oursMs).toFixed(0)} MiB/s`, `${mibps(s.torrentBytes, baseMs).toFixed(0)} MiB/s`, ratio, `>= ${GOALS.torrentRatio}`, ratio >= GOALS.torrentRatio, invalid),
      row('torrent', '  the engine adapter alone vs aria2c CLI', `${mibps(s.torrentBytes, engineMs).toFixed(0)} MiB/s`, `${mibps(s.torrentBytes, baseMs).toFixed(0)} MiB/s`, baseMs / engineMs, null, null),
    ]
    const notes = [
      `torrent: ${Object.keys(expected).length} files, ${TORRENT_PIECE_BYTES / MIB} MiB pieces, one aria2c seeder + bittorrent-tracker on 127.0.0.1 (test-support/torrent-swarm.ts); made and seeded (incl. the seeder's hash check) in ${(seedMs / 1000).toFixed(1)} s`,
      'torrent: ours = POST /drive/v1/files with params.torrent_file_id (the .torrent uploaded to the drive first) until the task is COMPLETE (files hashed and landed in the drive); engine alone = createTorrentEngine(...).start() until its progress says done (its daemon already running)',
      'torrent: every side is aria2 and pays its fixed start (about 2 s of one-second ticks: tracker answer -> connect -> handshake) before the first piece, so at small sizes the ratio says little about throughput',
      ...rounds.map((r, i) => `torrent round ${i + 1}: task ${(r.oursMs / 1000).toFixed(2)} s (first seen RUNNING at ${msText(r.runningAtMs)}, at 99% at ${msText(r.downloadedAtMs)}), engine alone ${(r.engineMs / 1000).toFixed(2)} s, aria2c CLI ${(r.baselineMs / 1000).toFixed(2)} s to "Download complete" (${(r.baselineExitMs / 1000).toFixed(2)} s to its exit); ${r.valid ? 'files complete, landed GCIDs = computed' : `WRONG ${JSON.stringify({ landed: r.landed, cli: r.cliFiles, engine: r.engineFiles })}`}`),
    ]
    return { rows, notes, detail: { rounds: rounds.map(({ landed, cliFiles, engineFiles, ...r }) => r), seedMs } }
  } finally {
    await engine.close()
    await started?.server.close()
    await swarm.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

// --------------------------------------------------------------------------------------------------

export async function main() {
  const s = settings()
  const log = (line) => process.stderr.write(`${line}\n`)
  const started = Date.now()
  const environment = await machineEnvironment(CPU_COUNT)
  log(`offline bench: ${[...s.only].join(', ')}; busy before start ${pct(environment.cpuBusyBeforeStart)}`)
  const parts = {}
  if (s.only.has('http')) parts.http = await benchHttp(s, log)
  if (s.only.has('jobs')) parts.jobs = await benchJobs(s, log)
  if (s.only.has('torrent')) parts.torrent = await benchTorrent(s, log)
  const rows = Object.values(parts).flatMap((p) => p.rows)

  console.log('')
  console.log('Cumulus offline download benchmark')
  if (parts.http) console.log(`  http: ${sizeText(s.offlineBytes)} offline task (composed server, SQLite, in this process; origin in a child process) vs fetch -> createWriteStream + fsync; ${s.offlineRounds} rounds, medians`)
  if (parts.jobs) console.log(`  jobs: ${s.jobs} no-op jobs enqueued then drained by StoreJobRunner at concurrency ${s.concurrencies.join(' and ')}, then ${s.trickleJobs} trickled one by one; baseline: the handler called in a loop (ratio: information)`)
  if (parts.torrent) console.log(`  torrent: ${sizeText(s.torrentBytes)} from a local aria2c seeder; the drive's torrent engine vs the aria2c CLI; ${s.torrentRounds} rounds, medians`)
  console.log(`  machine: ${environment.cpus} CPUs (${environment.cpuModel}), Node ${environment.node}; busy before start ${pct(environment.cpuBusyBeforeStart)} (load average ${environment.loadAverageAtStart.join(' ')})`)
  console.log('')
  printTable(rows)
  console.log('')
  for (const part of Object.values(parts)) for (const note of part.notes) console.log(`  ${note}`)
  const goalRows = rows.filter((r) => r.pass !== null)
  const missed = goalRows.filter((r) => !r.pass && !r.invalid)
  const invalid = rows.filter((r) => r.invalid)
  console.log('')
  console.log(`  ${goalRows.length - missed.length - invalid.filter((r) => r.pass !== null).length}/${goalRows.length} goals met${missed.length ? `; MISSED: ${missed.map((r) => `${r.part} ${r.measure.trim()}`).join(', ')}` : ''}${invalid.length ? `; INVALID (wrong content): ${invalid.map((r) => `${r.part} ${r.measure}`).join(', ')}` : ''}`)
  console.log(`  load average at the end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`)
  const file = writeResults('offline', { benchmark: 'offline', startedAt: new Date(started).toISOString(), elapsedSeconds: (Date.now() - started) / 1000, settings: { ...s, only: [...s.only] }, environment, goals: GOALS, rows, parts: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, v.detail])) })
  console.log(`  results: ${file} (run took ${((Date.now() - started) / 1000).toFixed(0)}s)`)
  // A missed goal is a finding, not an error; wrong content is an error.
  return invalid.length ? 1 : 0
}
