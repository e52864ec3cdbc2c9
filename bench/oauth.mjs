// `npm run bench -- oauth`: Cumulus as an authorization server, on SQLite and on PostgreSQL.
//
//   1. authorization_code grant (code + PKCE S256, one fresh code per request)
//        vs startSession called in-process: the floor of issuing tokens (session and refresh
//        token rows, one signed JWT)
//   2. GET /v1/auth/userinfo   vs a bare Fastify route returning the same JSON
//
// Codes are written straight into identity_auth_codes before the run (as POST /v1/user/authorize
// would), more than the run can spend. The HTTP load comes from bench/load.mjs in a child process.
//
// Environment: BENCH_SECONDS (5), BENCH_WARMUP_SECONDS (1), BENCH_CONNECTIONS (16),
// BENCH_BACKENDS (sqlite,postgres), BENCH_OAUTH_CODES (25000 per phase), BENCH_POSTGRES_URL, BENCH_REDIS_URL.
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'

import {
  Argon2Hasher,
  IDENTITY_DEFAULTS,
  MemoryCounterStore,
  RedisCounterStore,
  buildIdentityApp,
  createIdentityDeps,
  createMailer,
  createSmsSender,
  createTokenKeys,
  createUserByOperator,
  generateSigningJwk,
  migrateIdentity,
  openDatabase,
  startSession,
  systemClock,
} from '@cumulus/identity'
import Fastify from 'fastify'
import { pino } from 'pino'
import { commonSettings, createBenchSchema, fmtCpu, formatTable, machineEnvironment, pct, runLoad as runLoadRaw, runLoops as runLoopsRaw, withCpuAccounting, writeResults } from './lib/harness.mjs'

const CPU_COUNT = availableParallelism()
const runLoad = (spec) => withCpuAccounting(() => runLoadRaw(spec), CPU_COUNT)
const runLoops = (options) => withCpuAccounting(() => runLoopsRaw(options), CPU_COUNT)

const GOALS = { code: 0.5, userinfo: 0.33 }
const PUBLIC_URL = 'http://127.0.0.1:3000'
const REDIRECT = 'http://127.0.0.1:9/callback'
const APP = { clientId: 'bench-app', name: 'Bench app', type: 'public', redirectUris: [REDIRECT], grantTypes: ['authorization_code', 'refresh_token'] }
const hashSecret = (secret) => createHash('sha256').update(secret).digest('base64url')

function settings() {
  const common = commonSettings()
  const backends = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',').map((b) => b.trim()).filter(Boolean)
  for (const b of backends) if (b !== 'sqlite' && b !== 'postgres') throw new Error(`BENCH_BACKENDS: unknown backend ${b}`)
  return {
    ...common,
    backends,
    codes: Number(process.env.BENCH_OAUTH_CODES ?? 25_000),
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  }
}

async function openBenchDatabase(kind, s) {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'cumulus-bench-'))
    const opened = openDatabase({ sqlitePath: join(dir, 'cumulus.db') })
    await migrateIdentity(opened.db)
    return { opened, detail: 'SQLite file in a temp dir (WAL)', destroy: async () => { await opened.close(); rmSync(dir, { recursive: true, force: true }) } }
  }
  const { schema, drop } = await createBenchSchema(s.postgresUrl, 'bench')
  const opened = openDatabase({ databaseUrl: s.postgresUrl, sqlitePath: '', postgresSchema: schema })
  await migrateIdentity(opened.db)
  return { opened, detail: `PostgreSQL schema ${schema} (pool 10)`, destroy: async () => { await opened.close().catch(() => {}); await drop() } }
}

async function expectOk(response, what) {
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${what}: expected 200, got ${response.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text)
}

function row(backend, metric, goal, ours, base) {
  const ratio = base.main.rps > 0 ? ours.main.rps / base.main.rps : null
  const non2xx = (ours.main.non2xx ?? 0) + (ours.main.errors ?? 0) + (base.main.non2xx ?? 0) + (base.main.errors ?? 0)
  const total = (ours.main.total ?? ours.main.ok) + (base.main.total ?? base.main.ok)
  return {
    backend, metric, ours: ours.main.rps, baseline: base.main.rps, ratio, goal,
    pass: ratio !== null && ratio >= goal,
    invalid: ours.main.ok === 0 || base.main.ok === 0 || non2xx > total * 0.01,
    oursP50: ours.main.latencyMs.p50, oursP99: ours.main.latencyMs.p99, baseP50: base.main.latencyMs.p50, baseP99: base.main.latencyMs.p99,
    non2xx, oursCpu: ours.cpu, baseCpu: base.cpu,
  }
}

