// Search over a big drive (issue 15): `npm run bench -- search`.
//
// For each backend (BENCH_BACKENDS, default sqlite,postgres):
//   1. Seeds one user with BENCH_SEARCH_FILES (1,000,000) files in 1,000 folders, names mixed
//      English, Chinese, Japanese and Korean (a seeded generator below), with the search indexes
//      dropped, then builds them: the index build time for the million, and the bytes the index
//      takes on disk (the search columns of the rows, and the indexes themselves).
//   2. Over HTTP with autocannon (BENCH_CONNECTIONS, default 4 here: latency, not throughput),
//      for each query class (one, two and three characters, pinyin): suggestions
//      (/drive/v1/search/associate, 10) and the first page of results (/drive/v1/search, 20),
//      p50/p99, with a bare Fastify route sending a same-sized reply as the baseline.
// Goals: suggestions p99 < 30 ms, first page p99 < 50 ms, every class, both databases.
//
// Seeding inserts rows directly (with the drive's own nameColumns, so the columns are what the
// API writes); the searches go through the real server. BENCH_SEARCH_FILES, BENCH_SECONDS (5),
// BENCH_WARMUP_SECONDS (1), BENCH_CONNECTIONS (4), BENCH_POSTGRES_URL.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSearchIndexes, dropSearchIndexes, nameColumns } from '@cumulus/drive'
import { buildServer, loadConfig } from '@cumulus/server'
import { WEB_CLIENT_ID } from '@cumulus/protocol'
import Fastify from 'fastify'
import { sql } from 'kysely'
import { pinyin } from 'pinyin-pro'
import { createBenchSchema, freePort, pct, runLoad, systemBusy, writeResults } from './lib/harness.mjs'

const GOALS = { associateP99Ms: 30, searchP99Ms: 50 }
const CPU_COUNT = cpus().length

