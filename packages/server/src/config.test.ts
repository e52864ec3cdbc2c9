import { generateKeyPairSync } from 'node:crypto'
import { join, resolve } from 'node:path'
import { inspect } from 'node:util'
import { IDENTITY_DEFAULTS } from '@cumulus/identity'
import { describe, expect, it } from 'vitest'
import { ConfigError, type ConfigIssue, loadConfig, redactConfig } from './config.js'

function issuesOf(env: Record<string, string>, argv: string[] = []): ConfigIssue[] {
  try {
    loadConfig(env, argv)
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError)
    return [...(err as ConfigError).issues]
  }
  throw new Error('expected loadConfig to fail')
}

const keysOf = (issues: ConfigIssue[]) => issues.map((i) => i.key).sort()

function ecPrivateJwk() {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  return { ...privateKey.export({ format: 'jwk' }), kid: 'ops-key' }
}

describe('loadConfig defaults', () => {
  it('starts with zero configuration: SQLite and outboxes under ./data, port 3000', () => {
    const config = loadConfig({})
    const dataDir = resolve('data')
    expect({ ...config, identity: undefined }).toEqual({
      port: 3000,
      host: '0.0.0.0',
      dataDir,
      database: { kind: 'sqlite', sqlitePath: join(dataDir, 'cumulus.db') },
      redisUrl: undefined,
      redisPrefix: 'cumulus:',
      publicUrl: 'http://localhost:3000',
      mail: { transport: { kind: 'file', directory: join(dataDir, 'outbox') }, from: 'Cumulus <no-reply@localhost>' },
      sms: { kind: 'file', directory: join(dataDir, 'sms') },
      trustProxy: false,
      logLevel: 'info',
      jwtPrivateKey: undefined,
      secret: undefined,
      identity: undefined,
      web: {
        platformLinks: { web: '/account/home', windows: 'pwa', macos: 'pwa', linux: '/newbie/guide#cli', android: 'pwa' },
        appDeepLink: 'cumulus://open',
        accountDeletionGraceDays: 15,
        trashRetentionDays: 10,
      },
      drive: {
        publicUrl: 'http://localhost:3000',
        uploadDir: resolve('data/uploads'),
        plans: {
          free: { storageBytes: 10 * 1024 ** 3, offlineTasksPerDay: 10, offlineRunningTasks: 2, transcodedPlayback: false, playsPerDay: 5, downloadBytesPerDay: -1 },
          paid: { vip: { level: 1, storageBytes: 10 * 1024 ** 4, offlineTasksPerDay: 1000, offlineRunningTasks: 10, transcodedPlayback: true, playsPerDay: -1, downloadBytesPerDay: -1 } },
        },
        trashRetentionDays: 10,
        linkTtlSeconds: 6 * 3600,
        uploadExpirySeconds: 7 * 24 * 3600,
        offlineAllowedNetworks: [],
        offlineWorkers: 8,
        batchInlineMaxItems: 20_000,
        shareRestoreMaxItems: 100_000,
        copyMaxItems: 100_000,
        ffmpegPath: 'ffmpeg',
        ffprobePath: 'ffprobe',
        archive: { sevenZipPath: '7zz', lsarPath: 'lsar', unarPath: 'unar', maxUnpackBytes: 64 * 1024 ** 3, maxRatio: 1000, workers: 2 },
        transcode: { trigger: 'upload', preset: 'veryfast' },
        torrent: { aria2cPath: 'aria2c', workDir: resolve('data/torrent'), dht: true, peerExchange: true, previewTimeoutMs: 20_000, listenPort: null },
        globalDedup: false,
      },
      storage: { kind: 'local', root: join(dataDir, 'blobs') },
    })
    expect(config.identity).toEqual({
      ...IDENTITY_DEFAULTS,
      publicUrl: 'http://localhost:3000',
      clients: [{ clientId: 'cumulus-web', name: 'Cumulus web', redirectUris: ['http://localhost:3000/'], grantTypes: ['refresh_token'] }],
      providers: [],
      corsOrigins: ['http://localhost:3000'],
      deletionGraceSeconds: 15 * 86_400,
    })
  })

  it('derives the public URL, mail sender and outboxes from PORT, PUBLIC_URL and the data directory', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080')
    const config = loadConfig({ PUBLIC_URL: 'https://Drive.Example.com/', CUMULUS_DATA_DIR: '/srv/cumulus' })
    expect(config.publicUrl).toBe('https://drive.example.com')
    expect(config.mail).toEqual({ transport: { kind: 'file', directory: '/srv/cumulus/outbox' }, from: 'Cumulus <no-reply@drive.example.com>' })
    expect(config.sms).toEqual({ kind: 'file', directory: '/srv/cumulus/sms' })
    expect(config.identity.corsOrigins).toEqual(['https://drive.example.com'])
    expect(config.identity.clients[0]!.redirectUris).toEqual(['https://drive.example.com/'])
  })

  it('takes REDIS_PREFIX for keys and channels, and refuses one that could break a key', () => {
    expect(loadConfig({ REDIS_PREFIX: 'site-b:' }).redisPrefix).toBe('site-b:')
    expect(() => loadConfig({ REDIS_PREFIX: 'has space' })).toThrow(/REDIS_PREFIX/)
    expect(() => loadConfig({ REDIS_PREFIX: 'x'.repeat(65) })).toThrow(/REDIS_PREFIX/)
  })

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', REDIS_URL: '  ' })).toMatchObject({ port: 3000, database: { kind: 'sqlite' }, redisUrl: undefined })
  })

  it('returns a deeply frozen object', () => {
    const config = loadConfig({})
    expect(Object.isFrozen(config)).toBe(true)
    expect(Object.isFrozen(config.identity.captcha)).toBe(true)
    expect(Object.isFrozen(config.identity.clients[0]!.redirectUris)).toBe(true)
    expect(() => {
      ;(config as { port: number }).port = 1
    }).toThrow(TypeError)
  })

  it('does not share the identity defaults object (freezing one config leaves IDENTITY_DEFAULTS alone)', () => {
    loadConfig({})
    expect(Object.isFrozen(IDENTITY_DEFAULTS.captcha)).toBe(false)
  })
})

