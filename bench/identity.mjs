// `npm run bench -- identity`: the identity service's hot paths against their raw floors, on
// SQLite and on PostgreSQL, in one run.
//
//   1. password sign-in        vs raw argon2id verify (same params, same concurrency; @node-rs/argon2's
//                                 async verify on libuv's pool, while the server hashes on its own
//                                 worker-thread pool, decision 027)
//   2. refresh-token grant     vs the same rotation transaction called directly on the same database
//   3. GET /v1/user/me         vs a bare Fastify route returning the same JSON
//
// The server (built @cumulus/identity, assembled here from its public exports) listens on
// 127.0.0.1:0 in this process; the HTTP load comes from a child process (bench/load.mjs,
// autocannon). Raw baselines run in this process while the server is idle.
//
// Environment: BENCH_SECONDS (5), BENCH_WARMUP_SECONDS (1), BENCH_CONNECTIONS (16),
// BENCH_BACKENDS (sqlite,postgres), BENCH_COUNTERS (memory or redis; default memory beside SQLite
// and Redis beside PostgreSQL), BENCH_LOG_LEVEL (warn), BENCH_POSTGRES_URL, BENCH_REDIS_URL.
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'

import {
  Argon2Hasher,
  IDENTITY_DEFAULTS,
  MemoryCounterStore,
  OWASP_ARGON2ID,
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
import { verify as argon2Verify } from '@node-rs/argon2'
import Fastify from 'fastify'
import { Redis } from 'ioredis'
import { pino } from 'pino'
import { commonSettings, createBenchSchema, formatTable, runLoad as runLoadRaw, runLoops as runLoopsRaw, withCpuAccounting, writeResults, fmtCpu, pct, systemBusy } from './lib/harness.mjs'

const CPU_COUNT = availableParallelism()
const runLoad = (spec) => withCpuAccounting(() => runLoadRaw(spec), CPU_COUNT)
const runLoops = (options) => withCpuAccounting(() => runLoopsRaw(options), CPU_COUNT)

const GOALS = { signin: 0.85, refresh: 0.5, me: 0.33 }
const CLIENT = { clientId: 'bench-web', name: 'Bench web client', redirectUris: [], grantTypes: ['refresh_token'] }
const PASSWORD = 'correct horse battery staple 42'
const PUBLIC_URL = 'http://127.0.0.1:3000'
/** Same as identity's hashSecret (sha256, base64url): refresh tokens are stored only as this hash. */
const hashSecret = (secret) => createHash('sha256').update(secret).digest('base64url')
const newSecret = () => randomBytes(32).toString('base64url')

function settings() {
  const common = commonSettings()
  const backends = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',').map((b) => b.trim()).filter(Boolean)
  for (const b of backends) if (b !== 'sqlite' && b !== 'postgres') throw new Error(`BENCH_BACKENDS: unknown backend ${b} (sqlite, postgres)`)
  return {
    ...common,
    backends,
    // BENCH_ONLY=me (or signin,refresh,me): run only these measurements, e.g. under --cpu-prof.
    only: new Set((process.env.BENCH_ONLY ?? 'signin,refresh,me').split(',').map((m) => m.trim()).filter(Boolean)),
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
    // BENCH_COUNTERS=memory or redis: the counter store for every backend (default: the one the
    // server picks, Redis beside PostgreSQL and memory beside SQLite), to tell their costs apart.
    counters: Object.fromEntries(['sqlite', 'postgres'].map((b) => [b, process.env.BENCH_COUNTERS])),
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    uvThreadpoolSize: process.env.UV_THREADPOOL_SIZE ? Number(process.env.UV_THREADPOOL_SIZE) : 4,
    uvThreadpoolSizeSource: process.env.UV_THREADPOOL_SIZE ? 'UV_THREADPOOL_SIZE' : 'libuv default',
  }
}

function benchConfig() {
  const config = structuredClone(IDENTITY_DEFAULTS)
  config.captcha.mode = 'off' // no captcha token needed for sign-in
  // One user per connection and correct passwords only, but the account counter is reserved
  // before the hash, so keep the limits out of reach of any burst.
  config.lockout.maxFailuresPerAccount = 1_000_000_000
  config.lockout.maxFailuresPerIp = 1_000_000_000
  return { ...config, publicUrl: PUBLIC_URL, corsOrigins: [PUBLIC_URL], clients: [CLIENT] }
}