function num(name, fallback) {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`)
  return value
}

function settings() {
  const backends = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',').map((b) => b.trim()).filter(Boolean)
  for (const b of backends) if (b !== 'sqlite' && b !== 'postgres') throw new Error(`BENCH_BACKENDS: unknown backend ${b}`)
  return {
    backends,
    files: Math.floor(num('BENCH_SEARCH_FILES', 1_000_000)),
    folders: 1000,
    seconds: num('BENCH_SECONDS', 5),
    warmupSeconds: num('BENCH_WARMUP_SECONDS', 1),
    connections: Math.floor(num('BENCH_CONNECTIONS', 4)),
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  }
}

// --- the name generator ----------------------------------------------------------------------

/** A small seeded PRNG (mulberry32): the same drive and queries on every run. */
function prng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const ENGLISH = 'annual report budget meeting notes holiday photo video music project plan draft final review summary invoice receipt contract proposal presentation slides design mockup sketch logo banner poster flyer brochure catalog manual guide tutorial lecture lesson homework exam quiz thesis paper article essay story novel poem letter memo agenda minutes schedule calendar timeline roadmap backlog sprint release changelog readme license backup archive export import dataset sample template resume portfolio certificate passport ticket boarding itinerary wedding birthday party family vacation beach mountain city street sunset sunrise garden kitchen recipe dinner lunch breakfast coffee concert movie episode season trailer podcast interview recording demo prototype benchmark analysis forecast quarterly monthly weekly daily'.split(' ')
const CHINESE = '中国 地图 报告 会议 照片 视频 音乐 文件 项目 计划 北京 上海 广州 深圳 重庆 银行 年报 合同 发票 简历 论文 作业 考试 教程 课程 旅行 家庭 婚礼 生日 美食 电影 电视剧 纪录片 设计 方案 预算 总结 周报 月报 数据 备份 压缩包 截图 壁纸 风景 城市 学校 公司 客户 产品 市场 销售 财务 人事 技术 开发 测试 发布 版本 手册 说明书 图片 相册 录音 歌曲 演唱会 新闻 杂志 小说 漫画 游戏 软件 工具 模板 素材 字体 图标'.split(' ')
const JAPANESE = '写真 旅行 がっこう レポート 会議 資料 動画 音楽 アニメ 映画 日記 ノート 予定 請求書 見積書 契約書 履歴書 説明書 スライド デザイン 東京 大阪 京都 さくら まつり ラーメン カメラ 家族 友達'.split(' ')
const KOREAN = '문서 사진 보고서 여행 회의 영상 음악 계획 예산 요약 계약서 영수증 이력서 과제 시험 강의 가족 결혼식 생일 서울 부산 제주 드라마 영화 노래 디자인 발표 자료 백업 프로젝트'.split(' ')
const EXTENSIONS = ['pdf', 'docx', 'xlsx', 'pptx', 'jpg', 'png', 'mp4', 'mkv', 'mp3', 'txt', 'zip', 'csv', 'md', 'heic', 'mov']
const SEPARATORS = [' ', '_', '-', '']

function nameGenerator(seed) {
  const rand = prng(seed)
  const pick = (list) => list[Math.floor(rand() * list.length)]
  return () => {
    const r = rand()
    const vocabulary = r < 0.4 ? ENGLISH : r < 0.65 ? CHINESE : r < 0.8 ? JAPANESE : r < 0.95 ? KOREAN : null
    const words = []
    const count = 1 + Math.floor(rand() * 3)
    for (let i = 0; i < count; i++) words.push(pick(vocabulary ?? pick([ENGLISH, CHINESE, JAPANESE, KOREAN])))
    const separator = vocabulary === ENGLISH ? pick([' ', '_', '-']) : pick(SEPARATORS)
    let name = words.join(separator)
    if (vocabulary === ENGLISH && rand() < 0.5) name = name.replace(/^./, (c) => c.toUpperCase())
    if (rand() < 0.6) name += `${pick([' ', '_', '-'])}${Math.floor(rand() * 3000)}`
    return `${name}.${pick(EXTENSIONS)}`
  }
}

/** Queries per class, drawn from the vocabulary the drive was made of. */
export function queryClasses(seed) {
  const rand = prng(seed)
  const pick = (list) => list[Math.floor(rand() * list.length)]
  const cjk = [...CHINESE, ...JAPANESE, ...KOREAN]
  const cut = (word, n) => {
    const chars = [...word]
    const start = Math.floor(rand() * Math.max(1, chars.length - n + 1))
    return chars.slice(start, start + n).join('')
  }
  const many = (make) => Array.from({ length: 200 }, make)
  const pinyinOf = (word, pattern) => pinyin(word, { toneType: 'none', type: 'array', pattern, v: true }).join('')
  return {
    'one char': many(() => (rand() < 0.5 ? pick('abcdefghijklmnoprstuvwy'.split('')) : cut(pick(cjk), 1))),
    'two chars': many(() => (rand() < 0.5 ? pick(ENGLISH).slice(0, 2) : cut(pick(cjk.filter((w) => [...w].length >= 2)), 2))),
    'three chars': many(() => (rand() < 0.5 ? cut(pick(ENGLISH.filter((w) => w.length >= 3)), 3) : cut(pick(cjk.filter((w) => [...w].length >= 3)), 3))),
    pinyin: many(() => {
      const word = pick(CHINESE)
      return rand() < 0.5 ? pinyinOf(word, 'pinyin') : pinyinOf(word, 'first')
    }),
  }
}

// --- seeding and the index -------------------------------------------------------------------

export async function seed(db, userId, s, log) {
  const next = nameGenerator(42)
  const now = Date.now()
  const folderIds = []
  const rows = []
  for (let f = 0; f < s.folders; f++) {
    const id = `Vsf${String(f).padStart(5, '0')}${randomBytes(4).toString('hex')}`
    folderIds.push(id)
    rows.push(row(id, userId, '', `${next().replace(/\.[a-z0-9]+$/, '')} ${f}`, true, now))
  }
  await insertRows(db, rows)
  const t0 = performance.now()
  const taken = new Set()
  let columnsMs = 0
  for (let start = 0; start < s.files; start += 5000) {
    const batch = []
    const c0 = performance.now()
    for (let i = start; i < Math.min(s.files, start + 5000); i++) {
      // Names are unique in a folder: a repeat gets the file's number, as "(1)" suffixes would.
      let name = next()
      const key = `${i % folderIds.length}/${name}`
      if (taken.has(key)) name = name.replace(/(\.[a-z0-9]+)$/, ` ${i}$1`)
      else taken.add(key)
      batch.push(row(`Vs${String(i).padStart(8, '0')}${randomBytes(4).toString('hex')}`, userId, folderIds[i % folderIds.length], name, false, now - i * 1000))
    }
    columnsMs += performance.now() - c0
    await insertRows(db, batch)
    if (start % 200_000 === 0 && start > 0) log(`  ${start} files…`)
  }
  return { seconds: (performance.now() - t0) / 1000, columnsSeconds: columnsMs / 1000 }
}

async function insertRows(db, rows) {
  // 25 columns a row: 400 rows stay under both databases' bound-parameter limits.
  for (let i = 0; i < rows.length; i += 400) await db.insertInto('drive_files').values(rows.slice(i, i + 400)).execute()
}

function row(id, userId, parentId, name, isFolder, now) {
  return {
    id, user_id: userId, parent_id: parentId, ...nameColumns(name, isFolder), kind: isFolder ? 'drive#folder' : 'drive#file', kind_rank: isFolder ? 0 : 1,
    size: isFolder ? 0 : 1000 + (now % 99_991), gcid: null, folder_type: 'NORMAL', phase: 'PHASE_TYPE_COMPLETE', starred: 0, trashed: 0, trash_root: 0,
    trashed_at: null, revision: 1, upload_id: null, created_at: now, modified_at: now,
  }
}

/** Bytes on disk: the SQLite files after a checkpoint, or the PostgreSQL relations of the schema. */
async function sqliteBytes(db, dir) {
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db)
  let total = 0
  for (const name of readdirSync(dir)) if (name.includes('.db') || name.includes('.sqlite')) total += statSync(join(dir, name)).size
  return total
}

async function searchBytes(kind, db) {
  if (kind === 'sqlite') {
    const columns = (await sql`select sum(length(cast(search_text as blob)) + length(cast(search_extra as blob)) + length(cast(search_words as blob))) as n from drive_files`.execute(db)).rows[0].n
    return { columns: Number(columns) }
  }
  const columns = (await sql`select sum(pg_column_size(search_text) + pg_column_size(search_extra) + pg_column_size(search_words))::bigint as n from drive_files`.execute(db)).rows[0].n
  const indexes = (await sql`select sum(pg_relation_size(c.oid))::bigint as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relname like 'drive_files_search_%'`.execute(db)).rows[0].n
  return { columns: Number(columns), indexes: Number(indexes) }
}

// --- measuring -------------------------------------------------------------------------------

async function measure(base, token, path, queries, s, extra) {
  const paths = queries.map((q) => `${path}?q=${encodeURIComponent(q)}${extra}`)
  const half = Math.floor(paths.length / 2)
  const result = await runLoad({
    url: base,
    method: 'GET',
    path: paths[0],
    headers: { authorization: `Bearer ${token}` },
    connections: s.connections,
    warmupSeconds: s.warmupSeconds,
    seconds: s.seconds,
    kind: 'paths',
    paths: { warmup: paths.slice(half), main: paths },
  })
  return result.main
}

async function bareBaseline(body, s) {
  const bare = Fastify()
  bare.get('/x', async (_req, reply) => reply.type('application/json').send(body))
  await bare.listen({ port: 0, host: '127.0.0.1' })
  try {
    const result = await runLoad({ url: `http://127.0.0.1:${bare.server.address().port}`, method: 'GET', path: '/x', connections: s.connections, warmupSeconds: s.warmupSeconds, seconds: s.seconds, kind: 'fixed' })
    return result.main
  } finally {
    await bare.close()
  }
}

