// `npm run bench -- drive`: what moving bytes through the drive costs, each against a baseline
// measured in the same run on the same machine.
//
//   1. Upload: a file (1 GiB by default) sent through tus (POST /drive/v1/files, then PATCHes
//      to the upload's endpoint over loopback HTTP, sent by a client in its own process) until
//      the file is COMPLETE (hashed and in the blob store), against writing the same bytes to a file on the same disk with
//      fs.createWriteStream and an fsync. Goal: ours/baseline >= 0.6. Also shown: how far this
//      process's RSS rose above where it stood before each, sampled every 10 ms (the server lives
//      in this process; the upload's client does not), worst round. A rise over memory already
//      held: RSS rarely falls back after a peak, so a later run may reuse what an earlier one took.
//   2. Download: that file through its signed link (GET over loopback, body read and dropped),
//      against a bare node:http server piping fs.createReadStream of the same blob file to the
//      socket, read by the same client. Goal: ours/baseline >= 0.8. Also shown: the RSS rise of
//      this process during each (server and reading client both), worst round.
//   3. Listing: one page (100 items) of a folder of 100,000 files, first page and pages at
//      random cursors through the whole folder, sequentially over keep-alive HTTP; p50/p99 in
//      ms. Goal: p99 < 20 ms on SQLite. Also shown: the same page from a bare Fastify route
//      returning the same JSON, to show what part is the framework.
//
// Everything listens on and talks to 127.0.0.1. Runs against the built packages (`npx tsc -b`).
// Environment: BENCH_DRIVE_MIB (1024), BENCH_DRIVE_ROUNDS (3), BENCH_LIST_FILES (100000),
// BENCH_LIST_REQUESTS (2000), BENCH_LOG_LEVEL (warn).
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream, mkdtempSync, openSync, closeSync, fsyncSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { Agent, createServer, request } from 'node:http'
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'

import { nameColumns } from '@cumulus/drive'
import { buildServer, loadConfig } from '@cumulus/server'
import { WEB_CLIENT_ID } from '@cumulus/protocol'
import Fastify from 'fastify'
import { BENCH_DIR, freePort, systemBusy, pct, writeResults } from './lib/harness.mjs'

const CPU_COUNT = availableParallelism()
const GOALS = { download: 0.8, upload: 0.6, listP99Ms: 20 }
const MIB = 1024 * 1024

function settings() {
  const num = (name, fallback) => {
    const raw = process.env[name]
    if (raw === undefined || raw === '') return fallback
    const n = Number(raw)
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number`)
    return n
  }
  return {
    mib: num('BENCH_DRIVE_MIB', 1024),
    rounds: num('BENCH_DRIVE_ROUNDS', 3),
    listFiles: num('BENCH_LIST_FILES', 100_000),
    listRequests: num('BENCH_LIST_REQUESTS', 2000),
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
const mibps = (bytes, ms) => bytes / MIB / (ms / 1000)

/** A source file of `mib` MiB: random 16 MiB repeated (incompressible enough, cheap to make). */
function makeSource(dir, mib) {
  const path = join(dir, 'source.bin')
  const block = randomBytes(16 * MIB)
  const fd = openSync(path, 'w')
  try {
    for (let written = 0; written < mib * MIB; written += block.length) {
      const part = Math.min(block.length, mib * MIB - written)
      writeFileSync(fd, part === block.length ? block : block.subarray(0, part))
    }
  } finally {
    closeSync(fd)
  }
  return path
}

/** One HTTP request on loopback; resolves with status, headers and (when asked) the body. */
function http(agent, url, { method = 'GET', headers = {}, body, keepBody = true } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent }, (res) => {
      const chunks = []
      let bytes = 0
      res.on('data', (c) => {
        bytes += c.length
        if (keepBody) chunks.push(c)
      })
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, bytes, body: keepBody ? Buffer.concat(chunks) : null }))
      res.on('error', reject)
    })
    req.on('error', reject)
    if (body && typeof body.pipe === 'function') body.pipe(req)
    else req.end(body)
  })
}

async function json(agent, url, options) {
  const reply = await http(agent, url, options)
  const text = reply.body.toString('utf8')
  if (reply.status >= 300) throw new Error(`${options?.method ?? 'GET'} ${url} answered ${reply.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text)
}

/** Runs `work` while sampling this process's RSS every 10 ms: its result and how far RSS rose (bytes). */
async function withRssRise(work) {
  const start = process.memoryUsage.rss()
  let peak = start
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 10)
  try {
    const result = await work()
    return { result, rise: Math.max(peak, process.memoryUsage.rss()) - start }
  } finally {
    clearInterval(timer)
  }
}

