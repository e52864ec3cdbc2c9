// `npm run bench -- decompress`: listing archives in the drive (issue 14).
//
//   1. The first listing of a zip of BENCH_ARCHIVE_ENTRIES (100,000) entries, over HTTP
//      (POST /decompress/v1/list: the blob's central directory read by yauzl through 1 MiB
//      blocks, names decoded, the tree built) vs Debian's 7-Zip listing the same archive
//      (`7zz l -slt -ba`, output read to its end). Also shown: yauzl's own file reader, which
//      reads each record with a read of its own. Each timed call gives another (unused)
//      password, so none is served from the kept trees.
//   2. One page (a folder of 1,000 files) of that archive once its tree is kept: p50/p99 of
//      sequential calls vs a bare Fastify route answering the same JSON. Goal: p99 < 50 ms.
//
// The archive is made by Python's zipfile (stored, empty entries in 100 folders); the server is
// the composed one on SQLite, in this process, on 127.0.0.1.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { WEB_CLIENT_ID } from '@cumulus/protocol'
import { buildServer, loadConfig } from '@cumulus/server'
import Fastify from 'fastify'
import yauzl from 'yauzl'
import { freePort, systemBusy, pct, writeResults } from './lib/harness.mjs'

const GOALS = { pageP99Ms: 50 }
const CPU_COUNT = cpus().length

function settings() {
  return {
    entries: Number(process.env.BENCH_ARCHIVE_ENTRIES ?? 100_000),
    coldRounds: Number(process.env.BENCH_ARCHIVE_ROUNDS ?? 5),
    pageRequests: Number(process.env.BENCH_ARCHIVE_PAGE_REQUESTS ?? 300),
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  }
}

function makeZip(dir, entries) {
  const path = join(dir, 'big.zip')
  const folders = 100
  execFileSync('python3', ['-c', `
import zipfile, sys
n = ${entries}; folders = ${folders}
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_STORED) as z:
    for i in range(n):
        z.writestr(f'folder {i % folders:03d}/file {i:06d} 报告.txt', b'')
`, path])
  return path
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]

async function call(base, token, body) {
  const t0 = performance.now()
  const reply = await fetch(`${base}/decompress/v1/list`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) })
  const json = await reply.json()
  const ms = performance.now() - t0
  if (reply.status !== 200 || json.status !== 'OK') throw new Error(`list answered ${reply.status} ${json.status ?? json.error}`)
  return { ms, json }
}

function sevenZipList(path) {
  const t0 = performance.now()
  const out = execFileSync('7zz', ['l', '-slt', '-ba', path], { maxBuffer: 1 << 30 })
  const count = out.toString('utf8').split('\n').filter((line) => line.startsWith('Path = ')).length
  return { ms: performance.now() - t0, count }
}

async function readCentralDirectory(path) {
  const t0 = performance.now()
  const zip = await promisify(yauzl.open)(path, { lazyEntries: true, decodeStrings: false, autoClose: true })
  let count = 0
  await new Promise((resolve, reject) => {
    zip.on('entry', () => {
      count++
      zip.readEntry()
    })
    zip.once('end', resolve)
    zip.once('error', reject)
    zip.readEntry()
  })
  return { ms: performance.now() - t0, count }
}