/** A fresh migrated database: SQLite in a temp dir, or a new PostgreSQL schema (dropped by destroy). */
async function openBenchDatabase(kind, s) {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'cumulus-bench-'))
    const opened = openDatabase({ sqlitePath: join(dir, 'cumulus.db') })
    await migrateIdentity(opened.db)
    return {
      opened,
      detail: 'SQLite file in a temp dir (WAL, synchronous=NORMAL)',
      async destroy() {
        await opened.close()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  }
  const { schema, drop } = await createBenchSchema(s.postgresUrl, 'bench')
  // poolSize left at openDatabase's default (10), as packages/server does.
  const opened = openDatabase({ databaseUrl: s.postgresUrl, sqlitePath: '', postgresSchema: schema })
  const destroy = async () => {
    await opened.close().catch(() => {})
    await drop()
  }
  try {
    await migrateIdentity(opened.db)
  } catch (err) {
    await destroy()
    throw err
  }
  return { opened, detail: `PostgreSQL schema ${schema} (pool 10, default)`, destroy }
}

async function deleteRedisPrefix(url, prefix) {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 })
  try {
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
      cursor = next
      if (keys.length) await redis.del(...keys)
    } while (cursor !== '0')
  } finally {
    await redis.quit().catch(() => redis.disconnect())
  }
}

async function expectOk(response, what) {
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${what}: expected 200, got ${response.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text)
}

function row(backend, metric, goal, ours, base, { valid = true } = {}) {
  const ratio = base.main.rps > 0 ? ours.main.rps / base.main.rps : null
  const non2xx = (ours.main.non2xx ?? 0) + (ours.main.errors ?? 0) + (ours.main.timeouts ?? 0) + (base.main.non2xx ?? 0) + (base.main.errors ?? 0) + (base.main.timeouts ?? 0)
  const total = (ours.main.total ?? ours.main.ok) + (base.main.total ?? base.main.ok)
  return {
    backend,
    metric,
    ours: ours.main.rps,
    baseline: base.main.rps,
    ratio,
    goal,
    // A row without a goal is a reference figure (info), never a pass or a miss.
    pass: goal === null || (ratio !== null && ratio >= goal),
    // More than 1% failed requests (or none succeeded) makes the figure meaningless.
    invalid: !valid || ours.main.ok === 0 || base.main.ok === 0 || non2xx > total * 0.01,
    oursP50: ours.main.latencyMs.p50,
    oursP99: ours.main.latencyMs.p99,
    baseP50: base.main.latencyMs.p50,
    baseP99: base.main.latencyMs.p99,
    non2xx,
    oursCpu: ours.cpu,
    baseCpu: base.cpu,
  }
}

