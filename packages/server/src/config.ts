import { createECDH, createPrivateKey } from 'node:crypto'
import { inspect } from 'node:util'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { AUTHORIZATION_CODE_GRANT, type CaptchaMode, DEVICE_CODE_GRANT, IDENTITY_DEFAULTS, type IdentityConfig, type IdentityProviderConfig, type MailTransport, parseMailUrl, parseSmsUrl, REFRESH_TOKEN_GRANT, type RegisteredClient, type SmsTransport, type createTokenKeys } from '@cumulus/identity'
import { DRIVE_DEFAULTS, DRIVE_LINK_MIN_TTL_SECONDS, OAUTH_SCOPES, WEB_CLIENT_ID } from '@cumulus/protocol'
import { type DriveConfig, type PaidPlan, TRANSCODE_TRIGGERS, X264_PRESETS, type PlanLimits, type PlanTable, parseAllowedRanges, parseStorageUrl, type StorageConfig } from '@cumulus/drive'
import { DEFAULT_WEB_PUBLIC_CONFIG, INSTALL_PWA_TARGET, type WebPublicConfig } from '@cumulus/web'
import { z } from 'zod'

/**
 * The one place Cumulus reads its environment. `loadConfig` parses every key once at startup,
 * fills the defaults of the zero-config start (embedded SQLite, files under ./data) and returns
 * a frozen object that the composition root passes down; no other module reads `process.env`.
 */

/** Redis keys and channels start with this unless REDIS_PREFIX says otherwise. */
export const DEFAULT_REDIS_PREFIX = 'cumulus:'

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** An EC P-256 private key as a JWK, the shape identity's createTokenKeys takes. */
export type SigningJwk = Parameters<typeof createTokenKeys>[0]

export type DatabaseConfig =
  | { kind: 'sqlite'; /** Absolute path of the database file. */ sqlitePath: string }
  | {
      kind: 'postgres'
      /** The connection URL, without the `schema` parameter. */
      url: string
      /** PostgreSQL schema from the URL's `?schema=` parameter (it must exist); default `public`. */
      schema: string | undefined
    }

export interface CumulusConfig {
  /** TCP port to listen on (PORT); 0 picks a free one. */
  port: number
  host: string
  /** Absolute path of the data directory (CUMULUS_DATA_DIR): SQLite file, keys, outboxes. */
  dataDir: string
  database: DatabaseConfig
  /** Redis for counters shared by several nodes; undefined keeps counters in process memory. */
  redisUrl: string | undefined
  /** Prefix of every Redis key and channel (REDIS_PREFIX), so installations can share one Redis. */
  redisPrefix: string
  /** Absolute base URL, no trailing slash. */
  publicUrl: string
  mail: {
    /** MAIL_URL, parsed by identity's parseMailUrl: an SMTP server or a file outbox (`<dataDir>/outbox` when unset). */
    transport: MailTransport
    from: string
  }
  /** SMS_URL, parsed by identity's parseSmsUrl: an HTTP provider or a file outbox (`<dataDir>/sms` when unset). */
  sms: SmsTransport
  trustProxy: boolean | number
  logLevel: LogLevel
  /** From JWT_PRIVATE_KEY; undefined means the key file in the data directory. */
  jwtPrivateKey: SigningJwk | undefined
  /** From ID_TOKEN_PRIVATE_KEY (RS256, for OpenID Connect ID tokens); undefined means the key file in the data directory. */
  idTokenPrivateKey?: Record<string, unknown> | undefined
  /** From CUMULUS_SECRET; undefined means the key file in the data directory. */
  secret: string | undefined
  /** The identity service's slice, passed to createIdentityDeps as is. */
  identity: IdentityConfig
  /** What the web app's pages may show the browser (platform card targets, deep link). */
  web: WebPublicConfig
  /** The drive service's slice, passed to the drive as is. */
  drive: DriveConfig
  /** Where file content lives (STORAGE_URL, parsed by the drive's parseStorageUrl); local disk at `<dataDir>/blobs` when unset. */
  storage: StorageConfig
}

/** One bad setting: the key (or flag) as the operator wrote it, and what is wrong with it. */
export interface ConfigIssue {
  key: string
  message: string
}

/** Thrown by loadConfig with every bad key at once. */
export class ConfigError extends Error {
  constructor(readonly issues: readonly ConfigIssue[]) {
    super(`Invalid configuration (${issues.length} ${issues.length === 1 ? 'problem' : 'problems'}):\n${issues.map((i) => `  ${i.key}: ${i.message}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

/** CLI flags that override an environment key (`cumulus serve --port 4000`). */
export const CONFIG_FLAGS = {
  port: 'PORT',
  host: 'HOST',
  'data-dir': 'CUMULUS_DATA_DIR',
  'database-url': 'DATABASE_URL',
  'public-url': 'PUBLIC_URL',
  'log-level': 'LOG_LEVEL',
} as const satisfies Record<string, string>

/** The flags above as node:util parseArgs options, for commands that accept them. */
export const CONFIG_FLAG_OPTIONS = Object.fromEntries(Object.keys(CONFIG_FLAGS).map((flag) => [flag, { type: 'string' as const }])) as {
  [K in keyof typeof CONFIG_FLAGS]: { type: 'string' }
}

/** Grant types a client may be registered for. */
export const SUPPORTED_GRANT_TYPES = [REFRESH_TOKEN_GRANT, AUTHORIZATION_CODE_GRANT, DEVICE_CODE_GRANT] as const

const DEFAULT_PORT = 3000
const DEFAULT_HOST = '0.0.0.0'
const DEFAULT_DATA_DIR = './data'
const DEFAULT_DELETION_GRACE_DAYS = 15
const MAX_DELETION_GRACE_DAYS = 3650
/** A ceiling on the verification send budgets, so a typo cannot open the paid channels wide. */
const MAX_SEND_BUDGET = 1_000_000
const MIN_SECRET_LENGTH = 32
const MIN_CLIENT_SECRET_LENGTH = 16
const SECONDS_PER_DAY = 86_400
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/
const REDACTED = '[redacted]'

// ---------------------------------------------------------------------------------------------
// Field schemas. Each turns one raw string into its typed value or reports what is wrong.

const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: `must be a whole number from ${min} to ${max}` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: `must be a whole number from ${min} to ${max}` })

function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw)
  } catch {
    return null
  }
}

