import { type ConnectedApp, type ProviderInfo, type UserSession, WEB_CLIENT_ID, type UserProfile, type VipInfo } from '@cumulus/protocol'
import { IdentityClient, MemoryStorage } from '@cumulus/sdk'

/**
 * A stand-in for the identity service in the account page's component tests: the real SDK client
 * talks to it through its `fetch` option, so the tests see the exact requests the page sends.
 * Only the calls the page makes are answered. Test-only; nothing in the app imports it.
 */

export interface RecordedRequest {
  method: string
  path: string
  query: Record<string, string>
  body: Record<string, unknown>
  authorization: string
}

export interface WireReply {
  status: number
  body: unknown
  /** Headers beyond the content type (a 429's Retry-After). */
  headers?: Record<string, string>
}

/** The activation code the fake server accepts (once). */
export const GOOD_ACTIVATION_CODE = 'ABCD-EFGH-JKMN-PQRS'

export const NEVER_VIP: VipInfo = { user_vas: 2, is_vip: 0, is_year: 0, expire: '2026-01-05T08:00:00Z', vas_type: 'novip', level: 0, vip_icon: { large: '', small: '' } }

export function aProfile(overrides: Partial<UserProfile> = {}): UserProfile {
  return {
    sub: 'u1annxxxxxxxxxxx',
    name: 'Ann',
    email: 'ann@example.com',
    phone_number: '',
    picture: '',
    providers: [],
    password: 'SET',
    status: 'ACTIVE',
    created_at: '2026-01-05T08:00:00Z',
    password_updated_at: '2026-02-01T08:00:00Z',
    vip_info: [NEVER_VIP],
    ...overrides,
  }
}

