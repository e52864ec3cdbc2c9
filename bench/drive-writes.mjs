// `npm run bench -- drive-writes`: what creating drive items costs, on SQLite and on PostgreSQL in
// one run (issue 18), each figure against the same rows written straight through the database
// driver in the same run.
//
//   1. Single creates: `POST /drive/v1/files` `{ kind: 'drive#folder', name, parent_id }` over
//      loopback HTTP from BENCH_CONNECTIONS (32) connections (autocannon in a child process,
//      bench/load.mjs), every request a distinct name, into a folder that already holds 0, 10,000
//      and 100,000 items (BENCH_WRITES_FOLDER_SIZES). Creates/s, p50/p99, non-2xx (must be 0).
//   2. Raw baseline for 1: the same row shape inserted with Kysely `insertInto('drive_files')
//      .values(row)`, one statement per row, from 32 concurrent loops in this process (the server
//      idle), into another folder of the same size. Goal: ours/raw >= 0.3.
//   3. Bulk: `POST /drive/v1/files:batchCopy` of a folder holding 1,000 files (the drive's only
//      path that creates many rows in one request) into a new empty folder, one request at a
//      time, items/s (the folder plus its files), against a raw multi-row insert of 1,000 rows of
//      the same shape (one statement per 500 rows, SQLite's parameter limit; one transaction, as
//      the copy is). Goal: ours/raw >= 0.5. Then a tree of BENCH_WRITES_COPY_FILES (10,000) files
//      in folders of 1,000, copied with one :batchCopy, against the same rows inserted raw (no goal).
//      Copy and raw rounds alternate, so both meet the same table size and background load.
//   4. Slope: creates/s into the largest folder / creates/s into the smallest (0 by default).
//      Goal: >= 0.9, i.e. within 10%.
//
// Folders are pre-filled by inserting rows straight into drive_files through the server's drive
// database (`server.drive.db`, multi-row inserts, the row shape of items.ts insertItem, name
// columns from @cumulus/drive's nameColumns). The bench does NOT run ANALYZE before measuring: the
// server never runs it, so the planner sees what it would see in a real folder that grew, i.e.
// whatever autovacuum's auto-analyze did meanwhile. (On a PostgreSQL with `autovacuum = off`, as
// the shared test instance is, that means no statistics at all; the header prints the setting.)
//
// PostgreSQL diagnostics (BENCH_WRITES_DIAGNOSE, default on): while each PostgreSQL load runs,
// pg_stat_activity and ungranted pg_locks of the server's connections (tagged by application_name)
// are sampled every 100 ms, to show where the backends spend their time (running, waiting for a
// row lock, for WAL, idle in a transaction while Node works). At the end, EXPLAIN (ANALYZE,
// BUFFERS) of the name-clash query against the largest filled folder, before and after ANALYZE of
// the bench's schema, and the largest-size create load once more, into a new folder of that size
// seeded after the ANALYZE (for information: not a goal row, and the one place this bench
// analyzes; the new folder is not in the statistics, as a folder that grew since the last
// auto-analyze would not be).
//
// Environment: BENCH_SECONDS (5), BENCH_WARMUP_SECONDS (1), BENCH_CONNECTIONS (32 here),
// BENCH_BACKENDS (sqlite,postgres), BENCH_WRITES_FOLDER_SIZES (0,10000,100000),
// BENCH_WRITES_BULK_FILES (1000), BENCH_WRITES_COPY_FILES (10000), BENCH_WRITES_COPY_ROUNDS (3),
// BENCH_WRITES_ONLY (creates,bulk,tree), BENCH_WRITES_DIAGNOSE (1), BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/test),
// BENCH_LOG_LEVEL (warn).
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'

import { nameColumns } from '@cumulus/drive'
import { WEB_CLIENT_ID } from '@cumulus/protocol'
import { buildServer, loadConfig } from '@cumulus/server'
import { sql } from 'kysely'
import pg from 'pg'
import { commonSettings, createBenchSchema, fmtCpu, freePort, withPg, formatTable, machineCpu, machineEnvironment, pct, runLoad as runLoadRaw, runLoops as runLoopsRaw, withCpuAccounting, writeResults } from './lib/harness.mjs'

const CPU_COUNT = availableParallelism()
const runLoad = (spec) => withCpuAccounting(() => runLoadRaw(spec), CPU_COUNT)
const runLoops = (options) => withCpuAccounting(() => runLoopsRaw(options), CPU_COUNT)

const GOALS = { single: 0.3, bulk: 0.5, slope: 0.9 }
/** Rows per multi-row INSERT: 22 columns x 500 stays under SQLite's bound-parameter limit, as copyItems does. */
const ROWS_PER_STATEMENT = 500
/** Files per folder of the copied tree. */
const TREE_FOLDER_FILES = 1000
/** How often the PostgreSQL sampler looks at pg_stat_activity and pg_locks. */
const SAMPLE_INTERVAL_MS = 100
/** Candidates freeName asks about in one query ("a", "a(1)" … "a(49)"). */
const NAME_CANDIDATES = 50