async function benchBackend(kind, s, log) {
  const closers = []
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close().catch((err) => log(`  cleanup error: ${err?.message ?? err}`))
  }
  try {
    const database = await openBenchDatabase(kind, s)
    closers.push(() => database.destroy())
    const { db } = database.opened

    const redisPrefix = `cumulus-bench:${randomBytes(6).toString('hex')}:`
    const useRedis = (s.counters[kind] ?? (kind === 'postgres' ? 'redis' : 'memory')) === 'redis'
    const counters = useRedis ? new RedisCounterStore(s.redisUrl, redisPrefix) : new MemoryCounterStore(systemClock)
    closers.push(async () => {
      await counters.close()
      if (useRedis) await deleteRedisPrefix(s.redisUrl, redisPrefix)
    })
    const outbox = mkdtempSync(join(tmpdir(), 'cumulus-bench-outbox-'))
    closers.push(async () => rmSync(outbox, { recursive: true, force: true }))
    const mailer = createMailer({ transport: { kind: 'file', directory: join(outbox, 'mail') }, from: 'Cumulus <no-reply@bench.invalid>' })
    closers.push(() => mailer.close())

    // The same process-level settings the real server uses: pino at `warn` (stderr here so the
    // table on stdout stays clean), Argon2id with OWASP parameters, the system clock.
    const logger = pino({ level: s.logLevel }, pino.destination(2))
    const config = benchConfig()
    const deps = createIdentityDeps({
      config,
      db,
      clock: systemClock,
      hasher: new Argon2Hasher(OWASP_ARGON2ID),
      counters,
      mailer,
      sms: createSmsSender({ kind: 'file', directory: join(outbox, 'sms') }),
      keys: await createTokenKeys(await generateSigningJwk(), PUBLIC_URL),
      hmacKey: randomBytes(32),
      logger,
    })

    const app = await buildIdentityApp(deps)
    closers.push(() => app.close())
    await app.listen({ host: '127.0.0.1', port: 0 })
    const url = `http://127.0.0.1:${app.server.address().port}`

    // One user per connection, so per-account sign-in counters never collide.
    const users = await Promise.all(Array.from({ length: s.connections }, (_, i) => createUserByOperator(deps, { email: `bench${i}@example.com`, password: PASSWORD })))
    const load = { url, connections: s.connections, warmupSeconds: s.warmupSeconds, seconds: s.seconds }
    const out = { backend: kind, database: database.detail, counters: useRedis ? 'RedisCounterStore' : 'MemoryCounterStore', measurements: {} }

    out.rows = []
    // 1. Password sign-in vs raw argon2id verify ------------------------------------------------
    if (s.only.has('signin')) {
      log(`[${kind}] sign-in: HTTP load ...`)
      const signinBody = (u) => JSON.stringify({ client_id: CLIENT.clientId, username: u.email, password: PASSWORD })
      const signinHeaders = { 'content-type': 'application/json' }
      await expectOk(await fetch(`${url}/v1/auth/signin`, { method: 'POST', headers: signinHeaders, body: signinBody(users[0]) }), 'sanity sign-in')
      const bodies = users.map(signinBody)
      const signin = await runLoad({ ...load, kind: 'bodies', method: 'POST', path: '/v1/auth/signin', headers: signinHeaders, bodies: { warmup: bodies, main: bodies } })
      log(`[${kind}] sign-in: raw argon2id verify ...`)
      const encoded = users[0].passwordHash
      const argon2 = await runLoops({
        concurrency: s.connections,
        warmupSeconds: s.warmupSeconds,
        seconds: s.seconds,
        op: async () => {
          if (!(await argon2Verify(encoded, PASSWORD))) throw new Error('argon2 verify returned false')
        },
      })
      out.measurements.signin = { ours: signin, baseline: argon2, baselineDescription: `@node-rs/argon2 async verify (libuv pool), ${s.connections} parallel loops, in-process with the server idle` }
      out.rows.push(row(kind, 'password sign-in', GOALS.signin, signin, argon2))

      // The floor of an HTTP sign-in on this machine: a bare Fastify route that parses the same
      // body, verifies on the same hash pool and answers a token-sized JSON, with no database,
      // counters or tokens. What separates it from ours is our own work; what separates it from
      // the raw verifies is the HTTP server and the load generator sharing the cores.
      log(`[${kind}] sign-in: floor (bare route + hash pool) ...`)
      const reply = await expectOk(await fetch(`${url}/v1/auth/signin`, { method: 'POST', headers: signinHeaders, body: signinBody(users[0]) }), 'sanity sign-in for the floor')
      const floorHasher = new Argon2Hasher(OWASP_ARGON2ID)
      const floorApp = Fastify({ loggerInstance: logger })
      closers.push(() => floorApp.close())
      const hashes = new Map(users.map((u) => [u.email, u.passwordHash]))
      floorApp.post('/v1/auth/signin', async (request, response) => {
        const { username, password } = request.body
        if (!(await floorHasher.verify(hashes.get(username) ?? encoded, password))) return response.code(401).send({ error: 'invalid' })
        return reply
      })
      await floorApp.listen({ host: '127.0.0.1', port: 0 })
      const floor = await runLoad({ ...load, url: `http://127.0.0.1:${floorApp.server.address().port}`, kind: 'bodies', method: 'POST', path: '/v1/auth/signin', headers: signinHeaders, bodies: { warmup: bodies, main: bodies } })
      out.measurements.signinFloor = { ours: floor, baseline: argon2, baselineDescription: 'the same raw verifies as password sign-in' }
      out.rows.push(row(kind, 'sign-in floor', null, floor, argon2))
    }

    // 2. Refresh-token grant vs the rotation transaction ----------------------------------------
    if (s.only.has('refresh')) {
      log(`[${kind}] refresh: HTTP load ...`)
      const seedChains = async (count) => {
        const tokens = []
        for (let i = 0; i < count; i++) {
          const reply = await startSession(deps, { userId: users[i % users.length].id, client: CLIENT, deviceId: `bench-device-${i}` })
          tokens.push(reply.refresh_token)
        }
        return tokens
    }
    const [probe] = await seedChains(1)
    const tokenHeaders = { 'content-type': 'application/json' }
    const bodyBase = { grant_type: 'refresh_token', client_id: CLIENT.clientId }
    await expectOk(await fetch(`${url}/v1/auth/token`, { method: 'POST', headers: tokenHeaders, body: JSON.stringify({ ...bodyBase, refresh_token: probe }) }), 'sanity refresh')
    const httpChains = { warmup: await seedChains(s.connections), main: await seedChains(s.connections) }
    const refresh = await runLoad({ ...load, kind: 'refresh', method: 'POST', path: '/v1/auth/token', headers: tokenHeaders, bodyBase, chains: httpChains })
    // Every request used the newest token of its chain iff no session has forked: a token reused
    // within the grace window would leave two live (unrotated) tokens in one session.
    const httpSessions = await db
      .selectFrom('identity_refresh_tokens')
      .select(['session_id'])
      .select((eb) => eb.fn.countAll().as('live'))
      .where('token_hash', 'in', [...httpChains.warmup, ...httpChains.main].map(hashSecret))
      .groupBy('session_id')
      .execute()
    const sessionIds = httpSessions.map((r) => r.session_id)
    const forks = await db
      .selectFrom('identity_refresh_tokens')
      .select(['session_id'])
      .select((eb) => eb.fn.countAll().as('live'))
      .where('session_id', 'in', sessionIds)
      .where('rotated_at', 'is', null)
      .groupBy('session_id')
      .having((eb) => eb(eb.fn.countAll(), '>', 1))
      .execute()
    const revoked = await db.selectFrom('identity_sessions').select('id').where('id', 'in', sessionIds).where('revoked_at', 'is not', null).execute()
    refresh.chainCheck = { sessions: sessionIds.length, forkedSessions: forks.length, revokedSessions: revoked.length, ok: sessionIds.length === 2 * s.connections && forks.length === 0 && revoked.length === 0 }

    log(`[${kind}] refresh: raw rotation transaction ...`)
    const rawChains = { warmup: await seedChains(s.connections), main: await seedChains(s.connections) }
    const current = { warmup: rawChains.warmup.map(hashSecret), main: rawChains.main.map(hashSecret) }
    const graceMs = config.tokens.refreshReuseGraceSeconds * 1000
    const idleMs = config.tokens.refreshIdleTtlSeconds * 1000
    const rotation = await runLoops({
      concurrency: s.connections,
      warmupSeconds: s.warmupSeconds,
      seconds: s.seconds,
      op: async (worker, phase) => {
        const nowMs = Date.now()
        const newTokenHash = hashSecret(newSecret())
        const result = await deps.sessions.rotateRefreshToken({ tokenHash: current[phase][worker], newTokenHash, clientId: CLIENT.clientId, nowMs, graceMs, newExpiresAtMs: nowMs + idleMs })
        if (result.kind !== 'rotated' || result.viaGrace) throw new Error(`rotation did not rotate: ${JSON.stringify(result)}`)
        current[phase][worker] = newTokenHash
      },
    })
    out.measurements.refresh = { ours: refresh, baseline: rotation, baselineDescription: `deps.sessions.rotateRefreshToken, ${s.connections} parallel loops, one chain each, in-process with the server idle` }
    out.rows.push(row(kind, 'refresh grant', GOALS.refresh, refresh, rotation, { valid: refresh.chainCheck.ok }))
    }

    // 3. GET /v1/user/me vs a bare Fastify route ------------------------------------------------
    if (s.only.has('me')) {
      log(`[${kind}] /v1/user/me: HTTP load ...`)
      const session = await startSession(deps, { userId: users[0].id, client: CLIENT, deviceId: 'bench-me' })
      const meHeaders = { authorization: `Bearer ${session.access_token}` }
      const profile = await expectOk(await fetch(`${url}/v1/user/me`, { headers: meHeaders }), 'sanity /v1/user/me')
      const bare = Fastify({ loggerInstance: logger })
      closers.push(() => bare.close())
      bare.get('/v1/user/me', async () => profile)
      await bare.listen({ host: '127.0.0.1', port: 0 })
      const bareUrl = `http://127.0.0.1:${bare.server.address().port}`
      const bareProfile = await expectOk(await fetch(`${bareUrl}/v1/user/me`, { headers: meHeaders }), 'sanity bare route')
      if (JSON.stringify(bareProfile) !== JSON.stringify(profile)) throw new Error('bare route body differs from /v1/user/me')
      const me = await runLoad({ ...load, kind: 'fixed', method: 'GET', path: '/v1/user/me', headers: meHeaders })
      log(`[${kind}] /v1/user/me: bare Fastify route ...`)
      const bareMe = await runLoad({ ...load, url: bareUrl, kind: 'fixed', method: 'GET', path: '/v1/user/me', headers: meHeaders })
      out.measurements.me = { ours: me, baseline: bareMe, baselineDescription: 'bare Fastify 5 route (same pino logger) returning the same JSON object, same process, other port' }
      out.rows.push(row(kind, 'GET /v1/user/me', GOALS.me, me, bareMe))
    }
    return out
  } finally {
    await closeAll()
  }
}