describe('loadConfig coercion', () => {
  it('maps every key to its typed value', () => {
    const jwk = ecPrivateJwk()
    const config = loadConfig({
      PORT: '4000',
      HOST: '127.0.0.1',
      CUMULUS_DATA_DIR: '/var/lib/cumulus',
      DATABASE_URL: 'postgres://app:pw@db.internal:5432/cumulus',
      REDIS_URL: 'redis://cache.internal:6379/2',
      PUBLIC_URL: 'https://cloud.example.org',
      MAIL_URL: 'smtps://mailer:secret@smtp.example.org:465',
      MAIL_FROM: 'Example Cloud <cloud@example.org>',
      SMS_URL: 'https://sms.example.org/send',
      CAPTCHA_MODE: 'always',
      CORS_ORIGINS: 'https://cloud.example.org, https://admin.example.org',
      TRUST_PROXY: '2',
      LOG_LEVEL: 'debug',
      JWT_PRIVATE_KEY: JSON.stringify(jwk),
      CUMULUS_SECRET: 'x'.repeat(32),
      ACCOUNT_DELETION_GRACE_DAYS: '30',
      VERIFICATION_RESEND_INTERVAL_SECONDS: '0',
      VERIFICATION_SENDS_PER_ADDRESS_PER_DAY: '5',
      VERIFICATION_SENDS_PER_IP_PER_HOUR: '12',
      VERIFICATION_SENDS_PER_HOUR: '300',
    })
    expect(config).toMatchObject({
      port: 4000,
      host: '127.0.0.1',
      dataDir: '/var/lib/cumulus',
      database: { kind: 'postgres', url: 'postgres://app:pw@db.internal:5432/cumulus', schema: undefined },
      redisUrl: 'redis://cache.internal:6379/2',
      publicUrl: 'https://cloud.example.org',
      mail: { transport: { kind: 'smtp', url: 'smtps://mailer:secret@smtp.example.org:465' }, from: 'Example Cloud <cloud@example.org>' },
      sms: { kind: 'http', url: 'https://sms.example.org/send' },
      trustProxy: 2,
      logLevel: 'debug',
      jwtPrivateKey: jwk,
      secret: 'x'.repeat(32),
    })
    expect(config.identity).toMatchObject({
      captcha: { ...IDENTITY_DEFAULTS.captcha, mode: 'always' },
      verification: { ...IDENTITY_DEFAULTS.verification, resendIntervalSeconds: 0, maxPerAddressPerDay: 5, maxPerIpPerHour: 12, maxGlobalPerHour: 300 },
      corsOrigins: ['https://cloud.example.org', 'https://admin.example.org'],
      deletionGraceSeconds: 30 * 86_400,
    })
  })

  it.each([
    ['true', true],
    ['false', false],
    ['0', 0],
    ['1', 1],
  ])('reads TRUST_PROXY=%s as %s', (raw, expected) => {
    expect(loadConfig({ TRUST_PROXY: raw }).trustProxy).toBe(expected)
  })

  it('takes the PostgreSQL schema from the schema parameter and keeps it out of the connection URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/db?schema=tenant_1&sslmode=require' }).database).toEqual({
      kind: 'postgres',
      url: 'postgresql://u@h/db?sslmode=require',
      schema: 'tenant_1',
    })
  })

  it('lets config flags override the environment and ignores the command’s own arguments', () => {
    const config = loadConfig({ PORT: '4000', HOST: '127.0.0.1' }, ['--email', 'a@b.c', '--port', '5000', 'positional', '--data-dir=/tmp/c'])
    expect(config).toMatchObject({ port: 5000, host: '127.0.0.1', dataDir: '/tmp/c', publicUrl: 'http://localhost:5000' })
  })

  it('names the flag, not the variable, when a flag value is bad', () => {
    expect(issuesOf({}, ['--port', 'many', '--log-level'])).toEqual([
      { key: '--log-level', message: 'needs a value' },
      { key: '--port', message: 'must be a whole number from 0 to 65535' },
    ])
  })
})