function settings() {
  const common = commonSettings()
  const list = (name, fallback) => (process.env[name] ?? fallback).split(',').map((x) => x.trim()).filter(Boolean)
  const whole = (name, fallback, min = 0) => {
    const raw = process.env[name]
    if (raw === undefined || raw === '') return fallback
    const n = Number(raw)
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number >= ${min}, got ${JSON.stringify(raw)}`)
    return n
  }
  const backends = list('BENCH_BACKENDS', 'sqlite,postgres')
  for (const b of backends) if (b !== 'sqlite' && b !== 'postgres') throw new Error(`BENCH_BACKENDS: unknown backend ${b} (sqlite, postgres)`)
  const folderSizes = list('BENCH_WRITES_FOLDER_SIZES', '0,10000,100000').map((x) => {
    const n = Number(x)
    if (!Number.isInteger(n) || n < 0) throw new Error(`BENCH_WRITES_FOLDER_SIZES: ${x} is not a whole number`)
    return n
  })
  if (folderSizes.length === 0) throw new Error('BENCH_WRITES_FOLDER_SIZES names no size')
  return {
    ...common,
    // 32 unless set: commonSettings' default (16) is for the other benchmarks.
    connections: process.env.BENCH_CONNECTIONS ? common.connections : 32,
    backends,
    folderSizes,
    bulkFiles: whole('BENCH_WRITES_BULK_FILES', 1000, 1),
    copyFiles: whole('BENCH_WRITES_COPY_FILES', 10_000, 0),
    copyRounds: whole('BENCH_WRITES_COPY_ROUNDS', 3, 1),
    // BENCH_WRITES_ONLY=bulk (or creates,bulk,tree): run only these measurements.
    only: new Set(list('BENCH_WRITES_ONLY', 'creates,bulk,tree')),
    diagnose: !['0', 'false', 'no'].includes((process.env.BENCH_WRITES_DIAGNOSE ?? '1').toLowerCase()),
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  }
}

// --- rows -------------------------------------------------------------------------------------

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
/** An id like the drive's newId ('V' + 25 random characters), so the primary key sees the same random inserts. */
function newId() {
  let id = 'V'
  for (const byte of randomBytes(25)) id += ID_ALPHABET[byte % ID_ALPHABET.length]
  return id
}

/** A drive_files row as items.ts insertItem builds it. */
function itemRow({ userId, parentId, name, isFolder, nowMs, size = 0, gcid = null }) {
  return {
    id: newId(),
    user_id: userId,
    parent_id: parentId,
    ...nameColumns(name, isFolder),
    kind: isFolder ? 'drive#folder' : 'drive#file',
    kind_rank: isFolder ? 0 : 1,
    size: isFolder ? 0 : size,
    gcid: isFolder ? null : gcid,
    folder_type: 'NORMAL',
    phase: 'PHASE_TYPE_COMPLETE',
    starred: 0,
    trashed: 0,
    trash_root: 0,
    trashed_at: null,
    revision: 1,
    upload_id: null,
    created_at: nowMs,
    modified_at: nowMs,
  }
}

async function insertRows(db, rows) {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) await db.insertInto('drive_files').values(rows.slice(i, i + ROWS_PER_STATEMENT)).execute()
}

/** A new folder in the root (a seeding shortcut, not the API); returns its id. */
async function insertFolder(db, userId, name, parentId = '') {
  const row = itemRow({ userId, parentId, name, isFolder: true, nowMs: Date.now() })
  await db.insertInto('drive_files').values(row).execute()
  return row.id
}

/**
 * A folder holding `count` files (`file 1.txt` …), inserted in multi-row statements. With
 * `withBlobs`, each file gets its own blob row (ref_count 1), as uploaded files have, so a copy
 * can take references; otherwise gcid is null (the create measurements never read it).
 */
async function seedFolder(db, userId, name, count, { withBlobs = false, parentId = '' } = {}) {
  const folderId = await insertFolder(db, userId, name, parentId)
  const nowMs = Date.now()
  for (let start = 0; start < count; start += ROWS_PER_STATEMENT) {
    const rows = []
    const blobs = []
    for (let i = start; i < Math.min(count, start + ROWS_PER_STATEMENT); i++) {
      const size = 1000 + (i % 997)
      const gcid = withBlobs ? randomBytes(20).toString('hex').toUpperCase() : null
      if (gcid) blobs.push({ gcid, size, ref_count: 1, updated_at: nowMs })
      rows.push(itemRow({ userId, parentId: folderId, name: `file ${i}.txt`, isFolder: false, nowMs: nowMs - i, size, gcid }))
    }
    if (blobs.length) await db.insertInto('drive_blobs').values(blobs).execute()
    await db.insertInto('drive_files').values(rows).execute()
  }
  return folderId
}

const liveChildren = async (db, folderId) =>
  Number((await db.selectFrom('drive_files').select((eb) => eb.fn.countAll().as('n')).where('parent_id', '=', folderId).where('trashed', '=', 0).executeTakeFirstOrThrow()).n)

// --- databases and the server -----------------------------------------------------------------


/**
 * The server's database settings: SQLite in the data dir, or a new PostgreSQL schema (dropped by
 * destroy) with the server's connections tagged by application_name for the sampler.
 */
async function benchDatabase(kind, s) {
  if (kind === 'sqlite') return { env: {}, detail: 'SQLite in a temp data dir (WAL, synchronous=NORMAL)', destroy: async () => {} }
  const { schema, drop } = await createBenchSchema(s.postgresUrl, 'bench_writes')
  const applicationName = `cumulus-bench-${schema}`
  const autovacuum = await withPg(s.postgresUrl, async (c) => (await c.query('SHOW autovacuum')).rows[0].autovacuum)
  const url = new URL(s.postgresUrl)
  url.searchParams.set('schema', schema)
  url.searchParams.set('application_name', applicationName)
  return {
    env: { DATABASE_URL: url.href },
    schema,
    applicationName,
    autovacuum,
    detail: `PostgreSQL schema ${schema} at ${url.host}${url.pathname} (server pool 10, default; autovacuum=${autovacuum})`,
    destroy: drop,
  }
}

async function postJson(url, token, body) {
  const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`POST ${url} answered ${response.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text)
}

// --- PostgreSQL sampler -----------------------------------------------------------------------

const ACTIVITY_SQL = `
  select state, wait_event_type, wait_event, left(regexp_replace(query, '\\s+', ' ', 'g'), 60) as query
  from pg_stat_activity where application_name = $1`
const LOCK_WAITS_SQL = `
  select l.locktype, l.mode, coalesce(c.relname, '') as relname, count(*)::int as n
  from pg_locks l left join pg_class c on c.oid = l.relation
  where not l.granted and l.pid in (select pid from pg_stat_activity where application_name = $1)
  group by 1, 2, 3`

/**
 * Samples what the server's PostgreSQL backends are doing. Per phase: how many backends were, on
 * average, in each (state, wait event, statement), and how many ungranted locks by kind.
 */
async function startSampler(url, applicationName) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  let phase = null
  let busy = false
  const tick = async () => {
    if (!phase || busy) return
    busy = true
    const current = phase
    try {
      const activity = await client.query(ACTIVITY_SQL, [applicationName])
      const locks = await client.query(LOCK_WAITS_SQL, [applicationName])
      current.samples++
      for (const r of activity.rows) {
        const wait = r.wait_event_type ? `${r.wait_event_type}:${r.wait_event}` : 'running'
        const key = r.state === 'idle' ? 'idle (in the pool)' : `${r.state} | ${wait} | ${r.query}`
        current.activity.set(key, (current.activity.get(key) ?? 0) + 1)
      }
      for (const r of locks.rows) {
        const key = `${r.locktype} ${r.mode}${r.relname ? ` on ${r.relname}` : ''}`
        current.lockWaits.set(key, (current.lockWaits.get(key) ?? 0) + r.n)
      }
    } catch (err) {
      current.errors = String(err?.message ?? err)
    } finally {
      busy = false
    }
  }
  const timer = setInterval(tick, SAMPLE_INTERVAL_MS)
  return {
    begin(label) {
      phase = { label, samples: 0, activity: new Map(), lockWaits: new Map() }
    },
    /** Ends the phase: average backends per state, most common first. */
    end() {
      const done = phase
      phase = null
      if (!done) return null
      const avg = (m) => [...m].sort((a, b) => b[1] - a[1]).map(([key, n]) => ({ key, avgBackends: done.samples ? n / done.samples : 0 }))
      return { label: done.label, samples: done.samples, activity: avg(done.activity), lockWaits: avg(done.lockWaits), ...(done.errors ? { errors: done.errors } : {}) }
    },
    async close() {
      clearInterval(timer)
      while (busy) await new Promise((r) => setTimeout(r, 10))
      await client.end()
    },
  }
}

