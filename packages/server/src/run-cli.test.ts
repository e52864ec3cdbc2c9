import { EventEmitter } from 'node:events'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { systemClock } from '@cumulus/identity'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Captured, type TestEnvironment, testEnvironment } from '../test/test-env.js'
import { loadConfig } from './config.js'
import { runCli } from './run-cli.js'
import { buildServer } from './server.js'

describe('cumulus user …', () => {
  let environment: TestEnvironment
  let stdout: Captured
  let stderr: Captured
  beforeEach(async () => {
    environment = await testEnvironment()
    stdout = new Captured()
    stderr = new Captured()
  })
  afterEach(() => environment.cleanup())

  async function cli(...argv: string[]) {
    stdout.clear()
    stderr.clear()
    const code = await runCli(argv, environment.env, { stdout, stderr })
    return { code, out: stdout.text, err: stderr.text }
  }

  async function usersAsJson() {
    const listed = await cli('user', 'list', '--json')
    expect(listed.code, listed.err).toBe(0)
    return JSON.parse(listed.out) as Record<string, unknown>[]
  }

  it('creates a user on a fresh data directory and lists it, without creating key files', async () => {
    const created = await cli('user', 'create', '--email', 'Ann@Example.com', '--password', 'correct horse battery', '--name', 'Ann')
    expect(created).toMatchObject({ code: 0, err: '' })
    expect(created.out).toMatch(/^Created user u\S+ \(ann@example\.com, name "Ann"\)\./)

    const listed = await cli('user', 'list')
    expect(listed.code).toBe(0)
    const [header, row, ...rest] = listed.out.trimEnd().split('\n')
    expect(header).toMatch(/^ID\s+SIGN-IN\s+NAME\s+STATUS\s+CREATED$/)
    expect(row).toMatch(/^u\S+\s+ann@example\.com\s+Ann\s+active\s+\d{4}-\d\d-\d\d \d\d:\d\dZ$/)
    expect(rest).toEqual([])

    const [user] = await usersAsJson()
    expect(user).toEqual({
      id: expect.stringMatching(/^u/),
      email: 'ann@example.com',
      phone_number: null,
      username: null,
      name: 'Ann',
      status: 'ACTIVE',
      anonymous: false,
      has_password: true,
      created_at: expect.any(String),
      deletion_requested_at: null,
      erase_at: null,
    })
    expect(JSON.stringify(user)).not.toMatch(/argon2/)
    // Operator commands issue no tokens; key files are the server's to create.
    expect(existsSync(join(environment.dataDir, 'keys'))).toBe(false)
  })

  it('lets the created user sign in through the server', async () => {
    await cli('user', 'create', '--email', 'bob@example.com', '--password', 'correct horse battery')
    const server = await buildServer(loadConfig(environment.env), { housekeeping: false })
    try {
      const captcha = await server.app.inject({ method: 'POST', url: '/v1/shield/captcha/init', payload: { client_id: 'cumulus-web', action: 'POST:/v1/auth/signin', meta: { email: 'bob@example.com' } } })
      const signIn = await server.app.inject({
        method: 'POST',
        url: '/v1/auth/signin',
        headers: { 'x-captcha-token': captcha.json().captcha_token },
        payload: { username: 'bob@example.com', password: 'correct horse battery', client_id: 'cumulus-web' },
      })
      expect(signIn.statusCode, signIn.body).toBe(200)
    } finally {
      await server.close()
    }
  })

  it('prints the AppError description and exits 1 for a duplicate or a weak password', async () => {
    await cli('user', 'create', '--email', 'ann@example.com', '--password', 'correct horse battery')
    expect(await cli('user', 'create', '--email', 'ANN@example.com', '--password', 'another good one')).toEqual({
      code: 1,
      out: '',
      err: 'error: a user with e-mail ann@example.com already exists\n',
    })
    expect(await cli('user', 'create', '--email', 'cat@example.com', '--password', 'short')).toEqual({
      code: 1,
      out: '',
      err: 'error: password must be 8 to 128 characters\n',
    })
    expect(await cli('user', 'create', '--email', 'not-an-address', '--password', 'correct horse battery')).toMatchObject({
      code: 1,
      err: 'error: not an e-mail address: not-an-address\n',
    })
  })

  it('pages the list with --limit and --offset', async () => {
    for (const name of ['a', 'b', 'c']) await cli('user', 'create', '--email', `${name}@example.com`, '--password', 'correct horse battery')
    const firstTwo = await cli('user', 'list', '--limit', '2')
    expect(firstTwo.out).toContain('a@example.com')
    expect(firstTwo.out).toContain('b@example.com')
    expect(firstTwo.out).not.toContain('c@example.com')
    expect(firstTwo.out).toContain('use --offset 2 for more')
    const rest = await cli('user', 'list', '--limit', '2', '--offset', '2', '--json')
    expect(JSON.parse(rest.out).map((u: { email: string }) => u.email)).toEqual(['c@example.com'])
    expect((await cli('user', 'list', '--limit', '0')).code).toBe(2)
  })

  it('says how to begin when there are no users', async () => {
    expect(await cli('user', 'list')).toEqual({ code: 0, out: 'No users yet. Create one with: cumulus user create --email E --password P\n', err: '' })
    expect(await usersAsJson()).toEqual([])
  })

  it('grants VIP by e-mail or id and extends it on a second grant', async () => {
    await cli('user', 'create', '--email', 'vip@example.com', '--password', 'correct horse battery')
    const before = Date.now()
    const granted = await cli('user', 'grant-vip', 'vip@example.com', '--days', '30')
    expect(granted.code, granted.err).toBe(0)
    expect(granted.out).toMatch(/^Granted 30 days of VIP to vip@example\.com \(u\S+\)\.\nThe monthly membership now expires (\S+)\.\n$/)
    const firstExpiry = Date.parse(/expires (\S+)\.$/m.exec(granted.out)![1]!)
    expect(firstExpiry - before).toBeGreaterThanOrEqual(30 * 86_400_000 - 1000)
    expect(firstExpiry - before).toBeLessThanOrEqual(30 * 86_400_000 + 60_000)

    const [user] = await usersAsJson()
    const extended = await cli('user', 'grant-vip', String(user!.id), '--days', '365', '--year')
    expect(extended.code, extended.err).toBe(0)
    expect(extended.out).toContain('The yearly membership now expires')
    expect(Date.parse(/expires (\S+)\.$/m.exec(extended.out)![1]!) - firstExpiry).toBe(365 * 86_400_000)
  })

  it('refuses a bad grant with the reason', async () => {
    await cli('user', 'create', '--email', 'vip@example.com', '--password', 'correct horse battery')
    expect(await cli('user', 'grant-vip', 'vip@example.com', '--days', '0')).toMatchObject({ code: 1, err: 'error: days must be a whole number from 1 to 36500\n' })
    expect(await cli('user', 'grant-vip', 'nobody@example.com', '--days', '3')).toMatchObject({ code: 1, err: 'error: no user nobody@example.com\n' })
    expect(await cli('user', 'grant-vip', 'vip@example.com')).toMatchObject({ code: 2, err: expect.stringContaining('needs --days N') })
    expect(await cli('user', 'grant-vip', 'vip@example.com', '--days', 'ten')).toMatchObject({ code: 2, err: expect.stringContaining('--days must be a whole number') })
  })

  it('restores an account pending deletion, and says so when there is nothing to restore', async () => {
    await cli('user', 'create', '--email', 'leaving@example.com', '--password', 'correct horse battery')
    const server = await buildServer(loadConfig(environment.env), { housekeeping: false })
    try {
      const user = (await server.identity.users.findByEmail('leaving@example.com'))!
      const nowMs = systemClock.nowMs()
      await server.identity.users.requestDeletion(user.id, nowMs, nowMs + 15 * 86_400_000)
    } finally {
      await server.close()
    }
    const [pending] = await usersAsJson()
    expect(pending).toMatchObject({ status: 'FROZEN', erase_at: expect.any(String) })
    expect((await cli('user', 'list')).out).toMatch(/pending deletion \(erased \d{4}-/)

    const restored = await cli('user', 'restore', 'leaving@example.com')
    expect(restored.code, restored.err).toBe(0)
    expect(restored.out).toMatch(/^Restored leaving@example\.com \(u\S+\): the pending deletion is cancelled and the account is active again\.\n$/)
    expect(await usersAsJson()).toEqual([expect.objectContaining({ status: 'ACTIVE', erase_at: null, deletion_requested_at: null })])

    expect(await cli('user', 'restore', 'leaving@example.com')).toEqual({ code: 1, out: '', err: 'error: this account is not pending deletion\n' })
    expect(await cli('user', 'restore', 'u-nobody')).toEqual({ code: 1, out: '', err: 'error: no user u-nobody\n' })
  })

  it('prints activation codes that a running server redeems, once each, and refuses bad code runs', async () => {
    const made = await cli('vip', 'codes', 'create', '--plan', 'vip', '--days', '31', '--count', '3')
    expect(made.code, made.err).toBe(0)
    const codes = made.out.trim().split('\n')
    expect(codes).toHaveLength(3)
    for (const code of codes) expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/)
    expect(made.err).toBe('Made 3 codes for 31 days of vip. Keep them safe: they cannot be shown again.\n')
    expect(JSON.parse((await cli('vip', 'codes', 'create', '--plan', 'vip', '--days', '1', '--json')).out)).toHaveLength(1)

    const server = await buildServer(loadConfig(environment.env), { housekeeping: false, web: false })
    try {
      const signUp = await server.app.inject({ method: 'POST', url: '/v1/auth/signup/anonymously', payload: { client_id: 'cumulus-web' } })
      const authorization = `Bearer ${signUp.json().access_token}`
      const redeem = (code: string) => server.app.inject({ method: 'POST', url: '/vip/v1/order/activation-code', headers: { authorization }, payload: { activation_code: code, data: {} } })
      const first = await redeem(codes[0]!)
      expect(first.statusCode, first.body).toBe(200)
      expect(first.json()).toMatchObject({ add_days: 31, code: codes[0], data: { status: 'ok', type: 'vip' } })
      expect((await redeem(codes[0]!)).json()).toMatchObject({ error: 'activation_code_used' })
      const me = await server.app.inject({ method: 'GET', url: '/v1/user/me', headers: { authorization } })
      expect(me.json().vip_info[0]).toMatchObject({ is_vip: 1, vas_type: 'vip' })
      const privilege = await server.app.inject({ method: 'GET', url: '/drive/v1/privilege/vip', headers: { authorization } })
      expect(privilege.json().data).toMatchObject({ status: 'ok', type: 'vip' })
    } finally {
      await server.close()
    }

    expect(await cli('vip', 'codes', 'create', '--plan', 'vip', '--days', '0')).toMatchObject({ code: 1, err: 'error: days must be a whole number from 1 to 36500\n' })
    expect(await cli('vip', 'codes', 'create', '--plan', 'gold', '--days', '3')).toMatchObject({ code: 2, err: expect.stringContaining('--plan must be one of vip') })
    expect(await cli('vip', 'codes', 'create', '--days', '3')).toMatchObject({ code: 2, err: expect.stringContaining('needs --plan P and --days N') })
    expect(await cli('vip', 'codes', 'create', '--plan', 'vip', '--days', '3', '--count', 'many')).toMatchObject({ code: 2, err: expect.stringContaining('--count must be a whole number') })
    expect(await cli('vip', 'codes', 'list')).toMatchObject({ code: 2 })
    expect(await cli('vip')).toMatchObject({ code: 2 })
  })

  it('registers OAuth clients that a running server accepts, lists them and removes them', async () => {
    const confidential = await cli('client', 'add', 'backup-svc', '--name', 'Backup service', '--type', 'confidential', '--redirect-uri', 'https://backup.example/cb', '--json')
    expect(confidential.code, confidential.err).toBe(0)
    const registered = JSON.parse(confidential.out) as { client_id: string; client_secret: string; type: string }
    expect(registered).toMatchObject({ client_id: 'backup-svc', type: 'confidential' })
    expect(registered.client_secret.length).toBeGreaterThanOrEqual(40)
    const tv = await cli('client', 'add', 'tv', '--name', 'TV', '--grant', 'urn:ietf:params:oauth:grant-type:device_code', '--grant', 'refresh_token')
    expect(tv.code, tv.err).toBe(0)
    expect(tv.out).toContain('It has no secret: it must use PKCE')

    const listed = JSON.parse((await cli('client', 'list', '--json')).out) as { client_id: string; source: string; type: string }[]
    expect(listed.map((c) => [c.client_id, c.source, c.type])).toEqual([
      ['cumulus-web', 'config', 'first_party'],
      ['backup-svc', 'registered', 'confidential'],
      ['tv', 'registered', 'public'],
    ])

    const server = await buildServer(loadConfig(environment.env), { housekeeping: false, web: false })
    try {
      const device = await server.app.inject({ method: 'POST', url: '/v1/auth/device/code', payload: { client_id: 'tv' } })
      expect(device.statusCode, device.body).toBe(200)
      // The secret is checked against its stored hash.
      const wrong = await server.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { client_id: 'backup-svc', client_secret: 'not-it', grant_type: 'refresh_token', refresh_token: 'x' } })
      expect(wrong.json()).toMatchObject({ error: 'unauthorized_client' })
      const right = await server.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { client_id: 'backup-svc', client_secret: registered.client_secret, grant_type: 'refresh_token', refresh_token: 'x' } })
      expect(right.json()).toMatchObject({ error: 'invalid_grant' })
    } finally {
      await server.close()
    }

    expect(await cli('client', 'remove', 'tv')).toMatchObject({ code: 0 })
    expect(await cli('client', 'remove', 'tv')).toMatchObject({ code: 1, err: 'error: no registered client tv\n' })
    expect(await cli('client', 'remove', 'cumulus-web')).toMatchObject({ code: 1, err: expect.stringContaining('is configured') })
    expect(await cli('client', 'add', 'backup-svc', '--type', 'public', '--redirect-uri', 'https://x.example/cb')).toMatchObject({ code: 1, err: expect.stringContaining('exists already') })
    expect(await cli('client', 'add', 'bad', '--redirect-uri', 'http://evil.example/cb')).toMatchObject({ code: 1, err: expect.stringContaining('plain http is only for loopback') })
    expect(await cli('client', 'add', 'x', '--type', 'robot')).toMatchObject({ code: 2 })
    expect(await cli('client')).toMatchObject({ code: 2 })
  })

  it('answers usage mistakes with exit code 2 and a pointer to help', async () => {
    for (const argv of [
      ['user'],
      ['user', 'delete'],
      ['user', 'create', '--email', 'a@example.com'],
      ['user', 'create', '--email', 'a@example.com', '--password', 'correct horse battery', '--admin'],
      ['user', 'restore'],
      ['user', 'restore', 'a', 'b'],
      ['launch'],
    ]) {
      const result = await cli(...argv)
      expect(result.code, argv.join(' ')).toBe(2)
      expect(result.err).toMatch(/^error: .+\nRun "cumulus help" for usage\.\n$/)
    }
    expect(await cli('help')).toMatchObject({ code: 0, out: expect.stringContaining('user grant-vip <user id or e-mail> --days N [--year]') })
    expect((await cli('help')).out).toContain('vip codes create --plan vip --days N')
    expect(await cli()).toMatchObject({ code: 2, err: expect.stringContaining('Usage: cumulus <command>') })
  })

  it('lists every bad configuration key and exits 1 before touching the database', async () => {
    environment.env.PORT = 'eighty'
    environment.env.CAPTCHA_MODE = 'maybe'
    const result = await cli('user', 'list', '--database-url', 'mysql://db')
    expect(result.code).toBe(1)
    expect(result.err).toBe(
      [
        'error: Invalid configuration (3 problems):',
        '  PORT: must be a whole number from 0 to 65535',
        '  --database-url: must be a postgres:// or postgresql:// URL (leave it unset for embedded SQLite in the data directory)',
        '  CAPTCHA_MODE: must be auto, always or off',
        '',
      ].join('\n'),
    )
    expect(existsSync(join(environment.dataDir, 'cumulus.db'))).toBe(false)
  })
})

