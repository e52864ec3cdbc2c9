#!/usr/bin/env node
// The fresh-clone smoke test: does the README's front door work? It clones the committed HEAD
// into a temporary folder, runs `npm ci` and the README's start command there with a fresh data
// folder on a free port, then checks what a newcomer would try first (health, a page in the
// browser's language, an account, a folder) and that SIGTERM stops the server cleanly, with
// exit code 0, within the promised SHUTDOWN_TIMEOUT_MS, even with an idle keep-alive connection
// and a half-sent upload open.
//
//   node scripts/smoke-fresh-clone.mjs            clone HEAD, npm ci, start, check, stop
//   node scripts/smoke-fresh-clone.mjs --here     skip clone and npm ci: start this checkout
//
// .ci/run runs it after `npm test`. Plain Node ESM: nothing beyond Node itself and git.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The bound docs/architecture.md and packages/server/src/serve-command.ts promise (SHUTDOWN_TIMEOUT_MS). */
const SHUTDOWN_LIMIT_MS = 10_000
/** The first start builds the TypeScript and the web app; on a busy 2-core machine that takes minutes. */
const START_LIMIT_MS = 10 * 60_000
const HEALTH_POLL_MS = 500
const LOG_TAIL_LINES = 60
const CLIENT_ID = 'cumulus-web'
/** The size the unfinished upload declares, and how much of it the PATCH sends before SIGTERM. */
const UPLOAD_SIZE_BYTES = 1024 * 1024
const UPLOAD_SENT_BYTES = 64 * 1024

const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const here = process.argv.includes('--here')
const scratch = mkdtempSync(join(tmpdir(), 'cumulus-smoke-'))
const checkout = here ? repoRoot : join(scratch, 'clone')
const dataDir = join(scratch, 'data')
const serverLog = []
const openSockets = []
let server
let failed = false

const step = (text) => console.log(`smoke: ${text}`)