// --- measurements -----------------------------------------------------------------------------

/**
 * Sequential rounds of two or more sides taken in turn (ours, raw, ours, raw…), so each side sees
 * the same table size and the same background load: a side measured after the other would meet a
 * table grown by the other's rows (SQLite's 2 MiB page cache then misses more, which alone
 * made the second side about 1.7 times slower in a trial). Each round is `prepare()` (not timed),
 * then `op(prepared)` (timed, with this process's CPU). After a warm-up, rounds go on until one
 * side has spent `seconds`, or `maxRounds`; at least one round each.
 */
async function alternatingRounds({ warmupSeconds, seconds, maxRounds = Number.POSITIVE_INFINITY, sides }) {
  const phase = async (durationSeconds) => {
    const acc = Object.fromEntries(Object.keys(sides).map((name) => [name, { latencies: [], spentMs: 0, cpuMs: 0 }]))
    const machineBefore = machineCpu()
    const processBefore = process.cpuUsage()
    let rounds = 0
    while (rounds < maxRounds && (rounds === 0 || Object.values(acc).every((a) => a.spentMs < durationSeconds * 1000))) {
      for (const [name, side] of Object.entries(sides)) {
        const prepared = await side.prepare()
        const cpu0 = process.cpuUsage()
        const t0 = performance.now()
        await side.op(prepared)
        const ms = performance.now() - t0
        const cpu = process.cpuUsage(cpu0)
        acc[name].latencies.push(ms)
        acc[name].spentMs += ms
        acc[name].cpuMs += (cpu.user + cpu.system) / 1000
      }
      rounds++
    }
    const machineAfter = machineCpu()
    const used = process.cpuUsage(processBefore)
    // Shares of the machine over the whole alternating phase (both sides together).
    const shares = {}
    if (machineBefore && machineAfter) {
      const capacityMs = (machineAfter.at - machineBefore.at) * CPU_COUNT
      const processMs = (used.user + used.system) / 1000
      shares.processShare = processMs / capacityMs
      shares.loadGeneratorShare = 0
      shares.otherShare = Math.max(0, machineAfter.busyMs - machineBefore.busyMs - processMs) / capacityMs
    }
    return Object.fromEntries(
      Object.entries(acc).map(([name, a]) => {
        const sorted = [...a.latencies].sort((x, y) => x - y)
        const at = (p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
        return [name, { rounds: sorted.length, seconds: a.spentMs / 1000, latencyMs: { p50: at(50), p99: at(99), max: sorted.at(-1) }, latencies: a.latencies, cpu: { processMsPerOp: a.cpuMs / sorted.length, ...shares } }]
      }),
    )
  }
  if (warmupSeconds > 0) await phase(warmupSeconds)
  return phase(seconds)
}

/** One goal row of the table (harness formatTable shape). */
function goalRow(backend, metric, goal, ours, baseline, extra = {}) {
  const ratio = baseline.rate > 0 ? ours.rate / baseline.rate : null
  return {
    backend,
    metric,
    ours: ours.rate,
    baseline: baseline.rate,
    ratio,
    goal,
    pass: goal === null ? null : ratio !== null && ratio >= goal,
    invalid: (extra.non2xx ?? 0) > 0 || !(ours.rate > 0) || !(baseline.rate > 0) || extra.valid === false,
    oursP50: ours.p50,
    oursP99: ours.p99,
    baseP50: baseline.p50,
    baseP99: baseline.p99,
    non2xx: extra.non2xx ?? 0,
    ...(extra.oursCpu ? { oursCpu: extra.oursCpu, baseCpu: extra.baseCpu } : {}),
  }
}

const failedRequests = (m) => (m.non2xx ?? 0) + (m.errors ?? 0) + (m.timeouts ?? 0)

/** Creates over HTTP into a folder of `size` items, then the raw single-row inserts into another. */
async function measureCreates(ctx, size, label = `${size}`) {
  const { db, userId, token, url, s, log, kind, sampler } = ctx
  log(`[${kind}] folder of ${size}: seeding two folders…`)
  const t0 = performance.now()
  const oursFolder = await seedFolder(db, userId, `ours ${label}`, size)
  const rawFolder = await seedFolder(db, userId, `raw ${label}`, size)
  const seedSeconds = (performance.now() - t0) / 1000
  await postJson(`${url}/drive/v1/files`, token, { kind: 'drive#folder', name: 'probe', parent_id: oursFolder })

  log(`[${kind}] folder of ${size}: HTTP creates (${s.connections} connections)…`)
  sampler?.begin(`creates into ${label}`)
  const ours = await runLoad({
    url,
    connections: s.connections,
    warmupSeconds: s.warmupSeconds,
    seconds: s.seconds,
    kind: 'numbered',
    method: 'POST',
    path: '/drive/v1/files',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'drive#folder', name: 'new {{n}}', parent_id: oursFolder }),
  })
  const oursActivity = sampler?.end() ?? null
  // Every request a distinct name: no create may have needed a "(1)" suffix, and every 2xx made a row.
  const created = (await liveChildren(db, oursFolder)) - size - 1
  const suffixed = Number((await db.selectFrom('drive_files').select((eb) => eb.fn.countAll().as('n')).where('parent_id', '=', oursFolder).where('name', 'like', 'new %(%').executeTakeFirstOrThrow()).n)
  const answered = (ours.warmup?.ok ?? 0) + ours.main.ok
  // autocannon stops counting at the deadline; requests in flight then may still commit.
  const check = { created, answered, suffixed, ok: suffixed === 0 && created >= answered && created <= answered + 2 * s.connections }

  log(`[${kind}] folder of ${size}: raw single-row inserts (${s.connections} loops)…`)
  let next = 0
  const nowMs = Date.now()
  sampler?.begin(`raw inserts into ${label}`)
  const raw = await runLoops({
    concurrency: s.connections,
    warmupSeconds: s.warmupSeconds,
    seconds: s.seconds,
    op: async (_worker, phase) => {
      const result = await db.insertInto('drive_files').values(itemRow({ userId, parentId: rawFolder, name: `new ${phase[0]}${next++}`, isFolder: true, nowMs })).executeTakeFirst()
      if (Number(result.numInsertedOrUpdatedRows) !== 1) throw new Error('raw insert wrote no row')
    },
  })
  const rawActivity = sampler?.end() ?? null
  return { size, label, oursFolder, seedSeconds, ours, raw, check, activity: { ours: oursActivity, raw: rawActivity } }
}