describe('cumulus serve', () => {
  let environment: TestEnvironment
  afterEach(() => environment.cleanup())

  it('listens, logs one startup line with the redacted config, and shuts down gracefully on SIGTERM', async () => {
    environment = await testEnvironment({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', CUMULUS_SECRET: 'a-secret-that-is-long-enough-0123456789' })
    const stdout = new Captured()
    const stderr = new Captured()
    const signals = new EventEmitter()
    const exit = runCli(['serve'], environment.env, { stdout, stderr, signals })

    const startup = await vi.waitFor(
      () => {
        const line = stdout.text.split('\n').find((l) => l.includes('Cumulus is serving'))
        expect(line, stderr.text).toBeDefined()
        return JSON.parse(line!)
      },
      { timeout: 10_000 },
    )
    expect(startup).toMatchObject({ level: 30, msg: 'Cumulus is serving http://localhost:0', listen: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) })
    expect(startup.config).toMatchObject({ secret: '[redacted] (CUMULUS_SECRET)', port: 0 })
    expect(stdout.text).not.toContain('a-secret-that-is-long-enough')

    const health = await fetch(`${startup.listen}/healthz`)
    expect(await health.json()).toEqual({ status: 'ok' })

    signals.emit('SIGTERM', 'SIGTERM')
    await expect(exit).resolves.toBe(0)
    expect(signals.listenerCount('SIGTERM') + signals.listenerCount('SIGINT')).toBe(0)
    await expect(fetch(`${startup.listen}/healthz`)).rejects.toThrow()
  })

  it('exits 1 with a readable message when the port is taken', async () => {
    environment = await testEnvironment({ HOST: '127.0.0.1', PORT: '0' })
    const blocker = await buildServer(loadConfig(environment.env), { housekeeping: false })
    try {
      const address = await blocker.app.listen({ port: 0, host: '127.0.0.1' })
      const port = new URL(address).port
      const stderr = new Captured()
      const code = await runCli(['serve', '--port', port], environment.env, { stdout: new Captured(), stderr, signals: new EventEmitter() })
      expect(code).toBe(1)
      expect(stderr.text).toBe(`error: cannot listen on 127.0.0.1:${port}: the port is in use; set PORT (or --port) to a free one\n`)
    } finally {
      await blocker.close()
    }
  })
})
