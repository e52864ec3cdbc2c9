import {
  type ActivationCodeReply,
  type AuthorizeDetectReply,
  type AuthorizeInfoReply,
  type AuthorizeReply,
  type ConnectedApp,
  type ConnectedAppsReply,
  type UserSession,
  type UserSessionsReply,
  type DeviceInfoReply,
  type ProviderBinding,
  type ProviderBindingsReply,
  type ProviderInfo,
  type ProviderTokenReply,
  type ProviderUriReply,
  type ProvidersReply,
  CLIENT_UNKNOWN_LOCALE_FALLBACK,
  DEFAULT_SCOPE,
  AccountErrors,
  GenericErrors,
  HEADERS,
  OAuthErrors,
  LocalErrors,
  type SudoReply,
  TOKEN_REFRESH_THROTTLE_SECONDS,
  type TokenReply,
  type UserProfile,
  type VerificationChannel,
  type VerificationPurpose,
  type VerificationReply,
  type VerificationTarget,
  type VerifyReply,
  loadMessages,
  matchLocale,
} from '@cumulus/protocol'
import { type AnalyticsEventName, trackEvent } from './analytics.js'
import { type AndroidHostBridge, findAndroidHost, readHostDeviceId, readHostUserInfo } from './android.js'
import { CaptchaManager, captchaAction, CAPTCHA_MAX_REFRESHES, isCaptchaRetryable } from './captcha.js'
import { type Credentials, CredentialStore, credentialsFromToken, isExpired } from './credentials.js'
import { CREDENTIAL_CLEARING_ERRORS, IdentityError, errorMessage } from './errors.js'
import { CrossTabLock, ReentrantLock, findLockManager } from './lock.js'
import { type Environment, type IdentityClientOptions, type ResolvedOptions, resolveOptions } from './options.js'
import { newDeviceId, randomUuid } from './random.js'
import { type KeyValueStorage, type StorageKeys, defaultStorage, readJson, storageKeys, writeJson } from './storage.js'
import { type HttpMethod, type QueryValue, Transport } from './transport.js'
import { type UserInfo, buildUserInfo, userInfoFromHost } from './user-info.js'
import { classifyUsername, isAnonymousSub, usernameMeta } from './username.js'

export interface RequestOptions {
  query?: Record<string, QueryValue>
  /** JSON body. */
  body?: unknown
  /** Send the current account's bearer token, refreshing it first when expired and once after a 401. */
  auth?: boolean
  /**
   * Protect the call with a captcha token (`x-captcha-token`). `true` uses the action
   * `METHOD:/path` and no meta; an object may name both.
   */
  captcha?: boolean | { action?: string; meta?: Record<string, unknown> }
  headers?: Record<string, string>
  signal?: AbortSignal
  /**
   * Let the request outlive the page (fetch `keepalive`: a save sent from `pagehide`). The
   * browser caps such bodies at 64 KiB; a failure is not retried, since nobody may be left to wait.
   */
  keepalive?: boolean
}

/** An e-mail address or a phone number (with its leading `+`): exactly one of them. */
export type ContactInput = { email: string; phoneNumber?: undefined } | { phoneNumber: string; email?: undefined }

export type SendVerificationInput = (ContactInput | { email?: undefined; phoneNumber?: undefined }) & {
  usage: VerificationPurpose
  /** ANY (default), USER (must exist) or CUR_USER (the signed-in user's own; sends the bearer). */
  target?: VerificationTarget
}

export interface SendVerificationResult {
  verificationId: string
  /** Seconds. */
  expiresIn: number
  channel: VerificationChannel
  isUser: boolean
}

export interface VerifyResult {
  verificationToken: string
  /** Seconds. */
  expiresIn: number
}

export type SignUpInput = ContactInput & {
  verificationId: string
  code: string
  password?: string
  name?: string
  /** Another account's invite code (`GET /vip/v1/activity/inviteCode`): membership days for both. */
  inviteCode?: string
}
export type ResetPasswordInput = ContactInput & { verificationId: string; code: string; password: string }

/**
 * Stored state of a third-party sign-in in progress: written before the browser leaves for the
 * provider, completed by `completeProviderRedirect` (or `initialize()`) when it comes back.
 */
export interface PendingProviderSignIn {
  providerId: string
  state: string
  /** The redirect URI the provider sends the browser back to (registered at the provider). */
  redirectUri?: string
  /** Sign in (or up) with the identity, or bind it to the signed-in account. */
  mode?: 'signin' | 'bind'
  /** Where the app goes once done (a path of its own). */
  returnTo?: string
  /** Set once the provider redirected back with a code. */
  code?: string
  [key: string]: unknown
}

