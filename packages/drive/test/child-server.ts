import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { randomInt } from 'node:crypto'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { WEB_CLIENT_ID } from '@cumulus/protocol'

/*
 * The real composed server in child processes (crash-server.mjs), for the tests that kill it with
 * SIGKILL and start it again on the same data: crash.test.ts (uploads) and
 * offline-crash.test.ts (offline downloads, two nodes sharing the work).
 */

const root = fileURLToPath(new URL('../../../', import.meta.url))
const serverScript = fileURLToPath(new URL('./crash-server.mjs', import.meta.url))

export interface Child {
  process: ChildProcess
  base: string
  /** Everything the child wrote to stdout so far (its log lines). */
  output(): string
}

/** Builds the packages the child imports (incrementally). */
export function buildServerPackages(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  const build = spawnSync(process.execPath, [tsc, '--build', 'packages/server'], { cwd: root, encoding: 'utf8' })
  if (build.status !== 0) throw new Error(`the build the crash test runs failed:\n${build.stdout}${build.stderr}`)
}

/** Starts a server child on `env` and resolves once it listens; `children` collects it for cleanup. */
export function startChild(env: Record<string, string>, children: ChildProcess[]): Promise<Child> {
  const child = spawn(process.execPath, [serverScript], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let out = ''
  return new Promise((resolve, reject) => {
    let err = ''
    child.stderr?.on('data', (chunk) => (err += chunk))
    child.stdout?.on('data', (chunk) => {
      out += chunk
      const line = out.split('\n').find((l) => l.startsWith('{"port"'))
      if (line) resolve({ process: child, base: `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`, output: () => out })
    })
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${err}`)))
  })
}

export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()))
}

export function killAll(children: ChildProcess[]): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
}

export async function call(base: string, method: string, path: string, options: { token?: string; json?: unknown; headers?: Record<string, string>; body?: Uint8Array } = {}) {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token) headers['authorization'] = `Bearer ${options.token}`
  if (options.json !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(`${base}${path}`, { method, headers, ...(options.json !== undefined ? { body: JSON.stringify(options.json) } : options.body ? { body: options.body as Uint8Array<ArrayBuffer> } : {}) })
  const raw = Buffer.from(await response.arrayBuffer())
  const isJson = (response.headers.get('content-type') ?? '').includes('json')
  return { status: response.status, headers: response.headers, raw, body: isJson && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : raw.toString('utf8') }
}

/** A new anonymous account, signed up from an address of its own (the child trusts X-Forwarded-For). */
export async function signUp(base: string): Promise<string> {
  const forwardedFor = `127.${randomInt(256)}.${randomInt(256)}.${1 + randomInt(254)}`
  const reply = await call(base, 'POST', '/v1/auth/signup/anonymously', { json: { client_id: WEB_CLIENT_ID }, headers: { 'x-forwarded-for': forwardedFor } })
  if (reply.status !== 200) throw new Error(`sign-up failed: ${reply.status} ${JSON.stringify(reply.body)}`)
  return reply.body.access_token as string
}