export async function main() {
  const s = settings()
  const log = (line) => process.stderr.write(`${line}\n`)
  const started = Date.now()
  const environment = {
    node: process.version,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    uvThreadpoolSize: `${s.uvThreadpoolSize} (${s.uvThreadpoolSizeSource}; one process hosts the server and the raw baselines, so both use this pool)`,
    loggerLevel: `${s.logLevel} (pino, to stderr; Fastify request logs are info-level, so not written)`,
    loadGenerator: 'autocannon 8.0.0 in a child process (bench/load.mjs), pipelining 1, keep-alive',
    argon2: OWASP_ARGON2ID,
    loadAverageAtStart: loadavg().map((x) => Number(x.toFixed(2))),
    cpuBusyBeforeStart: await systemBusy(CPU_COUNT),
  }
  log(`identity bench: ${s.backends.join(' + ')}, ${s.connections} connections, ${s.warmupSeconds}s warm-up + ${s.seconds}s per measurement`)
  const backends = []
  for (const kind of s.backends) backends.push(await benchBackend(kind, s, log))
  const rows = backends.flatMap((b) => b.rows)

  console.log('')
  console.log('Cumulus identity benchmark')
  console.log(`  load: ${environment.loadGenerator}; ${s.connections} connections; ${s.warmupSeconds}s warm-up + ${s.seconds}s measured, per measurement`)
  console.log(`  server: @cumulus/identity (dist) on 127.0.0.1, captcha off, lockout limits raised, argon2id m=${OWASP_ARGON2ID.memoryCostKiB}KiB t=${OWASP_ARGON2ID.timeCost} p=${OWASP_ARGON2ID.parallelism}`)
  console.log(`  logger: ${environment.loggerLevel}`)
  console.log(`  libuv threadpool: ${environment.uvThreadpoolSize}`)
  console.log(`  machine: ${environment.cpus} CPUs (${environment.cpuModel}), Node ${environment.node}; load generator and server share these cores`)
  const busy = environment.cpuBusyBeforeStart !== null && environment.cpuBusyBeforeStart > 0.15
  const busyText = environment.cpuBusyBeforeStart === null ? 'unknown' : `${(environment.cpuBusyBeforeStart * 100).toFixed(0)}%`
  console.log(`  machine CPU busy in the second before start: ${busyText} (load average ${environment.loadAverageAtStart.join(' ')})${busy ? '  <-- WARNING: other work was running, figures are unreliable' : ''}`)
  for (const b of backends) console.log(`  ${b.backend}: ${b.database}; counters ${b.counters}`)
  console.log('  baselines: sign-in = raw argon2id verify loops; refresh = deps.sessions.rotateRefreshToken loops; /v1/user/me = bare Fastify route (HTTP, same load)')
  console.log('')
  console.log(formatTable(rows))
  console.log('  (HTTP latencies from autocannon, 1 ms resolution; raw-baseline latencies are per call, measured in-process)')
  console.log('')
  console.log('  CPU accounting per measurement: bench-process CPU per op (server or raw baseline, all threads);')
  console.log('  machine share used by the load generator, by other processes (incl. PostgreSQL/Redis for that backend) and hypervisor steal:')
  for (const r of rows) {
    const side = (c) => `${fmtCpu(c.processMsPerOp)} ms/op (bench ${pct(c.processShare)}, loadgen ${pct(c.loadGeneratorShare)}, other ${pct(c.otherShare)}, steal ${pct(c.stealShare)})`
    console.log(`    ${r.backend.padEnd(8)} ${r.metric.padEnd(16)} ours: ${side(r.oursCpu)} | baseline: ${side(r.baseCpu)}`)
    const threads = (c) => (c.mainThreadMsPerOp ? `main thread ${fmtCpu(c.mainThreadMsPerOp.user)} user + ${fmtCpu(c.mainThreadMsPerOp.system)} kernel, other threads ${fmtCpu(c.otherThreadsMsPerOp.user)} user + ${fmtCpu(c.otherThreadsMsPerOp.system)} kernel` : 'per-thread figures unavailable')
    console.log(`    ${''.padEnd(8)} ${''.padEnd(16)} ms/op by thread: ours ${threads(r.oursCpu)} | baseline ${threads(r.baseCpu)}`)
  }
  const noisy = rows.filter((r) => r.backend === 'sqlite' && Math.max(r.oursCpu.otherShare ?? 0, r.baseCpu.otherShare ?? 0) > 0.1)
  if (noisy.length) console.log(`  WARNING: other processes used >10% of the machine during: ${noisy.map((r) => `${r.backend} ${r.metric}`).join(', ')} -- those figures are unreliable`)
  console.log('')
  for (const b of backends) {
    const check = b.measurements.refresh?.ours.chainCheck
    if (check) console.log(`  ${b.backend} refresh chains: ${check.sessions} sessions, ${check.forkedSessions} forked, ${check.revokedSessions} revoked -> ${check.ok ? 'every refresh used the newest token' : 'CHAIN CHECK FAILED'}`)
    for (const [name, m] of Object.entries(b.measurements)) {
      for (const side of ['ours', 'baseline']) {
        if (m[side].failures?.length) console.log(`  ${b.backend} ${name} ${side} failures (first ${m[side].failures.length}): ${JSON.stringify(m[side].failures)}`)
      }
    }
  }
  const goalRows = rows.filter((r) => r.goal !== null)
  const missed = goalRows.filter((r) => !r.pass && !r.invalid)
  const invalid = rows.filter((r) => r.invalid)
  console.log(`  ${goalRows.length - missed.length - goalRows.filter((r) => r.invalid).length}/${goalRows.length} goals met${missed.length ? `; MISSED: ${missed.map((r) => `${r.backend} ${r.metric}`).join(', ')}` : ''}${invalid.length ? `; INVALID (failed requests): ${invalid.map((r) => `${r.backend} ${r.metric}`).join(', ')}` : ''}`)
  const file = writeResults('identity', { benchmark: 'identity', startedAt: new Date(started).toISOString(), elapsedSeconds: (Date.now() - started) / 1000, settings: s, environment, goals: GOALS, rows, backends })
  console.log(`  results: ${file} (run took ${((Date.now() - started) / 1000).toFixed(0)}s)`)
  // A missed goal is a finding, not an error; requests failing under load is an error.
  return invalid.length ? 1 : 0
}