/** True when `raw` is a URL with one of `schemes` (with the colon, e.g. 'smtp:') and a host. */
function isUrlWithHost(raw: string, schemes: readonly string[]): boolean {
  const url = parseUrl(raw)
  return !!url && schemes.includes(url.protocol) && url.hostname !== ''
}

/** A setting parsed by its owner's parser (the one definition of its forms); the parser's message never echoes a secret. */
function parsedBy<T>(parse: (raw: string) => T) {
  return z.string().transform((raw, ctx): T => {
    try {
      return parse(raw)
    } catch (err) {
      ctx.issues.push({ code: 'custom', input: REDACTED, message: (err as Error).message })
      return z.NEVER
    }
  })
}

const mailUrl = parsedBy(parseMailUrl)
const smsUrl = parsedBy(parseSmsUrl)

const publicUrl = z
  .string()
  .refine(
    (raw) => {
      const url = parseUrl(raw)
      return !!url && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && !url.search && !url.hash && !url.username
    },
    { error: 'must be an absolute http(s) URL without query, fragment or credentials, e.g. https://drive.example.com' },
  )
  .transform((raw) => new URL(raw).href.replace(/\/+$/, ''))

const databaseUrl = z
  .string()
  .refine((raw) => /^postgres(ql)?:\/\//i.test(raw) && !!parseUrl(raw), {
    error: 'must be a postgres:// or postgresql:// URL (leave it unset for embedded SQLite in the data directory)',
  })
  .refine((raw) => {
    const schema = parseUrl(raw)?.searchParams.get('schema')
    return schema === null || schema === undefined || SCHEMA_NAME.test(schema)
  }, { error: 'the schema parameter must be a plain identifier (letters, digits, underscore)' })

/** A platform card's target: a site path, an http(s) URL, or `pwa` (offer to install the web app). */
const platformLink = z.string().refine((raw) => raw === INSTALL_PWA_TARGET || (raw.startsWith('/') && !raw.startsWith('//')) || isUrlWithHost(raw, ['http:', 'https:']), {
  error: `must be a path such as /account/home, an http(s):// URL, or ${INSTALL_PWA_TARGET} to offer installing the web app`,
})

/** The native app's deep link: any absolute URL with a custom scheme (cumulus://open) or http(s). */
const deepLink = z.string().refine((raw) => /^[a-z][a-z0-9+.-]*:/i.test(raw) && !/^(javascript|data|vbscript):/i.test(raw) && !!parseUrl(raw), {
  error: 'must be an absolute URL such as cumulus://open',
})

const BYTE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1e3, kb: 1e3, m: 1e6, mb: 1e6, g: 1e9, gb: 1e9, t: 1e12, tb: 1e12, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4, pib: 1024 ** 5 }

/** A size such as `10GiB`, `500 MB` or plain bytes. */
const byteSize = z.string().transform((raw, ctx): number => {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(raw)
  const unit = match ? BYTE_UNITS[(match[2] ?? '').toLowerCase()] : undefined
  const bytes = match && unit !== undefined ? Math.floor(Number(match[1]) * unit) : Number.NaN
  if (!Number.isSafeInteger(bytes) || bytes <= 0) {
    ctx.issues.push({ code: 'custom', input: raw, message: 'must be a size such as 10GiB, 500MB or a number of bytes' })
    return z.NEVER
  }
  return bytes
})

/**
 * Blob storage, parsed by the drive's own parser (the one definition of the forms): `file:///path`
 * for local disk, or an S3-compatible bucket (`s3://[key:secret@]bucket[/prefix][?endpoint=…&region=…&forcePathStyle=…]`).
 */
const storageUrl = z.string().transform((raw, ctx): StorageConfig => {
  try {
    return parseStorageUrl(raw)
  } catch (err) {
    // parseStorageUrl's message names the problem and never echoes the secret.
    ctx.issues.push({ code: 'custom', input: REDACTED, message: `${(err as Error).message} (use file:///path, or s3://[access-key:secret@]bucket[/prefix][?endpoint=http://host:9000&region=us-east-1&forcePathStyle=true]; leave it unset for local disk in the data directory)` })
    return z.NEVER
  }
})

/** On/off settings: `true` or `false`, nothing looser (a typo must not silently mean off). */
/** A comma-separated list of CIDR ranges (`10.0.0.0/8,fd00::/8`); a bare address is its own /32 or /128. The drive's parser. */
const networkList = z.string().transform((raw, ctx): string[] => {
  try {
    return parseAllowedRanges(raw)
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message })
    return z.NEVER
  }
})

const flag = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((raw) => raw === 'true')

const redisUrl = z.string().refine((raw) => isUrlWithHost(raw, ['redis:', 'rediss:']), { error: 'must be a redis:// or rediss:// URL' })

const trustProxy = z.string().transform((raw, ctx): boolean | number => {
  if (raw === 'true') return true
  if (raw === 'false') return false
  if (/^\d{1,3}$/.test(raw)) return Number(raw)
  ctx.issues.push({ code: 'custom', input: raw, message: 'must be true, false or the number of proxy hops to trust' })
  return z.NEVER
})

const corsOrigins = z.string().transform((raw, ctx): string[] => {
  const origins: string[] = []
  for (const part of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (part === '*') {
      origins.push('*')
      continue
    }
    const url = parseUrl(part)
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash || url.username) {
      ctx.issues.push({ code: 'custom', input: raw, message: `"${part}" is not an origin; use scheme://host[:port] (comma-separated) or *` })
      continue
    }
    origins.push(url.origin)
  }
  if (origins.length === 0 && ctx.issues.length === 0) ctx.issues.push({ code: 'custom', input: raw, message: 'must list at least one origin' })
  return origins
})