try {
  await main()
  step('all checks passed')
} catch (err) {
  failed = true
  console.error(`smoke: FAILED: ${err instanceof Error ? err.message : String(err)}`)
  console.error(`smoke: the server's last ${LOG_TAIL_LINES} log lines:`)
  console.error(serverLog.join('').split('\n').slice(-LOG_TAIL_LINES).join('\n'))
} finally {
  for (const socket of openSockets) socket.destroy()
  if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL')
  rmSync(scratch, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)

async function main() {
  if (!here) {
    const head = run('git', ['rev-parse', '--short', 'HEAD'], repoRoot).trim()
    step(`cloning HEAD (${head}) into ${checkout}`)
    run('git', ['clone', '--quiet', '--no-hardlinks', repoRoot, checkout], repoRoot)
    step('npm ci')
    run('npm', ['ci', '--no-audit', '--no-fund'], checkout)
  }

  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  step(`npm start on port ${port}, data in ${dataDir}`)
  server = startServer(port)
  await waitForHealth(base)
  step('GET /healthz answers {"status":"ok"}')

  await checkKoreanHome(base)
  const token = await signUpAnonymously(base)
  await createAndListFolder(base, token)

  const idle = await openIdleKeepAlive(port)
  step('an idle keep-alive connection is open')
  const upload = await startUnfinishedUpload(base, port, token)
  step(`a PATCH has sent ${UPLOAD_SENT_BYTES} of ${UPLOAD_SIZE_BYTES} bytes and waits with its socket open`)

  const shutdownMs = await stopServer()
  step(`SIGTERM: the server exited with code 0 in ${shutdownMs} ms (limit ${SHUTDOWN_LIMIT_MS} ms)`)
  idle.destroy()
  upload.socket.destroy()

  // The bytes that reached the server before the shutdown are kept: after a restart, tus HEAD
  // reports an offset a client can resume from (at most what was sent; what was still in flight
  // is sent again).
  server = startServer(port)
  await waitForHealth(base)
  const offset = await uploadOffset(base, upload.endpoint, token)
  if (!(offset >= 0 && offset <= UPLOAD_SENT_BYTES)) throw new Error(`after a restart the upload's offset is ${offset}, expected 0 to ${UPLOAD_SENT_BYTES}`)
  step(`restarted: the unfinished upload resumes at offset ${offset}`)
  const secondShutdownMs = await stopServer()
  step(`SIGTERM again: exited with code 0 in ${secondShutdownMs} ms`)
}

/** Runs a command to completion, its output on ours; throws when it fails. Returns its stdout when piped. */
function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`)
  return result.stdout
}

/**
 * Starts what `npm start` runs (package.json's scripts.start, `node scripts/start.mjs`) without
 * npm in between. npm does not forward SIGTERM to its script: npm itself dies of the signal and
 * leaves the server running, orphaned (npm 10), so a signal sent to `npm start` never tests the
 * server's shutdown and its exit code cannot be read.
 */
function startServer(port) {
  const { scripts } = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8'))
  const [command, ...args] = String(scripts?.start ?? '').split(' ')
  if (command !== 'node' || args.length === 0) throw new Error(`package.json's start script is "${scripts?.start}", not "node <script>"; update this smoke test`)
  const child = spawn(process.execPath, args, {
    cwd: checkout,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', CUMULUS_DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout.setEncoding('utf8').on('data', (chunk) => serverLog.push(chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk) => serverLog.push(chunk))
  return child
}

/** A port nothing listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

/** Polls /healthz until it answers {"status":"ok"}; fails when the server exits or START_LIMIT_MS passes. */
async function waitForHealth(base) {
  const deadline = Date.now() + START_LIMIT_MS
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) throw new Error(`the server exited during start (${server.exitCode ?? server.signalCode})`)
    try {
      const response = await fetch(`${base}/healthz`)
      const body = await response.json()
      if (response.status === 200 && body?.status === 'ok' && Object.keys(body).length === 1) return
      throw new Error(`GET /healthz answered ${response.status} ${JSON.stringify(body)}`)
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('GET /healthz')) throw err
    }
    await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS))
  }
  throw new Error(`the server did not answer /healthz within ${START_LIMIT_MS / 1000} s`)
}

/** A first visit to / from a Korean browser lands on the Korean home page, rendered on the server. */
async function checkKoreanHome(base) {
  const response = await fetch(`${base}/`, { headers: { 'accept-language': 'ko-KR,ko;q=0.9', accept: 'text/html' } })
  const html = await response.text()
  if (response.status !== 200) throw new Error(`GET / (Accept-Language: ko) ended at ${response.url} with ${response.status}`)
  if (!/<html[^>]*\slang="ko"/.test(html)) throw new Error(`GET / (Accept-Language: ko) ended at ${response.url} without <html lang="ko">`)
  if (!/[\uAC00-\uD7A3]/.test(html)) throw new Error('the Korean home page has no Korean text')
  step(`GET / with Accept-Language: ko → ${new URL(response.url).pathname}, server-rendered <html lang="ko"> with Korean text`)
}

