// Share links (issue 17): `npm run bench -- shares`. What opening, browsing, downloading and saving
// a share costs, on SQLite and on PostgreSQL (BENCH_BACKENDS), each against a baseline measured
// in the same run on the same machine.
//
//   1. Opening a public share over HTTP from autocannon in a child process (bench/load.mjs),
//      BENCH_CONNECTIONS (4 here: latency, not throughput), no bearer:
//        GET /drive/v1/share?share_id=…                 the share's first page (its two shared
//                                                       folders); every such call counts a view,
//                                                       an UPDATE of the share's row
//        GET /drive/v1/share?…&limit=1&page_token=…    the same share's second page, which
//                                                       counts no view: the same work less the
//                                                       UPDATE (and one item)
//        GET /drive/v1/share/detail?share_id&parent_id  a 100-item page of that folder, which holds
//                                                       BENCH_SHARE_FOLDER (1,000) files
//      each against a bare Fastify route sending the bytes of our first page of that call (the
//      second page's baseline is the first page's, a few hundred bytes more); req/s, p50/p99,
//      ratio ours/bare in req/s (for information: no goal), and the server's CPU per request.
//      Also, for comparison, the owner's own 100-item page of the folder (GET /drive/v1/files).
//   2. The same two calls on a share of the same folder behind a pass code, with the
//      pass_code_token got once with the right code.
//   3. Downloading a BENCH_SHARE_MIB (256) MiB file through the share's link (file_info's
//      web_content_link, /drive/v1/share/content/…) vs the owner's own signed link
//      (GET /drive/v1/files/{id} web_content_link). Goal: share/owner >= 0.9. Also both against a
//      bare node:http server piping fs.createReadStream of the same blob file to the socket (as
//      bench/drive.mjs). Rounds alternate: bare, owner, share; MiB/s from the median round.
//      And many small downloads (64 KiB, autocannon as in 1): the share's link vs the owner's,
//      from the start (the share counts each as a download, an UPDATE of its row) and with a later
//      range (bytes=1-, not counted); req/s, for information.
//   4. Saving a public share of a tree of BENCH_SHARE_TREE (10,000) files (in folders of 1,000)
//      into a second account (POST /drive/v1/share/restore, then GET /drive/v1/tasks/{id} until
//      COMPLETE) vs the owner copying the same tree (POST /drive/v1/files:batchCopy, then its task
//      the same way), into a new folder each round, rounds alternating (which goes first swaps).
//      Goal: copy time / save time >= 0.8. Both run inline in their request up to the server's
//      BATCH_INLINE_MAX_ITEMS (20,000 by default) and as a job above it; BENCH_SHARE_INLINE_MAX
//      sets it to measure the job path (the table says which path ran).
//
// Items are seeded straight into the drive's tables (blob rows, and file rows with the drive's own
// nameColumns), the big file's blob straight into the blob store's folder; accounts sign up
// anonymously over HTTP. Everything listens on and talks to 127.0.0.1. Runs against the built
// packages (`npx tsc -b`). No Redis: with REDIS_URL unset the server keeps its counters (pass-code
// guesses, which this bench spends one of) in memory, on PostgreSQL too.
//
// Environment: BENCH_SECONDS (5), BENCH_WARMUP_SECONDS (1), BENCH_CONNECTIONS (4 here),
// BENCH_BACKENDS (sqlite,postgres), BENCH_SHARE_MIB (256), BENCH_SHARE_TREE (10000),
// BENCH_SHARE_FOLDER (1000), BENCH_SHARE_ROUNDS (5), BENCH_SHARE_INLINE_MAX (server default),
// BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/test), BENCH_LOG_LEVEL (warn).
import { randomBytes } from 'node:crypto'
import { closeSync, createReadStream, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { Agent, createServer, request } from 'node:http'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

import { nameColumns } from '@cumulus/drive'
import { WEB_CLIENT_ID } from '@cumulus/protocol'
import { buildServer, loadConfig } from '@cumulus/server'
import Fastify from 'fastify'
import { commonSettings, createBenchSchema, formatTable, freePort, machineEnvironment, pct, runLoad as runLoadRaw, withCpuAccounting, writeResults } from './lib/harness.mjs'

const CPU_COUNT = availableParallelism()
/** Loads with the machine's CPU accounted (this process = the server, the load generator, everything else). */
const runLoad = (spec) => withCpuAccounting(() => runLoadRaw(spec), CPU_COUNT)
const GOALS = { downloadVsOwner: 0.9, saveVsCopy: 0.8 }
const MIB = 1024 * 1024
/** Files per folder of the saved tree, as bench/drive-writes.mjs's copied tree. */
const TREE_FOLDER_FILES = 1000
/** Rows per multi-row INSERT: 25 columns x 400 stays under both databases' bound-parameter limits. */
const ROWS_PER_STATEMENT = 400
/** The page size the share page asks for. */
const PAGE_LIMIT = 100
/** The small file downloaded many times (a picture of a shared album). */
const SMALL_FILE_BYTES = 64 * 1024
/** How often a save's or copy's task is asked after: small against a save of seconds. */
const TASK_POLL_MS = 10
/** Above this mean share of the machine's CPU used by other processes during the loads, the report warns. */
const BUSY_WARNING_SHARE = 0.25
/** A save or copy that takes longer than this is a failure, not a figure. */
const TASK_LIMIT_MS = 300_000

function settings() {
  const common = commonSettings()
  const whole = (name, fallback, min = 1) => {
    const raw = process.env[name]
    if (raw === undefined || raw === '') return fallback
    const n = Number(raw)
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number >= ${min}, got ${JSON.stringify(raw)}`)
    return n
  }
  const backends = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',').map((b) => b.trim()).filter(Boolean)
  for (const b of backends) if (b !== 'sqlite' && b !== 'postgres') throw new Error(`BENCH_BACKENDS: unknown backend ${b} (sqlite, postgres)`)
  return {
    ...common,
    // 4 unless set: commonSettings' default (16) is for throughput benchmarks.
    connections: process.env.BENCH_CONNECTIONS ? common.connections : 4,
    backends,
    mib: whole('BENCH_SHARE_MIB', 256),
    treeFiles: whole('BENCH_SHARE_TREE', 10_000),
    folderFiles: whole('BENCH_SHARE_FOLDER', 1000, PAGE_LIMIT),
    rounds: whole('BENCH_SHARE_ROUNDS', 5),
    inlineMax: process.env.BENCH_SHARE_INLINE_MAX ? whole('BENCH_SHARE_INLINE_MAX', 0) : null,
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const mibps = (bytes, ms) => bytes / MIB / (ms / 1000)

// --- HTTP ------------------------------------------------------------------------------------

/** One request on loopback; the body is kept only when asked (a download's is counted and dropped). */
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
    req.end(body)
  })
}

async function json(agent, url, { token, method = 'GET', body } = {}) {
  const headers = {}
  if (token) headers.authorization = `Bearer ${token}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  const reply = await http(agent, url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = reply.body.toString('utf8')
  if (reply.status !== 200) throw new Error(`${method} ${url} answered ${reply.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text)
}

// --- seeding ---------------------------------------------------------------------------------

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
/** An id like the drive's newId ('V' + 25 random characters). */
function newId() {
  let id = 'V'
  for (const byte of randomBytes(25)) id += ID_ALPHABET[byte % ID_ALPHABET.length]
  return id
}

/** A random GCID (40 upper-case hex digits): blobs here are never hashed, only served or referenced. */
const newGcid = () => randomBytes(20).toString('hex').toUpperCase()

/** A drive_files row as items.ts insertItem builds it. */
function itemRow({ userId, parentId, name, isFolder, nowMs, size = 0, gcid = null }) {
  return {
    id: newId(), user_id: userId, parent_id: parentId, ...nameColumns(name, isFolder), kind: isFolder ? 'drive#folder' : 'drive#file', kind_rank: isFolder ? 0 : 1,
    size: isFolder ? 0 : size, gcid: isFolder ? null : gcid, folder_type: 'NORMAL', phase: 'PHASE_TYPE_COMPLETE', starred: 0, trashed: 0, trash_root: 0,
    trashed_at: null, revision: 1, upload_id: null, created_at: nowMs, modified_at: nowMs,
  }
}

async function insertFolder(db, userId, name, parentId = '') {
  const row = itemRow({ userId, parentId, name, isFolder: true, nowMs: Date.now() })
  await db.insertInto('drive_files').values(row).execute()
  return row.id
}

/** A folder of `count` files (`file 0.txt` …), each with its own blob row (ref_count 1), as uploaded files have. */
async function seedFolder(db, userId, name, count, parentId = '') {
  const folderId = await insertFolder(db, userId, name, parentId)
  const nowMs = Date.now()
  for (let start = 0; start < count; start += ROWS_PER_STATEMENT) {
    const rows = []
    const blobs = []
    for (let i = start; i < Math.min(count, start + ROWS_PER_STATEMENT); i++) {
      const size = 1000 + (i % 997)
      const gcid = newGcid()
      blobs.push({ gcid, size, ref_count: 1, updated_at: nowMs })
      rows.push(itemRow({ userId, parentId: folderId, name: `file ${i}.txt`, isFolder: false, nowMs: nowMs - i, size, gcid }))
    }
    await db.insertInto('drive_blobs').values(blobs).execute()
    await db.insertInto('drive_files').values(rows).execute()
  }
  return folderId
}

/** A tree: one root folder, `files` files under it in folders of TREE_FOLDER_FILES. Returns the root and its item count. */
async function seedTree(db, userId, files) {
  const root = await insertFolder(db, userId, 'tree')
  const folders = Math.ceil(files / TREE_FOLDER_FILES)
  for (let i = 0; i < folders; i++) await seedFolder(db, userId, `part ${i}`, Math.min(TREE_FOLDER_FILES, files - i * TREE_FOLDER_FILES), root)
  return { root, items: 1 + folders + files }
}

/**
 * A file of `mib` MiB in the owner's root: its bytes written straight to where the local-disk
 * blob store keeps them (<data>/blobs/AB/CD/<GCID>), random 16 MiB repeated.
 */
async function seedBigFile(db, dataDir, userId, mib) {
  const gcid = newGcid()
  const path = join(dataDir, 'blobs', gcid.slice(0, 2), gcid.slice(2, 4), gcid)
  mkdirSync(dirname(path), { recursive: true })
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
  const sizeBytes = statSync(path).size
  const nowMs = Date.now()
  await db.insertInto('drive_blobs').values({ gcid, size: sizeBytes, ref_count: 1, updated_at: nowMs }).execute()
  const row = itemRow({ userId, parentId: '', name: 'big.bin', isFolder: false, nowMs, size: sizeBytes, gcid })
  await db.insertInto('drive_files').values(row).execute()
  return { id: row.id, path, sizeBytes }
}

/** A file of `sizeBytes` random bytes in the owner's root, its blob written straight into the store's folder. */
async function seedSmallFile(db, dataDir, userId, sizeBytes) {
  const gcid = newGcid()
  const path = join(dataDir, 'blobs', gcid.slice(0, 2), gcid.slice(2, 4), gcid)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, randomBytes(sizeBytes))
  const nowMs = Date.now()
  await db.insertInto('drive_blobs').values({ gcid, size: sizeBytes, ref_count: 1, updated_at: nowMs }).execute()
  const row = itemRow({ userId, parentId: '', name: 'small.bin', isFolder: false, nowMs, size: sizeBytes, gcid })
  await db.insertInto('drive_files').values(row).execute()
  return row.id
}

/** Live items under `folderId` (all levels), one query per folder level. */
async function countSubtree(db, userId, folderId) {
  let count = 0
  let level = [folderId]
  while (level.length > 0) {
    const next = []
    for (let i = 0; i < level.length; i += 500) {
      const rows = await db.selectFrom('drive_files').select(['id', 'kind']).where('user_id', '=', userId).where('parent_id', 'in', level.slice(i, i + 500)).where('trashed', '=', 0).execute()
      count += rows.length
      for (const r of rows) if (r.kind === 'drive#folder') next.push(r.id)
    }
    level = next
  }
  return count
}

// --- 1, 2: opening and browsing --------------------------------------------------------------

/** A bare Fastify route sending `body` (the same bytes as our reply), loaded the same way. */
async function bareBaseline(body, s) {
  const bare = Fastify()
  bare.get('/x', async (_req, reply) => reply.type('application/json; charset=utf-8').header('cache-control', 'private, no-store').send(body))
  await bare.listen({ port: 0, host: '127.0.0.1' })
  try {
    return await runLoad({ url: `http://127.0.0.1:${bare.server.address().port}`, method: 'GET', path: '/x', connections: s.connections, warmupSeconds: s.warmupSeconds, seconds: s.seconds, kind: 'fixed' })
  } finally {
    await bare.close()
  }
}

/** `path` under load (no bearer: a visitor), after one request that must answer OK with `expectFiles` files. */
async function visitorLoad(ctx, path, expectFiles) {
  const { base, agent, s } = ctx
  const sample = await http(agent, `${base}${path}`)
  const text = sample.body.toString('utf8')
  const parsed = JSON.parse(text)
  if (sample.status !== 200 || parsed.share_status !== 'OK' || parsed.files.length !== expectFiles) {
    throw new Error(`GET ${path} answered ${sample.status} ${parsed.share_status} with ${parsed.files?.length} files, expected OK with ${expectFiles}: ${text.slice(0, 300)}`)
  }
  const ours = await runLoad({ url: base, method: 'GET', path, connections: s.connections, warmupSeconds: s.warmupSeconds, seconds: s.seconds, kind: 'fixed' })
  return { ours, sample: text }
}

function loadRow(backend, metric, ours, bare) {
  const failed = ours.main.non2xx + ours.main.errors + ours.main.timeouts
  return {
    backend,
    metric,
    ours: ours.main.rps,
    baseline: bare.main.rps,
    ratio: bare.main.rps > 0 ? ours.main.rps / bare.main.rps : null,
    goal: null,
    pass: null,
    invalid: failed > 0 || !(ours.main.rps > 0) || !(bare.main.rps > 0),
    oursP50: ours.main.latencyMs.p50,
    oursP99: ours.main.latencyMs.p99,
    baseP50: bare.main.latencyMs.p50,
    baseP99: bare.main.latencyMs.p99,
    non2xx: failed,
  }
}

async function measureBrowse(ctx) {
  const { db, owner, s, log, kind } = ctx
  log(`[${kind}] browse: seeding a folder of ${s.folderFiles} files, sharing it publicly and behind a pass code…`)
  const folderId = await seedFolder(db, owner.userId, 'album', s.folderFiles)
  // A second, empty folder in each share gives its top level a second page (limit=1), which counts no view.
  const notesId = await insertFolder(db, owner.userId, 'notes')
  const fileIds = [folderId, notesId]
  const open = await json(ctx.agent, `${ctx.base}/drive/v1/share`, { token: owner.token, method: 'POST', body: { file_ids: fileIds, share_to: 'publiclink', expiration_days: -1 } })
  const coded = await json(ctx.agent, `${ctx.base}/drive/v1/share`, { token: owner.token, method: 'POST', body: { file_ids: fileIds, share_to: 'encryptedlink', expiration_days: -1 } })
  if (open.pass_code !== '' || !coded.pass_code) throw new Error(`unexpected pass codes: public ${JSON.stringify(open.pass_code)}, coded ${JSON.stringify(coded.pass_code)}`)
  // The token, got once with the right code (one guess of this address's budget, given back).
  const opened = await json(ctx.agent, `${ctx.base}/drive/v1/share?share_id=${coded.share_id}&pass_code=${encodeURIComponent(coded.pass_code)}`)
  if (opened.share_status !== 'OK' || !opened.pass_code_token) throw new Error(`the right pass code gave ${opened.share_status}`)
  const token = encodeURIComponent(opened.pass_code_token)
  const firstOfOne = await json(ctx.agent, `${ctx.base}/drive/v1/share?share_id=${open.share_id}&limit=1`)
  if (!firstOfOne.next_page_token) throw new Error('the share\'s top level of two items gave no second page at limit=1')

  const calls = [
    { key: 'info', metric: 'open share (GET /share, 2 items, counts a view)', path: `/drive/v1/share?share_id=${open.share_id}`, files: 2, shareId: open.share_id },
    { key: 'infoPage2', metric: 'same share, page 2 of limit=1 (no view counted)', path: `/drive/v1/share?share_id=${open.share_id}&limit=1&page_token=${encodeURIComponent(firstOfOne.next_page_token)}`, files: 1, shareId: open.share_id, countsViews: false },
    { key: 'detail', metric: `folder page (GET /share/detail, ${PAGE_LIMIT} of ${s.folderFiles.toLocaleString('en')})`, path: `/drive/v1/share/detail?share_id=${open.share_id}&parent_id=${folderId}&limit=${PAGE_LIMIT}`, files: PAGE_LIMIT },
    { key: 'codedInfo', metric: 'pass code: open share with token (counts a view)', path: `/drive/v1/share?share_id=${coded.share_id}&pass_code_token=${token}`, files: 2, shareId: coded.share_id },
    { key: 'codedDetail', metric: 'pass code: folder page with token', path: `/drive/v1/share/detail?share_id=${coded.share_id}&parent_id=${folderId}&limit=${PAGE_LIMIT}&pass_code_token=${token}`, files: PAGE_LIMIT },
  ]
  const measured = {}
  const bareBySize = new Map()
  // For comparison, the owner's own listing of the same folder (bearer; the drive's listing, not the share's).
  {
    const path = `/drive/v1/files?parent_id=${folderId}&limit=${PAGE_LIMIT}`
    const sample = await http(ctx.agent, `${ctx.base}${path}`, { headers: { authorization: `Bearer ${owner.token}` } })
    const parsed = JSON.parse(sample.body.toString('utf8'))
    if (sample.status !== 200 || parsed.files?.length !== PAGE_LIMIT) throw new Error(`the owner's listing answered ${sample.status} with ${parsed.files?.length} files`)
    log(`[${kind}] browse: the owner's own listing of the folder…`)
    const ours = await runLoad({ url: ctx.base, method: 'GET', path, headers: { authorization: `Bearer ${owner.token}` }, connections: s.connections, warmupSeconds: s.warmupSeconds, seconds: s.seconds, kind: 'fixed' })
    log(`[${kind}] browse: bare Fastify route, ${sample.bytes}-byte reply…`)
    const bare = await bareBaseline(sample.body.toString('utf8'), s)
    measured.ownerList = { metric: `owner's own page (GET /files, ${PAGE_LIMIT} of ${s.folderFiles.toLocaleString('en')}; for comparison)`, path, replyBytes: sample.bytes, bareBytes: sample.bytes, ours, bare, views: null }
  }
  for (const call of calls) {
    const viewsBefore = call.shareId ? Number((await shareRow(db, call.shareId)).view_count) : null
    log(`[${kind}] browse: ${call.metric}…`)
    const { ours, sample } = await visitorLoad(ctx, call.path, call.files)
    const viewsAfter = call.shareId ? Number((await shareRow(db, call.shareId)).view_count) : null
    // The bare route sends the first sample's bytes of its kind: the pass-code replies differ in a few bytes, page 2 in one item.
    const sizeKey = call.key.toLowerCase().includes('detail') ? 'detail' : 'info'
    if (!bareBySize.has(sizeKey)) {
      log(`[${kind}] browse: bare Fastify route, ${Buffer.byteLength(sample)}-byte reply…`)
      bareBySize.set(sizeKey, { bytes: Buffer.byteLength(sample), load: await bareBaseline(sample, ctx.s) })
    }
    const bare = bareBySize.get(sizeKey)
    // Views counted by the loads (the sample request counts one too): each 2xx first page is one.
    const views = call.shareId ? { counted: viewsAfter - viewsBefore - (call.countsViews === false ? 0 : 1), answered: call.countsViews === false ? 0 : (ours.warmup?.ok ?? 0) + ours.main.ok } : null
    measured[call.key] = { metric: call.metric, path: call.path, replyBytes: Buffer.byteLength(sample), bareBytes: bare.bytes, ours, bare: bare.load, views }
  }
  return measured
}

const shareRow = (db, id) => db.selectFrom('drive_shares').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

// --- 3: downloads ----------------------------------------------------------------------------

async function measureDownload(ctx) {
  const { db, owner, s, log, kind, agent, base } = ctx
  log(`[${kind}] download: writing a ${s.mib} MiB blob and sharing its file…`)
  const big = await seedBigFile(db, ctx.dataDir, owner.userId, s.mib)
  const created = await json(agent, `${base}/drive/v1/share`, { token: owner.token, method: 'POST', body: { file_ids: [big.id], share_to: 'publiclink', expiration_days: -1 } })
  const info = await json(agent, `${base}/drive/v1/share/file_info?share_id=${created.share_id}&file_id=${big.id}`)
  const shareLink = info.file_info?.web_content_link
  if (!shareLink?.includes('/drive/v1/share/content/')) throw new Error(`file_info gave no share link: ${JSON.stringify(info).slice(0, 300)}`)
  const file = await json(agent, `${base}/drive/v1/files/${big.id}`, { token: owner.token })
  const ownerLink = file.web_content_link
  if (!ownerLink?.includes('/drive/v1/content/')) throw new Error(`GET /drive/v1/files/{id} gave no content link: ${JSON.stringify(file).slice(0, 300)}`)

  // Baseline: the bare minimum of serving the same file, createReadStream piped to the socket.
  const bare = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': String(big.sizeBytes), 'content-type': 'application/octet-stream' })
    createReadStream(big.path, { highWaterMark: MIB }).pipe(res)
  })
  await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve))
  const sides = { bare: `http://127.0.0.1:${bare.address().port}/file`, owner: ownerLink, share: shareLink }
  const ms = { bare: [], owner: [], share: [] }
  try {
    // One untimed pass of each warms the page cache and the code paths.
    for (let round = -1; round < s.rounds; round++) {
      for (const [side, url] of Object.entries(sides)) {
        const t0 = performance.now()
        const reply = await http(agent, url, { keepBody: false })
        const elapsed = performance.now() - t0
        if (reply.status !== 200 || reply.bytes !== big.sizeBytes) throw new Error(`download through ${side} gave ${reply.status}, ${reply.bytes} of ${big.sizeBytes} bytes`)
        if (round >= 0) ms[side].push(elapsed)
      }
    }
  } finally {
    await new Promise((resolve) => bare.close(resolve))
  }
  const downloads = Number((await shareRow(db, created.share_id)).download_count)
  log(`[${kind}] download: ${Object.entries(ms).map(([side, xs]) => `${side} ${xs.map((x) => x.toFixed(0)).join('/')} ms`).join(', ')}`)
  return { sizeBytes: big.sizeBytes, ms, rate: Object.fromEntries(Object.entries(ms).map(([side, xs]) => [side, mibps(big.sizeBytes, median(xs))])), downloadCount: downloads, expectedDownloadCount: s.rounds + 1 }
}