/** A secret's JSON, parsed; or undefined, with an issue that never repeats the secret. */
function secretJson(raw: string, ctx: z.RefinementCtx, hint: string): unknown {
  try {
    return JSON.parse(raw)
  } catch {
    ctx.issues.push({ code: 'custom', input: REDACTED, message: `is not valid JSON; it ${hint}` })
    return undefined
  }
}

const idTokenPrivateKey = z.string().transform((raw, ctx): Record<string, unknown> => {
  const hint = 'must be the JSON of an RSA private key (2048 bits or more) as a JWK ({"kty":"RSA","n":…,"e":…,"d":…,"p":…,"q":…,"dp":…,"dq":…,"qi":…})'
  const jwk = secretJson(raw, ctx, hint)
  if (jwk === undefined) return z.NEVER
  const candidate = jwk as Record<string, unknown>
  let usable = false
  try {
    const key = createPrivateKey({ key: candidate as never, format: 'jwk' })
    usable = key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048
  } catch {
    usable = false
  }
  if (!candidate || typeof candidate !== 'object' || candidate['kty'] !== 'RSA' || !usable) {
    ctx.issues.push({ code: 'custom', input: REDACTED, message: hint })
    return z.NEVER
  }
  return candidate
})

const jwtPrivateKey = z.string().transform((raw, ctx): SigningJwk => {
  const hint = 'must be the JSON of an EC P-256 private key as a JWK ({"kty":"EC","crv":"P-256","x":…,"y":…,"d":…})'
  const jwk = secretJson(raw, ctx, hint)
  if (jwk === undefined) return z.NEVER
  const candidate = jwk as Record<string, unknown>
  const shapeOk =
    !!candidate && typeof candidate === 'object' && candidate.kty === 'EC' && candidate.crv === 'P-256' && ['d', 'x', 'y'].every((k) => typeof candidate[k] === 'string')
  if (!shapeOk) {
    ctx.issues.push({ code: 'custom', input: REDACTED, message: hint })
    return z.NEVER
  }
  if (!isConsistentEcKey(candidate)) {
    ctx.issues.push({ code: 'custom', input: REDACTED, message: `is not a usable key (d does not match x and y); it ${hint}` })
    return z.NEVER
  }
  return candidate as SigningJwk
})

/**
 * True when `d` is a valid private scalar whose public point is (x, y). Node imports a JWK
 * without checking this, and a mismatched key would sign tokens its own JWKS cannot verify.
 */
export function isConsistentEcKey(jwk: Record<string, unknown>): boolean {
  try {
    createPrivateKey({ key: jwk as never, format: 'jwk' })
    // KeyObject keeps the (x, y) it was given; ECDH computes the point from d.
    const ecdh = createECDH('prime256v1')
    ecdh.setPrivateKey(Buffer.from(String(jwk.d), 'base64url'))
    const point = ecdh.getPublicKey()
    return point.subarray(1, 33).toString('base64url') === jwk.x && point.subarray(33).toString('base64url') === jwk.y
  } catch {
    return false
  }
}

const redirectUri = z.string().refine(
  (raw) => {
    const url = parseUrl(raw)
    return !!url && !url.hash && (url.protocol !== 'http:' && url.protocol !== 'https:' ? true : url.hostname !== '')
  },
  { error: 'must be an absolute URL without a fragment' },
)

const clientEntry = z.strictObject({
  client_id: z.string({ error: 'is required (a string)' }).regex(CLIENT_ID, { error: 'must be 1 to 128 letters, digits or . _ : -' }),
  client_secret: z.string().min(MIN_CLIENT_SECRET_LENGTH, { error: `must be at least ${MIN_CLIENT_SECRET_LENGTH} characters` }).optional(),
  name: z.string().trim().min(1, { error: 'must not be empty' }).max(100).optional(),
  redirect_uris: z.array(redirectUri).optional(),
  grant_types: z
    .array(z.enum(SUPPORTED_GRANT_TYPES, { error: `must be one of ${SUPPORTED_GRANT_TYPES.join(', ')}` }))
    .min(1, { error: 'must list at least one grant type' })
    .optional(),
  type: z.enum(['first_party', 'confidential', 'public'], { error: 'must be first_party, confidential or public' }).optional(),
  scopes: z.array(z.enum(OAUTH_SCOPES, { error: `must be one of ${OAUTH_SCOPES.join(', ')}` })).min(1).optional(),
  logo: z.url({ error: 'must be an absolute URL' }).optional(),
})

/**
 * Ready-made providers: AUTH_PROVIDERS entries with `"preset": "google"` need only the client
 * id and secret. Google, Microsoft and Apple are OpenID Connect (discovered from the issuer);
 * GitHub is plain OAuth 2, its profile read from its user API.
 */
const PROVIDER_PRESETS = {
  google: { kind: 'oidc', name: 'Google', issuer: 'https://accounts.google.com', scopes: ['openid', 'email', 'profile'] },
  microsoft: { kind: 'oidc', name: 'Microsoft', issuer: 'https://login.microsoftonline.com/consumers/v2.0', scopes: ['openid', 'email', 'profile'] },
  // Apple returns name and e-mail only by form_post, which the callback page cannot take: ask for
  // openid alone (the subject is what sign-in needs). Its client_secret is the ES256 JWT Apple asks for.
  apple: { kind: 'oidc', name: 'Apple', issuer: 'https://appleid.apple.com', scopes: ['openid'] },
  github: {
    kind: 'oauth2',
    name: 'GitHub',
    authorization_endpoint: 'https://github.com/login/oauth/authorize',
    token_endpoint: 'https://github.com/login/oauth/access_token',
    userinfo_endpoint: 'https://api.github.com/user',
    scopes: ['read:user', 'user:email'],
    claims: { sub: 'id', name: 'name', email: 'email', email_verified: 'email_verified', picture: 'avatar_url' },
  },
} as const
const PROVIDER_PRESET_NAMES = Object.keys(PROVIDER_PRESETS) as (keyof typeof PROVIDER_PRESETS)[]

