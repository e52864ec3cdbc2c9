import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { AccountErrors, GenericErrors } from '@cumulus/protocol'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type TestEnvironment, postgresAdmin, testBackend, testEnvironment } from '../test/test-env.js'
import { startSession } from '@cumulus/identity'
import { loadConfig } from './config.js'
import { ID_TOKEN_KEY_FILE, SIGNING_KEY_FILE } from './keys.js'
import { type CumulusServer, buildServer } from './server.js'

describe('buildServer', () => {
  let environment: TestEnvironment | undefined
  let server: CumulusServer | undefined
  afterEach(async () => {
    await server?.close()
    await environment?.cleanup()
    server = undefined
    environment = undefined
  })

  async function start(extra: Record<string, string> = {}) {
    environment = await testEnvironment(extra)
    server = await buildServer(loadConfig(environment.env))
    return { app: server.app, dataDir: environment.dataDir }
  }

  it('answers /healthz and publishes the signing key from the data directory at /.well-known/jwks.json', async () => {
    const { app, dataDir } = await start()
    const health = await app.inject({ method: 'GET', url: '/healthz' })
    expect(health.statusCode).toBe(200)
    expect(health.json()).toEqual({ status: 'ok' })

    const jwks = await app.inject({ method: 'GET', url: '/.well-known/jwks.json' })
    expect(jwks.statusCode).toBe(200)
    const stored = JSON.parse(readFileSync(join(dataDir, 'keys', SIGNING_KEY_FILE), 'utf8'))
    const idKey = JSON.parse(readFileSync(join(dataDir, 'keys', ID_TOKEN_KEY_FILE), 'utf8'))
    expect(jwks.json()).toEqual({
      keys: [
        { kty: 'EC', crv: 'P-256', x: stored.x, y: stored.y, alg: 'ES256', use: 'sig', kid: stored.kid },
        // The ID-token key (RS256), public half only.
        { kty: 'RSA', n: idKey.n, e: idKey.e, alg: 'RS256', use: 'sig', kid: idKey.kid },
      ],
    })
    expect(jwks.body).not.toContain(stored.d)
    expect(jwks.body).not.toContain(idKey.d)
  })

  it('lets a token into the drive only with the pan scope', async () => {
    const { app } = await start()
    const anonymous = (await app.inject({ method: 'POST', url: '/v1/auth/signup/anonymously', payload: { client_id: 'cumulus-web' } })).json()
    const web = await app.inject({ method: 'GET', url: '/drive/v1/files', headers: { authorization: `Bearer ${anonymous.access_token}` } })
    expect(web.statusCode, web.body).toBe(200)
    // What a third-party app holds after the user granted it only `openid profile`.
    const deps = server!.identity
    const client = (await deps.clients.require('cumulus-web'))
    const narrow = await startSession(deps, { userId: anonymous.sub, client, deviceId: '', scope: 'openid profile' })
    const refused = await app.inject({ method: 'GET', url: '/drive/v1/files', headers: { authorization: `Bearer ${narrow.access_token}` } })
    expect(refused.statusCode, refused.body).toBe(403)
    expect(refused.json()).toMatchObject({ error: 'permission_denied', error_code: GenericErrors.permission_denied.code })
  })

  it('migrates the database on start, where the configuration says it lives', async () => {
    await start()
    if (testBackend() === 'postgres') {
      const tables = await postgresAdmin("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'", [], environment!.databaseUrl)
      expect(tables.rows.map((r) => r.table_name)).toEqual(expect.arrayContaining(['identity_users', 'identity_sessions', 'identity_migrations']))
    } else {
      expect(existsSync(join(environment!.dataDir, 'cumulus.db'))).toBe(true)
    }
    // A second start on the same database finds it migrated and keeps the same key.
    const jwksBefore = (await server!.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json()
    await server!.close()
    server = await buildServer(loadConfig(environment!.env))
    expect((await server.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json()).toEqual(jwksBefore)
  })

  it.runIf(testBackend() === 'postgres')('keeps its tables in the schema named by DATABASE_URL, beside another installation', async () => {
    await start()
    await server!.close()
    // The public schema now holds a migrated installation; a second one goes into schema `tenant_b`.
    await postgresAdmin('CREATE SCHEMA tenant_b', [], environment!.databaseUrl)
    server = await buildServer(loadConfig({ ...environment!.env, DATABASE_URL: `${environment!.databaseUrl}?schema=tenant_b` }))
    expect((await server.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
    const tables = await postgresAdmin(
      "SELECT table_schema, count(*)::int AS n FROM information_schema.tables WHERE table_name LIKE 'identity_%' GROUP BY table_schema ORDER BY table_schema",
      [],
      environment!.databaseUrl,
    )
    expect(tables.rows).toEqual([
      { table_schema: 'public', n: 18 },
      { table_schema: 'tenant_b', n: 18 },
    ])
  })

  it('renders an unknown route as the contract error body, with a request id', async () => {
    const { app } = await start()
    const missing = await app.inject({ method: 'GET', url: '/v1/nothing-here' })
    expect(missing.statusCode).toBe(GenericErrors.not_found.status)
    expect(missing.json()).toMatchObject({ error: 'not_found', error_code: GenericErrors.not_found.code })
    expect(missing.headers['x-request-id']).toEqual(expect.any(String))
  })

  it('answers CORS preflights for the public URL origin only', async () => {
    const { app } = await start({ PUBLIC_URL: 'https://drive.example.com' })
    const preflight = (origin: string) =>
      app.inject({ method: 'OPTIONS', url: '/v1/auth/signin', headers: { origin, 'access-control-request-method': 'POST' } })
    expect((await preflight('https://drive.example.com')).headers['access-control-allow-origin']).toBe('https://drive.example.com')
    expect((await preflight('https://evil.example.com')).headers['access-control-allow-origin']).toBeUndefined()
  })

  it('stops with a readable error when Redis cannot be reached', async () => {
    environment = await testEnvironment({ REDIS_URL: 'redis://:hunter2-secret@127.0.0.1:1' })
    const failure = buildServer(loadConfig(environment.env))
    await expect(failure).rejects.toThrow(/^cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1/)
    await expect(failure).rejects.not.toThrow(/hunter2/)
  })

  it('closes idempotently', async () => {
    await start()
    await server!.close()
    await expect(server!.close()).resolves.toBeUndefined()
  })
})

/**
 * The README's curl walkthrough, step by step, against a fresh server with the default file
 * outbox. If this fails, the README is wrong.
 */
describe('the README walkthrough', () => {
  let environment: TestEnvironment
  let server: CumulusServer
  afterEach(async () => {
    await server?.close()
    await environment?.cleanup()
  })

  const post = (app: FastifyInstance, url: string, body: object, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, payload: body, headers: { 'content-type': 'application/json', ...headers } })

  async function captcha(app: FastifyInstance, action: string, meta: Record<string, string>) {
    const res = await post(app, '/v1/shield/captcha/init', { client_id: 'cumulus-web', action, meta })
    expect(res.statusCode, res.body).toBe(200)
    return res.json().captcha_token as string
  }

  it('signs up by e-mail code, signs in, refreshes, reads the profile and deletes the account', async () => {
    environment = await testEnvironment()
    server = await buildServer(loadConfig(environment.env))
    const { app } = server
    const email = 'newcomer@example.com'
    const password = 'correct horse battery staple'

    const sent = await post(app, '/v1/auth/verification', { email, usage: 'REGISTER', target: 'ANY', client_id: 'cumulus-web' }, { 'x-captcha-token': await captcha(app, 'POST:/v1/auth/verification', { email }) })
    expect(sent.statusCode, sent.body).toBe(200)
    expect(sent.json()).toMatchObject({ verification_id: expect.any(String), selected_channel: 'VERIFICATION_EMAIL' })

    const outbox = join(environment.dataDir, 'outbox')
    const subject = await vi.waitFor(() => {
      const files = readdirSync(outbox).filter((f) => f.endsWith('.eml'))
      expect(files).toHaveLength(1)
      return /^Subject: (.*)$/m.exec(readFileSync(join(outbox, files[0]!), 'utf8'))![1]!
    })
    const code = /\b(\d{6})\b/.exec(subject)![1]!

    const verified = await post(app, '/v1/auth/verification/verify', { verification_id: sent.json().verification_id, verification_code: code, client_id: 'cumulus-web' })
    expect(verified.statusCode, verified.body).toBe(200)

    const signedUp = await post(
      app,
      '/v1/auth/signup',
      { email, verification_token: verified.json().verification_token, password, name: 'Newcomer', client_id: 'cumulus-web' },
      { 'x-captcha-token': await captcha(app, 'POST:/v1/auth/signup', { email }) },
    )
    expect(signedUp.statusCode, signedUp.body).toBe(200)

    const signedIn = await post(app, '/v1/auth/signin', { username: email, password, client_id: 'cumulus-web' }, { 'x-captcha-token': await captcha(app, 'POST:/v1/auth/signin', { email }) })
    expect(signedIn.statusCode, signedIn.body).toBe(200)
    expect(signedIn.json()).toMatchObject({ token_type: 'Bearer', expires_in: 7200, sub: signedUp.json().sub })

    const refreshed = await post(app, '/v1/auth/token', { grant_type: 'refresh_token', refresh_token: signedIn.json().refresh_token, client_id: 'cumulus-web' })
    expect(refreshed.statusCode, refreshed.body).toBe(200)
    const bearer = { authorization: `Bearer ${refreshed.json().access_token}` }

    const me = await app.inject({ method: 'GET', url: '/v1/user/me', headers: bearer })
    expect(me.statusCode, me.body).toBe(200)
    expect(me.json()).toMatchObject({ sub: signedUp.json().sub, email, name: 'Newcomer', status: 'ACTIVE' })

    const sudo = await post(app, '/v1/user/sudo', { password }, bearer)
    expect(sudo.statusCode, sudo.body).toBe(200)
    const deleted = await app.inject({ method: 'DELETE', url: `/v1/user/me?sudo_token=${encodeURIComponent(sudo.json().sudo_token)}`, headers: bearer })
    expect(deleted.statusCode, deleted.body).toBe(200)

    // The account is in its cancellation review: sessions are gone, sign-in answers account_freeze.
    expect((await app.inject({ method: 'GET', url: '/v1/user/me', headers: bearer })).statusCode).toBe(GenericErrors.unauthenticated.status)
    const frozen = await post(app, '/v1/auth/signin', { username: email, password, client_id: 'cumulus-web' }, { 'x-captcha-token': await captcha(app, 'POST:/v1/auth/signin', { email }) })
    expect(frozen.json()).toMatchObject({ error: AccountErrors.account_freeze.reason, error_code: AccountErrors.account_freeze.code })
  })
})