async function benchBackend(kind, s, log) {
  const dir = mkdtempSync(join(tmpdir(), 'cumulus-bench-search-'))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  let dropSchema = async () => {}
  const env = { CUMULUS_DATA_DIR: join(dir, 'data'), LOG_LEVEL: s.logLevel, PORT: String(port), HOST: '127.0.0.1', CAPTCHA_MODE: 'off', PUBLIC_URL: base }
  if (kind === 'postgres') {
    const { schema, drop } = await createBenchSchema(s.postgresUrl, 'bench_search')
    dropSchema = drop
    const url = new URL(s.postgresUrl)
    url.searchParams.set('schema', schema)
    env.DATABASE_URL = url.href
  }
  const server = await buildServer(loadConfig(env), { web: false, housekeeping: false })
  try {
    await server.app.listen({ port, host: '127.0.0.1' })
    const signUp = await (await fetch(`${base}/v1/auth/signup/anonymously`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: WEB_CLIENT_ID }) })).json()
    const db = server.drive.db
    const dataDir = join(dir, 'data')

    await dropSearchIndexes(db)
    log(`${kind}: seeding ${s.files} files in ${s.folders} folders…`)
    const seeded = await seed(db, signUp.sub, s, log)
    const bytesSeeded = kind === 'sqlite' ? await sqliteBytes(db, dataDir) : null
    log(`${kind}: building the search index…`)
    const b0 = performance.now()
    await createSearchIndexes(db)
    const buildSeconds = (performance.now() - b0) / 1000
    // A drive that grew to a million files has been vacuumed and analyzed along the way; a bulk
    // load has not, and autovacuum's first pass over it would run during the measurements.
    if (kind === 'postgres') await sql`vacuum (analyze) drive_files`.execute(db)
    const bytesBuilt = kind === 'sqlite' ? await sqliteBytes(db, dataDir) : null
    const bytes = await searchBytes(kind, db)
    if (kind === 'sqlite') bytes.indexes = bytesBuilt - bytesSeeded

    const classes = queryClasses(7)
    const rows = []
    for (const [name, queries] of Object.entries(classes)) {
      // A sample reply of each kind, for the same-sized baseline.
      const sample = await (await fetch(`${base}/drive/v1/search/associate?q=${encodeURIComponent(queries[0])}`, { headers: { authorization: `Bearer ${signUp.access_token}` } })).text()
      const samplePage = await (await fetch(`${base}/drive/v1/search?q=${encodeURIComponent(queries[0])}`, { headers: { authorization: `Bearer ${signUp.access_token}` } })).text()
      log(`${kind}: ${name} (e.g. ${JSON.stringify(queries.slice(0, 4))})…`)
      const associate = await measure(base, signUp.access_token, '/drive/v1/search/associate', queries, s, '')
      const page = await measure(base, signUp.access_token, '/drive/v1/search', queries, s, '&limit=20')
      const bareAssociate = await bareBaseline(sample, s)
      const barePage = await bareBaseline(samplePage, s)
      rows.push({ kind, name, what: 'suggestions', goal: GOALS.associateP99Ms, ours: associate, bare: bareAssociate })
      rows.push({ kind, name, what: 'first page', goal: GOALS.searchP99Ms, ours: page, bare: barePage })
    }
    return { kind, seeded, buildSeconds, bytes, rows }
  } finally {
    await server.close()
    await dropSchema()
    rmSync(dir, { recursive: true, force: true })
  }
}