const providerEntry = z.strictObject({
  id: z.string({ error: 'is required (a string)' }).regex(/^[A-Za-z0-9._-]{1,64}$/, { error: 'must be 1 to 64 letters, digits or . _ -' }),
  preset: z.enum(PROVIDER_PRESET_NAMES as [string, ...string[]], { error: `must be one of ${PROVIDER_PRESET_NAMES.join(', ')}` }).optional(),
  kind: z.enum(['oidc', 'oauth2'], { error: 'must be oidc or oauth2' }).optional(),
  name: z.string().trim().min(1).max(64).optional(),
  icon: z.url({ error: 'must be an absolute URL' }).optional(),
  client_id: z.string({ error: 'is required (a string)' }).min(1).max(512),
  client_secret: z.string().min(1).max(4096).optional(),
  scopes: z.array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/, { error: 'must be a scope token' })).optional(),
  issuer: z.url({ error: 'must be an absolute URL' }).optional(),
  authorization_endpoint: z.url({ error: 'must be an absolute URL' }).optional(),
  token_endpoint: z.url({ error: 'must be an absolute URL' }).optional(),
  userinfo_endpoint: z.url({ error: 'must be an absolute URL' }).optional(),
  claims: z.strictObject({ sub: z.string().optional(), name: z.string().optional(), email: z.string().optional(), email_verified: z.string().optional(), picture: z.string().optional() }).optional(),
  sign_up: z.boolean().optional(),
  extra_audiences: z.array(z.string().min(1).max(512)).optional(),
  accept_access_tokens: z.boolean().optional(),
})

/** A variable holding JSON: its parsed value, or one issue saying it is not JSON, with the shape expected. */
function jsonText(expected: string) {
  return z.string().transform((raw, ctx): unknown => {
    try {
      return JSON.parse(raw)
    } catch (err) {
      ctx.issues.push({ code: 'custom', input: raw, message: `is not valid JSON (${(err as Error).message}); expected ${expected}` })
      return z.NEVER
    }
  })
}

const providers = jsonText('an array like [{"id":"google","preset":"google","client_id":"…","client_secret":"…"}]')
  .pipe(z.array(providerEntry, { error: 'must be a JSON array of provider objects' }))
  .superRefine((entries, ctx) => {
    const seen = new Set<string>()
    entries.forEach((entry, index) => {
      if (seen.has(entry.id)) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `"${entry.id}" is listed twice` })
      seen.add(entry.id)
      const preset = entry.preset ? PROVIDER_PRESETS[entry.preset as keyof typeof PROVIDER_PRESETS] : undefined
      const kind = entry.kind ?? preset?.kind ?? (entry.issuer ? 'oidc' : 'oauth2')
      if (kind === 'oidc' && !entry.issuer && !(preset && 'issuer' in preset)) ctx.addIssue({ code: 'custom', path: [index, 'issuer'], message: 'an OpenID Connect provider needs its issuer URL' })
      if (kind === 'oauth2') {
        for (const key of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint'] as const) {
          if (!entry[key] && !(preset && key in preset)) ctx.addIssue({ code: 'custom', path: [index, key], message: 'a plain OAuth 2 provider needs its authorize, token and user-info endpoints' })
        }
      }
    })
  })

function providerConfigs(entries: z.output<typeof providers>): IdentityProviderConfig[] {
  return entries.map((entry) => {
    const preset = (entry.preset ? PROVIDER_PRESETS[entry.preset as keyof typeof PROVIDER_PRESETS] : {}) as Partial<{
      kind: 'oidc' | 'oauth2'
      name: string
      issuer: string
      authorization_endpoint: string
      token_endpoint: string
      userinfo_endpoint: string
      scopes: readonly string[]
      claims: Record<string, string>
    }>
    const kind = entry.kind ?? preset.kind ?? (entry.issuer ? 'oidc' : 'oauth2')
    const claims = { ...preset.claims, ...entry.claims }
    return {
      id: entry.id,
      kind,
      name: entry.name ?? preset.name ?? entry.id,
      icon: entry.icon ?? '',
      clientId: entry.client_id,
      clientSecret: entry.client_secret,
      scopes: [...(entry.scopes ?? preset.scopes ?? (kind === 'oidc' ? ['openid', 'email', 'profile'] : []))],
      issuer: entry.issuer ?? preset.issuer,
      authorizationEndpoint: entry.authorization_endpoint ?? preset.authorization_endpoint,
      tokenEndpoint: entry.token_endpoint ?? preset.token_endpoint,
      userinfoEndpoint: entry.userinfo_endpoint ?? preset.userinfo_endpoint,
      claims: {
        sub: claims['sub'] ?? 'sub',
        name: claims['name'] ?? 'name',
        email: claims['email'] ?? 'email',
        emailVerified: claims['email_verified'] ?? 'email_verified',
        picture: claims['picture'] ?? 'picture',
      },
      signUp: entry.sign_up ?? true,
      extraAudiences: entry.extra_audiences ?? [],
      acceptAccessTokens: entry.accept_access_tokens ?? false,
    }
  })
}

/** A count where -1 means "no limit". */
const limitCount = z.number().int({ error: 'must be a whole number' }).min(-1, { error: 'must be -1 (no limit) or more' }).max(1e12)
/** One plan in PLANS; every field optional (unset: the plan's default, or the free plan's for a new plan). */
const planEntry = z
  .object({
    level: z.number().int().min(1).max(100).optional(),
    storage: z.union([byteSize, z.number().int().positive().max(Number.MAX_SAFE_INTEGER)]).optional(),
    offline_tasks_per_day: limitCount.min(0).optional(),
    offline_running_tasks: z.number().int().min(1).max(1000).optional(),
    transcoded_playback: z.boolean().optional(),
    plays_per_day: limitCount.optional(),
    download_bytes_per_day: z.union([z.literal(-1), byteSize, z.number().int().positive().max(Number.MAX_SAFE_INTEGER)]).optional(),
  })
  .strict()