async function upload(base, token, path) {
  const content = readFileSync(path)
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` }
  const created = await (await fetch(`${base}/drive/v1/files`, { method: 'POST', headers, body: JSON.stringify({ kind: 'drive#file', name: 'big.zip', size: content.length, upload_type: 'UPLOAD_TYPE_RESUMABLE', resumable: { provider: 'PROVIDER_TUS' } }) })).json()
  const patched = await fetch(created.resumable.params.endpoint, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: content })
  if (patched.status !== 204) throw new Error(`upload PATCH answered ${patched.status}`)
  return created.file.id
}

export async function main() {
  const s = settings()
  const log = (line) => process.stdout.write(`${line}\n`)
  const busy = await systemBusy(CPU_COUNT)
  log(`decompress bench: a zip of ${s.entries} entries, ${s.coldRounds} cold listings, ${s.pageRequests} page requests; ${CPU_COUNT} CPUs, busy before start ${pct(busy)}`)
  const dir = mkdtempSync(join(tmpdir(), 'cumulus-bench-decompress-'))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const server = await buildServer(loadConfig({ CUMULUS_DATA_DIR: join(dir, 'data'), LOG_LEVEL: s.logLevel, PORT: String(port), HOST: '127.0.0.1', CAPTCHA_MODE: 'off', PUBLIC_URL: base, DRIVE_QUOTA_FREE: '1PiB' }), { web: false, housekeeping: false })
  const bare = Fastify()
  try {
    await server.app.listen({ port, host: '127.0.0.1' })
    log('making the archive…')
    const zipPath = makeZip(dir, s.entries)
    const token = (await (await fetch(`${base}/v1/auth/signup/anonymously`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: WEB_CLIENT_ID }) })).json()).access_token
    const fileId = await upload(base, token, zipPath)

    log('cold listings…')
    const cold = []
    const raw = []
    const yauzlAlone = []
    for (let round = 0; round < s.coldRounds; round++) {
      const listed = sevenZipList(zipPath)
      if (listed.count !== s.entries) throw new Error(`7zz listed ${listed.count} entries`)
      raw.push(listed.ms)
      if (round === 0) yauzlAlone.push((await readCentralDirectory(zipPath)).ms)
      const { ms, json } = await call(base, token, { file_id: fileId, password: `unused-${round}` })
      if (json.files.length !== 100) throw new Error(`the top level holds ${json.files.length} folders, expected 100`)
      cold.push(ms)
    }
    cold.sort((a, b) => a - b)
    raw.sort((a, b) => a - b)

    log('pages of the kept tree…')
    const page = { file_id: fileId, path: 'folder 007' }
    const { json: pageJson } = await call(base, token, page)
    if (pageJson.files.length !== s.entries / 100) throw new Error(`the folder holds ${pageJson.files.length} files`)
    const ours = []
    for (let i = 0; i < s.pageRequests; i++) ours.push((await call(base, token, page)).ms)
    bare.post('/decompress/v1/list', async () => pageJson)
    await bare.listen({ port: 0, host: '127.0.0.1' })
    const bareBase = `http://127.0.0.1:${bare.server.address().port}`
    const baseline = []
    for (let i = 0; i < s.pageRequests; i++) baseline.push((await call(bareBase, token, page)).ms)
    ours.sort((a, b) => a - b)
    baseline.sort((a, b) => a - b)

    const coldMedian = percentile(cold, 50)
    const rawMedian = percentile(raw, 50)
    const rows = [
      [`first listing of ${s.entries} entries (median ms)`, coldMedian.toFixed(0), rawMedian.toFixed(0), (rawMedian / coldMedian).toFixed(2), 'info', null],
      [`a page of ${s.entries / 100} files (p50 / p99 ms)`, `${percentile(ours, 50).toFixed(2)} / ${percentile(ours, 99).toFixed(2)}`, `${percentile(baseline, 50).toFixed(2)} / ${percentile(baseline, 99).toFixed(2)}`, (percentile(baseline, 99) / percentile(ours, 99)).toFixed(2), `p99 < ${GOALS.pageP99Ms}`, percentile(ours, 99) < GOALS.pageP99Ms],
    ]
    const header = ['measure', 'ours', 'baseline', 'ratio', 'goal', 'result']
    const table = [header, ...rows.map((r) => [r[0], r[1], r[2], r[3], r[4], r[5] === null ? 'info' : r[5] ? 'pass' : 'MISSED'])]
    const widths = header.map((_, i) => Math.max(...table.map((r) => String(r[i]).length)))
    log('')
    for (const r of table) log(r.map((c, i) => String(c).padEnd(widths[i])).join('  '))
    log(`\nbaselines: 7zz l -slt -ba of the same archive (ratio = baseline / ours); a bare Fastify route answering the same page JSON (ratio = baseline p99 / our p99)`)
    log(`yauzl.open alone (a read per record), once: ${yauzlAlone[0].toFixed(0)} ms`)
    const file = writeResults('decompress', { settings: s, cpuBusyBeforeStart: busy, cold, sevenZip: raw, yauzlAlone, ours, baseline, goals: GOALS })
    log(`results: ${file}`)
    return rows.every((r) => r[5] !== false) ? 0 : 1
  } finally {
    await bare.close()
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
