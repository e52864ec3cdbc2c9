import { randomInt } from 'node:crypto'
import { type CumulusServer, buildServer, loadConfig } from '@cumulus/server'
import { grantVip } from '@cumulus/identity'
import { WEB_CLIENT_ID } from '@cumulus/protocol'
import { type TestEnvironment, testEnvironment } from '../../server/test/test-env.js'

export { testBackend } from '../../../test-support/backend.js'

/** A reply as the tests read it. */
export interface Reply<T = any> {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: T
  raw: Buffer
}

export interface DriveTestApp {
  server: CumulusServer
  environment: TestEnvironment
  /** A new anonymous account's bearer token. */
  signUp(): Promise<string>
  /** Makes the account of `token` a member for `days`. */
  makeVip(token: string, days?: number): Promise<void>
  /** One request through the real app (no socket). JSON bodies in, parsed JSON out when the reply is JSON. */
  call<T = any>(method: string, url: string, options?: { token?: string; body?: unknown; query?: Record<string, string>; headers?: Record<string, string>; payload?: Buffer | string }): Promise<Reply<T>>
  close(): Promise<void>
}

/**
 * The whole composed server (identity + drive, no web app) on this project's backend: SQLite in
 * a temp data directory, or a fresh PostgreSQL database with Redis.
 */
export async function startDriveTestApp(env: Record<string, string> = {}, options: { offlineDownloads?: boolean } = {}): Promise<DriveTestApp> {
  const environment = await testEnvironment({ PUBLIC_URL: 'http://127.0.0.1:3000', CAPTCHA_MODE: 'off', ...env })
  const config = loadConfig(environment.env)
  // Offline downloads stay queued unless a test serves their links itself: a task's run would
  // otherwise look up the tests' example.com hosts, outside this machine.
  const server = await buildServer(config, { web: false, housekeeping: false, offlineDownloads: options.offlineDownloads ?? false })
  const tokens = new Map<string, string>()
  const app: DriveTestApp = {
    server,
    environment,
    async signUp() {
      // Each account from its own loopback address: anonymous sign-ups are limited per IP per hour,
      // and on PostgreSQL that counter lives in the Redis every test run shares.
      const remoteAddress = `127.${randomInt(256)}.${randomInt(256)}.${1 + randomInt(254)}`
      const reply = await server.app.inject({ method: 'POST', url: '/v1/auth/signup/anonymously', payload: { client_id: WEB_CLIENT_ID }, remoteAddress })
      if (reply.statusCode !== 200) throw new Error(`anonymous sign-up failed: ${reply.statusCode} ${reply.body}`)
      const body = reply.json() as { access_token: string; sub: string }
      tokens.set(body.access_token, body.sub)
      return body.access_token
    },
    async makeVip(token, days = 30) {
      const sub = tokens.get(token)
      if (!sub) throw new Error('unknown token')
      await grantVip(server.identity, { user: sub, days, year: false })
    },
    async call(method, url, options = {}) {
      const headers: Record<string, string> = { ...options.headers }
      if (options.token) headers.authorization = `Bearer ${options.token}`
      const reply = await server.app.inject({
        method: method as 'GET',
        url,
        query: options.query,
        headers,
        ...(options.payload !== undefined ? { payload: options.payload } : options.body !== undefined ? { payload: options.body as object } : {}),
      })
      const type = String(reply.headers['content-type'] ?? '')
      return {
        status: reply.statusCode,
        headers: reply.headers as Reply['headers'],
        body: (type.includes('json') && reply.body ? reply.json() : reply.body) as never,
        raw: reply.rawPayload,
      }
    },
    async close() {
      await server.close()
      await environment.cleanup()
    },
  }
  return app
}
