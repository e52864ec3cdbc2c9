import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { TorrentEngineError } from './torrent-engine.js'

/** What to tell an operator whose machine lacks aria2. */
export function aria2InstallHint(aria2cPath: string): string {
  return (
    `BitTorrent downloads (magnet links and .torrent files) need aria2, and "${aria2cPath}" was not found. ` +
    'Install aria2 1.35 or later (Debian/Ubuntu: apt-get install aria2; Fedora: dnf install aria2; ' +
    'Alpine: apk add aria2; macOS: brew install aria2), or point the aria2c path setting at the executable, then retry.'
  )
}

/** How long aria2 gets to open its RPC port. */
const READY_TIMEOUT_MS = 10_000
const READY_POLL_MS = 50
/**
 * How long aria2 gets to exit after `forceShutdown` before SIGKILL. aria2 takes 2–5 s to leave
 * its event loop even with nothing to do; killing it loses nothing, because every start
 * re-hashes the data on disk (`check-integrity`) instead of trusting its control file.
 */
const SHUTDOWN_GRACE_MS = 1_000
/** A bound port can be taken between our probe and aria2's bind; try a few. */
const SPAWN_ATTEMPTS = 3
/** How long a failed call waits for the process's exit event, to report why it died. */
const EXIT_GRACE_MS = 500
/** Lines of aria2's output kept to explain a crash. */
const OUTPUT_LINES_KEPT = 20

/** aria2 answered a JSON-RPC call with an error (e.g. code 1 "GID … is not found"). */
export class Aria2RpcError extends Error {
  readonly code: number

  constructor(code: number, message: string) {
    super(message)
    this.name = 'Aria2RpcError'
    this.code = code
  }
}

export interface Aria2DaemonOptions {
  aria2cPath: string
  /** Parent of the daemon's private folder (conf file with the RPC secret, DHT table). */
  workDir: string
  /** Global options for aria2 (`name=value` lines of its conf file), on top of the RPC ones. */
  options: Record<string, string>
}

async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/**
 * One `aria2c --enable-rpc` process: bound to 127.0.0.1 on a free port, its random RPC secret
 * in a 0600 conf file (never on the command line, where `ps` would show it), and tied to this
 * Node process with `--stop-with-process`, so it exits even when Node is SIGKILLed.
 */
export class Aria2Daemon {
  private constructor(
    private readonly child: ChildProcess,
    private readonly url: string,
    private readonly secret: string,
    private readonly privateDir: string,
    private readonly state: { exitReason: string | null },
    private readonly exited: Promise<void>,
  ) {}

  private nextId = 1

  /** Why the process is gone, or null while it runs. */
  get exitReason(): string | null {
    return this.state.exitReason
  }

  /**
   * Spawns aria2 and waits until its RPC answers. Rejects with `engine_unavailable` when the
   * executable is missing, `engine_failed` when it exits or never answers.
   */
  static async start(options: Aria2DaemonOptions): Promise<Aria2Daemon> {
    await mkdir(options.workDir, { recursive: true, mode: 0o700 })
    let lastError: unknown
    for (let attempt = 0; attempt < SPAWN_ATTEMPTS; attempt++) {
      const privateDir = await mkdtemp(join(options.workDir, 'aria2-'))
      try {
        return await Aria2Daemon.spawnOnce(options, privateDir)
      } catch (error) {
        await rm(privateDir, { recursive: true, force: true })
        if (error instanceof TorrentEngineError && error.code === 'engine_unavailable') throw error
        lastError = error
      }
    }
    throw lastError
  }

