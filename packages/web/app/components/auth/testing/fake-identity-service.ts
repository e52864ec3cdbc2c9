import { WEB_CLIENT_ID } from '@cumulus/protocol'
import { IdentityClient, MemoryStorage } from '@cumulus/sdk'
import { presentCaptcha } from '../../../captcha/captcha-store'

/**
 * For component tests: a real IdentityClient whose `fetch` answers like the identity service
 * (identity.md) without a network. Only the network is fake, so the tests exercise the SDK's
 * real request shapes, captcha flow and error mapping. Each request is recorded in `calls`.
 */

export interface RecordedCall {
  method: string
  path: string
  query: URLSearchParams
  headers: Headers
  body: Record<string, unknown>
}

export interface FakeReply {
  status?: number
  body: unknown
  headers?: Record<string, string>
}

export type FakeHandler = (call: RecordedCall) => FakeReply | unknown

/** The error body of identity.md, with its message in the request's language when given. */
export function errorReply(status: number, error: string, errorCode: number, messages: Record<string, string>): (call: RecordedCall) => FakeReply {
  return (call) => {
    const locale = call.headers.get('accept-language') ?? 'en-US'
    const message = messages[locale] ?? messages['en-US'] ?? ''
    return {
      status,
      body: {
        error,
        error_code: errorCode,
        error_description: messages['en-US'] ?? error,
        error_uri: '',
        details: [{ '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale, message }],
      },
    }
  }
}

/** A token reply (identity.md) for `sub`; its access token carries `sub` for the fake profile. */
export const tokenReply = (sub: string) => ({ token_type: 'Bearer', access_token: `header.${btoa(JSON.stringify({ sub, sid: `sid-${sub}` }))}.sig`, refresh_token: `refresh-${sub}`, expires_in: 7200, sub, scope: 'pan user offline' })

const DEFAULTS: Record<string, FakeHandler> = {
  'POST /v1/shield/captcha/init': () => ({ captcha_token: 'captcha-token', expires_in: 300 }),
  'POST /v1/auth/signin': () => tokenReply('user-1'),
  'POST /v1/auth/signup': () => tokenReply('user-2'),
  'POST /v1/auth/signup/anonymously': () => tokenReply('anon_guest-1'),
  'POST /v1/auth/verification': (call) => ({ verification_id: 'verification-1', expires_in: 600, selected_channel: 'email' in call.body ? 'VERIFICATION_EMAIL' : 'VERIFICATION_PHONE', is_user: true }),
  'POST /v1/auth/verification/verify': () => ({ verification_token: 'verification-token', expires_in: 600 }),
  'POST /v1/auth/reset': () => ({}),
  'POST /v1/auth/revoke': () => ({}),
  'POST /v1/user/sudo': () => ({ sudo_token: 'sudo-token', expires_in: 300 }),
  'DELETE /v1/user/me': () => ({ status: 204, body: null }),
  // No identity provider configured, as on a fresh server.
  'GET /v1/auth/providers': () => ({ providers: [] }),
  'GET /v1/user/me': (call) => {
    const payload = (call.headers.get('authorization') ?? '').split('.')[1] ?? ''
    const { sub } = JSON.parse(atob(payload)) as { sub: string }
    return { sub, name: 'Ann Lee', email: 'ann@example.com', phone_number: '', picture: '', providers: [], password: 'SET', status: 'ACTIVE', created_at: '2024-01-01T00:00:00Z', password_updated_at: '2024-01-01T00:00:00Z', vip_info: [] }
  },
}

const isReply = (value: unknown): value is FakeReply => value !== null && typeof value === 'object' && 'body' in value && Object.keys(value).every((k) => k === 'body' || k === 'status' || k === 'headers')

export function fakeIdentityService(handlers: Record<string, FakeHandler> = {}, { locale = 'en-US' }: { locale?: string } = {}) {
  const calls: RecordedCall[] = []
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input))
    const method = (init.method ?? 'GET').toUpperCase()
    const call: RecordedCall = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' && init.body !== '' ? (JSON.parse(init.body) as Record<string, unknown>) : {},
    }
    calls.push(call)
    const key = `${method} ${url.pathname}`
    const handler = handlers[key] ?? DEFAULTS[key]
    const result = handler ? handler(call) : errorReply(404, 'not_found', 5, { 'en-US': `no fake for ${key}` })(call)
    const reply = isReply(result) ? result : { status: 200, body: result }
    const status = reply.status ?? 200
    return new Response(status === 204 ? null : JSON.stringify(reply.body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...reply.headers } })
  }
  const client = new IdentityClient({
    clientId: WEB_CLIENT_ID,
    origins: [globalThis.location?.origin ?? 'http://localhost:3000'],
    locale,
    storage: new MemoryStorage(),
    fetch,
    onCaptcha: presentCaptcha,
    retry: 0,
    locks: null,
  })
  /** The recorded calls to one endpoint ('POST /v1/auth/signin'). */
  const callsTo = (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key)
  return { client, calls, callsTo }
}