/** PLANS: `{"free": {...}, "vip": {...}, "platinum": {"level": 2, ...}}` as JSON. */
const plansJson = jsonText('an object like {"platinum":{"level":2,"storage":"20TiB","offline_running_tasks":20}}')
  .pipe(z.record(z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, { error: 'plan names are lower-case letters, digits and _' }).refine((name) => name !== 'novip', { error: '"novip" is the wire name of the free plan; configure it as "free"' }), planEntry, { error: 'must be a JSON object of plans' }))

const clients = jsonText('an array like [{"client_id":"my-app","redirect_uris":["https://app.example.com/cb"]}]')
  .pipe(z.array(clientEntry, { error: 'must be a JSON array of client objects' }))
  .superRefine((entries, ctx) => {
    const seen = new Set<string>([WEB_CLIENT_ID])
    entries.forEach((entry, index) => {
      if (seen.has(entry.client_id)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'client_id'],
          message: entry.client_id === WEB_CLIENT_ID ? `"${WEB_CLIENT_ID}" is the built-in web client and cannot be redefined` : `"${entry.client_id}" is listed twice`,
        })
      }
      seen.add(entry.client_id)
    })
  })

const envSchema = z.object({
  PORT: wholeNumber(0, 65_535).optional(),
  HOST: z.string().optional(),
  CUMULUS_DATA_DIR: z.string().optional(),
  DATABASE_URL: databaseUrl.optional(),
  REDIS_URL: redisUrl.optional(),
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9:_.-]{1,64}$/, { error: 'must be 1 to 64 letters, digits or : _ . -' }).optional(),
  PUBLIC_URL: publicUrl.optional(),
  MAIL_URL: mailUrl.optional(),
  MAIL_FROM: z
    .string()
    .refine((raw) => /^[^\s@<>]+@[^\s@<>]+$/.test(raw) || /^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(raw), { error: 'must be an address, or "Name <address>"' })
    .optional(),
  SMS_URL: smsUrl.optional(),
  CAPTCHA_MODE: z.enum(['auto', 'always', 'off'], { error: 'must be auto, always or off' }).optional(),
  VERIFICATION_RESEND_INTERVAL_SECONDS: wholeNumber(0, SECONDS_PER_DAY).optional(),
  VERIFICATION_SENDS_PER_ADDRESS_PER_DAY: wholeNumber(1, MAX_SEND_BUDGET).optional(),
  VERIFICATION_SENDS_PER_IP_PER_HOUR: wholeNumber(1, MAX_SEND_BUDGET).optional(),
  VERIFICATION_SENDS_PER_HOUR: wholeNumber(1, MAX_SEND_BUDGET).optional(),
  INVITE_REWARD_DAYS: wholeNumber(0, 3650).optional(),
  INVITE_REWARDS_PER_30_DAYS: wholeNumber(0, 100_000).optional(),
  SESSION_CACHE_SECONDS: wholeNumber(0, 60).optional(),
  CUMULUS_CLIENTS: clients.optional(),
  AUTH_PROVIDERS: providers.optional(),
  CORS_ORIGINS: corsOrigins.optional(),
  TRUST_PROXY: trustProxy.optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).optional(),
  JWT_PRIVATE_KEY: jwtPrivateKey.optional(),
  ID_TOKEN_PRIVATE_KEY: idTokenPrivateKey.optional(),
  CUMULUS_SECRET: z.string().min(MIN_SECRET_LENGTH, { error: `must be at least ${MIN_SECRET_LENGTH} characters` }).optional(),
  ACCOUNT_DELETION_GRACE_DAYS: wholeNumber(0, MAX_DELETION_GRACE_DAYS).optional(),
  DOWNLOAD_LINK_WEB: platformLink.optional(),
  DOWNLOAD_LINK_WINDOWS: platformLink.optional(),
  DOWNLOAD_LINK_MACOS: platformLink.optional(),
  DOWNLOAD_LINK_LINUX: platformLink.optional(),
  DOWNLOAD_LINK_ANDROID: platformLink.optional(),
  APP_DEEP_LINK: deepLink.optional(),
  STORAGE_URL: storageUrl.optional(),
  DRIVE_QUOTA_FREE: byteSize.optional(),
  DRIVE_QUOTA_VIP: byteSize.optional(),
  PLANS: plansJson.optional(),
  TRASH_RETENTION_DAYS: wholeNumber(1, 3650).optional(),
  DRIVE_GLOBAL_DEDUP: flag.optional(),
  DRIVE_LINK_TTL_SECONDS: wholeNumber(DRIVE_LINK_MIN_TTL_SECONDS, 7 * SECONDS_PER_DAY).optional(),
  OFFLINE_TASKS_PER_DAY_FREE: wholeNumber(0, 1_000_000).optional(),
  OFFLINE_TASKS_PER_DAY_VIP: wholeNumber(0, 1_000_000).optional(),
  OFFLINE_RUNNING_TASKS_FREE: wholeNumber(1, 1000).optional(),
  OFFLINE_RUNNING_TASKS_VIP: wholeNumber(1, 1000).optional(),
  OFFLINE_ALLOW_NETWORKS: networkList.optional(),
  OFFLINE_WORKERS: wholeNumber(1, 256).optional(),
  BATCH_INLINE_MAX_ITEMS: wholeNumber(1, 10_000_000).optional(),
  SHARE_RESTORE_MAX_ITEMS: wholeNumber(1, 10_000_000).optional(),
  COPY_MAX_ITEMS: wholeNumber(1, 10_000_000).optional(),
  ARIA2C_PATH: z.string().min(1).optional(),
  FFMPEG_PATH: z.string().min(1).optional(),
  FFPROBE_PATH: z.string().min(1).optional(),
  SEVEN_ZIP_PATH: z.string().min(1).optional(),
  LSAR_PATH: z.string().min(1).optional(),
  UNAR_PATH: z.string().min(1).optional(),
  ARCHIVE_MAX_UNPACK_BYTES: byteSize.optional(),
  ARCHIVE_MAX_RATIO: wholeNumber(2, 1_000_000).optional(),
  ARCHIVE_WORKERS: wholeNumber(1, 64).optional(),
  TRANSCODE_ON: z.enum(TRANSCODE_TRIGGERS).optional(),
  TRANSCODE_PRESET: z.enum(X264_PRESETS).optional(),
  TORRENT_DHT: flag.optional(),
  TORRENT_PEER_EXCHANGE: flag.optional(),
  TORRENT_PREVIEW_SECONDS: wholeNumber(1, 600).optional(),
  TORRENT_LISTEN_PORT: z.string().regex(/^\d{1,5}(-\d{1,5})?$/, { error: 'must be a port or a range such as 6881-6999' }).optional(),
})