describe('loadConfig errors', () => {
  it('lists every bad key at once', () => {
    const issues = issuesOf({
      PORT: '70000',
      DATABASE_URL: 'mysql://db/cumulus',
      REDIS_URL: 'http://cache',
      PUBLIC_URL: 'drive.example.com',
      MAIL_URL: 'http://mail.example.com',
      MAIL_FROM: 'nobody',
      SMS_URL: 'ftp://sms.example.com',
      CAPTCHA_MODE: 'sometimes',
      CUMULUS_CLIENTS: '{',
      CORS_ORIGINS: 'https://ok.example.com,https://bad.example.com/path',
      TRUST_PROXY: 'maybe',
      LOG_LEVEL: 'loud',
      JWT_PRIVATE_KEY: '{"kty":"RSA"}',
      CUMULUS_SECRET: 'short',
      ACCOUNT_DELETION_GRACE_DAYS: '-1',
      VERIFICATION_SENDS_PER_ADDRESS_PER_DAY: '0',
      VERIFICATION_SENDS_PER_IP_PER_HOUR: 'many',
      VERIFICATION_SENDS_PER_HOUR: '1e9',
    })
    expect(keysOf(issues)).toEqual(
      [
        'VERIFICATION_SENDS_PER_ADDRESS_PER_DAY',
        'VERIFICATION_SENDS_PER_IP_PER_HOUR',
        'VERIFICATION_SENDS_PER_HOUR',
        'PORT',
        'DATABASE_URL',
        'REDIS_URL',
        'PUBLIC_URL',
        'MAIL_URL',
        'MAIL_FROM',
        'SMS_URL',
        'CAPTCHA_MODE',
        'CUMULUS_CLIENTS',
        'CORS_ORIGINS',
        'TRUST_PROXY',
        'LOG_LEVEL',
        'JWT_PRIVATE_KEY',
        'CUMULUS_SECRET',
        'ACCOUNT_DELETION_GRACE_DAYS',
      ].sort(),
    )
    for (const issue of issues) expect(issue.message.length).toBeGreaterThan(5)
  })

  it('says what each bad key should be', () => {
    const err = (() => {
      try {
        loadConfig({ PORT: 'abc', CAPTCHA_MODE: 'sometimes', DATABASE_URL: 'mysql://x' })
      } catch (e) {
        return e as ConfigError
      }
      throw new Error('expected a ConfigError')
    })()
    expect(err.message).toBe(
      [
        'Invalid configuration (3 problems):',
        '  PORT: must be a whole number from 0 to 65535',
        '  DATABASE_URL: must be a postgres:// or postgresql:// URL (leave it unset for embedded SQLite in the data directory)',
        '  CAPTCHA_MODE: must be auto, always or off',
      ].join('\n'),
    )
  })

  it('never echoes secret values in its messages', () => {
    const secret = 'sup3r-s3cret'
    const issues = issuesOf({ JWT_PRIVATE_KEY: `{"kty":"EC","d":"${secret}"`, CUMULUS_SECRET: secret })
    expect(JSON.stringify(issues)).not.toContain(secret)
  })

  it('refuses a JWT_PRIVATE_KEY that is not a usable EC P-256 private key', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' })
    const { d: _d, ...publicOnly } = ecPrivateJwk()
    expect(keysOf(issuesOf({ JWT_PRIVATE_KEY: JSON.stringify(privateKey.export({ format: 'jwk' })) }))).toEqual(['JWT_PRIVATE_KEY'])
    expect(keysOf(issuesOf({ JWT_PRIVATE_KEY: JSON.stringify(publicOnly) }))).toEqual(['JWT_PRIVATE_KEY'])
    expect(keysOf(issuesOf({ JWT_PRIVATE_KEY: JSON.stringify({ ...ecPrivateJwk(), d: 'AAAA' }) }))).toEqual(['JWT_PRIVATE_KEY'])
  })
})