async function benchUpload(base, agent, token, sourcePath, sizeBytes, dir, rounds) {
  const ours = []
  const baseline = []
  const oursRss = []
  const baselineRss = []
  let lastFile = null
  for (let round = 0; round < rounds; round++) {
    // Baseline: the same bytes from the same (page-cached) source to a new file, made durable.
    const target = join(dir, `baseline-${round}.bin`)
    let t0 = performance.now()
    const { rise: baseRise } = await withRssRise(async () => {
      await pipeline(createReadStream(sourcePath, { highWaterMark: MIB }), createWriteStream(target, { highWaterMark: MIB }))
      const fd = openSync(target, 'r+')
      fsyncSync(fd)
      closeSync(fd)
    })
    baseline.push(performance.now() - t0)
    baselineRss.push(baseRise)
    rmSync(target)

    // Ours: create the upload, PATCH every byte in one request, wait for COMPLETE. Each round
    // uploads different content (one changed byte) so instant upload never short-cuts it.
    t0 = performance.now()
    const created = await json(agent, `${base}/drive/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'drive#file', name: `big-${round}.bin`, size: String(sizeBytes), upload_type: 'UPLOAD_TYPE_RESUMABLE', resumable: { provider: 'PROVIDER_TUS' } }),
    })
    const endpoint = created.resumable.params.endpoint
    // The bytes come from another process, as from a real client: the server's event loop is
    // not shared with the sender.
    const { result: patched, rise } = await withRssRise(() => patchFromChild(endpoint, token, sourcePath, round))
    oursRss.push(rise)
    if (patched.status !== 204) throw new Error(`PATCH answered ${patched.status}: ${patched.body}`)
    const file = await json(agent, `${base}/drive/v1/files/${created.file.id}`, { headers: { authorization: `Bearer ${token}` } })
    if (file.phase !== 'PHASE_TYPE_COMPLETE' || file.size !== String(sizeBytes)) throw new Error(`upload did not complete: ${file.phase} ${file.size}`)
    ours.push(performance.now() - t0)
    lastFile = file
  }
  return { ours, baseline, oursRss, baselineRss, file: lastFile }
}

/** Runs bench/lib/patch-client.mjs (asynchronously: the server lives in this process's event loop). */
function patchFromChild(endpoint, token, sourcePath, round) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(BENCH_DIR, 'lib', 'patch-client.mjs'), endpoint, token, sourcePath, String(round)], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (c) => (out += c))
    child.stderr.on('data', (c) => (err += c))
    const timer = setTimeout(() => child.kill('SIGKILL'), 600_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      if (code !== 0) return reject(new Error(`upload client failed (${code}): ${err}`))
      resolve(JSON.parse(out.trim()))
    })
  })
}

async function benchDownload(agent, link, blobPath, sizeBytes, rounds) {
  // Baseline: the bare minimum of serving the same file: createReadStream piped to the socket.
  const bare = createServer((req, res) => {
    res.writeHead(200, { 'content-length': String(sizeBytes), 'content-type': 'application/octet-stream' })
    createReadStream(blobPath, { highWaterMark: MIB }).pipe(res)
  })
  await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve))
  const bareUrl = `http://127.0.0.1:${bare.address().port}/file`
  const ours = []
  const baseline = []
  const oursRss = []
  const baselineRss = []
  try {
    for (let round = 0; round < rounds; round++) {
      for (const [url, into, rss] of [[bareUrl, baseline, baselineRss], [link, ours, oursRss]]) {
        const t0 = performance.now()
        const { result: reply, rise } = await withRssRise(() => http(agent, url, { keepBody: false }))
        if (reply.status !== 200 || reply.bytes !== sizeBytes) throw new Error(`download of ${url} gave ${reply.status}, ${reply.bytes} bytes`)
        into.push(performance.now() - t0)
        rss.push(rise)
      }
    }
  } finally {
    await new Promise((resolve) => bare.close(resolve))
  }
  return { ours, baseline, oursRss, baselineRss }
}

/** Inserts `count` file rows into a new folder, in large multi-row statements (a seeding shortcut, not the API). */
async function seedFolder(drive, userId, count) {
  const now = Date.now()
  const folderId = `Vbenchfolder${randomBytes(6).toString('hex')}`
  await drive.db.insertInto('drive_files').values(row(folderId, userId, '', 'bench-100k', true, now)).execute()
  const batch = 500
  for (let start = 0; start < count; start += batch) {
    const rows = []
    for (let i = start; i < Math.min(count, start + batch); i++) rows.push(row(`Vbench${String(i).padStart(8, '0')}${randomBytes(4).toString('hex')}`, userId, folderId, `file ${i}.txt`, false, now - i))
    await drive.db.insertInto('drive_files').values(rows).execute()
  }
  return folderId
}

function row(id, userId, parentId, name, isFolder, now) {
  return {
    id, user_id: userId, parent_id: parentId, ...nameColumns(name, isFolder), kind: isFolder ? 'drive#folder' : 'drive#file', kind_rank: isFolder ? 0 : 1,
    size: isFolder ? 0 : 1000 + (now % 997), gcid: null, folder_type: 'NORMAL', phase: 'PHASE_TYPE_COMPLETE', starred: 0, trashed: 0, trash_root: 0,
    trashed_at: null, revision: 1, upload_id: null, created_at: now, modified_at: now,
  }
}

async function benchList(base, agent, token, folderId, requests) {
  const auth = { authorization: `Bearer ${token}` }
  // Walk the whole folder once to collect every page's cursor (and check the count).
  const tokens = ['']
  let seen = 0
  for (let pageToken = ''; ; ) {
    const page = await json(agent, `${base}/drive/v1/files?parent_id=${folderId}&limit=100&page_token=${encodeURIComponent(pageToken)}`, { headers: auth })
    seen += page.files.length
    if (!page.next_page_token) break
    pageToken = page.next_page_token
    tokens.push(pageToken)
  }
  const sample = await json(agent, `${base}/drive/v1/files?parent_id=${folderId}&limit=100`, { headers: auth })
  const latencies = []
  for (let i = 0; i < requests; i++) {
    const pageToken = tokens[i % 10 === 0 ? 0 : Math.floor(Math.random() * tokens.length)]
    const t0 = performance.now()
    const reply = await http(agent, `${base}/drive/v1/files?parent_id=${folderId}&limit=100&page_token=${encodeURIComponent(pageToken)}`, { headers: auth })
    latencies.push(performance.now() - t0)
    if (reply.status !== 200) throw new Error(`listing answered ${reply.status}`)
  }
  latencies.sort((a, b) => a - b)

  // The framework's share: a bare Fastify route sending the same page.
  const bare = Fastify()
  const body = JSON.stringify(sample)
  bare.get('/drive/v1/files', async (_req, reply) => reply.type('application/json').send(body))
  await bare.listen({ port: 0, host: '127.0.0.1' })
  const bareBase = `http://127.0.0.1:${bare.server.address().port}`
  const bareLatencies = []
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now()
    await http(agent, `${bareBase}/drive/v1/files?parent_id=${folderId}&limit=100`, { headers: auth })
    bareLatencies.push(performance.now() - t0)
  }
  await bare.close()
  bareLatencies.sort((a, b) => a - b)
  return { pages: tokens.length, seen, ours: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) }, baseline: { p50: percentile(bareLatencies, 50), p99: percentile(bareLatencies, 99) } }
}