/** :batchCopy of a folder of `bulkFiles` files, one request at a time, vs the same rows inserted raw (rounds alternate). */
async function measureBulk(ctx) {
  const { db, userId, token, url, s, log, kind, sampler } = ctx
  log(`[${kind}] bulk: seeding a folder of ${s.bulkFiles} files…`)
  const source = await seedFolder(db, userId, 'bulk source', s.bulkFiles, { withBlobs: true })
  const sourceFiles = await db.selectFrom('drive_files').selectAll().where('parent_id', '=', source).execute()
  const items = 1 + s.bulkFiles
  let round = 0
  let lastTarget = null

  log(`[${kind}] bulk: :batchCopy of the folder, alternating with raw multi-row inserts of ${s.bulkFiles} rows…`)
  sampler?.begin(`batchCopy of a ${s.bulkFiles}-file folder, alternating with raw inserts`)
  const { ours, raw } = await alternatingRounds({
    warmupSeconds: s.warmupSeconds,
    seconds: s.seconds,
    sides: {
      ours: {
        prepare: () => insertFolder(db, userId, `copy target ${round++}`),
        op: async (target) => {
          await postJson(`${url}/drive/v1/files:batchCopy`, token, { ids: [source], to: { parent_id: target } })
          lastTarget = target
        },
      },
      raw: {
        prepare: () => insertFolder(db, userId, `raw target ${round++}`),
        op: (target) => {
          const nowMs = Date.now()
          const rows = sourceFiles.map((f) => ({ ...f, id: newId(), parent_id: target, created_at: nowMs }))
          return db.transaction().execute((trx) => insertRows(trx, rows))
        },
      },
    },
  })
  const activity = sampler?.end() ?? null
  const copied = await db.selectFrom('drive_files').select('id').where('parent_id', '=', lastTarget).execute()
  const check = { topLevel: copied.length, files: copied.length === 1 ? await liveChildren(db, copied[0].id) : null }
  check.ok = check.topLevel === 1 && check.files === s.bulkFiles
  const rate = (m, perRound) => ({ rate: (m.rounds * perRound) / m.seconds, p50: m.latencyMs.p50, p99: m.latencyMs.p99 })
  return { items, ours: { ...ours, latencies: undefined }, raw: { ...raw, latencies: undefined }, oursRate: rate(ours, items), rawRate: rate(raw, s.bulkFiles), check, activity }
}