/**
 * Many small downloads (a shared album's pictures): the share's link vs the owner's, each GET from
 * the start (a share counts it as a download, an UPDATE of the share's row), and both with a later
 * range (`bytes=1-`, which the share does not count): the difference between the two share rows
 * is the counting.
 */
async function measureSmallDownloads(ctx) {
  const { db, owner, s, log, kind, agent, base } = ctx
  const fileId = await seedSmallFile(db, ctx.dataDir, owner.userId, SMALL_FILE_BYTES)
  const created = await json(agent, `${base}/drive/v1/share`, { token: owner.token, method: 'POST', body: { file_ids: [fileId], share_to: 'publiclink', expiration_days: -1 } })
  const shareLink = new URL((await json(agent, `${base}/drive/v1/share/file_info?share_id=${created.share_id}&file_id=${fileId}`)).file_info.web_content_link)
  const ownerLink = new URL((await json(agent, `${base}/drive/v1/files/${fileId}`, { token: owner.token })).web_content_link)
  const load = (link, headers = {}) => runLoad({ url: base, method: 'GET', path: link.pathname + link.search, headers, connections: s.connections, warmupSeconds: s.warmupSeconds, seconds: s.seconds, kind: 'fixed' })
  const out = {}
  for (const [key, link, headers] of [['owner', ownerLink, {}], ['share', shareLink, {}], ['ownerRange', ownerLink, { range: 'bytes=1-' }], ['shareRange', shareLink, { range: 'bytes=1-' }]]) {
    log(`[${kind}] small downloads: ${key}…`)
    out[key] = await load(link, headers)
  }
  out.downloadsCounted = Number((await shareRow(db, created.share_id)).download_count)
  return out
}

