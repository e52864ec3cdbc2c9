#!/usr/bin/env node
// `npm run bench -- <name>`: runs one benchmark. Without a name, lists them.
// Benchmarks import the BUILT workspace packages: run `npx tsc -b` first.

// Measure what `cumulus serve` runs: it defaults NODE_ENV to production (packages/server/src/cli.ts)
// before React loads, and so must this, before any benchmark module imports it.
process.env.NODE_ENV ??= 'production'

const BENCHMARKS = {
  identity: {
    description: 'identity hot paths on SQLite and PostgreSQL: password sign-in vs raw argon2id, refresh grant vs raw rotation transaction, GET /v1/user/me vs bare Fastify',
    load: () => import('./identity.mjs'),
  },
  'sdk-size': {
    description: 'the SDK (packages/sdk/dist) with @cumulus/protocol, bundled for the browser and minified with rolldown, then gzipped: goal <= 12 KiB',
    load: () => import('./sdk-size.mjs'),
  },
  drive: {
    description: 'drive: tus upload vs fs write+fsync (goal >= 0.6), signed-link download vs createReadStream to a socket (goal >= 0.8), one page of a 100,000-file folder (goal p99 < 20 ms on SQLite)',
    load: () => import('./drive.mjs'),
  },
  'drive-writes': {
    description: 'drive creates on SQLite and PostgreSQL: POST /drive/v1/files into folders of 0, 10,000, 100,000 items vs raw single-row inserts (goal >= 0.3), :batchCopy of 1,000 files vs raw multi-row inserts (goal >= 0.5), a 10,000-file tree copy, slope 100,000 vs empty (goal >= 0.9)',
    load: () => import('./drive-writes.mjs'),
  },
  web: {
    description: 'server-rendered / and /account/login per second on the composed server vs a bare React Router app (goal >= 0.6), first-visit JS gzipped in Chromium (login goal < 150 KiB), and first-visit JS+CSS as transferred for /, login and signed-in /drive (goal < 200 KiB)',
    load: () => import('./web.mjs'),
  },
  offline: {
    description: 'offline download: a 1 GiB HTTP offline task vs fetch -> file+fsync (goal >= 0.8, RSS < 150 MB), 1,000 no-op jobs on SQLite and pg-boss at concurrency 1 and 8 (goal >= 200 jobs/s at 8, trickled pickup p99 < 50 ms), a 256 MiB torrent through the engine vs the aria2c CLI (goal >= 0.8)',
    load: () => import('./offline.mjs'),
  },
  media: {
    description: 'thumbnails of BENCH_MEDIA_PHOTOS (1,000) mixed photos through the product path (blob store, sharp, stored WebP) vs sharp alone on the same buffers (goal >= 0.8); transcoding not built yet',
    load: () => import('./media.mjs'),
  },
  decompress: {
    description: 'archives: the first listing of a 100,000-entry zip over HTTP vs yauzl reading its central directory; a 1,000-file page of its kept tree, p50/p99 vs a bare Fastify route (goal p99 < 50 ms)',
    load: () => import('./decompress.mjs'),
  },
  search: {
    description: 'search over BENCH_SEARCH_FILES (1,000,000) files of one user on SQLite and PostgreSQL: suggestions p99 (goal < 30 ms) and first page p99 (goal < 50 ms) over HTTP per query class (one, two, three characters, pinyin), with a bare Fastify route as the baseline; index build time and bytes',
    load: () => import('./search.mjs'),
  },
  oauth: {
    description: 'Cumulus as an authorization server on SQLite and PostgreSQL: the authorization_code grant (code+PKCE, a fresh code per request) vs startSession in-process (goal >= 0.5), GET /v1/auth/userinfo vs a bare Fastify route (goal >= 0.33)',
    load: () => import('./oauth.mjs'),
  },
  shares: {
    description: 'share links on SQLite and PostgreSQL: opening a share and a 100-item folder page (public and with a pass-code token) vs a bare Fastify route, a BENCH_SHARE_MIB (256) MiB download through the share link vs the owner\'s link (goal >= 0.9) and createReadStream, saving a share of BENCH_SHARE_TREE (10,000) files vs the owner\'s :batchCopy (goal >= 0.8)',
    load: () => import('./shares.mjs'),
  },
  soak: {
    description: 'the composed server (child process, SQLite; BENCH_BACKENDS=postgres) under a mixed workload of BENCH_SOAK_USERS users for BENCH_SOAK_MINUTES (10): ops/s, failures, RSS and heap per tenth or minute; goal: RSS flat over the second half (last <= 1.1 x half-way)',
    load: () => import('./soak.mjs'),
  },
}

function list(stream) {
  stream.write('Usage: npm run bench -- <name>\n\nBenchmarks:\n')
  for (const [name, b] of Object.entries(BENCHMARKS)) stream.write(`  ${name.padEnd(12)} ${b.description}\n`)
  stream.write('\nEnvironment: BENCH_SECONDS (5), BENCH_WARMUP_SECONDS (1), BENCH_CONNECTIONS (16), BENCH_BACKENDS (sqlite,postgres),\n')
  stream.write('             BENCH_LOG_LEVEL (warn), BENCH_POSTGRES_URL, BENCH_REDIS_URL, UV_THREADPOOL_SIZE (libuv default 4)\n')
  stream.write('             drive-writes: BENCH_CONNECTIONS (32 here), BENCH_WRITES_FOLDER_SIZES (0,10000,100000), BENCH_WRITES_BULK_FILES (1000),\n')
  stream.write('             BENCH_WRITES_COPY_FILES (10000), BENCH_WRITES_COPY_ROUNDS (3), BENCH_WRITES_DIAGNOSE (1: PostgreSQL sampling and EXPLAIN)\n')
  stream.write('             offline: BENCH_ONLY (http,jobs,torrent), BENCH_OFFLINE_BYTES (1GiB), BENCH_OFFLINE_ROUNDS (3), BENCH_JOBS (1000),\n')
  stream.write('             BENCH_JOBS_CONCURRENCY (1,8), BENCH_JOBS_TRICKLE (200), BENCH_TORRENT_BYTES (256MiB), BENCH_TORRENT_ROUNDS (3)\n')
  stream.write('             shares: BENCH_CONNECTIONS (4 here), BENCH_SHARE_MIB (256), BENCH_SHARE_TREE (10000), BENCH_SHARE_FOLDER (1000), BENCH_SHARE_ROUNDS (5),\n')
  stream.write('             BENCH_SHARE_INLINE_MAX (the server\'s BATCH_INLINE_MAX_ITEMS, 20000: lower it to measure saves and copies as jobs)\n')
  stream.write('             soak: BENCH_SOAK_MINUTES (10, fractions allowed), BENCH_SOAK_USERS (32), BENCH_SOAK_WEB (auto), BENCH_SOAK_GC (true), BENCH_SOAK_SNAPSHOTS (false)\n')
}

const name = process.argv[2]
if (name === undefined || name === '--help' || name === '-h' || name === 'list') {
  list(process.stdout)
  process.exit(0)
}
const bench = Object.hasOwn(BENCHMARKS, name) ? BENCHMARKS[name] : undefined
if (!bench) {
  process.stderr.write(`unknown benchmark "${name}"\n\n`)
  list(process.stderr)
  process.exit(1)
}

try {
  const module = await bench.load()
  const code = await module.main(process.argv.slice(3))
  // Stray handles (pools, timers) must not keep a finished benchmark alive.
  process.exit(code ?? 0)
} catch (err) {
  process.stderr.write(`benchmark ${name} failed: ${err?.stack ?? err}\n`)
  process.exit(1)
}