/** A tree of `copyFiles` files in folders of TREE_FOLDER_FILES under one root, copied whole with :batchCopy (rounds alternate with raw). */
async function measureTreeCopy(ctx) {
  const { db, userId, token, url, s, log, kind, sampler } = ctx
  const folders = Math.ceil(s.copyFiles / TREE_FOLDER_FILES)
  log(`[${kind}] tree: seeding ${s.copyFiles} files in ${folders} folders…`)
  const root = await insertFolder(db, userId, 'tree source')
  for (let i = 0; i < folders; i++) await seedFolder(db, userId, `part ${i}`, Math.min(TREE_FOLDER_FILES, s.copyFiles - i * TREE_FOLDER_FILES), { withBlobs: true, parentId: root })
  const items = 1 + folders + s.copyFiles
  // The raw side inserts the same rows (new ids, same parent links) in one transaction.
  const treeRows = [await db.selectFrom('drive_files').selectAll().where('id', '=', root).executeTakeFirstOrThrow()]
  const parts = await db.selectFrom('drive_files').selectAll().where('parent_id', '=', root).execute()
  treeRows.push(...parts)
  for (const part of parts) treeRows.push(...(await db.selectFrom('drive_files').selectAll().where('parent_id', '=', part.id).execute()))
  if (treeRows.length !== items) throw new Error(`tree holds ${treeRows.length} rows, expected ${items}`)
  let round = 0
  log(`[${kind}] tree: :batchCopy × ${s.copyRounds}, alternating with raw inserts of the same rows…`)
  sampler?.begin(`batchCopy of a ${s.copyFiles}-file tree, alternating with raw inserts`)
  const { ours, raw } = await alternatingRounds({
    warmupSeconds: 0,
    seconds: Number.POSITIVE_INFINITY,
    maxRounds: s.copyRounds,
    sides: {
      ours: {
        prepare: () => insertFolder(db, userId, `tree target ${round++}`),
        op: (target) => postJson(`${url}/drive/v1/files:batchCopy`, token, { ids: [root], to: { parent_id: target } }),
      },
      raw: {
        prepare: () => insertFolder(db, userId, `raw tree target ${round++}`),
        op: (target) => {
          const nowMs = Date.now()
          const ids = new Map(treeRows.map((r) => [r.id, newId()]))
          const rows = treeRows.map((r) => ({ ...r, id: ids.get(r.id), parent_id: ids.get(r.parent_id) ?? target, created_at: nowMs }))
          return db.transaction().execute((trx) => insertRows(trx, rows))
        },
      },
    },
  })
  const activity = sampler?.end() ?? null
  const median = (m) => [...m.latencies].sort((a, b) => a - b)[Math.floor(m.latencies.length / 2)]
  const rate = (m) => ({ rate: items / (median(m) / 1000), p50: median(m), p99: m.latencyMs.max })
  return { items, oursMs: ours.latencies, rawMs: raw.latencies, oursCpu: ours.cpu, rawCpu: raw.cpu, oursRate: rate(ours), rawRate: rate(raw), activity }
}

