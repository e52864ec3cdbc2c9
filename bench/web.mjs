// `npm run bench -- web`: what the web app costs, on the server and in the browser.
//
//   1. Server-rendered pages per second, GET / and GET /account/login on the real composed
//      server (buildServer from packages/server/dist: identity + web app, embedded SQLite),
//      against a BASELINE measured in the same run: the smallest React Router 7 framework-mode
//      app (bench/web-baseline: one route rendering a single <div>, the template's
//      entry.server streaming with renderToPipeableStream) served by a bare Fastify through the
//      web app's own plugin (webPlugin from @cumulus/web with `buildDirectory` pointing at the
//      baseline's build), so both go through the same Fastify-to-fetch Request conversion and
//      response streaming. Goal: ours/baseline >= 0.6 for each page.
//   2. The JavaScript a first visit downloads: Debian's Chromium opens each page in a fresh
//      context; every JS response (module scripts and module preloads, including lazily loaded
//      chunks until the page has hydrated and no script or stylesheet has arrived for 1 s) is
//      gzipped (zlib level 9) and summed. Goal: the login
//      page < 150 KiB.
//   3. The JavaScript and CSS a first visit transfers, as the server sends them (Chromium asks
//      for br; the web plugin serves the build's precompressed variants): the encoded body
//      sizes Chromium reports, summed, for /, /account/login and /drive. /drive sends signed-out
//      visitors to the login page, so it is measured signed in: a user is created with
//      identity's createUserByOperator, signs in through the login page in one context, and a
//      second, fresh context (empty HTTP cache) with that context's localStorage opens /drive.
//      Goal: /drive < 200 KiB.
//
// Everything listens on and talks to 127.0.0.1; the HTTP load comes from a child process
// (bench/load.mjs, autocannon) for a bounded time. Run after a build (`npm run build`): it
// measures packages/server/dist and packages/web/build as they are.
//
// Environment: BENCH_SECONDS (5), BENCH_WARMUP_SECONDS (1), BENCH_CONNECTIONS (16),
// BENCH_LOG_LEVEL (warn), CHROMIUM_PATH (/usr/bin/chromium).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

import { createUserByOperator } from '@cumulus/identity'
import { buildServer, loadConfig } from '@cumulus/server'
import { DEFAULT_WEB_PUBLIC_CONFIG, WEB_BUILD_DIRECTORY, webPlugin } from '@cumulus/web'
import Fastify from 'fastify'
import { chromium } from 'playwright-core'
import { pino } from 'pino'
import { webBuildIsStale } from '../scripts/build-web.mjs'
import { BENCH_DIR, commonSettings, freePort, formatTable, runLoad as runLoadRaw, withCpuAccounting, writeResults, fmtCpu, pct, systemBusy } from './lib/harness.mjs'

const CPU_COUNT = availableParallelism()
const runLoad = (spec) => withCpuAccounting(() => runLoadRaw(spec), CPU_COUNT)

const GOALS = { rpsRatio: 0.6, loginJsKiB: 150, driveTransferKiB: 200 }
const PAGES = ['/', '/account/login']
/** The pages whose first-visit JS and CSS transfer is reported; /drive signed in. */
const TRANSFER_PAGES = ['/', '/account/login', '/drive']
const DRIVE_USER = { email: 'bench-drive@example.com', password: 'correct horse battery 9', name: 'Bench' }
const ROOT = join(BENCH_DIR, '..')
const BASELINE_DIR = join(BENCH_DIR, 'web-baseline')
const BASELINE_BUILD = join(BASELINE_DIR, 'build/')
const BASELINE_PATH = '/'
const BASELINE_MARKER = '<div>baseline</div>'
/** A browser's first visit: HTML wanted, English, no cookie yet. */
const REQUEST_HEADERS = { accept: 'text/html,application/xhtml+xml', 'accept-language': 'en-US,en;q=0.9' }
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
const PAGE_TIMEOUT_MS = 30_000
/** A first visit is over when no script or stylesheet response has arrived for this long after hydration. */
const QUIET_MS = 1_000

function settings() {
  return {
    ...commonSettings(),
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
    chromiumPath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  }
}