async function benchBackend(kind, s, log) {
  const closers = []
  try {
    const database = await openBenchDatabase(kind, s)
    closers.push(() => database.destroy())
    const { db } = database.opened
    const counters = kind === 'postgres' ? new RedisCounterStore(s.redisUrl, `cumulus-bench:${randomBytes(6).toString('hex')}:`) : new MemoryCounterStore(systemClock)
    closers.push(() => counters.close())
    const outbox = mkdtempSync(join(tmpdir(), 'cumulus-bench-outbox-'))
    closers.push(async () => rmSync(outbox, { recursive: true, force: true }))
    const mailer = createMailer({ transport: { kind: 'file', directory: join(outbox, 'mail') }, from: 'Cumulus <no-reply@bench.invalid>' })
    closers.push(() => mailer.close())
    const logger = pino({ level: 'warn' }, pino.destination(2))
    const config = { ...structuredClone(IDENTITY_DEFAULTS), publicUrl: PUBLIC_URL, corsOrigins: [PUBLIC_URL], clients: [APP] }
    const deps = createIdentityDeps({
      config, db, clock: systemClock, hasher: new Argon2Hasher({ memoryCostKiB: 1024, timeCost: 1, parallelism: 1 }), counters, mailer,
      sms: createSmsSender({ kind: 'file', directory: join(outbox, 'sms') }), keys: await createTokenKeys(await generateSigningJwk(), PUBLIC_URL), hmacKey: randomBytes(32), logger,
    })
    const app = await buildIdentityApp(deps)
    closers.push(() => app.close())
    await app.listen({ host: '127.0.0.1', port: 0 })
    const url = `http://127.0.0.1:${app.server.address().port}`
    const user = await createUserByOperator(deps, { email: 'bench@example.com', password: 'correct horse battery staple 42', name: 'Bench' })
    const load = { url, connections: s.connections, warmupSeconds: s.warmupSeconds, seconds: s.seconds }
    const out = { backend: kind, database: database.detail, measurements: {}, rows: [] }

    // 1. authorization_code grant ------------------------------------------------------------
    log(`[${kind}] seeding ${2 * s.codes} authorization codes ...`)
    const verifier = randomBytes(32).toString('base64url')
    const challenge = createHash('sha256').update(verifier).digest('base64url')
    const now = Date.now()
    const seed = async (n) => {
      const codes = Array.from({ length: n }, () => randomBytes(32).toString('base64url'))
      for (let i = 0; i < codes.length; i += 1000) {
        await db
          .insertInto('identity_auth_codes')
          .values(codes.slice(i, i + 1000).map((code) => ({
            code_hash: hashSecret(code), client_id: APP.clientId, user_id: user.id, redirect_uri: REDIRECT, scope: 'openid pan', code_challenge: challenge,
            code_challenge_method: 'S256', nonce: 'n', auth_time: now, created_at: now, expires_at: now + 3_600_000,
          })))
          .execute()
      }
      return codes.map((code) => JSON.stringify({ grant_type: 'authorization_code', client_id: APP.clientId, code, redirect_uri: REDIRECT, code_verifier: verifier }))
    }
    const bodiesFile = join(outbox, 'code-bodies.json')
    writeFileSync(bodiesFile, JSON.stringify({ warmup: await seed(s.codes), main: await seed(s.codes) }))
    const headers = { 'content-type': 'application/json' }
    const probe = (await seed(1))[0]
    const sample = await expectOk(await fetch(`${url}/v1/auth/token`, { method: 'POST', headers, body: probe }), 'sanity code exchange')
    if (!sample.id_token) throw new Error('no id_token for openid')
    log(`[${kind}] code exchange: HTTP load ...`)
    const exchange = await runLoad({ ...load, kind: 'each', method: 'POST', path: '/v1/auth/token', headers, bodiesFile })
    const spent = (exchange.main.total ?? exchange.main.ok)
    if (spent > s.codes) log(`[${kind}] WARNING: the run sent ${spent} requests for ${s.codes} codes; raise BENCH_OAUTH_CODES`)
    log(`[${kind}] code exchange: raw startSession ...`)
    const raw = await runLoops({ concurrency: s.connections, warmupSeconds: s.warmupSeconds, seconds: s.seconds, op: () => startSession(deps, { userId: user.id, client: APP, deviceId: '', scope: 'openid pan' }) })
    out.measurements.code = { ours: exchange, baseline: raw, codesPerPhase: s.codes }
    out.rows.push(row(kind, 'code grant', GOALS.code, exchange, raw))

    // 2. userinfo --------------------------------------------------------------------------------
    const session = await startSession(deps, { userId: user.id, client: APP, deviceId: '', scope: 'openid profile email' })
    const auth = { authorization: `Bearer ${session.access_token}` }
    const claims = await expectOk(await fetch(`${url}/v1/auth/userinfo`, { headers: auth }), 'sanity userinfo')
    const bare = Fastify({ loggerInstance: logger })
    closers.push(() => bare.close())
    bare.get('/v1/auth/userinfo', async () => claims)
    await bare.listen({ host: '127.0.0.1', port: 0 })
    log(`[${kind}] userinfo: HTTP load ...`)
    const ours = await runLoad({ ...load, kind: 'fixed', method: 'GET', path: '/v1/auth/userinfo', headers: auth })
    const base = await runLoad({ ...load, url: `http://127.0.0.1:${bare.server.address().port}`, kind: 'fixed', method: 'GET', path: '/v1/auth/userinfo', headers: auth })
    out.measurements.userinfo = { ours, baseline: base }
    out.rows.push(row(kind, 'GET userinfo', GOALS.userinfo, ours, base))
    return out
  } finally {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {})
  }
}