describe('web app settings', () => {
  it('takes each platform card target and the deep link, keeping the other defaults', () => {
    const config = loadConfig({ DOWNLOAD_LINK_WINDOWS: 'https://dl.example.com/Cumulus.msi', DOWNLOAD_LINK_ANDROID: '/newbie/guide', APP_DEEP_LINK: 'cumulus-app://home', ACCOUNT_DELETION_GRACE_DAYS: '7' })
    expect(config.web).toEqual({
      platformLinks: { web: '/account/home', windows: 'https://dl.example.com/Cumulus.msi', macos: 'pwa', linux: '/newbie/guide#cli', android: '/newbie/guide' },
      appDeepLink: 'cumulus-app://home',
      accountDeletionGraceDays: 7,
      trashRetentionDays: 10,
    })
  })

  it('refuses targets that are neither a path, an http(s) URL nor pwa, and script deep links', () => {
    expect(keysOf(issuesOf({ DOWNLOAD_LINK_WEB: '//evil.example', DOWNLOAD_LINK_LINUX: 'javascript:alert(1)', DOWNLOAD_LINK_MACOS: 'ftp://x', APP_DEEP_LINK: 'javascript:alert(1)' }))).toEqual([
      'APP_DEEP_LINK',
      'DOWNLOAD_LINK_LINUX',
      'DOWNLOAD_LINK_MACOS',
      'DOWNLOAD_LINK_WEB',
    ])
  })
})

describe('MAIL_URL and SMS_URL', () => {
  it.each([
    ['smtp://user:pass@smtp.example.com:587', { kind: 'smtp', url: 'smtp://user:pass@smtp.example.com:587' }],
    ['smtps://smtp.example.com', { kind: 'smtp', url: 'smtps://smtp.example.com' }],
    ['file:///var/mail/cumulus', { kind: 'file', directory: '/var/mail/cumulus' }],
    ['file://./outbox', { kind: 'file', directory: resolve('outbox') }],
    ['file://mail/out', { kind: 'file', directory: resolve('mail/out') }],
  ])('accepts MAIL_URL %s, parsed once into the transport', (raw, expected) => {
    expect(loadConfig({ MAIL_URL: raw }).mail.transport).toEqual(expected)
  })

  it.each(['http://mail.example.com', 'smtp://', 'mail.example.com:25', 'imap://mail.example.com'])('refuses MAIL_URL %s', (raw) => {
    expect(issuesOf({ MAIL_URL: raw })).toEqual([{ key: 'MAIL_URL', message: 'must be smtp://user:pass@host:port, smtps://… or file://<dir>' }])
  })

  it.each([
    ['https://sms.example.com/api?key=k', { kind: 'http', url: 'https://sms.example.com/api?key=k' }],
    ['http://127.0.0.1:9000/send', { kind: 'http', url: 'http://127.0.0.1:9000/send' }],
    ['file:///var/spool/sms', { kind: 'file', directory: '/var/spool/sms' }],
    ['file://./sms', { kind: 'file', directory: resolve('sms') }],
  ])('accepts SMS_URL %s, parsed once into the transport', (raw, expected) => {
    expect(loadConfig({ SMS_URL: raw }).sms).toEqual(expected)
  })

  it.each(['smtp://sms.example.com', 'sms.example.com', 'ftp://sms.example.com'])('refuses SMS_URL %s', (raw) => {
    expect(issuesOf({ SMS_URL: raw })).toEqual([{ key: 'SMS_URL', message: 'must be file://<dir> or an http(s):// provider endpoint' }])
  })
})