function roundsRow(backend, metric, goal, oursMs, baseMs, perRound, extra = {}) {
  const ours = perRound / (median(oursMs) / 1000)
  const baseline = perRound / (median(baseMs) / 1000)
  const ratio = ours / baseline
  return {
    backend,
    metric,
    ours,
    baseline,
    ratio,
    goal,
    pass: goal === null ? null : ratio >= goal,
    invalid: extra.valid === false || !(ours > 0) || !(baseline > 0),
    oursP50: median(oursMs),
    oursP99: Math.max(...oursMs),
    baseP50: median(baseMs),
    baseP99: Math.max(...baseMs),
    non2xx: 0,
  }
}

// --- 4: saving vs copying --------------------------------------------------------------------

/** Polls a task until COMPLETE (the inline path's task is complete at once); ERROR or the limit throws. */
async function waitForTask(ctx, token, taskId) {
  const deadline = performance.now() + TASK_LIMIT_MS
  for (let polls = 1; ; polls++) {
    const task = await json(ctx.agent, `${ctx.base}/drive/v1/tasks/${taskId}`, { token })
    if (task.phase === 'PHASE_TYPE_COMPLETE') return { task, polls }
    if (task.phase === 'PHASE_TYPE_ERROR') throw new Error(`task ${taskId} (${task.name}) failed: ${task.message}`)
    if (performance.now() > deadline) throw new Error(`task ${taskId} (${task.name}) not complete after ${TASK_LIMIT_MS} ms: ${task.phase}`)
    await sleep(TASK_POLL_MS)
  }
}