/** The newest modification time under a folder (files only), skipping its build output. */
function newestSource(dir) {
  let latest = 0
  for (const name of readdirSync(dir)) {
    if (name === 'build' || name === '.react-router' || name === 'node_modules') continue
    const path = join(dir, name)
    const stat = statSync(path)
    latest = Math.max(latest, stat.isDirectory() ? newestSource(path) : stat.mtimeMs)
  }
  return latest
}

/** Builds bench/web-baseline with `react-router build` when its build is missing or older than its sources. */
function buildBaseline(log) {
  const entry = join(BASELINE_BUILD, 'server/index.js')
  if (existsSync(entry) && statSync(entry).mtimeMs >= newestSource(BASELINE_DIR)) return 'up to date'
  const cli = join(ROOT, 'node_modules/@react-router/dev/bin.js')
  if (!existsSync(cli)) throw new Error('@react-router/dev is not installed; run npm ci first')
  log('web: building the baseline app (bench/web-baseline) ...')
  const result = spawnSync(process.execPath, [cli, 'build'], { cwd: BASELINE_DIR, encoding: 'utf8', timeout: 120_000 })
  if (result.status !== 0) throw new Error(`baseline build failed:\n${result.stdout}\n${result.stderr}`)
  return 'built now'
}


async function expectPage(url, marker, what) {
  const response = await fetch(url, { headers: REQUEST_HEADERS, redirect: 'manual' })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${what}: expected 200, got ${response.status} (${response.headers.get('location') ?? text.slice(0, 200)})`)
  if (!text.includes(marker)) throw new Error(`${what}: the page does not contain ${marker}: ${text.slice(0, 300)}`)
  return Buffer.byteLength(text)
}

function row(metric, ours, base) {
  const ratio = base.main.rps > 0 ? ours.main.rps / base.main.rps : null
  const non2xx = (ours.main.non2xx ?? 0) + (ours.main.errors ?? 0) + (ours.main.timeouts ?? 0) + (base.main.non2xx ?? 0) + (base.main.errors ?? 0) + (base.main.timeouts ?? 0)
  const total = (ours.main.total ?? ours.main.ok) + (base.main.total ?? base.main.ok)
  return {
    backend: 'sqlite',
    metric,
    ours: ours.main.rps,
    baseline: base.main.rps,
    ratio,
    goal: GOALS.rpsRatio,
    pass: ratio !== null && ratio >= GOALS.rpsRatio,
    // More than 1% failed requests (or none succeeded) makes the figure meaningless.
    invalid: ours.main.ok === 0 || base.main.ok === 0 || non2xx > total * 0.01,
    oursP50: ours.main.latencyMs.p50,
    oursP99: ours.main.latencyMs.p99,
    baseP50: base.main.latencyMs.p50,
    baseP99: base.main.latencyMs.p99,
    non2xx,
    oursCpu: ours.cpu,
    baseCpu: base.cpu,
  }
}

const sum = (items, field) => items.reduce((total, item) => total + item[field], 0)

/**
 * Opens `url` in a fresh browser context (empty HTTP cache; `storageState` may carry a signed-in
 * session) and returns every JavaScript and CSS response of the first visit (until the page has
 * hydrated and no such response has arrived for QUIET_MS): each with its decoded size, its
 * gzip -9 size (scripts: the login goal's measure) and the encoded size Chromium received
 * (`transferBytes`, body only).
 */
async function firstVisit(browser, url, { storageState } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', ...(storageState ? { storageState } : {}) })
  try {
    const page = await context.newPage()
    const bodies = []
    const onResponse = (response) => {
      const pathname = new URL(response.url()).pathname
      const type = response.request().resourceType()
      const kind = type === 'script' || /\.m?js$/.test(pathname) ? 'script' : type === 'stylesheet' || pathname.endsWith('.css') ? 'stylesheet' : null
      if (!kind) return
      const measured = Promise.all([response.body(), response.request().sizes()]).then(([body, sizes]) => ({
        url: pathname,
        kind,
        status: response.status(),
        encoding: response.headers()['content-encoding'] ?? 'identity',
        bytes: body.length,
        gzipBytes: gzipSync(body, { level: 9 }).length,
        transferBytes: sizes.responseBodySize,
      }))
      // Awaited below on success; when the visit fails first, closing the context rejects it.
      measured.catch(() => {})
      bodies.push(measured)
    }
    page.on('response', onResponse)
    const document = await page.goto(url, { waitUntil: 'networkidle', timeout: PAGE_TIMEOUT_MS })
    // On a busy machine the network can sit idle for 500 ms before hydration imports the locale
    // and lazily loaded chunks: wait for React's props on <body>, then for a quiet network again.
    await page.waitForFunction(() => Object.keys(document.body).some((key) => key.startsWith('__reactProps$')), null, { timeout: PAGE_TIMEOUT_MS })
    for (let seen = -1; seen !== bodies.length; ) {
      seen = bodies.length
      await page.waitForTimeout(QUIET_MS)
    }
    // What arrives later (a page that keeps polling) is not part of the first visit.
    page.off('response', onResponse)
    if (document?.status() !== 200) throw new Error(`${url}: the browser got ${document?.status()}`)
    const landed = new URL(page.url()).pathname
    if (landed !== new URL(url).pathname) throw new Error(`${url}: the browser ended on ${landed}`)
    const html = await document.body()
    const htmlSizes = await document.request().sizes()
    const resources = [...new Map((await Promise.all(bodies)).map((r) => [r.url, r])).values()].sort((a, b) => b.transferBytes - a.transferBytes)
    const scripts = resources.filter((r) => r.kind === 'script')
    return {
      url: new URL(url).pathname,
      scripts,
      stylesheets: resources.filter((r) => r.kind === 'stylesheet'),
      files: scripts.length,
      bytes: sum(scripts, 'bytes'),
      gzipBytes: sum(scripts, 'gzipBytes'),
      htmlGzipBytes: gzipSync(html, { level: 9 }).length,
      htmlTransferBytes: htmlSizes.responseBodySize,
      assets: { files: resources.length, bytes: sum(resources, 'bytes'), transferBytes: sum(resources, 'transferBytes'), encodings: [...new Set(resources.map((r) => r.encoding))] },
    }
  } finally {
    await context.close()
  }
}

/** Signs `user` in through the login page (en-US labels) and returns the browser storage it leaves. */
async function signedInStorage(browser, url, user) {
  const context = await browser.newContext({ locale: 'en-US' })
  try {
    const page = await context.newPage()
    await page.goto(`${url}/account/login`, { waitUntil: 'networkidle', timeout: PAGE_TIMEOUT_MS })
    await page.getByRole('tablist', { name: 'Sign in or create an account' }).getByRole('tab', { name: 'Sign in', exact: true }).click()
    await page.getByRole('tablist', { name: 'How to sign in' }).getByRole('tab', { name: 'With password', exact: true }).click()
    await page.getByLabel('E-mail, phone or username', { exact: true }).fill(user.email)
    await page.getByLabel('Password', { exact: true }).fill(user.password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.waitForURL((u) => u.pathname === '/account/home', { timeout: PAGE_TIMEOUT_MS })
    return await context.storageState()
  } finally {
    await context.close()
  }
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`

export async function main() {
  const s = settings()
  const log = (line) => process.stderr.write(`${line}\n`)
  const started = Date.now()
  const closers = []
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close().catch((err) => log(`  cleanup error: ${err?.message ?? err}`))
  }
  try {
    if (!existsSync(join(WEB_BUILD_DIRECTORY, 'server/index.js'))) {
      log('web: packages/web/build is missing; run `npm run build` first')
      return 1
    }
    const webBuildStale = webBuildIsStale()
    const baselineBuild = buildBaseline(log)
    const environment = {
      node: process.version,
      cpus: CPU_COUNT,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      loggerLevel: `${s.logLevel} (pino, to stderr; Fastify request logs are info-level, so not written)`,
      loadGenerator: 'autocannon 8.0.0 in a child process (bench/load.mjs), pipelining 1, keep-alive',
      loadAverageAtStart: loadavg().map((x) => Number(x.toFixed(2))),
      cpuBusyBeforeStart: await systemBusy(CPU_COUNT),
      webBuildStale,
      baselineBuild,
      // react-dom/server picks its build from NODE_ENV when first loaded; `cumulus serve` and
      // bench/run.mjs default it to production.
      reactBuild: process.env.NODE_ENV === 'production' ? 'production build (NODE_ENV=production)' : `development build (NODE_ENV ${process.env.NODE_ENV === undefined ? 'unset' : `=${process.env.NODE_ENV}`})`,
    }
    const logger = pino({ level: s.logLevel }, pino.destination(2))

    // The real composed server: zero-config (SQLite in a temp data dir), no housekeeping.
    const dataDir = mkdtempSync(join(tmpdir(), 'cumulus-bench-web-'))
    closers.push(async () => rmSync(dataDir, { recursive: true, force: true }))
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const config = loadConfig({ PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, CUMULUS_DATA_DIR: dataDir, LOG_LEVEL: s.logLevel })
    const server = await buildServer(config, { logger, housekeeping: false })
    closers.push(() => server.close())
    await server.app.listen({ host: '127.0.0.1', port })

    // The same server rendering every request afresh (no render cache), for comparison.
    const uncachedPort = await freePort()
    const uncachedUrl = `http://127.0.0.1:${uncachedPort}`
    const uncachedConfig = loadConfig({ PORT: String(uncachedPort), HOST: '127.0.0.1', PUBLIC_URL: uncachedUrl, CUMULUS_DATA_DIR: dataDir, LOG_LEVEL: s.logLevel })
    const uncached = await buildServer(uncachedConfig, { logger, housekeeping: false, webRenderCache: false })
    closers.push(() => uncached.close())
    await uncached.app.listen({ host: '127.0.0.1', port: uncachedPort })

    // The baseline: a bare Fastify with the web plugin serving the one-<div> app.
    const bare = Fastify({ loggerInstance: logger })
    closers.push(() => bare.close())
    await bare.register(webPlugin, { publicConfig: DEFAULT_WEB_PUBLIC_CONFIG, buildDirectory: BASELINE_BUILD })
    await bare.listen({ host: '127.0.0.1', port: 0 })
    const bareUrl = `http://127.0.0.1:${bare.server.address().port}`

    const htmlBytes = {}
    for (const path of PAGES) htmlBytes[path] = await expectPage(`${url}${path}`, '<html lang="en-US"', `sanity ${path}`)
    htmlBytes.baseline = await expectPage(`${bareUrl}${BASELINE_PATH}`, BASELINE_MARKER, 'sanity baseline')

    log(`web bench: ${s.connections} connections, ${s.warmupSeconds}s warm-up + ${s.seconds}s per measurement`)
    const load = { connections: s.connections, warmupSeconds: s.warmupSeconds, seconds: s.seconds, kind: 'fixed', method: 'GET', headers: REQUEST_HEADERS }
    log(`web: baseline GET ${BASELINE_PATH} ...`)
    const baseline = await runLoad({ ...load, url: bareUrl, path: BASELINE_PATH })
    const measurements = {}
    for (const path of PAGES) {
      log(`web: GET ${path} ...`)
      measurements[path] = await runLoad({ ...load, url, path })
    }
    const uncachedMeasurements = {}
    for (const path of PAGES) {
      log(`web: GET ${path} without the render cache ...`)
      uncachedMeasurements[path] = await runLoad({ ...load, url: uncachedUrl, path })
    }
    // The goals are judged on the server as it runs (with its render cache); the rows without
    // the cache show what rendering every request costs, for information.
    const rows = PAGES.map((path) => row(`SSR GET ${path}`, measurements[path], baseline))
    const infoRows = PAGES.map((path) => row(`uncached GET ${path}`, uncachedMeasurements[path], baseline))

    // First-visit JavaScript, in a real browser.
    let js = null
    let jsError = null
    if (!existsSync(s.chromiumPath)) {
      jsError = `Chromium not found at ${s.chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`
    } else {
      log('web: first-visit JavaScript in Chromium ...')
      const browser = await chromium.launch({ executablePath: s.chromiumPath, args: CHROMIUM_ARGS, headless: true, timeout: PAGE_TIMEOUT_MS })
      closers.push(() => browser.close())
      js = { pages: [], transfer: [] }
      for (const path of PAGES) js.pages.push(await firstVisit(browser, `${url}${path}`))
      js.baseline = await firstVisit(browser, `${bareUrl}${BASELINE_PATH}`)
      log('web: first-visit transfer of /drive, signed in ...')
      try {
        await createUserByOperator(server.identity, DRIVE_USER)
        const storageState = await signedInStorage(browser, url, DRIVE_USER)
        js.transfer = [...js.pages.filter((p) => TRANSFER_PAGES.includes(p.url)), await firstVisit(browser, `${url}/drive`, { storageState })]
      } catch (err) {
        js.transfer = js.pages.filter((p) => TRANSFER_PAGES.includes(p.url))
        js.driveError = String(err?.message ?? err).split('\n')[0]
      }
    }

    console.log('')
    console.log('Cumulus web benchmark')
    console.log(`  load: ${environment.loadGenerator}; ${s.connections} connections; ${s.warmupSeconds}s warm-up + ${s.seconds}s measured, per measurement`)
    console.log('  ours: the composed server (packages/server/dist: identity + web app, SQLite, its 60 s render cache on), first visit (no cookie), Accept-Language en-US')
    console.log(`  baseline: bench/web-baseline (React Router 7 framework mode, one route rendering <div>, build ${baselineBuild}) on a bare Fastify`)
    console.log('            through the same webPlugin (same fetch Request conversion and response streaming), measured once at GET /')
    console.log(`  HTML per response: / ${htmlBytes['/']} B, /account/login ${htmlBytes['/account/login']} B, baseline ${htmlBytes.baseline} B`)
    console.log(`  logger: ${environment.loggerLevel}`)
    console.log(`  React on the server: ${environment.reactBuild}`)
    console.log(`  machine: ${environment.cpus} CPUs (${environment.cpuModel}), Node ${environment.node}; load generator and server share these cores`)
    const busy = environment.cpuBusyBeforeStart !== null && environment.cpuBusyBeforeStart > 0.15
    const busyText = environment.cpuBusyBeforeStart === null ? 'unknown' : `${(environment.cpuBusyBeforeStart * 100).toFixed(0)}%`
    console.log(`  machine CPU busy in the second before start: ${busyText} (load average ${environment.loadAverageAtStart.join(' ')})${busy ? '  <-- WARNING: other work was running, figures are unreliable' : ''}`)
    if (webBuildStale) console.log('  WARNING: packages/web/build is older than its sources; `npm run build` measures the current code')
    console.log('')
    console.log(formatTable([...rows, ...infoRows]))
    console.log('  ("uncached" rows: the same server with its render cache off, every request rendered; not judged)')
    console.log('  (HTTP latencies from autocannon, 1 ms resolution)')
    console.log('')
    console.log('  CPU accounting per measurement: bench-process CPU per request (server, all threads);')
    console.log('  machine share used by the load generator, by other processes and hypervisor steal:')
    for (const r of [...rows, ...infoRows]) {
      const side = (c) => `${fmtCpu(c.processMsPerOp)} ms/req (bench ${pct(c.processShare)}, loadgen ${pct(c.loadGeneratorShare)}, other ${pct(c.otherShare)}, steal ${pct(c.stealShare)})`
      console.log(`    ${r.metric.padEnd(22)} ours: ${side(r.oursCpu)} | baseline: ${side(r.baseCpu)}`)
    }
    const noisy = rows.filter((r) => Math.max(r.oursCpu.otherShare ?? 0, r.baseCpu.otherShare ?? 0) > 0.1)
    if (noisy.length) console.log(`  WARNING: other processes used >10% of the machine during: ${noisy.map((r) => r.metric).join(', ')} -- those figures are unreliable`)
    for (const [name, m] of [...Object.entries(measurements), ['baseline', baseline]]) {
      if (m.failures?.length) console.log(`  ${name} failures (first ${m.failures.length}): ${JSON.stringify(m.failures)}`)
    }

    console.log('')
    let jsPass = null
    let drivePass = null
    if (js) {
      console.log('  First-visit JavaScript (every JS response until hydrated and quiet; each body gzip -9, summed):')
      const line = (label, p, goal) => `    ${label.padEnd(16)} ${String(p.files).padStart(3)} files  ${kib(p.bytes).padStart(11)} raw  ${kib(p.gzipBytes).padStart(10)} gzipped (${p.gzipBytes} B)${goal}`
      for (const p of js.pages) {
        const goal = p.url === '/account/login' ? `  goal < ${GOALS.loginJsKiB} KiB: ${p.gzipBytes < GOALS.loginJsKiB * 1024 ? 'pass' : 'MISSED'}` : ''
        if (p.url === '/account/login') jsPass = p.gzipBytes < GOALS.loginJsKiB * 1024
        console.log(line(p.url, p, goal))
      }
      console.log(line('baseline /', js.baseline, ''))
      for (const p of js.pages) console.log(`    largest on ${p.url}: ${p.scripts.slice(0, 4).map((x) => `${x.url.replace('/assets/', '')} ${kib(x.gzipBytes)}`).join(', ')}`)
      console.log('')
      console.log('  First-visit JavaScript and CSS as transferred (encoded bodies Chromium received; raw = what an uncompressed server sends):')
      for (const p of js.transfer) {
        const isDrive = p.url === '/drive'
        if (isDrive) drivePass = p.assets.transferBytes < GOALS.driveTransferKiB * 1024
        const goal = isDrive ? `  goal < ${GOALS.driveTransferKiB} KiB: ${drivePass ? 'pass' : 'MISSED'}` : ''
        console.log(`    ${(isDrive ? '/drive (signed in)' : p.url).padEnd(19)} ${String(p.assets.files).padStart(3)} files  ${kib(p.assets.bytes).padStart(11)} raw  ${kib(p.assets.transferBytes).padStart(10)} sent (${p.assets.transferBytes} B, ${p.assets.encodings.join('/')}); HTML ${kib(p.htmlTransferBytes)} sent${goal}`)
      }
      if (js.driveError) console.log(`    /drive: NOT MEASURED: ${js.driveError}`)
      for (const p of js.transfer.filter((x) => x.url === '/drive')) console.log(`    largest on /drive: ${[...p.scripts, ...p.stylesheets].sort((a, b) => b.transferBytes - a.transferBytes).slice(0, 5).map((x) => `${x.url.replace('/assets/', '')} ${kib(x.transferBytes)}`).join(', ')}`)
    } else {
      console.log(`  First-visit JavaScript: NOT MEASURED: ${jsError}`)
    }

    const missed = rows.filter((r) => !r.pass && !r.invalid)
    const invalid = rows.filter((r) => r.invalid)
    const goalsMet = rows.length - missed.length - invalid.length + (jsPass ? 1 : 0) + (drivePass ? 1 : 0)
    const missedNames = [...missed.map((r) => r.metric), ...(jsPass === false ? ['login page JS'] : []), ...(drivePass === false ? ['/drive transfer'] : [])]
    console.log('')
    console.log(`  ${goalsMet}/${rows.length + 2} goals met${missedNames.length ? `; MISSED: ${missedNames.join(', ')}` : ''}${invalid.length ? `; INVALID (failed requests): ${invalid.map((r) => r.metric).join(', ')}` : ''}${js ? '' : '; JS size not measured'}`)
    const file = writeResults('web', {
      benchmark: 'web',
      startedAt: new Date(started).toISOString(),
      elapsedSeconds: (Date.now() - started) / 1000,
      settings: s,
      environment,
      goals: GOALS,
      rows,
      infoRows,
      measurements: { ...measurements, baseline, uncached: uncachedMeasurements },
      htmlBytes,
      js,
    })
    console.log(`  results: ${file} (run took ${((Date.now() - started) / 1000).toFixed(0)}s)`)
    // A missed goal is a finding, not an error; failed requests or an unmeasured part are errors.
    return invalid.length || !js || drivePass === null ? 1 : 0
  } finally {
    await closeAll()
  }
}