describe('CUMULUS_CLIENTS', () => {
  it('adds each client after the built-in web client, with defaults for the optional fields', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://drive.example.com',
      CUMULUS_CLIENTS: JSON.stringify([
        { client_id: 'android', redirect_uris: ['com.example.cumulus:/oauth'], grant_types: ['authorization_code', 'refresh_token'], name: 'Android app' },
        { client_id: 'backup-tool', client_secret: 'a-long-enough-secret' },
      ]),
    })
    expect(config.identity.clients).toEqual([
      { clientId: 'cumulus-web', name: 'Cumulus web', redirectUris: ['https://drive.example.com/'], grantTypes: ['refresh_token'] },
      { clientId: 'android', clientSecret: undefined, name: 'Android app', redirectUris: ['com.example.cumulus:/oauth'], grantTypes: ['authorization_code', 'refresh_token'], type: 'first_party', scopes: undefined, logo: '' },
      { clientId: 'backup-tool', clientSecret: 'a-long-enough-secret', name: 'backup-tool', redirectUris: [], grantTypes: ['refresh_token'], type: 'first_party', scopes: undefined, logo: '' },
    ])
  })

  it('takes a type, scopes and a logo', () => {
    const config = loadConfig({
      CUMULUS_CLIENTS: JSON.stringify([{ client_id: 'tv', type: 'public', grant_types: ['urn:ietf:params:oauth:grant-type:device_code'], scopes: ['pan', 'openid'], logo: 'https://tv.example/logo.png' }]),
    })
    expect(config.identity.clients[1]).toMatchObject({ clientId: 'tv', type: 'public', scopes: ['pan', 'openid'], logo: 'https://tv.example/logo.png' })
    expect(issuesOf({ CUMULUS_CLIENTS: JSON.stringify([{ client_id: 'tv', scopes: ['admin'] }]) })[0]).toMatchObject({ key: 'CUMULUS_CLIENTS[0].scopes[0]' })
    expect(issuesOf({ CUMULUS_CLIENTS: JSON.stringify([{ client_id: 'tv', type: 'robot' }]) })[0]).toMatchObject({ key: 'CUMULUS_CLIENTS[0].type' })
  })
})

describe('AUTH_PROVIDERS', () => {
  it('fills a preset, and reads a custom OpenID Connect and a plain OAuth 2 provider', () => {
    const config = loadConfig({
      AUTH_PROVIDERS: JSON.stringify([
        { id: 'google', preset: 'google', client_id: 'g-id', client_secret: 'g-secret' },
        { id: 'corp', issuer: 'https://sso.corp.example', client_id: 'c-id', name: 'Corp SSO', sign_up: false },
        { id: 'gitea', kind: 'oauth2', client_id: 'x', authorization_endpoint: 'https://git.example/login/oauth/authorize', token_endpoint: 'https://git.example/login/oauth/access_token', userinfo_endpoint: 'https://git.example/api/v1/user', claims: { sub: 'id', picture: 'avatar_url' } },
        { id: 'github', preset: 'github', client_id: 'gh', client_secret: 'gh-secret' },
      ]),
    })
    const [google, corp, gitea, github] = config.identity.providers!
    expect(google).toMatchObject({ id: 'google', kind: 'oidc', name: 'Google', issuer: 'https://accounts.google.com', clientId: 'g-id', clientSecret: 'g-secret', scopes: ['openid', 'email', 'profile'], signUp: true })
    expect(corp).toMatchObject({ kind: 'oidc', name: 'Corp SSO', issuer: 'https://sso.corp.example', signUp: false, claims: { sub: 'sub', email: 'email', emailVerified: 'email_verified' } })
    expect(gitea).toMatchObject({ kind: 'oauth2', scopes: [], claims: { sub: 'id', picture: 'avatar_url', name: 'name' } })
    expect(github).toMatchObject({ kind: 'oauth2', name: 'GitHub', userinfoEndpoint: 'https://api.github.com/user', claims: { sub: 'id', picture: 'avatar_url' } })
    // The secrets never reach a log.
    expect(JSON.stringify(config)).not.toContain('g-secret')
  })

  it('names what is missing or wrong', () => {
    expect(issuesOf({ AUTH_PROVIDERS: JSON.stringify([{ id: 'corp', kind: 'oidc', client_id: 'c' }]) })).toEqual([{ key: 'AUTH_PROVIDERS[0].issuer', message: 'an OpenID Connect provider needs its issuer URL' }])
    expect(issuesOf({ AUTH_PROVIDERS: JSON.stringify([{ id: 'x', kind: 'oauth2', client_id: 'c', authorization_endpoint: 'https://a.example/auth' }]) }).map((i) => i.key)).toEqual(['AUTH_PROVIDERS[0].token_endpoint', 'AUTH_PROVIDERS[0].userinfo_endpoint'])
    expect(issuesOf({ AUTH_PROVIDERS: JSON.stringify([{ id: 'a', preset: 'myspace', client_id: 'c' }]) })[0]).toMatchObject({ key: 'AUTH_PROVIDERS[0].preset' })
    expect(issuesOf({ AUTH_PROVIDERS: JSON.stringify([{ id: 'g', preset: 'google', client_id: 'c' }, { id: 'g', preset: 'github', client_id: 'd' }]) })[0]).toMatchObject({ key: 'AUTH_PROVIDERS[1].id' })
  })

  it('explains invalid JSON', () => {
    const [issue] = issuesOf({ CUMULUS_CLIENTS: '[{client_id: "x"}]' })
    expect(issue).toMatchObject({ key: 'CUMULUS_CLIENTS' })
    expect(issue!.message).toMatch(/^is not valid JSON .*expected an array like/)
  })

  it('wants an array', () => {
    expect(issuesOf({ CUMULUS_CLIENTS: '{"client_id":"x"}' })).toEqual([{ key: 'CUMULUS_CLIENTS', message: 'must be a JSON array of client objects' }])
  })

  it('points at each bad field by index and name, all at once', () => {
    const issues = issuesOf({
      CUMULUS_CLIENTS: JSON.stringify([
        { client_id: 'ok', redirect_uris: ['https://ok.example.com/cb'] },
        { name: 'no id' },
        { client_id: 'bad id!', client_secret: 'short' },
        { client_id: 'app', redirect_uris: ['not a url', 'https://x.example.com/cb#frag'], grant_types: ['password'] },
        { client_id: 'typo', redirect_uri: 'https://x.example.com' },
        { client_id: 'ok' },
        { client_id: 'cumulus-web' },
      ]),
    })
    expect(keysOf(issues)).toEqual(
      [
        'CUMULUS_CLIENTS[1].client_id',
        'CUMULUS_CLIENTS[2].client_id',
        'CUMULUS_CLIENTS[2].client_secret',
        'CUMULUS_CLIENTS[3].redirect_uris[0]',
        'CUMULUS_CLIENTS[3].redirect_uris[1]',
        'CUMULUS_CLIENTS[3].grant_types[0]',
        'CUMULUS_CLIENTS[4]',
      ].sort(),
    )
    expect(issues.find((i) => i.key === 'CUMULUS_CLIENTS[3].grant_types[0]')!.message).toBe(
      'must be one of refresh_token, authorization_code, urn:ietf:params:oauth:grant-type:device_code',
    )
    expect(issues.find((i) => i.key === 'CUMULUS_CLIENTS[4]')!.message).toMatch(/redirect_uri/)
  })

  it('refuses duplicate ids and redefining the web client', () => {
    expect(issuesOf({ CUMULUS_CLIENTS: JSON.stringify([{ client_id: 'a' }, { client_id: 'a' }, { client_id: 'cumulus-web' }]) })).toEqual([
      { key: 'CUMULUS_CLIENTS[1].client_id', message: '"a" is listed twice' },
      { key: 'CUMULUS_CLIENTS[2].client_id', message: '"cumulus-web" is the built-in web client and cannot be redefined' },
    ])
  })
})