export async function main() {
  const s = settings()
  const log = (line) => process.stdout.write(`${line}\n`)
  const busy = await systemBusy(CPU_COUNT)
  log(`drive bench: ${s.mib} MiB file, ${s.rounds} rounds, ${s.listFiles} files in the listed folder; ${CPU_COUNT} CPUs (${cpus()[0]?.model ?? '?'}), busy before start ${pct(busy)}`)
  const dir = mkdtempSync(join(tmpdir(), 'cumulus-bench-drive-'))
  const agent = new Agent({ keepAlive: true, maxSockets: 4 })
  // Signed links and tus endpoints carry PUBLIC_URL, so the port is chosen before the server starts.
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const config = loadConfig({ CUMULUS_DATA_DIR: join(dir, 'data'), LOG_LEVEL: s.logLevel, PORT: String(port), HOST: '127.0.0.1', CAPTCHA_MODE: 'off', PUBLIC_URL: base, DRIVE_QUOTA_FREE: '1PiB' })
  const server = await buildServer(config, { web: false, housekeeping: false })
  try {
    await server.app.listen({ port, host: '127.0.0.1' })

    const signUp = await json(agent, `${base}/v1/auth/signup/anonymously`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: WEB_CLIENT_ID }) })
    const token = signUp.access_token

    log('making the source file…')
    const sourcePath = makeSource(dir, s.mib)
    const sizeBytes = statSync(sourcePath).size

    log('upload…')
    const upload = await benchUpload(base, agent, token, sourcePath, sizeBytes, dir, s.rounds)
    const uploadOurs = mibps(sizeBytes, median(upload.ours))
    const uploadBase = mibps(sizeBytes, median(upload.baseline))

    log('download…')
    const gcid = upload.file.hash
    const blobPath = join(dir, 'data', 'blobs', gcid.slice(0, 2), gcid.slice(2, 4), gcid)
    statSync(blobPath)
    const download = await benchDownload(agent, upload.file.web_content_link, blobPath, sizeBytes, s.rounds)
    const downloadOurs = mibps(sizeBytes, median(download.ours))
    const downloadBase = mibps(sizeBytes, median(download.baseline))

    log(`seeding a folder of ${s.listFiles} files…`)
    const folderId = await seedFolder(server.drive, signUp.sub, s.listFiles)
    log('listing…')
    const list = await benchList(base, agent, token, folderId, s.listRequests)
    if (list.seen !== s.listFiles) throw new Error(`the listing walked ${list.seen} files, expected ${s.listFiles}`)

    const rows = [
      ['upload (tus) vs fs write+fsync', `${uploadOurs.toFixed(0)} MiB/s`, `${uploadBase.toFixed(0)} MiB/s`, (uploadOurs / uploadBase).toFixed(2), `>= ${GOALS.upload}`, uploadOurs / uploadBase >= GOALS.upload],
      ['  RSS rise during it (MB, worst round)', (Math.max(...upload.oursRss) / 1e6).toFixed(0), (Math.max(...upload.baselineRss) / 1e6).toFixed(0), '', 'info', null],
      ['download (signed link) vs createReadStream', `${downloadOurs.toFixed(0)} MiB/s`, `${downloadBase.toFixed(0)} MiB/s`, (downloadOurs / downloadBase).toFixed(2), `>= ${GOALS.download}`, downloadOurs / downloadBase >= GOALS.download],
      ['  RSS rise during it (MB, worst round; the reading client is in this process too)', (Math.max(...download.oursRss) / 1e6).toFixed(0), (Math.max(...download.baselineRss) / 1e6).toFixed(0), '', 'info', null],
      [`list page of ${s.listFiles} (p50 / p99 ms)`, `${list.ours.p50.toFixed(2)} / ${list.ours.p99.toFixed(2)}`, `${list.baseline.p50.toFixed(2)} / ${list.baseline.p99.toFixed(2)}`, (list.ours.p99 / list.baseline.p99).toFixed(2), `p99 < ${GOALS.listP99Ms}`, list.ours.p99 < GOALS.listP99Ms],
    ]
    const header = ['measure', 'ours', 'baseline', 'ratio', 'goal', 'result']
    const table = [header, ...rows.map((r) => [r[0], r[1], r[2], r[3], r[4], r[5] === null ? 'info' : r[5] ? 'pass' : 'MISSED'])]
    const widths = header.map((_, i) => Math.max(...table.map((r) => String(r[i]).length)))
    log('')
    for (const r of table) log(r.map((c, i) => String(c).padEnd(widths[i])).join('  '))
    log(`\nlisting: ${list.pages} pages walked; ${s.listRequests} timed requests each (ratio = our p99 / bare Fastify p99, for information)`)
    log(`load average at the end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`)
    const file = writeResults('drive', { settings: s, cpuBusyBeforeStart: busy, upload, download: { ours: download.ours, baseline: download.baseline, oursRss: download.oursRss, baselineRss: download.baselineRss }, list, goals: GOALS })
    log(`results: ${file}`)
    return rows.every((r) => r[5] !== false) ? 0 : 1
  } finally {
    agent.destroy()
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