/** The parameters of an authorization request (GET /v1/auth/authorize), as the consent page reads them. */
export interface AuthorizeParams {
  client_id: string
  response_type: string
  redirect_uri: string
  scope?: string
  state?: string
  code_challenge?: string
  code_challenge_method?: string
  nonce?: string
}

/** What a completed provider redirect did. */
export interface ProviderRedirectResult {
  mode: 'signin' | 'bind'
  returnTo: string | undefined
}

const PATHS = {
  signIn: '/v1/auth/signin',
  signUp: '/v1/auth/signup',
  signUpAnonymously: '/v1/auth/signup/anonymously',
  token: '/v1/auth/token',
  revoke: '/v1/auth/revoke',
  verification: '/v1/auth/verification',
  verify: '/v1/auth/verification/verify',
  reset: '/v1/auth/reset',
  me: '/v1/user/me',
  sudo: '/v1/user/sudo',
  providers: '/v1/auth/providers',
  providerUri: '/v1/auth/provider/uri',
  providerToken: '/v1/auth/provider/token',
  signInWithProvider: '/v1/auth/signin/with/provider',
  providerBind: '/v1/user/provider/bind',
  providerBindings: '/v1/user/provider',
  authorizeInfo: '/v1/user/authorize/info',
  authorizeDetect: '/v1/user/authorize/detect',
  authorize: '/v1/user/authorize',
  connectedApps: '/v1/user/authorize/clients',
  sessions: '/v1/user/sessions',
  deviceInfo: '/v1/user/device/info',
  deviceAuthorize: '/v1/user/device/authorize',
  activationCode: '/vip/v1/order/activation-code',
  inviteCode: '/vip/v1/activity/inviteCode',
} as const

const REFRESH_THROTTLE_MS = TOKEN_REFRESH_THROTTLE_SECONDS * 1000

/**
 * The identity client: sign-in, sign-up, verification, tokens and the user profile,
 * against the identity service's wire contract (identity.md), in browsers and Node 20+.
 */
export class IdentityClient {
  readonly clientId: string
  readonly env: Environment
  readonly #options: ResolvedOptions
  readonly #storage: KeyValueStorage
  readonly #keys: StorageKeys
  readonly #store: CredentialStore
  readonly #transport: Transport
  readonly #captcha: CaptchaManager
  readonly #lock: ReentrantLock
  readonly #tabLock: CrossTabLock
  readonly #host: AndroidHostBridge | null
  readonly #fixedDeviceId: string | undefined
  #locale: string
  #profile: UserProfile | null = null
  #refreshing: Promise<Credentials> | null = null