/** The error body of identity.md, with the LocalizedMessage a real server adds. */
export function errorReply(status: number, error: string, errorCode: number, localized?: { locale: string; message: string }): WireReply {
  return {
    status,
    body: {
      error,
      error_code: errorCode,
      error_description: error,
      error_uri: '',
      details: localized ? [{ '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: localized.locale, message: localized.message }] : [],
    },
  }
}

export const GOOD_CODE = '123456'
export const VERIFICATION_TOKEN = 'verified-token'

export class FakeIdentityServer {
  readonly requests: RecordedRequest[] = []
  readonly profiles = new Map<string, UserProfile>()
  /** The identity providers the operator configured (none by default, as on a fresh server). */
  providers: ProviderInfo[] = []
  /** The apps the signed-in user let in (none by default); Disconnect removes them. */
  connectedApps: ConnectedApp[] = []
  /** The signed-in user's live sessions, as GET /v1/user/sessions lists them (none by default); signing out removes them. */
  sessions: UserSession[] = []
  /** Replies that replace the default one for `METHOD /path`, used once each. */
  readonly #overrides = new Map<string, WireReply[]>()
  #redeemed = false

  constructor(...profiles: UserProfile[]) {
    for (const profile of profiles) this.profiles.set(profile.sub, profile)
  }

  /** The next call to `METHOD /path` gets this reply instead of the default one. */
  failNext(method: string, path: string, reply: WireReply): void {
    const key = `${method} ${path}`
    this.#overrides.set(key, [...(this.#overrides.get(key) ?? []), reply])
  }

  requestsTo(method: string, path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path)
  }

  readonly fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
    const method = (init.method ?? 'GET').toUpperCase()
    const headers = new Headers(init.headers)
    const body = typeof init.body === 'string' && init.body !== '' ? (JSON.parse(init.body) as Record<string, unknown>) : {}
    const request: RecordedRequest = { method, path: url.pathname, query: Object.fromEntries(url.searchParams), body, authorization: headers.get('authorization') ?? '' }
    this.requests.push(request)
    const queued = this.#overrides.get(`${method} ${url.pathname}`)
    const reply = queued?.shift() ?? this.#answer(request)
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json; charset=utf-8', ...reply.headers } })
  }

  #caller(request: RecordedRequest): UserProfile | null {
    const sub = request.authorization.replace(/^Bearer token-/, '')
    return this.profiles.get(sub) ?? null
  }

  #answer(request: RecordedRequest): WireReply {
    const ok = (body: unknown): WireReply => ({ status: 200, body })
    const unauthenticated = errorReply(401, 'unauthenticated', 16)
    const unbind = request.method === 'DELETE' ? /^\/v1\/user\/provider\/([^/]+)$/.exec(request.path) : null
    const disconnect = request.method === 'DELETE' ? /^\/v1\/user\/authorize\/clients\/([^/]+)$/.exec(request.path) : null
    // Before `/:id`: `others` names every session but the caller's, not one session.
    if (request.method === 'DELETE' && request.path === '/v1/user/sessions/others') {
      if (!this.#caller(request)) return unauthenticated
      const ended = this.sessions.filter((s) => !s.current).length
      this.sessions = this.sessions.filter((s) => s.current)
      return ok({ ended })
    }
    const endSession = request.method === 'DELETE' ? /^\/v1\/user\/sessions\/([^/]+)$/.exec(request.path) : null
    if (endSession) {
      if (!this.#caller(request)) return unauthenticated
      const id = decodeURIComponent(endSession[1]!)
      // As the real server: a session that is not live (ended already) is not found.
      if (!this.sessions.some((s) => s.id === id)) return errorReply(404, 'not_found', 5)
      this.sessions = this.sessions.filter((s) => s.id !== id)
      return ok({})
    }
    if (disconnect) {
      if (!this.#caller(request)) return unauthenticated
      const clientId = decodeURIComponent(disconnect[1]!)
      // As the real server: a second call finds nothing to withdraw.
      if (!this.connectedApps.some((app) => app.client.client_id === clientId)) return errorReply(404, 'not_found', 5)
      this.connectedApps = this.connectedApps.filter((app) => app.client.client_id !== clientId)
      return ok({})
    }
    if (unbind) {
      const me = this.#caller(request)
      if (!me) return unauthenticated
      const id = decodeURIComponent(unbind[1]!)
      if (!me.providers.some((p) => p.id === id)) return errorReply(404, 'not_found', 5)
      this.profiles.set(me.sub, { ...me, providers: me.providers.filter((p) => p.id !== id) })
      return ok({})
    }
    switch (`${request.method} ${request.path}`) {
      case 'GET /v1/auth/providers':
        return ok({ providers: this.providers })
      case 'GET /v1/auth/provider/uri':
        return ok({ uri: `https://${request.query.provider_id}.example/authorize?state=${request.query.state}`, state: request.query.state })
      case 'GET /v1/user/authorize/clients':
        return this.#caller(request) ? ok({ data: this.connectedApps }) : unauthenticated
      case 'GET /v1/user/sessions':
        return this.#caller(request) ? ok({ data: this.sessions }) : unauthenticated
      case 'GET /v1/user/me': {
        const me = this.#caller(request)
        return me ? ok(me) : unauthenticated
      }
      case 'PATCH /v1/user/profile': {
        const me = this.#caller(request)
        if (!me) return unauthenticated
        const next = { ...me, ...(typeof request.body.name === 'string' ? { name: request.body.name } : {}) }
        this.profiles.set(me.sub, next)
        return ok(next)
      }
      case 'PATCH /v1/user/password':
        return this.#caller(request) ? ok({}) : unauthenticated
      case 'PATCH /v1/user/contact': {
        const me = this.#caller(request)
        if (!me) return unauthenticated
        if (request.body.verification_token !== VERIFICATION_TOKEN) return errorReply(400, 'invalid_verification_code', 4014)
        const next = { ...me, ...(typeof request.body.email === 'string' ? { email: request.body.email } : {}), ...(typeof request.body.phone_number === 'string' ? { phone_number: request.body.phone_number } : {}) }
        this.profiles.set(me.sub, next)
        return ok({})
      }
      case 'GET /v1/user/query': {
        const ids = (request.query.ids ?? '').split(',')
        return ok({ users: ids.flatMap((id) => (this.profiles.has(id) ? [{ sub: id, name: this.profiles.get(id)!.name, picture: this.profiles.get(id)!.picture }] : [])) })
      }
      case 'POST /v1/shield/captcha/init':
        return ok({ captcha_token: 'captcha-ok', expires_in: 300 })
      case 'POST /v1/auth/verification':
        return ok({ verification_id: 'verification-1', expires_in: 600, selected_channel: request.body.email ? 'VERIFICATION_EMAIL' : 'VERIFICATION_PHONE', is_user: false })
      case 'POST /v1/auth/verification/verify':
        return request.body.verification_code === GOOD_CODE ? ok({ verification_token: VERIFICATION_TOKEN, expires_in: 300 }) : errorReply(400, 'invalid_verification_code', 4014)
      case 'POST /v1/auth/revoke':
        return ok({})
      case 'GET /drive/v1/about': {
        const me = this.#caller(request)
        if (!me) return unauthenticated
        const member = me.vip_info.some((info) => info.is_vip === 1)
        return ok({
          kind: 'drive#about',
          quota: { kind: 'drive#quota', limit: String(member ? 10 * 1024 ** 4 : 10 * 1024 ** 3), usage: String(3 * 1024 ** 3), usage_in_trash: '0', play_times_limit: member ? '-1' : '5', play_times_usage: '2', is_unlimited: false },
          expires_at: '',
          quotas: { offline_daily: { kind: 'drive#quota', limit: member ? '1000' : '10', usage: '4' }, offline_running: { kind: 'drive#quota', limit: member ? '10' : '2', usage: '1' }, download_daily: { kind: 'drive#quota', limit: member ? '-1' : String(5 * 1024 ** 3), usage: String(1024 ** 3) } },
        })
      }
      case 'GET /vip/v1/activity/inviteCode':
        return this.#caller(request) ? ok({ code: 'INV1TE23' }) : unauthenticated
      case 'POST /vip/v1/order/activation-code': {
        // One good code, good once: it makes the caller a member for 31 days until 2027-03-15.
        const me = this.#caller(request)
        if (!me) return unauthenticated
        const code = String(request.body.activation_code ?? '').toUpperCase().replace(/[\s-]/g, '')
        if (code !== GOOD_ACTIVATION_CODE.replace(/-/g, '')) return errorReply(400, 'activation_code_invalid', 3)
        if (this.#redeemed) return errorReply(409, 'activation_code_used', 6)
        this.#redeemed = true
        const expire = '2027-03-15T12:00:00Z'
        this.profiles.set(me.sub, { ...me, vip_info: [{ user_vas: 2, is_vip: 1, is_year: 0, expire, vas_type: 'vip', level: 1, vip_icon: { large: '', small: '' } }] })
        return ok({ add_days: 31, code: GOOD_ACTIVATION_CODE, data: { expire, status: 'ok', type: 'vip', user_id: me.sub } })
      }
      default:
        return errorReply(404, 'not_found', 5)
    }
  }
}

/**
 * A real SDK client whose storage already holds these accounts (the first one current), with
 * access tokens `token-<sub>` that stay valid for an hour.
 */
export function signedInClient(server: FakeIdentityServer, subs: string[], locale = 'en-US'): IdentityClient {
  const storage = new MemoryStorage()
  for (const sub of subs) {
    const credentials = { access_token: `token-${sub}`, refresh_token: `refresh-${sub}`, token_type: 'Bearer', expires_in: 7200, expires_at: Date.now() + 3_600_000, sub }
    storage.setItem(`${WEB_CLIENT_ID}:credentials:${sub}`, JSON.stringify(credentials))
  }
  storage.setItem(`${WEB_CLIENT_ID}:accounts`, JSON.stringify(subs))
  if (subs[0]) storage.setItem(`${WEB_CLIENT_ID}:current_account`, subs[0])
  return new IdentityClient({ clientId: WEB_CLIENT_ID, origins: ['https://cumulus.test'], locale, storage, fetch: server.fetch, locks: null, retry: 0, deviceId: 'test-device' })
}