describe('redaction', () => {
  const jwk = ecPrivateJwk()
  const secrets = ['db-password', 'redis-password', 'mail-password', 'sms-password', 'sms-api-key', 'client-secret-value', jwk.d!, 'h'.repeat(40)]
  const config = loadConfig({
    DATABASE_URL: 'postgres://cumulus:db-password@db.internal/cumulus',
    REDIS_URL: 'redis://:redis-password@cache.internal:6379',
    MAIL_URL: 'smtp://mailer:mail-password@smtp.example.com:587',
    SMS_URL: 'https://user:sms-password@sms.example.com/send?api_key=sms-api-key',
    CUMULUS_CLIENTS: JSON.stringify([{ client_id: 'tool', client_secret: 'client-secret-value' }]),
    JWT_PRIVATE_KEY: JSON.stringify(jwk),
    CUMULUS_SECRET: 'h'.repeat(40),
  })

  it('hides passwords, query values, client secrets and keys, keeping what an operator needs to see', () => {
    const redacted = redactConfig(config)
    const text = JSON.stringify(redacted)
    for (const secret of secrets) expect(text).not.toContain(secret)
    expect(redacted).toMatchObject({
      database: { kind: 'postgres', url: 'postgres://cumulus:***@db.internal/cumulus' },
      redisUrl: 'redis://:***@cache.internal:6379',
      mail: { transport: { kind: 'smtp', url: 'smtp://mailer:***@smtp.example.com:587' } },
      sms: { kind: 'http', url: 'https://user:***@sms.example.com/send?api_key=***' },
      jwtPrivateKey: '[redacted] (JWT_PRIVATE_KEY, kid ops-key)',
      secret: '[redacted] (CUMULUS_SECRET)',
    })
    expect(redacted.identity.clients[1]).toMatchObject({ clientId: 'tool', clientSecret: '[redacted]' })
  })

  it('applies when the config itself is serialised or inspected, as a careless log call would', () => {
    for (const text of [JSON.stringify(config), inspect(config, { depth: 10 }), JSON.stringify({ config })]) {
      for (const secret of secrets) expect(text).not.toContain(secret)
    }
  })

  it('leaves the config itself intact', () => {
    expect(config.identity.clients[1]!.clientSecret).toBe('client-secret-value')
    expect(config.secret).toBe('h'.repeat(40))
  })
})