  /** Throws `wrong options param: <name>` for a bad option (retry, timeout, origins, ...). */
  constructor(options: IdentityClientOptions) {
    this.#host = findAndroidHost(options?.androidHost)
    this.#options = resolveOptions(options, this.#host !== null)
    this.clientId = this.#options.clientId
    this.env = this.#options.env
    this.#locale = this.#options.locale
    this.messagesReady = preloadMessages(this.#locale)
    this.#storage = options.storage ?? defaultStorage()
    this.#keys = storageKeys(this.clientId)
    this.#store = new CredentialStore(this.#storage, this.clientId)
    this.#fixedDeviceId = options.deviceId
    this.#lock = new ReentrantLock(this.#options.lockTimeoutMs)
    this.#tabLock = new CrossTabLock({
      name: this.#keys.refreshLease,
      storage: this.#storage,
      locks: options.locks === undefined ? findLockManager() : options.locks,
      sleep: this.#options.sleep,
    })
    this.#transport = new Transport({
      clientId: this.clientId,
      origins: this.#options.origins,
      retry: this.#options.retry,
      fetch: this.#options.fetch,
      sleep: this.#options.sleep,
      dynamicHeaders: () => ({
        'accept-language': this.#locale,
        [HEADERS.deviceId]: this.deviceId,
        [HEADERS.platformVersion]: this.#options.platform === undefined ? undefined : String(this.#options.platform),
      }),
    })
    this.#captcha = new CaptchaManager({
      clientId: this.clientId,
      storage: this.#storage,
      transport: this.#transport,
      deviceId: () => this.deviceId,
      onCaptcha: options.onCaptcha,
      onChallenge: (action) => this.#track('captcha_shown', { action }),
    })
  }

  /** The locale sent as `accept-language` and used by `errorMessage`. */
  get locale(): string {
    return this.#locale
  }

  /** Switches the locale of requests and messages, and starts loading its message table. */
  setLocale(locale: string): void {
    this.#locale = locale
    this.messagesReady = preloadMessages(locale)
  }

  /**
   * Resolves when the error texts of the current locale are loaded (they load lazily, per locale;
   * until then `errorMessage` reads en-US). Messages the server sends in its replies need no table.
   */
  messagesReady: Promise<void> = Promise.resolve()

  /** The origin requests go to first (the last one that answered). */
  get origin(): string {
    return this.#transport.origin
  }

  /** The device id: the option, else the Android host's, else one generated once and stored. */
  get deviceId(): string {
    if (this.#fixedDeviceId) return this.#fixedDeviceId
    const fromHost = this.#host ? readHostDeviceId(this.#host) : null
    if (fromHost) return fromHost
    const stored = this.#storage.getItem(this.#keys.deviceId)
    if (stored) return stored
    const created = newDeviceId()
    this.#storage.setItem(this.#keys.deviceId, created)
    return created
  }

  /** The user-facing text of an error in this client's locale (spec 8 choice order). */
  errorMessage(error: unknown): string {
    return errorMessage(error, this.#locale)
  }

  // ---- any call ----------------------------------------------------------------------

  /**
   * Any identity call, with the protocol headers, origin rotation and retries; with
   * `auth`, the bearer token (refreshed when expired and once after a 401); with
   * `captcha`, a captcha token of its own (tokens are single-use: each attempt takes a fresh
   * one), and the call retried up to 3 times on a captcha error (never after a
   * CAPTCHA_REJECT). Resolves with the reply's JSON body.
   */
  async request<T = unknown>(method: HttpMethod | string, path: string, options: RequestOptions = {}): Promise<T> {
    if (!options.captcha) return this.#send<T>(method, path, options)
    const spec = options.captcha === true ? {} : options.captcha
    const action = spec.action ?? captchaAction(method, path)
    const meta = spec.meta ?? {}
    for (let refreshes = 0; ; refreshes += 1) {
      const token = await this.#captcha.token(action, meta, { force: refreshes > 0 })
      try {
        return await this.#send<T>(method, path, options, { [HEADERS.captchaToken]: token })
      } catch (error) {
        if (!isCaptchaRetryable(error) || refreshes >= CAPTCHA_MAX_REFRESHES) throw error
      }
    }
  }

  async #send<T>(method: string, path: string, options: RequestOptions, extra: Record<string, string> = {}): Promise<T> {
    const base = { method, path, query: options.query, body: options.body, signal: options.signal, ...(options.keepalive ? { keepalive: true, retry: 0 } : {}) }
    const headers = { ...options.headers, ...extra }
    if (!options.auth) return this.#transport.send<T>({ ...base, headers })
    const used = await this.#usableCredentials()
    try {
      return await this.#transport.send<T>({ ...base, headers: { ...headers, authorization: bearer(used) } })
    } catch (error) {
      if (!(error instanceof IdentityError && error.is(GenericErrors.unauthenticated) && error.status === 401)) throw error
      let fresh: Credentials
      try {
        fresh = await this.refresh()
      } catch {
        throw error
      }
      if (fresh.access_token === used.access_token) throw error
      return this.#transport.send<T>({ ...base, headers: { ...headers, authorization: bearer(fresh) } })
    }
  }

  /**
   * The `authorization` header value of the current account, `Bearer <access token>`, refreshed
   * first when expired. Rejects `unauthenticated` (status 0) when signed out. For requests that
   * cannot go through `request()`: tus uploads (XMLHttpRequest for upload progress), downloads.
   */
  async authorization(): Promise<string> {
    return bearer(await this.#usableCredentials())
  }

  /**
   * Sends with the fetch this client was given (else the global one) and adds nothing: no
   * protocol headers, no bearer, no retries, no error mapping. For non-JSON protocols (tus).
   */
  rawFetch(input: string, init?: RequestInit): Promise<Response> {
    return this.#options.fetch(input, init)
  }

  /** The current credentials, refreshed first when expired; `unauthenticated` when signed out. */
  async #usableCredentials(): Promise<Credentials> {
    const current = this.#store.current()
    if (!current) throw IdentityError.of(GenericErrors.unauthenticated, 'not signed in', { status: 0 })
    if (!isExpired(current, Date.now())) return current
    return this.refresh()
  }

  // ---- sign-in and sign-up -------------------------------------------------------------

  /** Signs in with a username (`+` phone, `@` e-mail, else a username) and password; captcha handled inside. */
  async signIn({ username, password }: { username: string; password: string }): Promise<Credentials> {
    const reply = await this.request<TokenReply>('POST', PATHS.signIn, {
      body: { client_id: this.clientId, client_secret: this.#options.clientSecret, username, password },
      captcha: { meta: usernameMeta(username) },
    })
    return this.#acceptTokens(reply, 'sign_in', { method: 'password', kind: classifyUsername(username) })
  }

  /** Verifies the code, then signs in with the verification token. */
  async signInWithCode({ username, verificationId, code }: { username: string; verificationId: string; code: string }): Promise<Credentials> {
    const { verificationToken } = await this.verify({ verificationId, code })
    const reply = await this.request<TokenReply>('POST', PATHS.signIn, {
      body: {
        client_id: this.clientId,
        client_secret: this.#options.clientSecret,
        username,
        verification_code: code,
        verification_token: verificationToken,
      },
      captcha: { meta: usernameMeta(username) },
    })
    return this.#acceptTokens(reply, 'sign_in', { method: 'code', kind: classifyUsername(username) })
  }

  /** Sends a verification code by e-mail or SMS (captcha-protected). */
  async sendVerification(input: SendVerificationInput): Promise<SendVerificationResult> {
    const target = input.target ?? 'ANY'
    const contact = target === 'CUR_USER' && input.email === undefined && input.phoneNumber === undefined ? {} : contactFields(input)
    const reply = await this.request<VerificationReply>('POST', PATHS.verification, {
      body: { ...contact, usage: input.usage, target, client_id: this.clientId, locale: this.#locale },
      captcha: { meta: contact },
      auth: target === 'CUR_USER',
    })
    return {
      verificationId: reply.verification_id,
      expiresIn: reply.expires_in,
      channel: reply.selected_channel,
      isUser: reply.is_user,
    }
  }

  /** Checks a verification code; the token it returns proves the address to sign-up, sign-in or reset. */
  async verify({ verificationId, code }: { verificationId: string; code: string }): Promise<VerifyResult> {
    const reply = await this.request<VerifyReply>('POST', PATHS.verify, {
      body: { verification_id: verificationId, verification_code: code, client_id: this.clientId },
    })
    return { verificationToken: reply.verification_token, expiresIn: reply.expires_in }
  }

  /** Verifies the code, then creates the account and signs it in. */
  async signUp(input: SignUpInput): Promise<Credentials> {
    const contact = contactFields(input)
    const { verificationToken } = await this.verify({ verificationId: input.verificationId, code: input.code })
    const reply = await this.request<TokenReply>('POST', PATHS.signUp, {
      body: {
        ...contact,
        verification_code: input.code,
        verification_token: verificationToken,
        password: input.password,
        name: input.name,
        ...(input.inviteCode ? { invite_code: input.inviteCode } : {}),
        client_id: this.clientId,
        client_secret: this.#options.clientSecret,
      },
      captcha: { meta: contact },
    })
    return this.#acceptTokens(reply, 'sign_up', { method: 'email' in contact ? 'email' : 'phone_number' })
  }

  /** Creates an anonymous account and signs it in. */
  async signUpAnonymously(): Promise<Credentials> {
    const reply = await this.request<TokenReply>('POST', PATHS.signUpAnonymously, {
      body: { client_id: this.clientId, client_secret: this.#options.clientSecret },
    })
    return this.#acceptTokens(reply, 'sign_up', { method: 'anonymous' })
  }

  /** Verifies the code, then sets a new password (the server ends every session of that user). */
  async resetPassword(input: ResetPasswordInput): Promise<void> {
    const contact = contactFields(input)
    const { verificationToken } = await this.verify({ verificationId: input.verificationId, code: input.code })
    await this.request('POST', PATHS.reset, {
      body: { ...contact, verification_token: verificationToken, password: input.password, client_id: this.clientId },
      captcha: { meta: contact },
    })
  }

  /** Exchanges an authorization code (Android host, or a redirect) for tokens of this client. */
  async signInWithAuthorizationCode(code: string, extra: { redirectUri?: string; codeVerifier?: string } = {}): Promise<Credentials> {
    const reply = await this.request<TokenReply>('POST', PATHS.token, {
      body: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: extra.redirectUri,
        code_verifier: extra.codeVerifier,
        client_id: this.clientId,
        client_secret: this.#options.clientSecret,
      },
    })
    return this.#acceptTokens(reply, 'sign_in', { method: 'authorization_code' })
  }

  async #acceptTokens(reply: TokenReply, event: AnalyticsEventName, params: Record<string, unknown>): Promise<Credentials> {
    const stored = await this.#lock.run(() => {
      const credentials = this.#store.set(credentialsFromToken(reply, Date.now()))
      if (!credentials) throw IdentityError.of(LocalErrors.local_invalid_response, 'token reply without tokens', { status: 200 })
      return credentials
    })
    this.#profile = null
    // A new session: its first refresh is not throttled by an older session's.
    this.#setLastRefreshAt(stored.sub, undefined)
    this.#track(event, { ...params, anonymous: isAnonymousSub(stored.sub) })
    return stored
  }

  // ---- tokens ------------------------------------------------------------------------------

  // The refresh throttle lives in storage, per account, so tabs sharing storage share it too.
  #lastRefreshAt(sub: string): number | undefined {
    const last = readJson<{ sub: string; at: number }>(this.#storage, this.#keys.lastRefreshAt)
    return last && last.sub === sub && typeof last.at === 'number' ? last.at : undefined
  }

  #setLastRefreshAt(sub: string, at: number | undefined): void {
    if (at === undefined) {
      if (this.#lastRefreshAt(sub) !== undefined) this.#storage.removeItem(this.#keys.lastRefreshAt)
    } else writeJson(this.#storage, this.#keys.lastRefreshAt, { sub, at })
  }

  /**
   * Refreshes the current account's tokens, at most once per 120 s unless `force`d (a
   * throttled call resolves with the stored credentials). Concurrent calls share one
   * refresh; across tabs, a tab that finds the tokens already refreshed by another uses
   * them. Rejects `unauthenticated` 'refresh token not found' without a refresh token;
   * `unauthenticated`, `invalid_grant` or `unauthorized_client` clear the account.
   */
  refresh({ force = false }: { force?: boolean } = {}): Promise<Credentials> {
    if (this.#refreshing) return this.#refreshing
    const running = this.#refresh(force).finally(() => {
      this.#refreshing = null
    })
    this.#refreshing = running
    return running
  }

  #refresh(force: boolean): Promise<Credentials> {
    return this.#lock.run(async () => {
      const before = this.#store.current()
      if (!before?.refresh_token) throw refreshTokenNotFound()
      const last = this.#lastRefreshAt(before.sub)
      if (!force && last !== undefined && Date.now() - last < REFRESH_THROTTLE_MS) return before
      return this.#tabLock.run(async () => {
        // Another tab may have refreshed while this one waited for the lock.
        const now = this.#store.get(before.sub)
        if (!now?.refresh_token) throw refreshTokenNotFound()
        this.#setLastRefreshAt(now.sub, Date.now())
        if (now.access_token !== before.access_token && !isExpired(now, Date.now())) return now
        try {
          const reply = await this.#transport.send<TokenReply>({
            method: 'POST',
            path: PATHS.token,
            body: {
              grant_type: 'refresh_token',
              refresh_token: now.refresh_token,
              client_id: this.clientId,
              client_secret: this.#options.clientSecret,
            },
          })
          const fresh = credentialsFromToken({ ...reply, sub: reply.sub || now.sub, refresh_token: reply.refresh_token || now.refresh_token }, Date.now())
          return this.#store.set(fresh) as Credentials
        } catch (error) {
          const reason = error instanceof IdentityError ? error.error : 'unknown'
          this.#track('refresh_failed', { error: reason })
          if (error instanceof IdentityError && CREDENTIAL_CLEARING_ERRORS.some((entry) => error.is(entry))) {
            this.#store.remove(now.sub)
            if (this.#profile?.sub === now.sub) this.#profile = null
          }
          throw error
        }
      })
    })
  }

  /** Revokes the session (best effort: a failing revoke still signs out) and clears the credentials. */
  async signOut(): Promise<void> {
    await this.#lock.run(async () => {
      const current = this.#store.current()
      if (current) {
        try {
          await this.#transport.send({
            method: 'POST',
            path: PATHS.revoke,
            // The refresh token alone proves the session (RFC 7009); a bearer is sent only without
            // one, since an expired access token would get the revoke refused with 401.
            body: current.refresh_token
              ? { token: current.refresh_token, token_type_hint: 'refresh_token' }
              : { token: current.access_token, token_type_hint: 'access_token' },
            headers: current.refresh_token ? {} : { authorization: bearer(current) },
            // Sign-out must not hang on back-off when offline.
            retry: 0,
          })
        } catch {
          // Signing out must work offline; the server ends an unrevoked session on expiry.
        }
      }
      this.#store.set(null)
      this.#profile = null
      if (current) this.#setLastRefreshAt(current.sub, undefined)
      this.#track('sign_out', { sub: current?.sub ?? '' })
    })
  }

  /** Re-enters the password for a short-lived sudo token (spec 6). */
  async sudo(password: string): Promise<string> {
    const reply = await this.request<SudoReply>('POST', PATHS.sudo, { body: { password }, auth: true })
    return reply.sudo_token
  }

  /** Deletes the account (it enters cancellation review) and clears its credentials. */
  async deleteAccount(sudoToken: string): Promise<void> {
    await this.request('DELETE', PATHS.me, { query: { sudo_token: sudoToken }, auth: true })
    await this.#lock.run(() => {
      this.#store.set(null)
      this.#profile = null
    })
  }

  // ---- accounts and profile --------------------------------------------------------------

  /** The current account's stored credentials, or null when signed out. */
  credentials(): Credentials | null {
    return this.#store.current()
  }

  /** Every stored account's credentials, current first. */
  accounts(): Credentials[] {
    return this.#store.list()
  }

  /** Makes a stored account current; `not_found` when no account with that sub is stored. */
  switchAccount(sub: string): Credentials {
    if (!this.#store.switchTo(sub)) throw IdentityError.of(GenericErrors.not_found, `no stored account ${sub}`, { status: 0 })
    if (this.#profile?.sub !== sub) this.#profile = null
    return this.#store.current() as Credentials
  }

  /**
   * Redeems a membership activation code for the signed-in account (drive.md "Membership"),
   * then reloads the profile so `userInfo()` shows the new membership. A used or unknown code
   * rejects with `activation_code_used` / `activation_code_invalid`.
   */
  async redeemActivationCode(code: string): Promise<ActivationCodeReply> {
    const reply = await this.request<ActivationCodeReply>('POST', PATHS.activationCode, { auth: true, body: { activation_code: code, data: {} } })
    // The code is spent: a failed reload must not make it look refused (a retry would say "used").
    await this.getUser().catch(() => undefined)
    return reply
  }

  /** The signed-in account's invite code (`GET /vip/v1/activity/inviteCode`). */
  async inviteCode(): Promise<string> {
    const reply = await this.request<{ code: string }>('GET', PATHS.inviteCode, { auth: true })
    return reply.code
  }

  /** GET /v1/user/me; the profile is kept for `userInfo()`. */
  async getUser(): Promise<UserProfile> {
    const profile = await this.request<UserProfile>('GET', PATHS.me, { auth: true })
    this.#profile = profile
    return profile
  }

  /**
   * The spec's client-side user info, from what is known now: the Android host's user
   * info when there is a host; else the stored credentials and the profile last loaded by
   * `getUser()` / `initialize()`. `isLogin` is false when signed out.
   */
  userInfo(): UserInfo {
    if (this.#host) return userInfoFromHost(readHostUserInfo(this.#host), this.deviceId)
    const credentials = this.#store.current()
    const isLogin = credentials !== null && (!isExpired(credentials, Date.now()) || credentials.refresh_token !== '')
    const profile = this.#profile && credentials && this.#profile.sub === credentials.sub ? this.#profile : null
    return buildUserInfo({ credentials, profile, deviceId: this.deviceId, isLogin })
  }

  /** Whether the current account is anonymous. */
  isAnonymous(): boolean {
    return isAnonymousSub(this.#store.currentSub())
  }

  // ---- start-up --------------------------------------------------------------------------

  /**
   * Spec 4 start-up. With an Android host: user info from the host, then (unless valid
   * credentials of that user are stored) an authorization code for `pan user offline`
   * exchanged for tokens. On the web: check the stored login state (refresh when
   * expired; a refused refresh signs out), continue a pending third-party sign-in, then
   * load the profile. Resolves with `userInfo()`.
   */
  async initialize(): Promise<UserInfo> {
    if (this.#host) return this.#initializeAndroid(this.#host)
    const current = this.#store.current()
    if (current && isExpired(current, Date.now())) {
      try {
        await this.refresh()
      } catch (error) {
        // A refused refresh has cleared the account: the user is simply signed out.
        if (!(error instanceof IdentityError && (CREDENTIAL_CLEARING_ERRORS.some((e) => error.is(e)) || error.status === 0 && error.is(GenericErrors.unauthenticated)))) throw error
      }
    }
    const pending = readJson<PendingProviderSignIn>(this.#storage, this.#keys.pendingProvider)
    // Only a sign-in that came back with a code is continued here. One still waiting at the
    // provider (no code yet) is left alone: another tab starting up meanwhile must not cancel it
    // before its redirect arrives (completeProviderRedirect takes it then).
    if (pending && typeof pending.code === 'string' && pending.code !== '') {
      // Removed first, so a failing continuation does not block every later start.
      this.#storage.removeItem(this.#keys.pendingProvider)
      await this.continueProviderSignIn(pending)
    }
    if (this.#store.current()) await this.getUser()
    return this.userInfo()
  }

  /** Stores a third-party sign-in in progress, for `initialize()` to continue after the redirect. */
  setPendingProviderSignIn(pending: PendingProviderSignIn | null): void {
    if (pending) this.#storage.setItem(this.#keys.pendingProvider, JSON.stringify(pending))
    else this.#storage.removeItem(this.#keys.pendingProvider)
  }

  /** The identity providers the operator configured (the login page's buttons). */
  async providers(): Promise<ProviderInfo[]> {
    const reply = await this.request<ProvidersReply>('GET', PATHS.providers)
    return reply.providers
  }

  /**
   * Starts a sign-in (or, with `mode: 'bind'`, a binding) at a provider: asks the server for the
   * provider's authorize URL under a fresh random `state`, stores the pending sign-in, and
   * resolves with the URL to send the browser to.
   */
  async startProviderSignIn(input: { providerId: string; redirectUri: string; mode?: 'signin' | 'bind'; returnTo?: string }): Promise<string> {
    const state = randomUuid().replace(/-/g, '')
    const reply = await this.request<ProviderUriReply>('GET', PATHS.providerUri, {
      query: { client_id: this.clientId, provider_id: input.providerId, redirect_uri: input.redirectUri, state },
    })
    this.setPendingProviderSignIn({ providerId: input.providerId, state, redirectUri: input.redirectUri, mode: input.mode ?? 'signin', ...(input.returnTo ? { returnTo: input.returnTo } : {}) })
    return reply.uri
  }

  /**
   * The provider sent the browser back (`?code&state`, or `?error`). Checks the `state` against the
   * pending sign-in (a mismatch is a forged or stale redirect: `invalid_request`), forgets it, and
   * completes it: a sign-in stores the new account's tokens; a binding adds the identity to the
   * signed-in account.
   */
  async completeProviderRedirect(query: { code?: string | null; state?: string | null; error?: string | null; error_description?: string | null }): Promise<ProviderRedirectResult> {
    const pending = readJson<PendingProviderSignIn>(this.#storage, this.#keys.pendingProvider)
    this.#storage.removeItem(this.#keys.pendingProvider)
    if (!pending || typeof pending.state !== 'string' || !query.state || query.state !== pending.state) {
      throw IdentityError.of(OAuthErrors.invalid_request, 'this sign-in was not started here, or was started again since; start it again', { status: 0 })
    }
    if (query.error) throw IdentityError.of(query.error === 'access_denied' ? OAuthErrors.access_denied : AccountErrors.provider_error, query.error_description || query.error, { status: 0 })
    if (!query.code) throw IdentityError.of(OAuthErrors.invalid_request, 'the provider sent no code', { status: 0 })
    await this.continueProviderSignIn({ ...pending, code: query.code })
    return { mode: pending.mode === 'bind' ? 'bind' : 'signin', returnTo: typeof pending.returnTo === 'string' ? pending.returnTo : undefined }
  }

  /** Completes a provider sign-in or binding whose redirect brought a code. */
  async continueProviderSignIn(pending: PendingProviderSignIn): Promise<Credentials | null> {
    if (typeof pending.code !== 'string' || pending.code === '') {
      throw IdentityError.of(OAuthErrors.invalid_request, `the sign-in with provider ${String(pending.providerId)} did not come back with a code`, { status: 0 })
    }
    const token = await this.request<ProviderTokenReply>('POST', PATHS.providerToken, {
      body: { client_id: this.clientId, provider_id: pending.providerId, provider_redirect_uri: pending.redirectUri, provider_code: pending.code, state: pending.state },
    })
    if (pending.mode === 'bind') {
      await this.request('POST', PATHS.providerBind, { auth: true, body: { provider_token: token.provider_token } })
      await this.getUser().catch(() => undefined)
      return this.#store.current()
    }
    const reply = await this.request<TokenReply>('POST', PATHS.signInWithProvider, { body: { client_id: this.clientId, provider_token: token.provider_token } })
    return this.#acceptTokens(reply, 'sign_in', { method: 'provider', provider: pending.providerId })
  }

  /** The provider identities bound to the signed-in account. */
  async providerBindings(): Promise<ProviderBinding[]> {
    const reply = await this.request<ProviderBindingsReply>('GET', PATHS.providerBindings, { auth: true })
    return reply.data
  }

  /** Unbinds a provider (captcha-protected, spec 5); refused with `failed_precondition` when it is the account's last way to sign in. */
  async unbindProvider(providerId: string): Promise<void> {
    await this.request('DELETE', `${PATHS.providerBindings}/${encodeURIComponent(providerId)}`, { auth: true, captcha: true })
    await this.getUser().catch(() => undefined)
  }

  // ---- consent (Cumulus as an authorization server) -----------------------------------------

  /** What a client asks for (the consent page), in this client's locale. Needs no sign-in: it validates the request before the user is asked to sign in. */
  authorizeInfo(params: AuthorizeParams): Promise<AuthorizeInfoReply> {
    return this.request<AuthorizeInfoReply>('GET', PATHS.authorizeInfo, { query: { ...params, locale: this.#locale } })
  }

  /** Whether the signed-in user already granted `scope` to the client. */
  async authorizeDetect(clientId: string, scope: string): Promise<boolean> {
    const reply = await this.request<AuthorizeDetectReply>('GET', PATHS.authorizeDetect, { query: { client_id: clientId, scope }, auth: true })
    return reply.authorized
  }

  /**
   * Grants (or denies) an authorization request. Resolves with the code and the redirect to send
   * the browser to; a denial rejects `access_denied` whose `metadata.redirect_uri` carries `error=access_denied`.
   */
  authorize(params: AuthorizeParams, consent: boolean): Promise<AuthorizeReply> {
    return this.request<AuthorizeReply>('POST', PATHS.authorize, { body: { ...params, consent }, auth: true })
  }

  /** The apps the signed-in user let in, with what each may do (in this client's locale). */
  async connectedApps(): Promise<ConnectedApp[]> {
    const reply = await this.request<ConnectedAppsReply>('GET', PATHS.connectedApps, { query: { locale: this.#locale }, auth: true })
    return reply.data
  }

  /** Withdraws an app's access: its consent is forgotten and its sessions for this user end at once. */
  async disconnectApp(clientId: string): Promise<void> {
    await this.request('DELETE', `${PATHS.connectedApps}/${encodeURIComponent(clientId)}`, { auth: true })
  }

  /** Where the signed-in user is signed in: the live sessions, most recently active first, this one marked `current`. */
  async sessions(): Promise<UserSession[]> {
    const reply = await this.request<UserSessionsReply>('GET', PATHS.sessions, { auth: true })
    return reply.data
  }

  /** Signs one session out, at once (its refresh and access tokens stop working). Rejects `not_found` for a session that is not live. */
  async endSession(sessionId: string): Promise<void> {
    await this.request('DELETE', `${PATHS.sessions}/${encodeURIComponent(sessionId)}`, { auth: true })
  }

  /** Signs out every session of the user but this one; resolves with how many ended. */
  async endOtherSessions(): Promise<number> {
    const reply = await this.request<{ ended: number }>('DELETE', `${PATHS.sessions}/others`, { auth: true })
    return reply.ended
  }

  /** What the device behind a user code asks for (the device verification page). */
  deviceInfo(userCode: string): Promise<DeviceInfoReply> {
    return this.request<DeviceInfoReply>('GET', PATHS.deviceInfo, { query: { user_code: userCode, locale: this.#locale }, auth: true })
  }

  /** Approves (or denies) the device behind a user code (RFC 8628). */
  async authorizeDevice(userCode: string, consent: boolean): Promise<void> {
    await this.request('POST', PATHS.deviceAuthorize, { body: { user_code: userCode, consent }, auth: true })
  }

  async #initializeAndroid(host: AndroidHostBridge): Promise<UserInfo> {
    const hostUser = readHostUserInfo(host)
    const hostUserId = typeof hostUser?.userId === 'string' ? hostUser.userId : ''
    const current = this.#store.current()
    const valid = current !== null && !isExpired(current, Date.now()) && (hostUserId === '' || hostUserId === current.sub)
    if (!valid) {
      const code = await host.getAuthorizationCode(DEFAULT_SCOPE)
      if (typeof code !== 'string' || code === '') {
        throw IdentityError.of(GenericErrors.unauthenticated, 'the Android host gave no authorization code', { status: 0 })
      }
      await this.signInWithAuthorizationCode(code)
    }
    return this.userInfo()
  }

  #track(event: AnalyticsEventName, params: Record<string, unknown>): void {
    trackEvent(event, { ...params, client_id: this.clientId, env: this.env }, this.#host)
  }
}

function bearer(credentials: Credentials): string {
  return `Bearer ${credentials.access_token}`
}

function refreshTokenNotFound(): IdentityError {
  return IdentityError.of(GenericErrors.unauthenticated, 'refresh token not found', { status: 0 })
}

/** The wire fields of a contact: `{email}` or `{phone_number}`; exactly one must be given. */
function contactFields(input: { email?: string | undefined; phoneNumber?: string | undefined }): { email: string } | { phone_number: string } {
  const hasEmail = typeof input.email === 'string' && input.email !== ''
  const hasPhone = typeof input.phoneNumber === 'string' && input.phoneNumber !== ''
  if (hasEmail === hasPhone) {
    throw IdentityError.of(GenericErrors.invalid_argument, 'give exactly one of email and phoneNumber', { status: 0 })
  }
  return hasEmail ? { email: input.email as string } : { phone_number: input.phoneNumber as string }
}

/** Loads the error texts of `locale` (Simplified Chinese for an unknown locale, spec 9); never rejects. */
function preloadMessages(locale: string): Promise<void> {
  return loadMessages(matchLocale(locale) ?? CLIENT_UNKNOWN_LOCALE_FALLBACK).then(
    () => undefined,
    () => undefined,
  )
}