type EnvKey = keyof typeof envSchema.shape

/** The environment keys Cumulus reads, in the order the README documents them. */
export const CONFIG_KEYS = Object.keys(envSchema.shape) as EnvKey[]

// ---------------------------------------------------------------------------------------------

/**
 * Parses the environment (and config flags in `argv`, which win over it) into a frozen config.
 * Empty values count as unset. Throws ConfigError listing every bad key, never just the first.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>, argv: readonly string[] = []): CumulusConfig {
  const raw: Partial<Record<EnvKey, string>> = {}
  const labels = new Map<string, string>()
  for (const key of CONFIG_KEYS) {
    const value = env[key]?.trim()
    if (value) raw[key] = value
  }
  const flagIssues: ConfigIssue[] = []
  for (const [flag, value] of configFlagsOf(argv)) {
    const key = CONFIG_FLAGS[flag]
    if (value === undefined || value.trim() === '') {
      flagIssues.push({ key: `--${flag}`, message: 'needs a value' })
      continue
    }
    raw[key] = value.trim()
    labels.set(key, `--${flag}`)
  }

  const parsed = envSchema.safeParse(raw)
  const issues = [...flagIssues]
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [key, ...rest] = issue.path
      const label = labels.get(String(key)) ?? String(key)
      issues.push({ key: label + rest.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join(''), message: issue.message })
    }
  }
  if (issues.length > 0 || !parsed.success) throw new ConfigError(issues)
  return deepFreeze(withRedactedView(buildConfig(parsed.data)))
}

function buildConfig(values: z.output<typeof envSchema>): CumulusConfig {
  const port = values.PORT ?? DEFAULT_PORT
  const dataDir = resolve(values.CUMULUS_DATA_DIR ?? DEFAULT_DATA_DIR)
  const publicUrl = values.PUBLIC_URL ?? `http://localhost:${port}`
  const { hostname, origin } = new URL(publicUrl)

  const webClient: RegisteredClient = { clientId: WEB_CLIENT_ID, name: 'Cumulus web', redirectUris: [`${publicUrl}/`], grantTypes: ['refresh_token'] }
  const extraClients: RegisteredClient[] = (values.CUMULUS_CLIENTS ?? []).map((c) => ({
    clientId: c.client_id,
    clientSecret: c.client_secret,
    name: c.name ?? c.client_id,
    redirectUris: c.redirect_uris ?? [],
    grantTypes: c.grant_types ?? ['refresh_token'],
    type: c.type ?? 'first_party',
    scopes: c.scopes,
    logo: c.logo ?? '',
  }))

  const plans = plansOf(values)
  const defaults = structuredClone(IDENTITY_DEFAULTS) as unknown as Omit<IdentityConfig, 'publicUrl' | 'clients' | 'corsOrigins'>
  const identity: IdentityConfig = {
    ...defaults,
    publicUrl,
    clients: [webClient, ...extraClients],
    providers: providerConfigs(values.AUTH_PROVIDERS ?? []),
    corsOrigins: values.CORS_ORIGINS ?? [origin],
    captcha: { ...defaults.captcha, mode: (values.CAPTCHA_MODE ?? defaults.captcha.mode) as CaptchaMode },
    tokens: { ...defaults.tokens, sessionCacheSeconds: values.SESSION_CACHE_SECONDS ?? defaults.tokens.sessionCacheSeconds },
    verification: {
      ...defaults.verification,
      resendIntervalSeconds: values.VERIFICATION_RESEND_INTERVAL_SECONDS ?? defaults.verification.resendIntervalSeconds,
      maxPerAddressPerDay: values.VERIFICATION_SENDS_PER_ADDRESS_PER_DAY ?? defaults.verification.maxPerAddressPerDay,
      maxPerIpPerHour: values.VERIFICATION_SENDS_PER_IP_PER_HOUR ?? defaults.verification.maxPerIpPerHour,
      maxGlobalPerHour: values.VERIFICATION_SENDS_PER_HOUR ?? defaults.verification.maxGlobalPerHour,
    },
    plans: Object.fromEntries(Object.entries(plans.paid).map(([name, plan]) => [name, plan.level])),
    invites: {
      rewardDays: values.INVITE_REWARD_DAYS ?? defaults.invites.rewardDays,
      rewardsPer30Days: values.INVITE_REWARDS_PER_30_DAYS ?? defaults.invites.rewardsPer30Days,
    },
    deletionGraceSeconds: (values.ACCOUNT_DELETION_GRACE_DAYS ?? DEFAULT_DELETION_GRACE_DAYS) * SECONDS_PER_DAY,
  }

  return {
    port,
    host: values.HOST ?? DEFAULT_HOST,
    dataDir,
    database: databaseConfig(values.DATABASE_URL, dataDir),
    redisUrl: values.REDIS_URL,
    redisPrefix: values.REDIS_PREFIX ?? DEFAULT_REDIS_PREFIX,
    publicUrl,
    mail: {
      transport: values.MAIL_URL ?? { kind: 'file', directory: join(dataDir, 'outbox') },
      from: values.MAIL_FROM ?? `${identity.productName} <no-reply@${hostname}>`,
    },
    sms: values.SMS_URL ?? { kind: 'file', directory: join(dataDir, 'sms') },
    trustProxy: values.TRUST_PROXY ?? false,
    logLevel: values.LOG_LEVEL ?? 'info',
    jwtPrivateKey: values.JWT_PRIVATE_KEY,
    idTokenPrivateKey: values.ID_TOKEN_PRIVATE_KEY,
    secret: values.CUMULUS_SECRET,
    identity,
    web: {
      platformLinks: {
        web: values.DOWNLOAD_LINK_WEB ?? DEFAULT_WEB_PUBLIC_CONFIG.platformLinks.web,
        windows: values.DOWNLOAD_LINK_WINDOWS ?? DEFAULT_WEB_PUBLIC_CONFIG.platformLinks.windows,
        macos: values.DOWNLOAD_LINK_MACOS ?? DEFAULT_WEB_PUBLIC_CONFIG.platformLinks.macos,
        linux: values.DOWNLOAD_LINK_LINUX ?? DEFAULT_WEB_PUBLIC_CONFIG.platformLinks.linux,
        android: values.DOWNLOAD_LINK_ANDROID ?? DEFAULT_WEB_PUBLIC_CONFIG.platformLinks.android,
      },
      appDeepLink: values.APP_DEEP_LINK ?? DEFAULT_WEB_PUBLIC_CONFIG.appDeepLink,
      accountDeletionGraceDays: values.ACCOUNT_DELETION_GRACE_DAYS ?? DEFAULT_DELETION_GRACE_DAYS,
      trashRetentionDays: values.TRASH_RETENTION_DAYS ?? DRIVE_DEFAULTS.trashRetentionDays,
    },
    drive: {
      publicUrl,
      uploadDir: join(dataDir, 'uploads'),
      plans,
      trashRetentionDays: values.TRASH_RETENTION_DAYS ?? DRIVE_DEFAULTS.trashRetentionDays,
      linkTtlSeconds: values.DRIVE_LINK_TTL_SECONDS ?? DRIVE_DEFAULTS.linkTtlSeconds,
      uploadExpirySeconds: DRIVE_DEFAULTS.uploadExpirySeconds,
      offlineAllowedNetworks: values.OFFLINE_ALLOW_NETWORKS ?? [],
      offlineWorkers: values.OFFLINE_WORKERS ?? DRIVE_DEFAULTS.offlineWorkers,
      batchInlineMaxItems: values.BATCH_INLINE_MAX_ITEMS ?? DRIVE_DEFAULTS.batchInlineMaxItems,
      shareRestoreMaxItems: values.SHARE_RESTORE_MAX_ITEMS ?? DRIVE_DEFAULTS.shareRestoreMaxItems,
      copyMaxItems: values.COPY_MAX_ITEMS ?? DRIVE_DEFAULTS.copyMaxItems,
      ffmpegPath: values.FFMPEG_PATH ?? 'ffmpeg',
      ffprobePath: values.FFPROBE_PATH ?? siblingTool(values.FFMPEG_PATH, 'ffprobe'),
      archive: {
        sevenZipPath: values.SEVEN_ZIP_PATH ?? '7zz',
        lsarPath: values.LSAR_PATH ?? 'lsar',
        unarPath: values.UNAR_PATH ?? siblingTool(values.LSAR_PATH, 'unar'),
        maxUnpackBytes: values.ARCHIVE_MAX_UNPACK_BYTES ?? DRIVE_DEFAULTS.archiveMaxUnpackBytes,
        maxRatio: values.ARCHIVE_MAX_RATIO ?? DRIVE_DEFAULTS.archiveMaxRatio,
        workers: values.ARCHIVE_WORKERS ?? DRIVE_DEFAULTS.archiveWorkers,
      },
      transcode: { trigger: values.TRANSCODE_ON ?? 'upload', preset: values.TRANSCODE_PRESET ?? 'veryfast' },
      torrent: {
        aria2cPath: values.ARIA2C_PATH ?? 'aria2c',
        workDir: join(dataDir, 'torrent'),
        dht: values.TORRENT_DHT ?? true,
        peerExchange: values.TORRENT_PEER_EXCHANGE ?? true,
        previewTimeoutMs: (values.TORRENT_PREVIEW_SECONDS ?? DRIVE_DEFAULTS.torrentPreviewSeconds) * 1000,
        listenPort: values.TORRENT_LISTEN_PORT ?? null,
      },
      globalDedup: values.DRIVE_GLOBAL_DEDUP ?? false,
    },
    storage: values.STORAGE_URL ?? { kind: 'local', root: join(dataDir, 'blobs') },
  }
}

function databaseConfig(url: string | undefined, dataDir: string): DatabaseConfig {
  if (!url) return { kind: 'sqlite', sqlitePath: join(dataDir, 'cumulus.db') }
  const parsed = new URL(url)
  const schema = parsed.searchParams.get('schema') ?? undefined
  parsed.searchParams.delete('schema')
  return { kind: 'postgres', url: parsed.href, schema }
}

/** `[flag, value]` for each config flag in argv; other arguments belong to the command and are skipped. */
function configFlagsOf(argv: readonly string[]): [keyof typeof CONFIG_FLAGS, string | undefined][] {
  const { tokens } = parseArgs({ args: [...argv], options: CONFIG_FLAG_OPTIONS, strict: false, allowPositionals: true, tokens: true })
  const found: [keyof typeof CONFIG_FLAGS, string | undefined][] = []
  for (const token of tokens) {
    if (token.kind === 'option' && Object.hasOwn(CONFIG_FLAGS, token.name)) {
      found.push([token.name as keyof typeof CONFIG_FLAGS, typeof token.value === 'string' ? token.value : undefined])
    }
  }
  return found
}