async function api(base, method, path, { token, body } = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...(token && { authorization: `Bearer ${token}` }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  let json
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`)
  return json
}

/** An anonymous account (no captcha: POST /v1/auth/signup/anonymously is limited per IP instead), then /v1/user/me with its token. */
async function signUpAnonymously(base) {
  const tokens = await api(base, 'POST', '/v1/auth/signup/anonymously', { body: { client_id: CLIENT_ID } })
  if (typeof tokens?.access_token !== 'string' || typeof tokens.sub !== 'string') throw new Error(`the anonymous sign-up gave no token: ${JSON.stringify(tokens)}`)
  const me = await api(base, 'GET', '/v1/user/me', { token: tokens.access_token })
  if (me?.sub !== tokens.sub) throw new Error(`GET /v1/user/me answered sub ${me?.sub}, expected ${tokens.sub}`)
  step(`anonymous sign-up as ${tokens.sub}; GET /v1/user/me answers the same sub`)
  return tokens.access_token
}

async function createAndListFolder(base, token) {
  const name = 'Smoke test'
  const created = await api(base, 'POST', '/drive/v1/files', { token, body: { kind: 'drive#folder', name, parent_id: '' } })
  const id = created?.file?.id
  if (created?.file?.kind !== 'drive#folder' || typeof id !== 'string') throw new Error(`POST /drive/v1/files gave no folder: ${JSON.stringify(created)}`)
  const listed = await api(base, 'GET', '/drive/v1/files?parent_id=', { token })
  if (!listed?.files?.some((file) => file.id === id && file.name === name)) throw new Error(`GET /drive/v1/files does not list the new folder: ${JSON.stringify(listed)}`)
  step(`created folder "${name}" (${id}); GET /drive/v1/files lists it`)
}

/** A raw socket that gets one reply on a keep-alive connection and then stays open, idle. */
function openIdleKeepAlive(port) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    openSockets.push(socket)
    socket.on('error', () => {})
    let reply = ''
    socket.setEncoding('utf8')
    socket.once('connect', () => socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`))
    socket.on('data', function onData(chunk) {
      reply += chunk
      if (!reply.includes('{"status":"ok"}')) return
      socket.off('data', onData)
      if (!/^HTTP\/1\.1 200/.test(reply) || /\r\nconnection: close/i.test(reply)) reject(new Error(`the keep-alive request got: ${reply.split('\r\n')[0]}`))
      else resolve(socket)
    })
    socket.once('close', () => reject(new Error('the keep-alive connection closed before its reply')))
  })
}

/** Creates a 1 MiB upload and sends a PATCH with its headers and only the first part of its body. */
async function startUnfinishedUpload(base, port, token) {
  const created = await api(base, 'POST', '/drive/v1/files', {
    token,
    body: { kind: 'drive#file', name: 'unfinished.bin', parent_id: '', size: String(UPLOAD_SIZE_BYTES), upload_type: 'UPLOAD_TYPE_RESUMABLE', resumable: { provider: 'PROVIDER_TUS' } },
  })
  const endpoint = created?.resumable?.params?.endpoint
  if (typeof endpoint !== 'string') throw new Error(`POST /drive/v1/files gave no tus endpoint: ${JSON.stringify(created)}`)
  const socket = connect(port, '127.0.0.1')
  openSockets.push(socket)
  socket.on('error', () => {})
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  const head = [
    `PATCH ${new URL(endpoint).pathname} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    `Authorization: Bearer ${token}`,
    'Tus-Resumable: 1.0.0',
    'Upload-Offset: 0',
    'Content-Type: application/offset+octet-stream',
    `Content-Length: ${UPLOAD_SIZE_BYTES}`,
  ].join('\r\n')
  await new Promise((resolve) => socket.write(`${head}\r\n\r\n`, resolve))
  await new Promise((resolve) => socket.write(Buffer.alloc(UPLOAD_SENT_BYTES, 0x61), resolve))
  return { socket, endpoint }
}

async function uploadOffset(base, endpoint, token) {
  const response = await fetch(`${base}${new URL(endpoint).pathname}`, { method: 'HEAD', headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' } })
  if (response.status !== 200) throw new Error(`tus HEAD of the unfinished upload answered ${response.status}`)
  return Number(response.headers.get('upload-offset'))
}

/** Sends SIGTERM and resolves with how long the server took to exit; fails unless it exits 0 within SHUTDOWN_LIMIT_MS. */
function stopServer() {
  const child = server
  const startedAt = performance.now()
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error(`the server was still running ${SHUTDOWN_LIMIT_MS} ms after SIGTERM`)), SHUTDOWN_LIMIT_MS)
    child.once('exit', (code, signal) => {
      clearTimeout(guard)
      const elapsedMs = Math.round(performance.now() - startedAt)
      if (code === 0) resolve(elapsedMs)
      else reject(new Error(`after SIGTERM the server exited with ${code ?? signal} in ${elapsedMs} ms, expected code 0`))
    })
    child.kill('SIGTERM')
  })
}