async function measureSave(ctx) {
  const { db, owner, saver, s, log, kind, agent, base } = ctx
  log(`[${kind}] save: seeding a tree of ${s.treeFiles} files and sharing it…`)
  const tree = await seedTree(db, owner.userId, s.treeFiles)
  const created = await json(agent, `${base}/drive/v1/share`, { token: owner.token, method: 'POST', body: { file_ids: [tree.root], share_to: 'publiclink', expiration_days: -1 } })
  const sides = {
    save: async () => {
      const target = await insertFolder(db, saver.userId, `saved ${newId()}`)
      const t0 = performance.now()
      const reply = await json(agent, `${base}/drive/v1/share/restore`, { token: saver.token, method: 'POST', body: { share_id: created.share_id, pass_code_token: '', file_ids: [], parent_id: target, specify_parent_id: true } })
      if (reply.share_status !== 'OK' || !reply.restore_task_id) throw new Error(`restore answered ${JSON.stringify(reply)}`)
      const { polls } = await waitForTask(ctx, saver.token, reply.restore_task_id)
      const ms = performance.now() - t0
      return { ms, path: reply.restore_status === 'RESTORE_START' ? 'job' : 'inline', polls, copied: await countSubtree(db, saver.userId, target) }
    },
    copy: async () => {
      const target = await insertFolder(db, owner.userId, `copied ${newId()}`)
      const t0 = performance.now()
      const reply = await json(agent, `${base}/drive/v1/files:batchCopy`, { token: owner.token, method: 'POST', body: { ids: [tree.root], to: { parent_id: target } } })
      const { polls } = await waitForTask(ctx, owner.token, reply.task_id)
      const ms = performance.now() - t0
      // The reply is the same either way; the server's setting says which path ran (a batch's subtree above it is a job).
      return { ms, path: tree.items > ctx.inlineMax ? 'job' : 'inline', polls, copied: await countSubtree(db, owner.userId, target) }
    },
  }
  const runs = { save: [], copy: [] }
  for (let round = 0; round < s.rounds; round++) {
    const order = round % 2 === 0 ? ['save', 'copy'] : ['copy', 'save']
    for (const side of order) {
      const run = await sides[side]()
      if (run.copied !== tree.items) throw new Error(`${side} round ${round} made ${run.copied} items, expected ${tree.items}`)
      runs[side].push(run)
      log(`[${kind}] save: round ${round + 1}/${s.rounds} ${side} ${(run.ms / 1000).toFixed(2)} s (${run.path}, ${run.polls} task polls)`)
    }
  }
  return { items: tree.items, shareId: created.share_id, runs, restoreCount: Number((await shareRow(db, created.share_id)).restore_count) }
}