const mb = (n) => `${(n / 1024 / 1024).toFixed(0)} MB`

export async function main() {
  const s = settings()
  const log = (line) => process.stdout.write(`${line}\n`)
  const busy = await systemBusy(CPU_COUNT)
  log(`search bench: ${s.files} files for one user, ${s.backends.join(' + ')}, ${s.connections} connections, ${s.warmupSeconds}s warm-up + ${s.seconds}s per measurement; ${CPU_COUNT} CPUs, busy before start ${pct(busy)}`)
  const results = []
  for (const kind of s.backends) results.push(await benchBackend(kind, s, log))

  const header = ['backend', 'query class', 'call', 'req/s', 'p50 ms', 'p99 ms', 'bare p99 ms', 'non-2xx', 'goal', 'result']
  const table = [header]
  let allPass = true
  for (const r of results) {
    for (const m of r.rows) {
      const pass = m.ours.latencyMs.p99 < m.goal && m.ours.non2xx === 0 && m.ours.errors === 0
      allPass &&= pass
      table.push([r.kind, m.name, m.what, m.ours.rps.toFixed(0), String(m.ours.latencyMs.p50), String(m.ours.latencyMs.p99), String(m.bare.latencyMs.p99), String(m.ours.non2xx + m.ours.errors), `p99 < ${m.goal}`, pass ? 'pass' : 'MISSED'])
    }
  }
  const widths = header.map((_, i) => Math.max(...table.map((row) => String(row[i]).length)))
  log('')
  for (const row of table) log(row.map((c, i) => String(c).padEnd(widths[i])).join('  '))
  log('')
  for (const r of results) {
    log(`${r.kind}: seeded ${s.files} files in ${r.seeded.seconds.toFixed(0)} s (names folded and pinyin in ${r.seeded.columnsSeconds.toFixed(0)} s of it); index built in ${r.buildSeconds.toFixed(1)} s; search columns ${mb(r.bytes.columns)}, indexes ${mb(r.bytes.indexes)} (${((r.bytes.columns + r.bytes.indexes) / s.files).toFixed(0)} bytes a file)`)
  }
  log(`load average at the end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`)
  const file = writeResults('search', { settings: s, cpuBusyBeforeStart: busy, goals: GOALS, results })
  log(`results: ${file}`)
  return allPass ? 0 : 1
}