/** The name-clash query of items.ts takenNames, as freeName sends it (50 candidates). */
function nameClashQuery(userId, folderId) {
  const candidates = Array.from({ length: NAME_CANDIDATES }, (_, n) => (n === 0 ? 'new x' : `new x(${n})`))
  const placeholders = candidates.map((_, i) => `$${i + 4}`).join(', ')
  return { text: `select "name" from "drive_files" where "user_id" = $1 and "parent_id" = $2 and "trashed" = $3 and "name" in (${placeholders})`, values: [userId, folderId, 0, ...candidates] }
}

async function explainPostgres(s, schema, query) {
  return withPg(s.postgresUrl, async (c) => {
    await c.query(`SET search_path TO ${schema}`)
    const { rows } = await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${query.text}`, query.values)
    return rows.map((r) => r['QUERY PLAN'])
  })
}

async function analyzeSchema(s, schema) {
  return withPg(s.postgresUrl, async (c) => {
    const { rows } = await c.query('select tablename from pg_tables where schemaname = $1', [schema])
    for (const { tablename } of rows) await c.query(`ANALYZE ${schema}.${tablename}`)
    const stats = await c.query(`select relname, reltuples::bigint as reltuples, relpages from pg_class where relnamespace = $1::regnamespace and relname = 'drive_files'`, [schema])
    return { tables: rows.map((r) => r.tablename), driveFiles: stats.rows[0] }
  })
}

async function driveFilesStats(s, schema) {
  return withPg(s.postgresUrl, async (c) => {
    const { rows } = await c.query(
      `select c.reltuples::bigint as reltuples, c.relpages, t.n_live_tup, t.last_analyze, t.last_autoanalyze, t.n_mod_since_analyze
       from pg_class c join pg_stat_user_tables t on t.relid = c.oid where c.relnamespace = $1::regnamespace and c.relname = 'drive_files'`,
      [schema],
    )
    return rows[0]
  })
}

async function benchBackend(kind, s, log) {
  const dir = mkdtempSync(join(tmpdir(), 'cumulus-bench-writes-'))
  const database = await benchDatabase(kind, s)
  const out = { backend: kind, database: database.detail, autovacuum: database.autovacuum ?? null, creates: [], rows: [] }
  let server = null
  let sampler = null
  try {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const config = loadConfig({ CUMULUS_DATA_DIR: join(dir, 'data'), LOG_LEVEL: s.logLevel, PORT: String(port), HOST: '127.0.0.1', CAPTCHA_MODE: 'off', PUBLIC_URL: url, DRIVE_QUOTA_FREE: '1PiB', ...database.env })
    // As `cumulus serve` minus the web app and the periodic housekeeping (which would add its own writes).
    server = await buildServer(config, { web: false, housekeeping: false })
    await server.app.listen({ port, host: '127.0.0.1' })
    const signUp = await postJson(`${url}/v1/auth/signup/anonymously`, '', { client_id: WEB_CLIENT_ID })
    if (kind === 'postgres' && s.diagnose) sampler = await startSampler(s.postgresUrl, database.applicationName)
    const ctx = { db: server.drive.db, userId: signUp.sub, token: signUp.access_token, url, s, log, kind, sampler }

    for (const size of s.only.has('creates') ? s.folderSizes : []) {
      const m = await measureCreates(ctx, size)
      out.creates.push(m)
      const non2xx = failedRequests(m.ours.main)
      out.rows.push(
        goalRow(kind, `create in ${size.toLocaleString('en')}`, GOALS.single, { rate: m.ours.main.rps, p50: m.ours.main.latencyMs.p50, p99: m.ours.main.latencyMs.p99 }, { rate: m.raw.main.rps, p50: m.raw.main.latencyMs.p50, p99: m.raw.main.latencyMs.p99 }, {
          non2xx,
          valid: m.check.ok,
          oursCpu: m.ours.cpu,
          baseCpu: m.raw.cpu,
        }),
      )
    }
    const sizes = [...out.creates].sort((a, b) => a.size - b.size)
    if (sizes.length >= 2) {
      const [small, large] = [sizes[0], sizes.at(-1)]
      const rate = (m) => ({ rate: m.ours.main.rps, p50: m.ours.main.latencyMs.p50, p99: m.ours.main.latencyMs.p99 })
      // "baseline" here is our own rate into the smallest folder: the slope compares us with us.
      out.rows.push(goalRow(kind, `slope ${large.size.toLocaleString('en')} / ${small.size.toLocaleString('en')}`, GOALS.slope, rate(large), rate(small), { non2xx: failedRequests(large.ours.main) + failedRequests(small.ours.main) }))
    }

    if (s.only.has('bulk')) {
      out.bulk = await measureBulk(ctx)
      out.rows.push(goalRow(kind, `batchCopy ${s.bulkFiles.toLocaleString('en')} (items/s)`, GOALS.bulk, out.bulk.oursRate, out.bulk.rawRate, { valid: out.bulk.check.ok, oursCpu: out.bulk.ours.cpu, baseCpu: out.bulk.raw.cpu }))
    }
    if (s.only.has('tree') && s.copyFiles > 0) {
      out.tree = await measureTreeCopy(ctx)
      out.rows.push(goalRow(kind, `batchCopy tree ${s.copyFiles.toLocaleString('en')} (items/s)`, null, out.tree.oursRate, out.tree.rawRate, { oursCpu: out.tree.oursCpu, baseCpu: out.tree.rawCpu }))
    }

    const largest = sizes.at(-1)
    if (s.diagnose && largest) {
      const query = nameClashQuery(ctx.userId, largest.oursFolder)
      if (kind === 'postgres') {
        log(`[${kind}] diagnostics: EXPLAIN before and after ANALYZE, creates after ANALYZE…`)
        const statsBefore = await driveFilesStats(s, database.schema)
        const before = await explainPostgres(s, database.schema, query)
        const analyzed = await analyzeSchema(s, database.schema)
        const after = await explainPostgres(s, database.schema, query)
        const rerun = await measureCreates(ctx, largest.size, `${largest.size} after ANALYZE`)
        out.diagnostics = { statsBefore, explainBefore: before, analyzed, explainAfter: after, afterAnalyze: rerun }
      } else {
        const { rows } = await sql`explain query plan select "name" from "drive_files" where "user_id" = ${ctx.userId} and "parent_id" = ${largest.oursFolder} and "trashed" = ${0} and "name" in (${sql.join(query.values.slice(3))})`.execute(ctx.db)
        out.diagnostics = { queryPlan: rows.map((r) => r.detail) }
      }
    }
    return out
  } finally {
    await sampler?.close().catch(() => {})
    await server?.close().catch((err) => log(`  cleanup: server close: ${err?.message ?? err}`))
    await database.destroy().catch((err) => log(`  cleanup: could not drop the schema: ${err?.message ?? err}`))
    rmSync(dir, { recursive: true, force: true })
  }
}

// --- report -----------------------------------------------------------------------------------

/** EXPLAIN lines repeat the 50 candidate names; the results file keeps them whole. */
const clip = (line) => (line.length > 160 ? `${line.slice(0, 159)}…` : line)

function printActivity(a) {
  if (!a) return
  console.log(`    ${a.label}: ${a.samples} samples; average backends per state | wait | statement:`)
  for (const { key, avgBackends } of a.activity.slice(0, 8)) console.log(`      ${avgBackends.toFixed(2).padStart(5)}  ${key}`)
  if (a.lockWaits.length) console.log(`      ungranted locks (average count): ${a.lockWaits.map((l) => `${l.key} ${l.avgBackends.toFixed(2)}`).join('; ')}`)
  else console.log('      ungranted locks: none seen')
  if (a.errors) console.log(`      sampler error: ${a.errors}`)
}

export async function main() {
  const s = settings()
  const log = (line) => process.stderr.write(`${line}\n`)
  const started = Date.now()
  const environment = await machineEnvironment(CPU_COUNT)
  log(`drive-writes bench: ${s.backends.join(' + ')}, folders of ${s.folderSizes.join(', ')}, ${s.connections} connections, ${s.warmupSeconds}s warm-up + ${s.seconds}s per measurement`)
  const backends = []
  for (const kind of s.backends) backends.push(await benchBackend(kind, s, log))
  const rows = backends.flatMap((b) => b.rows)

  console.log('')
  console.log('Cumulus drive writes benchmark (issue 18)')
  console.log(`  creates: POST /drive/v1/files (drive#folder, distinct names) from autocannon in a child process, ${s.connections} connections, ${s.warmupSeconds}s warm-up + ${s.seconds}s measured`)
  console.log(`  raw: Kysely insertInto('drive_files').values(row), one statement per row, ${s.connections} loops in the server's process (server idle), same database handle`)
  console.log(`  bulk: :batchCopy of a ${s.bulkFiles}-file folder into a new folder, one request at a time (items = files + the folder) vs ${s.bulkFiles} rows raw in ${ROWS_PER_STATEMENT}-row INSERTs in one transaction, rounds alternating`)
  console.log('  folders pre-filled with multi-row inserts; no ANALYZE before measuring (the server never runs it)')
  console.log(`  machine: ${environment.cpus} CPUs (${environment.cpuModel}), Node ${environment.node}; busy before start ${pct(environment.cpuBusyBeforeStart)} (load average ${environment.loadAverageAtStart.join(' ')})`)
  for (const b of backends) console.log(`  ${b.backend}: ${b.database}`)
  console.log('')
  console.log(formatTable(rows))
  console.log('  (slope rows: "ours" = creates/s into the largest folder, "baseline" = into the smallest; tree rows: median of rounds, p99 column = slowest round)')
  console.log('')
  console.log('  CPU per operation (create, copy request or raw insert; bench process = server or raw loops, all threads; machine shares):')
  for (const r of rows.filter((x) => x.oursCpu)) {
    const side = (c) => `${fmtCpu(c.processMsPerOp)} ms/op (bench ${pct(c.processShare)}, loadgen ${pct(c.loadGeneratorShare)}, other ${pct(c.otherShare)})`
    console.log(`    ${r.backend.padEnd(8)} ${r.metric.padEnd(31)} ours: ${side(r.oursCpu)} | raw: ${side(r.baseCpu)}`)
  }
  for (const b of backends) {
    console.log('')
    console.log(`  ${b.backend}:`)
    for (const m of b.creates) {
      const seeded = `seeded 2 x ${m.size} rows in ${m.seedSeconds.toFixed(1)}s`
      console.log(`    folder of ${m.size}: ${seeded}; ${m.check.created} created for ${m.check.answered} 2xx, ${m.check.suffixed} suffixed names -> ${m.check.ok ? 'ok' : 'CHECK FAILED'}`)
      if (m.ours.failures?.length) console.log(`      failures (first ${m.ours.failures.length}): ${JSON.stringify(m.ours.failures)}`)
    }
    if (b.bulk) console.log(`    batchCopy: ${b.bulk.ours.rounds} copies of ${b.bulk.items} items (p50 ${b.bulk.ours.latencyMs.p50.toFixed(1)} ms); raw ${b.bulk.raw.rounds} x ${s.bulkFiles} rows (p50 ${b.bulk.raw.latencyMs.p50.toFixed(1)} ms); copy check ${b.bulk.check.ok ? 'ok' : `FAILED ${JSON.stringify(b.bulk.check)}`}`)
    if (b.tree) console.log(`    tree copy of ${b.tree.items} items: ${b.tree.oursMs.map((ms) => `${(ms / 1000).toFixed(2)}s`).join(', ')}; raw: ${b.tree.rawMs.map((ms) => `${(ms / 1000).toFixed(2)}s`).join(', ')}`)
    const d = b.diagnostics
    if (d?.queryPlan) console.log(`    name-clash query plan (SQLite, folder of ${b.creates.at(-1).size}): ${d.queryPlan.join(' / ')}`)
    if (d?.explainBefore) {
      console.log(`    drive_files statistics before ANALYZE: ${JSON.stringify(d.statsBefore)}`)
      console.log('    EXPLAIN (ANALYZE, BUFFERS) of the name-clash query, largest folder, before ANALYZE:')
      for (const line of d.explainBefore) console.log(`      ${clip(line)}`)
      console.log(`    after ANALYZE of ${d.analyzed.tables.length} tables (drive_files reltuples ${d.analyzed.driveFiles?.reltuples}):`)
      for (const line of d.explainAfter) console.log(`      ${clip(line)}`)
      const r = d.afterAnalyze
      console.log(`    creates into a new folder of ${r.size} seeded after ANALYZE (information): ${r.ours.main.rps.toFixed(0)}/s (p50 ${r.ours.main.latencyMs.p50} / p99 ${r.ours.main.latencyMs.p99} ms, non-2xx ${failedRequests(r.ours.main)}), raw ${r.raw.main.rps.toFixed(0)}/s, ratio ${(r.ours.main.rps / r.raw.main.rps).toFixed(2)}`)
    }
    const activities = [...b.creates.flatMap((m) => [m.activity.ours, m.activity.raw]), b.bulk?.activity, b.tree?.activity, d?.afterAnalyze?.activity.ours].filter(Boolean)
    if (activities.length) {
      console.log('    where the server\'s PostgreSQL backends spent the time (pg_stat_activity every 100 ms):')
      for (const a of activities) printActivity(a)
    }
  }
  const goalRows = rows.filter((r) => r.goal !== null)
  const missed = goalRows.filter((r) => !r.pass && !r.invalid)
  const invalid = rows.filter((r) => r.invalid)
  console.log('')
  console.log(`  ${goalRows.length - missed.length - invalid.filter((r) => r.goal !== null).length}/${goalRows.length} goals met${missed.length ? `; MISSED: ${missed.map((r) => `${r.backend} ${r.metric}`).join(', ')}` : ''}${invalid.length ? `; INVALID (failed requests or checks): ${invalid.map((r) => `${r.backend} ${r.metric}`).join(', ')}` : ''}`)
  const file = writeResults('drive-writes', { benchmark: 'drive-writes', startedAt: new Date(started).toISOString(), elapsedSeconds: (Date.now() - started) / 1000, settings: s, environment, goals: GOALS, rows, backends })
  console.log(`  results: ${file} (run took ${((Date.now() - started) / 1000).toFixed(0)}s)`)
  // A missed goal is a finding, not an error; failed requests or checks are errors.
  return invalid.length ? 1 : 0
}