  private static async spawnOnce(options: Aria2DaemonOptions, privateDir: string): Promise<Aria2Daemon> {
    const secret = randomBytes(24).toString('hex')
    const port = await freeLoopbackPort()
    const conf = { ...options.options, 'rpc-secret': secret }
    const confPath = join(privateDir, 'aria2.conf')
    await writeFile(confPath, Object.entries(conf).map(([key, value]) => `${key}=${value}\n`).join(''), { mode: 0o600 })
    const args = [
      `--conf-path=${confPath}`,
      '--enable-rpc=true',
      '--rpc-listen-all=false',
      `--rpc-listen-port=${port}`,
      '--rpc-allow-origin-all=false',
      `--stop-with-process=${process.pid}`,
      '--daemon=false',
      '--enable-color=false',
      '--summary-interval=0',
      '--console-log-level=warn',
    ]
    const child = spawn(options.aria2cPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    const output: string[] = []
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue
        output.push(line.trim())
        if (output.length > OUTPUT_LINES_KEPT) output.shift()
      }
    }
    child.stdout?.on('data', keep)
    child.stderr?.on('data', keep)
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve)
      child.once('error', (error: NodeJS.ErrnoException) => {
        reject(
          error.code === 'ENOENT' || error.code === 'EACCES'
            ? new TorrentEngineError('engine_unavailable', aria2InstallHint(options.aria2cPath), { cause: error })
            : new TorrentEngineError('engine_failed', `aria2 could not be started: ${error.message}`, { cause: error }),
        )
      })
    })
    const state: { exitReason: string | null } = { exitReason: null }
    child.once('exit', (code, signal) => {
      state.exitReason = `aria2 exited (${signal ?? `code ${code}`})${output.length > 0 ? `: ${output.slice(-3).join(' | ')}` : ''}`
    })
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()))
    await spawned
    const daemon = new Aria2Daemon(child, `http://127.0.0.1:${port}/jsonrpc`, secret, privateDir, state, exited)
    const deadline = Date.now() + READY_TIMEOUT_MS
    for (;;) {
      if (daemon.exitReason !== null) throw new TorrentEngineError('engine_failed', daemon.exitReason)
      try {
        await daemon.call('aria2.getVersion')
        return daemon
      } catch {
        if (Date.now() > deadline) {
          child.kill('SIGKILL')
          throw new TorrentEngineError('engine_failed', `aria2 did not answer on 127.0.0.1:${port} within ${READY_TIMEOUT_MS / 1000} s`)
        }
        await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS))
      }
    }
  }

  /** The aria2c process id (tests kill it to play a crash). */
  get pid(): number | undefined {
    return this.child.pid
  }

  get alive(): boolean {
    return this.exitReason === null
  }

  /**
   * One JSON-RPC call (the secret is prepended). Rejects with `Aria2RpcError` when aria2 answers
   * with an error, `engine_failed` when it cannot be reached.
   */
  async call<T = unknown>(method: string, ...params: unknown[]): Promise<T> {
    if (this.exitReason !== null) throw new TorrentEngineError('engine_failed', this.exitReason)
    let reply: { result?: T; error?: { code: number; message: string } }
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params: [`token:${this.secret}`, ...params] }),
      })
      reply = (await response.json()) as typeof reply
    } catch (cause) {
      // A refused connection usually means the process just died; give its exit event a
      // moment so the error can say how.
      await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, EXIT_GRACE_MS))])
      throw new TorrentEngineError('engine_failed', this.exitReason ?? `aria2 did not answer ${method}`, { cause })
    }
    if (reply.error) throw new Aria2RpcError(reply.error.code, reply.error.message)
    return reply.result as T
  }

  /**
   * Asks aria2 to shut down, kills it if it has not exited within a second, and removes its
   * private folder. Data on disk stays, so downloads continue on their next start. Idempotent.
   */
  async close(): Promise<void> {
    if (this.exitReason === null) {
      await this.call('aria2.forceShutdown').catch(() => undefined)
      const timer = setTimeout(() => this.child.kill('SIGKILL'), SHUTDOWN_GRACE_MS)
      await this.exited
      clearTimeout(timer)
    }
    await rm(this.privateDir, { recursive: true, force: true })
  }
}