// ---------------------------------------------------------------------------------------------
// Redaction

/** A URL with its password and every query value replaced, for logs. Unparseable input is hidden whole. */
export function redactUrl(raw: string): string {
  const url = parseUrl(raw)
  if (!url) return REDACTED
  if (url.password) url.password = '***'
  for (const key of [...url.searchParams.keys()]) url.searchParams.set(key, '***')
  return url.href
}

/** A mail or SMS transport as it may be logged: the URL of a server redacted, an outbox folder as it is. */
function redactTransport<T extends MailTransport | SmsTransport>(transport: T): T {
  return transport.kind === 'file' ? transport : { ...transport, url: redactUrl(transport.url) }
}

/**
 * The config as it may be logged: passwords in URLs, client secrets and keys are replaced.
 * `JSON.stringify(config)` and `util.inspect(config)` give this view too, so a config that is
 * logged by accident does not leak.
 */
export function redactConfig(config: CumulusConfig) {
  return {
    port: config.port,
    host: config.host,
    dataDir: config.dataDir,
    database: config.database.kind === 'postgres' ? { ...config.database, url: redactUrl(config.database.url) } : { ...config.database },
    redisUrl: config.redisUrl === undefined ? undefined : redactUrl(config.redisUrl),
    redisPrefix: config.redisPrefix,
    publicUrl: config.publicUrl,
    mail: { transport: redactTransport(config.mail.transport), from: config.mail.from },
    sms: redactTransport(config.sms),
    trustProxy: config.trustProxy,
    logLevel: config.logLevel,
    jwtPrivateKey: config.jwtPrivateKey ? `${REDACTED} (JWT_PRIVATE_KEY, kid ${config.jwtPrivateKey.kid ?? 'default'})` : 'key file in the data directory',
    idTokenPrivateKey: config.idTokenPrivateKey ? `${REDACTED} (ID_TOKEN_PRIVATE_KEY)` : 'key file in the data directory',
    secret: config.secret ? `${REDACTED} (CUMULUS_SECRET)` : 'key file in the data directory',
    identity: {
      ...config.identity,
      clients: config.identity.clients.map((c) => ({ ...c, clientSecret: c.clientSecret === undefined ? undefined : REDACTED })),
      providers: (config.identity.providers ?? []).map((p) => ({ ...p, clientSecret: p.clientSecret === undefined ? undefined : REDACTED })),
    },
    drive: config.drive,
    // The secret key is hidden; the access key id stays: it names the credentials.
    storage: config.storage.kind === 's3' && config.storage.credentials ? { ...config.storage, credentials: { ...config.storage.credentials, secretAccessKey: REDACTED } } : config.storage,
  }
}