describe('drive settings', () => {
  it('reads sizes with units, the trash retention and the link lifetime', () => {
    const config = loadConfig({ DRIVE_QUOTA_FREE: '500MB', DRIVE_QUOTA_VIP: '2TiB', TRASH_RETENTION_DAYS: '30', DRIVE_LINK_TTL_SECONDS: '900' })
    expect([config.drive.plans.free.storageBytes, config.drive.plans.paid['vip']!.storageBytes]).toEqual([500e6, 2 * 1024 ** 4])
    expect(config.drive.trashRetentionDays).toBe(30)
    expect(config.drive.linkTtlSeconds).toBe(900)
  })

  it('turns global dedup on only for an explicit true, and refuses anything looser', () => {
    expect(loadConfig({ DRIVE_GLOBAL_DEDUP: 'true' }).drive.globalDedup).toBe(true)
    expect(loadConfig({ DRIVE_GLOBAL_DEDUP: 'false' }).drive.globalDedup).toBe(false)
    for (const loose of ['yes', '1', 'TRUE', 'on']) expect(() => loadConfig({ DRIVE_GLOBAL_DEDUP: loose })).toThrow(/DRIVE_GLOBAL_DEDUP/)
  })

  it('reads the offline-download limits and the networks downloads may reach, refusing what is not a range', () => {
    const defaults = loadConfig({}).drive
    expect(defaults.offlineAllowedNetworks).toEqual([])
    expect([defaults.plans.free.offlineRunningTasks, defaults.plans.paid['vip']!.offlineRunningTasks]).toEqual([2, 10])
    const config = loadConfig({ OFFLINE_ALLOW_NETWORKS: '192.168.1.0/24, 127.0.0.1 ,fd00::/8', OFFLINE_TASKS_PER_DAY_FREE: '3', OFFLINE_RUNNING_TASKS_VIP: '4' }).drive
    expect(config.offlineAllowedNetworks).toEqual(['192.168.1.0/24', '127.0.0.1', 'fd00::/8'])
    expect(config.plans.free.offlineTasksPerDay).toBe(3)
    expect(config.plans.paid['vip']!.offlineRunningTasks).toBe(4)
    for (const bad of ['10.0.0.0/33', 'localhost', '10.0.0.0/8/1', 'fe80::1%eth0', '1.2.3']) expect(() => loadConfig({ OFFLINE_ALLOW_NETWORKS: bad }), bad).toThrow(/OFFLINE_ALLOW_NETWORKS/)
    expect(() => loadConfig({ OFFLINE_RUNNING_TASKS_FREE: '0' })).toThrow(/OFFLINE_RUNNING_TASKS_FREE/)
    expect(loadConfig({ TORRENT_PREVIEW_SECONDS: '45' }).drive.torrent.previewTimeoutMs).toBe(45_000)
    for (const bad of ['0', '601', '2.5', 'soon']) expect(() => loadConfig({ TORRENT_PREVIEW_SECONDS: bad }), bad).toThrow(/TORRENT_PREVIEW_SECONDS/)
  })

  it('reads PLANS on top of the plan variables: changes free and vip, adds plans, and refuses what is not a plan', () => {
    const config = loadConfig({
      DRIVE_QUOTA_VIP: '2TiB',
      PLANS: JSON.stringify({ free: { storage: '1GiB', plays_per_day: 2 }, vip: { offline_running_tasks: 12 }, platinum: { level: 2, storage: '20TiB', offline_tasks_per_day: 5000, transcoded_playback: true, plays_per_day: -1, download_bytes_per_day: '500GiB' } }),
    })
    expect(config.drive.plans.free).toMatchObject({ storageBytes: 1024 ** 3, playsPerDay: 2, offlineTasksPerDay: 10 })
    expect(config.drive.plans.paid['vip']).toMatchObject({ level: 1, storageBytes: 2 * 1024 ** 4, offlineRunningTasks: 12 })
    // A new plan starts from the free plan's limits.
    expect(config.drive.plans.paid['platinum']).toEqual({ level: 2, storageBytes: 20 * 1024 ** 4, offlineTasksPerDay: 5000, offlineRunningTasks: 2, transcodedPlayback: true, playsPerDay: -1, downloadBytesPerDay: 500 * 1024 ** 3 })
    // Activation codes may grant every paid plan.
    expect(config.identity.plans).toEqual({ vip: 1, platinum: 2 })
    // `free` applies first whatever the order, and a plan named like an Object property is a plan of its own.
    const ordered = loadConfig({ PLANS: JSON.stringify({ gold: { level: 3 }, constructor: { storage: '2GiB' }, free: { storage: '1GiB' } }) }).drive.plans
    expect(ordered.paid['gold']!.storageBytes).toBe(1024 ** 3)
    expect(ordered.paid['constructor']).toMatchObject({ level: 1, storageBytes: 2 * 1024 ** 3, offlineTasksPerDay: 10 })
    for (const bad of ['{', '[]', '{"Gold":{}}', '{"novip":{}}', '{"gold":{"storage":"lots"}}', '{"gold":{"storage":1e21}}', '{"gold":{"colour":"red"}}', '{"gold":{"plays_per_day":-2}}', '{"gold":{"offline_running_tasks":0}}']) {
      expect(() => loadConfig({ PLANS: bad }), bad).toThrow(/PLANS/)
    }
  })

  it('refuses bad sizes and a link lifetime under 10 minutes', () => {
    expect(() => loadConfig({ DRIVE_QUOTA_FREE: '10 parsecs' })).toThrow(/DRIVE_QUOTA_FREE/)
    expect(() => loadConfig({ DRIVE_QUOTA_VIP: '0' })).toThrow(/DRIVE_QUOTA_VIP/)
    expect(() => loadConfig({ DRIVE_LINK_TTL_SECONDS: '60' })).toThrow(/DRIVE_LINK_TTL_SECONDS/)
  })
})

