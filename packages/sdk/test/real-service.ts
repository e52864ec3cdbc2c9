import { randomBytes, randomInt } from 'node:crypto'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type CumulusServer, buildServer, loadConfig } from '@cumulus/server'
import pg from 'pg'
import { POSTGRES_URL, REDIS_URL, testBackend } from '../../../test-support/backend.js'
import { type SmtpSink, startSmtpSink } from '../../../test-support/smtp-sink.js'

/**
 * The REAL Cumulus server, composed by `@cumulus/server` exactly as `cumulus serve` composes it
 * (config from an environment, real Argon2id, real database, real SMTP delivery), but never
 * listening: the SDK reaches it through a `fetch` that hands each request to `app.inject`.
 *
 * In the `postgres` Vitest project each service gets an empty PostgreSQL database of its own and
 * Redis counters (REDIS_URL), like packages/server/test/test-env.ts; in `sqlite` a temp data dir.
 */

export { POSTGRES_URL, REDIS_URL, testBackend } from '../../../test-support/backend.js'

/** What `fetch` takes and returns; the SDK's `fetch` option accepts this. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

export interface InjectedRequest {
  method: string
  /** The absolute URL the caller asked for (origin included). */
  url: string
  headers: Record<string, string>
  body: string
}

export interface SmsMessage {
  to: string
  text: string
}

export interface RealServiceOptions {
  /** CAPTCHA_MODE; default `auto` (the zero-config default). */
  captchaMode?: 'auto' | 'always' | 'off'
  /** The service's PUBLIC_URL, which is also the origin the SDK should use. Default `http://cumulus.test`. */
  origin?: string
  /** More environment keys (CUMULUS_CLIENTS, …). */
  env?: Record<string, string>
}

export interface RealService {
  /** A fetch that forwards every request to `app.inject` (whatever its origin); no socket. */
  fetch: FetchFunction
  /** PUBLIC_URL: the origin to give the SDK; the captcha challenge URL points here. */
  origin: string
  /** The SMTP sink the service's MAIL_URL points at. */
  mail: SmtpSink
  /** The SMS outbox (SMS_URL file://…), oldest first. */
  sms(): SmsMessage[]
  /** Every request the fetch forwarded, oldest first. */
  requests: InjectedRequest[]
  app: CumulusServer['app']
  server: CumulusServer
  backend: ReturnType<typeof testBackend>
  close(): Promise<void>
}

/** Forwards fetch calls to `app.inject`, as `remoteAddress`. Honours the request's AbortSignal. */
export function injectFetch(app: CumulusServer['app'], remoteAddress = '127.0.0.1', log?: InjectedRequest[]): FetchFunction {
  return async (input, init) => {
    const request = new Request(input, init)
    request.signal.throwIfAborted()
    const url = new URL(request.url)
    const headers: Record<string, string> = {}
    request.headers.forEach((value, name) => {
      headers[name] = value
    })
    headers['host'] ??= url.host
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer())
    log?.push({ method: request.method, url: request.url, headers, body: body?.toString('utf8') ?? '' })
    const injected = app.inject({
      method: request.method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers,
      remoteAddress,
      ...(body === undefined ? {} : { payload: body }),
    })
    const aborted = new Promise<never>((_, reject) => {
      request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true })
    })
    const reply = await Promise.race([injected, aborted])
    const replyHeaders = new Headers()
    for (const [name, value] of Object.entries(reply.headers)) {
      if (value === undefined) continue
      for (const item of Array.isArray(value) ? value : [value]) replyHeaders.append(name, String(item))
    }
    const noBody = request.method === 'HEAD' || [101, 103, 204, 205, 304].includes(reply.statusCode)
    return new Response(noBody ? null : new Uint8Array(reply.rawPayload), { status: reply.statusCode, statusText: reply.statusMessage, headers: replyHeaders })
  }
}

/**
 * A network where `downOrigin` cannot be reached: its requests fail the way undici's fetch fails
 * when a host refuses the connection (TypeError 'fetch failed'); every other request goes to `target`.
 */
export function networkDownFetch(downOrigin: string, target: FetchFunction): FetchFunction & { attempts: string[] } {
  const attempts: string[] = []
  const down = new URL(downOrigin).origin
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input)
    if (new URL(url).origin === down) {
      attempts.push(url)
      throw new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ECONNREFUSED ${down}`), { code: 'ECONNREFUSED' }) })
    }
    return target(input, init)
  }
  return Object.assign(fetch, { attempts })
}

async function postgresAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

function readSmsOutbox(dir: string): SmsMessage[] {
  let names: string[]
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.txt') && !n.startsWith('.'))
  } catch {
    return []
  }
  return names.sort().map((name) => {
    const content = readFileSync(join(dir, name), 'utf8')
    const [head = '', ...rest] = content.split('\n\n')
    return { to: head.replace(/^To:\s*/, '').trim(), text: rest.join('\n\n').trim() }
  })
}

/**
 * Starts the real service. Each service answers as if every caller came from its own random
 * loopback address, so per-IP counters (captcha init, lockout, risk) in a shared Redis never mix
 * with those of another service or of another test file running at the same time.
 */
export async function startRealService(options: RealServiceOptions = {}): Promise<RealService> {
  const backend = testBackend()
  const origin = (options.origin ?? 'http://cumulus.test').replace(/\/+$/, '')
  const dataDir = mkdtempSync(join(tmpdir(), 'cumulus-sdk-'))
  const smsDir = join(dataDir, 'sms-outbox')
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dataDir, { recursive: true, force: true })]
  const runCleanups = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  }

  try {
    const mail = await startSmtpSink()
    cleanups.push(() => mail.close())

    const env: Record<string, string> = {
      CUMULUS_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: origin,
      MAIL_URL: mail.url,
      SMS_URL: pathToFileURL(smsDir).href,
      CAPTCHA_MODE: options.captchaMode ?? 'auto',
    }
    if (backend === 'postgres') {
      const database = `cumulus_sdk_${randomBytes(6).toString('hex')}`
      await postgresAdmin(`CREATE DATABASE ${database}`)
      cleanups.push(() => postgresAdmin(`DROP DATABASE ${database} WITH (FORCE)`))
      env['DATABASE_URL'] = POSTGRES_URL.replace(/\/test$/, `/${database}`)
      env['REDIS_URL'] = REDIS_URL
      // The send budgets live in this Redis, shared by every run and both Vitest projects, and on
      // Redis' own clock, which advanceClock cannot move: no resend throttle, no service-wide cap.
      env['VERIFICATION_RESEND_INTERVAL_SECONDS'] = '0'
      env['VERIFICATION_SENDS_PER_HOUR'] = '1000000'
    }

    const server = await buildServer(loadConfig({ ...env, ...options.env }), { housekeeping: false })
    cleanups.push(() => server.close())

    const remoteAddress = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`
    const requests: InjectedRequest[] = []
    return {
      fetch: injectFetch(server.app, remoteAddress, requests),
      origin,
      mail,
      sms: () => readSmsOutbox(smsDir),
      requests,
      app: server.app,
      server,
      backend,
      close: runCleanups,
    }
  } catch (err) {
    await runCleanups()
    throw err
  }
}