/**
 * The plans: free and 'vip' from their own variables (DRIVE_QUOTA_*, OFFLINE_*_FREE/VIP), then
 * PLANS on top, which may change them and add more ('platinum', ...). A new plan starts from the
 * free plan's limits and level 1.
 */
function plansOf(values: { [K in 'DRIVE_QUOTA_FREE' | 'DRIVE_QUOTA_VIP' | 'OFFLINE_TASKS_PER_DAY_FREE' | 'OFFLINE_TASKS_PER_DAY_VIP' | 'OFFLINE_RUNNING_TASKS_FREE' | 'OFFLINE_RUNNING_TASKS_VIP']?: number | undefined } & { PLANS?: Record<string, z.infer<typeof planEntry>> | undefined }): PlanTable {
  let free: PlanLimits = {
    storageBytes: values.DRIVE_QUOTA_FREE ?? DRIVE_DEFAULTS.quotaFreeBytes,
    offlineTasksPerDay: values.OFFLINE_TASKS_PER_DAY_FREE ?? DRIVE_DEFAULTS.offlineTasksPerDayFree,
    offlineRunningTasks: values.OFFLINE_RUNNING_TASKS_FREE ?? DRIVE_DEFAULTS.offlineRunningTasksFree,
    transcodedPlayback: false,
    playsPerDay: DRIVE_DEFAULTS.playsPerDayFree,
    downloadBytesPerDay: -1,
  }
  const paid: Record<string, PaidPlan> = {
    vip: {
      level: 1,
      storageBytes: values.DRIVE_QUOTA_VIP ?? DRIVE_DEFAULTS.quotaVipBytes,
      offlineTasksPerDay: values.OFFLINE_TASKS_PER_DAY_VIP ?? DRIVE_DEFAULTS.offlineTasksPerDayVip,
      offlineRunningTasks: values.OFFLINE_RUNNING_TASKS_VIP ?? DRIVE_DEFAULTS.offlineRunningTasksVip,
      transcodedPlayback: true,
      playsPerDay: -1,
      downloadBytesPerDay: -1,
    },
  }
  // `free` first, whatever the JSON's order: a new plan starts from the configured free plan.
  const entries = Object.entries(values.PLANS ?? {}).sort(([a], [b]) => Number(b === 'free') - Number(a === 'free'))
  for (const [name, entry] of entries) {
    const base: PlanLimits & { level?: number } = name === 'free' ? free : ((Object.hasOwn(paid, name) ? paid[name] : undefined) ?? { ...free, level: 1 })
    const limits: PlanLimits = {
      storageBytes: entry.storage ?? base.storageBytes,
      offlineTasksPerDay: entry.offline_tasks_per_day ?? base.offlineTasksPerDay,
      offlineRunningTasks: entry.offline_running_tasks ?? base.offlineRunningTasks,
      transcodedPlayback: entry.transcoded_playback ?? base.transcodedPlayback,
      playsPerDay: entry.plays_per_day ?? base.playsPerDay,
      downloadBytesPerDay: entry.download_bytes_per_day ?? base.downloadBytesPerDay,
    }
    if (name === 'free') free = limits
    else paid[name] = { ...limits, level: entry.level ?? base.level ?? 1 }
  }
  return { free, paid }
}

function withRedactedView(config: CumulusConfig): CumulusConfig {
  const view = () => redactConfig(config)
  Object.defineProperty(config, 'toJSON', { value: view, enumerable: false })
  Object.defineProperty(config, inspect.custom, { value: () => view(), enumerable: false })
  return config
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

/** A tool installed beside `path` (ffprobe beside ffmpeg): a name on PATH when `path` is one too. */
function siblingTool(path: string | undefined, name: string): string {
  return path !== undefined && path.includes('/') ? join(dirname(path), name) : name
}