// Regression (issue 10): STORAGE_URL had two parsers with different rules, and this one refused
// the file:///path form the README documents. Every form of the README's Configuration table.
describe('STORAGE_URL', () => {
  const issuesOf = (storageUrl: string): ConfigIssue[] => {
    try {
      loadConfig({ STORAGE_URL: storageUrl })
    } catch (err) {
      if (err instanceof ConfigError) return [...err.issues]
      throw err
    }
    throw new Error(`STORAGE_URL=${storageUrl} was accepted`)
  }

  it('unset: local disk under the data directory', () => {
    expect(loadConfig({ CUMULUS_DATA_DIR: '/srv/cumulus' }).storage).toEqual({ kind: 'local', root: '/srv/cumulus/blobs' })
  })

  it('file:///path: local disk at that folder', () => {
    expect(loadConfig({ STORAGE_URL: 'file:///var/lib/cumulus/blobs' }).storage).toEqual({ kind: 'local', root: '/var/lib/cumulus/blobs' })
  })

  it('s3://bucket: the bucket on AWS, the standard credential chain, the default region', () => {
    expect(loadConfig({ STORAGE_URL: 's3://my-bucket' }).storage).toEqual({ kind: 's3', bucket: 'my-bucket', prefix: '', region: 'us-east-1', forcePathStyle: false })
  })

  it('s3://key:secret@bucket/prefix?endpoint=…&region=…&forcePathStyle=true: every part, the secret redacted when logged', () => {
    const config = loadConfig({ STORAGE_URL: 's3://AKID:wJal%2FSECRET@my-bucket/cumulus/blobs?endpoint=http://127.0.0.1:9000&region=eu-west-1&forcePathStyle=true' })
    expect(config.storage).toEqual({
      kind: 's3',
      bucket: 'my-bucket',
      prefix: 'cumulus/blobs',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKID', secretAccessKey: 'wJal/SECRET' },
    })
    expect(redactConfig(config).storage).toMatchObject({ credentials: { accessKeyId: 'AKID', secretAccessKey: '[redacted]' } })
    expect(JSON.stringify(config)).not.toContain('SECRET')
  })

  it.each([
    ['ftp://host/blobs', 'unsupported scheme "ftp:"'],
    ['s3://', 'names no bucket'],
    ['s3://Not_A_Bucket', 'is not an S3 bucket name'],
    ['s3://bucket?colour=blue', 'unknown option "colour"'],
    ['s3://bucket?endpoint=minio:9000', 'is not an http(s) URL'],
    ['s3://bucket?forcePathStyle=yes', 'forcePathStyle must be true or false'],
    ['s3://KEY@bucket', 'need both an access key id and a secret'],
    ['relative/blobs', 'not a URL or an absolute path'],
  ])('refuses %s, saying what is wrong and which forms work', (storageUrl, problem) => {
    const issues = issuesOf(storageUrl)
    expect(issues).toHaveLength(1)
    expect(issues[0]!.key).toBe('STORAGE_URL')
    expect(issues[0]!.message).toContain(problem)
    expect(issues[0]!.message).toContain('file:///path, or s3://')
  })

  it('never echoes a secret in the error', () => {
    const [issue] = issuesOf('s3://KEY:hunter2@bucket?colour=blue')
    expect(issue!.message).not.toContain('hunter2')
  })
})