export async function main() {
  const s = settings()
  const log = (line) => process.stderr.write(`${line}\n`)
  const started = Date.now()
  const environment = await machineEnvironment(CPU_COUNT)
  log(`oauth bench: ${s.backends.join(' + ')}, ${s.connections} connections, ${s.warmupSeconds}s warm-up + ${s.seconds}s per measurement`)
  const backends = []
  for (const kind of s.backends) backends.push(await benchBackend(kind, s, log))
  const rows = backends.flatMap((b) => b.rows)
  console.log('')
  console.log('Cumulus authorization-server benchmark')
  console.log('  baselines: code grant = startSession in-process (session + refresh token rows, one signed JWT); userinfo = bare Fastify route (HTTP, same load)')
  console.log('')
  console.log(formatTable(rows))
  for (const r of rows) {
    const side = (c) => `${fmtCpu(c.processMsPerOp)} ms/op (bench ${pct(c.processShare)}, loadgen ${pct(c.loadGeneratorShare)}, other ${pct(c.otherShare)})`
    console.log(`    ${r.backend.padEnd(8)} ${r.metric.padEnd(14)} ours: ${side(r.oursCpu)} | baseline: ${side(r.baseCpu)}`)
  }
  for (const b of backends) for (const [name, m] of Object.entries(b.measurements)) for (const side of ['ours', 'baseline']) if (m[side].failures?.length) console.log(`  ${b.backend} ${name} ${side} failures: ${JSON.stringify(m[side].failures)}`)
  const missed = rows.filter((r) => !r.pass && !r.invalid)
  const invalid = rows.filter((r) => r.invalid)
  console.log(`  ${rows.length - missed.length - invalid.length}/${rows.length} goals met${missed.length ? `; MISSED: ${missed.map((r) => `${r.backend} ${r.metric}`).join(', ')}` : ''}${invalid.length ? `; INVALID: ${invalid.map((r) => `${r.backend} ${r.metric}`).join(', ')}` : ''}`)
  const file = writeResults('oauth', { benchmark: 'oauth', startedAt: new Date(started).toISOString(), settings: s, environment, goals: GOALS, rows, backends })
  console.log(`  results: ${file} (run took ${((Date.now() - started) / 1000).toFixed(0)}s)`)
  return invalid.length ? 1 : 0
}
