// The server of `npm run bench -- soak`, in its own process so that its memory figures are its
// own and the load never shares its event loop. Started by bench/soak.mjs with fork():
//
//   node --expose-gc bench/lib/soak-server.mjs '<json spec>'
//
// Spec: { dataDir, port, databaseUrl?, logLevel, users, password, web }. Builds the composed
// server as `cumulus serve` does (identity + drive + the web app when asked, housekeeping and
// event delivery on), creates `users` password accounts through identity's operator path,
// listens on 127.0.0.1:port and sends { type: 'ready', emails, web } over IPC. Then answers:
//
//   { type: 'sample', gc }      -> { type: 'sample', ... } memory and CPU figures; with gc, also
//                                  the heap used after a full collection (needs --expose-gc)
//   { type: 'snapshot', path }  -> writes a V8 heap snapshot there (blocks the server meanwhile)
//   { type: 'close' }           -> closes the server gracefully and exits 0
import { existsSync, readFileSync } from 'node:fs'
import { getHeapSpaceStatistics, getHeapStatistics, writeHeapSnapshot } from 'node:v8'

import { createUserByOperator } from '@cumulus/identity'
import { buildServer, loadConfig } from '@cumulus/server'
import { WEB_BUILD_DIRECTORY } from '@cumulus/web'

const spec = JSON.parse(process.argv[2] ?? '{}')
// The bench process went away (finished, crashed or killed): do not linger, even mid-start.
process.on('disconnect', () => process.exit(0))
const send = (message) => new Promise((resolve) => process.send(message, resolve))

/** Creates accounts a few at a time: each one hashes a password (argon2id) on libuv's pool. */
async function createUsers(server, count, password) {
  const emails = Array.from({ length: count }, (_, i) => `soak${i}@bench.example`)
  const parallel = 4
  for (let i = 0; i < emails.length; i += parallel) {
    await Promise.all(emails.slice(i, i + parallel).map((email) => createUserByOperator(server.identity, { email, password: spec.password })))
  }
  return emails
}

/** VmRSS and VmHWM from /proc (kB → bytes), as a cross-check of process.memoryUsage(); null off Linux. */
function procStatus() {
  try {
    const status = readFileSync('/proc/self/status', 'utf8')
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024
    return { vmRss: kb('VmRSS'), vmHwm: kb('VmHWM') }
  } catch {
    return null
  }
}

function sample(withGc) {
  const memory = process.memoryUsage()
  const heap = getHeapStatistics()
  const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size]))
  const cpu = process.cpuUsage()
  const out = {
    type: 'sample',
    at: Date.now(),
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    heapTotal: memory.heapTotal,
    external: memory.external,
    arrayBuffers: memory.arrayBuffers,
    mallocedMemory: heap.malloced_memory,
    nativeContexts: heap.number_of_native_contexts,
    detachedContexts: heap.number_of_detached_contexts,
    spaces,
    cpuMs: (cpu.user + cpu.system) / 1000,
    handles: process.getActiveResourcesInfo().length,
    proc: procStatus(),
  }
  // After the figures above, so the RSS is the one the load left, not one a forced GC shrank.
  if (withGc && typeof globalThis.gc === 'function') {
    globalThis.gc()
    out.heapUsedAfterGc = process.memoryUsage().heapUsed
  }
  return out
}

const config = loadConfig({
  CUMULUS_DATA_DIR: spec.dataDir,
  PORT: String(spec.port),
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://127.0.0.1:${spec.port}`,
  LOG_LEVEL: spec.logLevel,
  CAPTCHA_MODE: 'off',
  ...(spec.databaseUrl ? { DATABASE_URL: spec.databaseUrl } : {}),
})
// As `cumulus serve`, with the web app when its build is there (a missing build would stop the start).
const web = spec.web === true || (spec.web === 'auto' && existsSync(`${WEB_BUILD_DIRECTORY}server/index.js`))
const server = await buildServer(config, { web })
const emails = await createUsers(server, spec.users, spec.password)
await server.app.listen({ port: spec.port, host: '127.0.0.1' })

process.on('message', async (message) => {
  if (message?.type === 'sample') await send(sample(message.gc === true))
  else if (message?.type === 'snapshot') await send({ type: 'snapshot', path: writeHeapSnapshot(message.path) })
  else if (message?.type === 'close') {
    await server.close()
    await send({ type: 'closed' })
    process.exit(0)
  }
})
await send({ type: 'ready', emails, web })
