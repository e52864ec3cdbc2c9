import { DEFAULT_LOCALE, PLATFORM, type PlatformName, RETRY_DEFAULT, RETRY_MAX, RETRY_MIN } from '@cumulus/protocol'
import type { AndroidHostBridge } from './android.js'
import { wrongOptionsParam } from './errors.js'
import type { KeyValueStorage } from './storage.js'

/** What `onCaptcha` resolves with: the outcome of the captcha frame's redirect query. */
export interface CaptchaResult {
  captchaToken: string
  /** Seconds the token lives, as given by the challenge page. */
  expiresIn: number
}

/** Context handed to `onCaptcha` along with the challenge URL. */
export interface CaptchaChallenge {
  /** The protected call, `METHOD:/path`. */
  action: string
  /** Seconds the challenge stays valid. */
  expiresIn: number
}

export type Environment = 'production' | 'test'

/** Minimal `navigator.locks` shape the cross-tab lock uses. */
export interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>
}

export interface IdentityClientOptions {
  /** The registered client id; sent as `x-client-id` and prefixes every storage key. */
  clientId: string
  clientSecret?: string
  /** Identity API origins, tried in turn when one is unreachable. Required, non-empty. */
  origins: string[]
  /** Locale for `accept-language` and messages; defaults to `navigator.language`, else en-US. */
  locale?: string
  /** Where credentials live; defaults to `localStorage`, else memory. */
  storage?: KeyValueStorage
  /** Fixed device id; defaults to the Android host's, else one generated and stored. */
  deviceId?: string
  /** Platform name or code for `x-platform-version`; defaults to ANDROID with a host, WEB in a browser. */
  platform?: PlatformName | number
  /** Retries per request, an integer 0 to 5 (default 2). */
  retry?: number
  /** Milliseconds to wait for the credentials lock; no timeout by default. */
  lockTimeout?: number
  fetch?: typeof fetch
  /**
   * Shows the captcha challenge at `url` (add `redirect_uri` and `state` with
   * `withCaptchaRedirect` as the app needs). Resolve with the redirect's result, or
   * null / reject when the user closes the frame (the request then fails `cancelled`).
   */
  onCaptcha?: (url: string, challenge: CaptchaChallenge) => Promise<CaptchaResult | null | undefined>
  /** Recorded on the client (`client.env`) and in analytics; origins are always explicit. */
  env?: Environment
  /** The Android host bridge; detected on `globalThis.CumulusAndroid` when not given. */
  androidHost?: AndroidHostBridge
  /** Cross-tab lock manager; defaults to `navigator.locks` when present, else a storage lease. */
  locks?: LockManagerLike | null
  /** Back-off sleep; defaults to setTimeout (tests use fake timers). */
  sleep?: (ms: number) => Promise<void>
}

export interface ResolvedOptions {
  clientId: string
  clientSecret: string | undefined
  origins: string[]
  locale: string
  retry: number
  lockTimeoutMs: number | undefined
  platform: number | undefined
  env: Environment
  fetch: typeof fetch
  sleep: (ms: number) => Promise<void>
}

export const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Checks the options once, at construction, and throws `wrong options param: <name>`
 * for the first bad one (spec 5): retry must be a number from 0 to 5, a lock timeout
 * must be a number, origins must be a non-empty list of strings.
 */
export function resolveOptions(options: IdentityClientOptions, hasAndroidHost: boolean): ResolvedOptions {
  if (options === null || typeof options !== 'object') throw wrongOptionsParam('options')
  if (typeof options.clientId !== 'string' || options.clientId === '') throw wrongOptionsParam('clientId')
  const retry: unknown = options.retry === undefined ? RETRY_DEFAULT : options.retry
  if (typeof retry !== 'number' || !Number.isInteger(retry) || retry < RETRY_MIN || retry > RETRY_MAX) {
    throw wrongOptionsParam('retry')
  }
  const timeout = options.lockTimeout
  if (timeout !== undefined && (typeof timeout !== 'number' || Number.isNaN(timeout) || timeout < 0)) {
    throw wrongOptionsParam('timeout')
  }
  const origins = options.origins
  if (!Array.isArray(origins) || origins.length === 0 || origins.some((o) => typeof o !== 'string' || o === '')) {
    throw wrongOptionsParam('origins')
  }
  const env = options.env ?? 'production'
  if (env !== 'production' && env !== 'test') throw wrongOptionsParam('env')
  const fetchImpl = options.fetch ?? globalThis.fetch
  if (typeof fetchImpl !== 'function') throw wrongOptionsParam('fetch')
  return {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    origins: origins.map((o) => o.replace(/\/+$/, '')),
    locale: options.locale ?? navigatorLanguage() ?? DEFAULT_LOCALE,
    retry,
    lockTimeoutMs: timeout,
    platform: resolvePlatform(options.platform, hasAndroidHost),
    env,
    // Called unbound: browsers throw "Illegal invocation" for fetch detached from window.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    sleep: options.sleep ?? defaultSleep,
  }
}

function resolvePlatform(platform: PlatformName | number | undefined, hasAndroidHost: boolean): number | undefined {
  if (typeof platform === 'number') {
    if (!(Object.values(PLATFORM) as number[]).includes(platform)) throw wrongOptionsParam('platform')
    return platform
  }
  if (typeof platform === 'string') {
    if (!Object.hasOwn(PLATFORM, platform)) throw wrongOptionsParam('platform')
    return PLATFORM[platform]
  }
  if (platform !== undefined) throw wrongOptionsParam('platform')
  if (hasAndroidHost) return PLATFORM.ANDROID
  if (typeof (globalThis as { document?: unknown }).document !== 'undefined') return PLATFORM.WEB
  return undefined
}

function navigatorLanguage(): string | undefined {
  const language = (globalThis as { navigator?: { language?: unknown } }).navigator?.language
  return typeof language === 'string' && language !== '' ? language : undefined
}