// --- per backend ------------------------------------------------------------------------------

async function benchBackend(kind, s, log) {
  const dir = mkdtempSync(join(tmpdir(), 'cumulus-bench-shares-'))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  let dropSchema = async () => {}
  let database = 'SQLite in a temp data dir'
  // Links carry PUBLIC_URL, so the port is chosen before the server starts.
  const env = { CUMULUS_DATA_DIR: join(dir, 'data'), LOG_LEVEL: s.logLevel, PORT: String(port), HOST: '127.0.0.1', CAPTCHA_MODE: 'off', PUBLIC_URL: base, DRIVE_QUOTA_FREE: '1PiB' }
  if (s.inlineMax !== null) env.BATCH_INLINE_MAX_ITEMS = String(s.inlineMax)
  if (kind === 'postgres') {
    const { schema, drop } = await createBenchSchema(s.postgresUrl, 'bench_shares')
    dropSchema = drop
    const url = new URL(s.postgresUrl)
    url.searchParams.set('schema', schema)
    env.DATABASE_URL = url.href
    database = `PostgreSQL schema ${schema} at ${url.host}${url.pathname}`
  }
  const agent = new Agent({ keepAlive: true, maxSockets: 4 })
  const config = loadConfig(env)
  // As `cumulus serve` minus the web app and the periodic housekeeping; jobs still run.
  const server = await buildServer(config, { web: false, housekeeping: false })
  try {
    await server.app.listen({ port, host: '127.0.0.1' })
    const signUp = async () => {
      const r = await json(agent, `${base}/v1/auth/signup/anonymously`, { method: 'POST', body: { client_id: WEB_CLIENT_ID } })
      return { userId: r.sub, token: r.access_token }
    }
    const ctx = { kind, s, log, base, agent, db: server.drive.db, dataDir: join(dir, 'data'), owner: await signUp(), saver: await signUp(), inlineMax: config.drive.batchInlineMaxItems }
    const browse = await measureBrowse(ctx)
    const download = await measureDownload(ctx)
    const small = await measureSmallDownloads(ctx)
    const save = await measureSave(ctx)

    const rows = ['info', 'infoPage2', 'detail', 'codedInfo', 'codedDetail', 'ownerList'].map((key) => loadRow(kind, browse[key].metric, browse[key].ours, browse[key].bare))
    const d = download
    const dlRow = (metric, goal, a, b) => roundsRow(kind, metric, goal, d.ms[a], d.ms[b], d.sizeBytes / MIB)
    rows.push(dlRow(`download ${s.mib} MiB: share link vs owner link (MiB/s)`, GOALS.downloadVsOwner, 'share', 'owner'))
    rows.push(dlRow(`download ${s.mib} MiB: share link vs createReadStream`, null, 'share', 'bare'))
    rows.push(dlRow(`download ${s.mib} MiB: owner link vs createReadStream`, null, 'owner', 'bare'))
    rows.push(loadRow(kind, `64 KiB GETs: share link (counts a download) vs owner link`, small.share, small.owner))
    rows.push(loadRow(kind, `64 KiB GETs, range bytes=1- (not counted): share vs owner`, small.shareRange, small.ownerRange))
    const paths = [...new Set(save.runs.save.map((r) => r.path))].join('+')
    rows.push(
      roundsRow(kind, `save ${save.items.toLocaleString('en')}-item share (${paths}) vs owner batchCopy (${save.runs.copy[0].path}) (items/s)`, GOALS.saveVsCopy, save.runs.save.map((r) => r.ms), save.runs.copy.map((r) => r.ms), save.items),
    )
    return { backend: kind, database, inlineMax: ctx.inlineMax, rows, browse, download, small, save }
  } finally {
    agent.destroy()
    await server.close().catch((err) => log(`  cleanup: server close: ${err?.message ?? err}`))
    await dropSchema().catch((err) => log(`  cleanup: could not drop the schema: ${err?.message ?? err}`))
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function main() {
  const s = settings()
  const log = (line) => process.stderr.write(`${line}\n`)
  const started = Date.now()
  const environment = await machineEnvironment(CPU_COUNT)
  log(`shares bench: ${s.backends.join(' + ')}; ${s.connections} connections, ${s.warmupSeconds}s warm-up + ${s.seconds}s per load; ${s.mib} MiB download, ${s.rounds} rounds; tree of ${s.treeFiles} files`)
  const backends = []
  for (const kind of s.backends) backends.push(await benchBackend(kind, s, log))
  const rows = backends.flatMap((b) => b.rows)

  console.log('')
  console.log('Cumulus share links benchmark (issue 17)')
  console.log(`  browse: visitor GETs (no bearer) from autocannon in a child process, ${s.connections} connections, ${s.warmupSeconds}s warm-up + ${s.seconds}s measured; baseline: a bare Fastify route sending the same bytes (req/s and ms)`)
  console.log(`  download: one GET at a time, body read and dropped; ${s.rounds} rounds after one untimed, MiB/s of the median round; p99 column = slowest round`)
  console.log(`  save: POST /drive/v1/share/restore by a second account vs the owner's POST /drive/v1/files:batchCopy of the same tree, each until its task is COMPLETE; ${s.rounds} alternating rounds, items/s of the median; p99 column = slowest round`)
  console.log(`  machine: ${environment.cpus} CPUs (${environment.cpuModel}), Node ${environment.node}; busy before start ${pct(environment.cpuBusyBeforeStart)} (load average ${environment.loadAverageAtStart.join(' ')})`)
  for (const b of backends) console.log(`  ${b.backend}: ${b.database}; BATCH_INLINE_MAX_ITEMS ${b.inlineMax}`)
  console.log('')
  console.log(formatTable(rows))
  console.log('')
  for (const b of backends) {
    const views = Object.values(b.browse).filter((m) => m.views)
    console.log(`  ${b.backend}: reply bytes ${Object.values(b.browse).map((m) => `${m.metric.split(' (')[0]} ${m.replyBytes}`).join(', ')}`)
    console.log(`  ${b.backend}: views counted during the loads ${views.map((m) => `${m.metric.split(' (')[0]}: ${m.views.counted} for ${m.views.answered} first pages`).join(', ')}; share downloads counted ${b.download.downloadCount} of ${b.download.expectedDownloadCount}; saves counted ${b.save.restoreCount} of ${s.rounds}`)
    for (const m of Object.values(b.browse)) {
      const c = m.ours.cpu
      console.log(`  ${b.backend}: ${m.metric}: server CPU ${c.processMsPerOp?.toFixed(2) ?? '-'} ms/request (bare ${m.bare.cpu.processMsPerOp?.toFixed(2) ?? '-'}); machine shares during the load: server ${pct(c.processShare)}, load generator ${pct(c.loadGeneratorShare)}, other ${pct(c.otherShare)}`)
    }
    const best = (side) => mibps(b.download.sizeBytes, Math.min(...b.download.ms[side])).toFixed(0)
    console.log(`  ${b.backend}: download rounds ms ${Object.entries(b.download.ms).map(([side, xs]) => `${side} ${xs.map((x) => x.toFixed(0)).join('/')}`).join(', ')}; best round MiB/s: bare ${best('bare')}, owner ${best('owner')}, share ${best('share')}`)
    const smallAnswered = (b.small.share.warmup?.ok ?? 0) + b.small.share.main.ok
    console.log(`  ${b.backend}: 64 KiB share downloads counted ${b.small.downloadsCounted} for ${smallAnswered} full GETs (and none for the ranged ones); server CPU ms/request: share ${b.small.share.cpu.processMsPerOp?.toFixed(2)}, owner ${b.small.owner.cpu.processMsPerOp?.toFixed(2)}, share ranged ${b.small.shareRange.cpu.processMsPerOp?.toFixed(2)}, owner ranged ${b.small.ownerRange.cpu.processMsPerOp?.toFixed(2)}`)
    console.log(`  ${b.backend}: save ${b.save.runs.save.map((r) => `${(r.ms / 1000).toFixed(2)}s`).join(', ')}; copy ${b.save.runs.copy.map((r) => `${(r.ms / 1000).toFixed(2)}s`).join(', ')}`)
  }
  // Other work on the machine (builds, tests, browsers) takes CPU from the server and skews every figure.
  const otherShares = backends.flatMap((b) => Object.values(b.browse).map((m) => m.ours.cpu.otherShare)).filter((x) => typeof x === 'number')
  const otherMean = otherShares.length ? otherShares.reduce((a, b) => a + b, 0) / otherShares.length : null
  if (otherMean !== null && otherMean > BUSY_WARNING_SHARE) console.log(`  WARNING: other processes used ${pct(otherMean)} of the machine's CPU during the loads (mean); every figure is skewed, ratios least`)
  const goalRows = rows.filter((r) => r.goal !== null)
  const missed = goalRows.filter((r) => !r.pass && !r.invalid)
  const invalid = rows.filter((r) => r.invalid)
  console.log('')
  console.log(`  ${goalRows.length - missed.length - invalid.filter((r) => r.goal !== null).length}/${goalRows.length} goals met${missed.length ? `; MISSED: ${missed.map((r) => `${r.backend} ${r.metric}`).join(', ')}` : ''}${invalid.length ? `; INVALID (failed requests or checks): ${invalid.map((r) => `${r.backend} ${r.metric}`).join(', ')}` : ''}`)
  console.log(`  load average at the end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`)
  const file = writeResults('shares', { benchmark: 'shares', startedAt: new Date(started).toISOString(), elapsedSeconds: (Date.now() - started) / 1000, settings: s, environment, goals: GOALS, rows, backends })
  console.log(`  results: ${file} (run took ${((Date.now() - started) / 1000).toFixed(0)}s)`)
  // A missed goal is a finding, not an error; failed requests or checks are errors.
  return invalid.length ? 1 : 0
}
