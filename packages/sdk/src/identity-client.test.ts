import { AccountErrors, CAPTCHA_REJECT, ERROR_INFO_TYPE, ERROR_MESSAGES, type ErrorEntry, GenericErrors, OAuthErrors } from '@cumulus/protocol'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AndroidHostBridge } from './android.js'
import { IdentityClient } from './identity-client.js'
import type { IdentityClientOptions } from './options.js'
import { MemoryStorage } from './storage.js'

interface Call {
  method: string
  path: string
  url: URL
  headers: Record<string, string>
  body: Record<string, unknown> | undefined
}
type Route = (call: Call) => Response | Error

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status })
const wire = (entry: ErrorEntry, details: unknown[] = []) =>
  json({ error: entry.reason, error_code: entry.code, error_description: '', error_uri: '', details }, entry.status)
const tokens = (n: number, sub = 'u1', expiresIn = 7200) =>
  json({ token_type: 'Bearer', access_token: `at${n}`, refresh_token: `rt${n}`, expires_in: expiresIn, sub, scope: 'pan user offline' })

/** A fake server: routes keyed `METHOD /path`, each a queue of replies (the last one repeats). */
function server(routes: Record<string, Route | Route[]>) {
  const calls: Call[] = []
  const used = new Map<string, number>()
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input))
    const method = init?.method ?? 'GET'
    const call: Call = {
      method,
      path: url.pathname,
      url,
      headers: { ...(init?.headers as Record<string, string>) },
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    }
    calls.push(call)
    const key = `${method} ${url.pathname}`
    const entry = routes[key]
    if (!entry) return wire(GenericErrors.not_found)
    const list = Array.isArray(entry) ? entry : [entry]
    const n = used.get(key) ?? 0
    used.set(key, n + 1)
    const reply = (list[Math.min(n, list.length - 1)] as Route)(call)
    if (reply instanceof Error) throw reply
    return reply
  }
  return { fetch: fetch as typeof globalThis.fetch, calls, of: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key) }
}

const captchaOk: Route = (c) => json({ captcha_token: `ct-${String(c.body?.action)}-${Math.random()}`, expires_in: 300 })

function client(fake: ReturnType<typeof server>, over: Partial<IdentityClientOptions> = {}) {
  return new IdentityClient({
    clientId: 'web',
    origins: ['https://id.test'],
    storage: new MemoryStorage(),
    deviceId: 'dev-1',
    locale: 'ko',
    platform: 'WEB',
    fetch: fake.fetch,
    locks: null,
    ...over,
  })
}

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(new Date('2030-01-01T00:00:00Z'))
  globalThis.__cumulusAnalytics = []
})
afterEach(() => {
  vi.useRealTimers()
  delete globalThis.CumulusAndroid
})

describe('sign-in with captcha', () => {
  it('inits a captcha for the action, sends it, and stores the credentials', async () => {
    const fake = server({ 'POST /v1/shield/captcha/init': captchaOk, 'POST /v1/auth/signin': () => tokens(1) })
    const c = client(fake)
    const creds = await c.signIn({ username: 'a@b.c', password: 'pw' })
    expect(creds).toMatchObject({ access_token: 'at1', refresh_token: 'rt1', sub: 'u1', expires_at: Date.now() + 7_080_000 })
    const [init] = fake.of('POST /v1/shield/captcha/init')
    expect(init?.body).toEqual({ client_id: 'web', action: 'POST:/v1/auth/signin', device_id: 'dev-1', captcha_token: '', meta: { email: 'a@b.c' } })
    const [signin] = fake.of('POST /v1/auth/signin')
    expect(signin?.body).toEqual({ client_id: 'web', username: 'a@b.c', password: 'pw' })
    expect(signin?.headers).toMatchObject({
      'x-captcha-token': expect.stringMatching(/^ct-POST:\/v1\/auth\/signin/),
      'x-client-id': 'web',
      'x-sdk-version': '7.0.8',
      'x-protocol-version': '301',
      'x-device-id': 'dev-1',
      'x-platform-version': '1',
      'accept-language': 'ko',
    })
    expect(c.credentials()?.sub).toBe('u1')
    expect(globalThis.__cumulusAnalytics?.map((e) => e.event)).toEqual(['sign_in'])
  })

  it('uses the meta key of the username kind', async () => {
    const fake = server({ 'POST /v1/shield/captcha/init': captchaOk, 'POST /v1/auth/signin': () => tokens(1) })
    const c = client(fake)
    await c.signIn({ username: '+15550000', password: 'pw' })
    await c.signIn({ username: 'alice', password: 'pw' })
    expect(fake.of('POST /v1/shield/captcha/init').map((x) => x.body?.meta)).toEqual([{ phone_number: '+15550000' }, { username: 'alice' }])
  })

  // Issue 11: captcha tokens are single-use on the server (decision 014). The SDK kept a token
  // for reuse by the same action until 30 s before expiry, so every second protected call sent a
  // spent token, got captcha_invalid (4002), and only then asked captcha init for a fresh one.
  it('takes a fresh token from captcha init for every protected call, whatever the reply, and passes the spent one as previous', async () => {
    const fake = server({
      'POST /v1/shield/captcha/init': captchaOk,
      'POST /v1/auth/verification': [() => json({ verification_id: 'v', expires_in: 600, selected_channel: 'VERIFICATION_EMAIL', is_user: false }), () => wire(GenericErrors.resource_exhausted), () => json({ verification_id: 'v', expires_in: 600, selected_channel: 'VERIFICATION_EMAIL', is_user: false })],
      'POST /v1/auth/signin': [() => wire(AccountErrors.invalid_account_or_password), () => tokens(1)],
    })
    const storage = new MemoryStorage()
    const c = client(fake, { storage, retry: 0 })
    const send = () => c.sendVerification({ email: 'a@b.c', usage: 'REGISTER' })
    await send()
    await expect(send()).rejects.toMatchObject({ error: GenericErrors.resource_exhausted.reason })
    await send()
    await expect(c.signIn({ username: 'a@b.c', password: 'wrong' })).rejects.toMatchObject({ error: AccountErrors.invalid_account_or_password.reason })
    await c.signIn({ username: 'a@b.c', password: 'pw' })

    const inits = fake.of('POST /v1/shield/captcha/init')
    const sent = [...fake.of('POST /v1/auth/verification'), ...fake.of('POST /v1/auth/signin')].map((x) => x.headers['x-captcha-token'])
    expect(inits).toHaveLength(5)
    expect(new Set(sent).size).toBe(5)
    // Each init names the token the call before it spent.
    expect(inits.map((x) => x.body?.captcha_token)).toEqual(['', ...sent.slice(0, 4)])
    // Storage keeps the last token, spent (expired, spec 5), under the client's key (spec 3).
    expect(JSON.parse(storage.getItem('web:captcha')!)).toEqual({ action: 'POST:/v1/auth/signin', token: sent[4], expires_at: 0 })
  })

  it('two protected calls at once each take a token of their own', async () => {
    const fake = server({
      'POST /v1/shield/captcha/init': captchaOk,
      'POST /v1/auth/verification': () => json({ verification_id: 'v', expires_in: 600, selected_channel: 'VERIFICATION_EMAIL', is_user: false }),
    })
    const c = client(fake)
    await Promise.all([c.sendVerification({ email: 'a@b.c', usage: 'REGISTER' }), c.sendVerification({ email: 'd@e.f', usage: 'REGISTER' })])
    const sent = fake.of('POST /v1/auth/verification').map((x) => x.headers['x-captcha-token'])
    expect(sent).toHaveLength(2)
    expect(sent[0]).not.toBe(sent[1])
  })

  it('takes a stored token no call has sent yet once, while it is unexpired and for the same action (spec 4, 5)', async () => {
    const fake = server({
      'POST /v1/shield/captcha/init': captchaOk,
      'POST /v1/auth/verification': () => json({ verification_id: 'v', expires_in: 600, selected_channel: 'VERIFICATION_EMAIL', is_user: false }),
    })
    const storage = new MemoryStorage()
    const c = client(fake, { storage })
    const send = () => c.sendVerification({ email: 'a@b.c', usage: 'REGISTER' })
    const stored = (action: string, token: string, expiresAt: number) => storage.setItem('web:captcha', JSON.stringify({ action, token, expires_at: expiresAt }))

    stored('POST:/v1/auth/verification', 'unsent', Date.now() + 1_000)
    await send()
    await send()
    expect(fake.of('POST /v1/auth/verification').map((x) => x.headers['x-captcha-token'])).toEqual(['unsent', expect.stringMatching(/^ct-/)])
    expect(fake.of('POST /v1/shield/captcha/init')).toHaveLength(1)

    stored('POST:/v1/auth/verification', 'expired', Date.now())
    await send()
    stored('POST:/v1/auth/signin', 'other action', Date.now() + 60_000)
    await send()
    expect(fake.of('POST /v1/auth/verification').map((x) => x.headers['x-captcha-token']).slice(2)).toEqual([expect.stringMatching(/^ct-/), expect.stringMatching(/^ct-/)])
    expect(fake.of('POST /v1/shield/captcha/init').map((x) => x.body?.captcha_token).slice(1)).toEqual(['expired', 'other action'])
  })

  it('refreshes the token and retries on captcha errors, at most 3 times', async () => {
    const fake = server({ 'POST /v1/shield/captcha/init': captchaOk, 'POST /v1/auth/signin': () => wire(AccountErrors.captcha_invalid) })
    const c = client(fake)
    await expect(c.signIn({ username: 'alice', password: 'pw' })).rejects.toMatchObject({ error: 'captcha_invalid', errorCode: 4002 })
    expect(fake.of('POST /v1/auth/signin')).toHaveLength(4)
    expect(fake.of('POST /v1/shield/captcha/init')).toHaveLength(4)
  })

  it('succeeds on the retry after captcha_required', async () => {
    const fake = server({
      'POST /v1/shield/captcha/init': captchaOk,
      'POST /v1/auth/signin': [() => wire(AccountErrors.captcha_required), () => tokens(1)],
    })
    await expect(client(fake).signIn({ username: 'alice', password: 'pw' })).resolves.toMatchObject({ sub: 'u1' })
    expect(fake.of('POST /v1/auth/signin')).toHaveLength(2)
  })

  it('does not retry a captcha rejection', async () => {
    const reject = () => wire(AccountErrors.captcha_invalid, [{ '@type': ERROR_INFO_TYPE, reason: CAPTCHA_REJECT, domain: 'identity', metadata: {} }])
    const fake = server({ 'POST /v1/shield/captcha/init': captchaOk, 'POST /v1/auth/signin': reject })
    await expect(client(fake).signIn({ username: 'alice', password: 'pw' })).rejects.toMatchObject({ detailReason: CAPTCHA_REJECT })
    expect(fake.of('POST /v1/auth/signin')).toHaveLength(1)
  })

  it('shows a challenge url through onCaptcha and uses its result', async () => {
    const fake = server({
      'POST /v1/shield/captcha/init': () => json({ url: 'https://id.test/captcha/challenge?x=1', expires_in: 300 }),
      'POST /v1/auth/signin': () => tokens(1),
    })
    const onCaptcha = vi.fn(async () => ({ captchaToken: 'solved', expiresIn: 300 }))
    await client(fake, { onCaptcha }).signIn({ username: 'alice', password: 'pw' })
    expect(onCaptcha).toHaveBeenCalledWith('https://id.test/captcha/challenge?x=1', { action: 'POST:/v1/auth/signin', expiresIn: 300 })
    expect(fake.of('POST /v1/auth/signin')[0]?.headers['x-captcha-token']).toBe('solved')
    expect(globalThis.__cumulusAnalytics?.map((e) => e.event)).toEqual(['captcha_shown', 'sign_in'])
  })

  it.each([
    ['resolves null', async () => null],
    ['rejects', async () => Promise.reject(new Error('closed'))],
  ])('cancels when the challenge %s', async (_name, onCaptcha) => {
    const fake = server({ 'POST /v1/shield/captcha/init': () => json({ url: 'https://id.test/c', expires_in: 300 }) })
    await expect(client(fake, { onCaptcha }).signIn({ username: 'alice', password: 'pw' })).rejects.toMatchObject({ error: 'cancelled', errorCode: 1 })
    expect(fake.of('POST /v1/auth/signin')).toHaveLength(0)
  })
})

describe('verification, sign-up, reset', () => {
  const verify = () => json({ verification_token: 'vt', expires_in: 600 })

  it('sends a verification and maps the reply', async () => {
    const fake = server({
      'POST /v1/shield/captcha/init': captchaOk,
      'POST /v1/auth/verification': () => json({ verification_id: 'v1', expires_in: 600, selected_channel: 'VERIFICATION_PHONE', is_user: true }),
    })
    const result = await client(fake).sendVerification({ phoneNumber: '+1555', usage: 'SIGN_IN' })
    expect(result).toEqual({ verificationId: 'v1', expiresIn: 600, channel: 'VERIFICATION_PHONE', isUser: true })
    expect(fake.of('POST /v1/auth/verification')[0]?.body).toEqual({ phone_number: '+1555', usage: 'SIGN_IN', target: 'ANY', client_id: 'web', locale: 'ko' })
    expect(fake.of('POST /v1/shield/captcha/init')[0]?.body?.meta).toEqual({ phone_number: '+1555' })
  })

  it('signs up after verifying the code', async () => {
    const fake = server({ 'POST /v1/shield/captcha/init': captchaOk, 'POST /v1/auth/verification/verify': verify, 'POST /v1/auth/signup': () => tokens(1) })
    await client(fake).signUp({ email: 'a@b.c', verificationId: 'v1', code: '123456', password: 'secret-pw', name: 'A' })
    expect(fake.of('POST /v1/auth/verification/verify')[0]?.body).toEqual({ verification_id: 'v1', verification_code: '123456', client_id: 'web' })
    expect(fake.of('POST /v1/auth/signup')[0]?.body).toEqual({
      email: 'a@b.c', verification_code: '123456', verification_token: 'vt', password: 'secret-pw', name: 'A', client_id: 'web',
    })
    expect(fake.of('POST /v1/auth/signup')[0]?.headers['x-captcha-token']).toBeDefined()
    expect(globalThis.__cumulusAnalytics?.map((e) => e.event)).toEqual(['sign_up'])
  })

  it('signs in with a code through the verification token', async () => {
    const fake = server({ 'POST /v1/shield/captcha/init': captchaOk, 'POST /v1/auth/verification/verify': verify, 'POST /v1/auth/signin': () => tokens(1) })
    await client(fake).signInWithCode({ username: 'a@b.c', verificationId: 'v1', code: '123456' })
    expect(fake.of('POST /v1/auth/signin')[0]?.body).toEqual({ client_id: 'web', username: 'a@b.c', verification_code: '123456', verification_token: 'vt' })
  })

  it('resets the password', async () => {
    const fake = server({ 'POST /v1/shield/captcha/init': captchaOk, 'POST /v1/auth/verification/verify': verify, 'POST /v1/auth/reset': () => json({}) })
    await client(fake).resetPassword({ phoneNumber: '+1555', verificationId: 'v1', code: '1', password: 'new-password' })
    expect(fake.of('POST /v1/auth/reset')[0]?.body).toEqual({ phone_number: '+1555', verification_token: 'vt', password: 'new-password', client_id: 'web' })
    expect(fake.of('POST /v1/shield/captcha/init')[0]?.body?.action).toBe('POST:/v1/auth/reset')
  })

  it('signs up anonymously without a captcha', async () => {
    const fake = server({ 'POST /v1/auth/signup/anonymously': () => tokens(1, 'anon_123') })
    const c = client(fake, { clientSecret: 's3' })
    await c.signUpAnonymously()
    expect(fake.of('POST /v1/auth/signup/anonymously')[0]?.body).toEqual({ client_id: 'web', client_secret: 's3' })
    expect(c.isAnonymous()).toBe(true)
    expect(fake.calls).toHaveLength(1)
  })

  it('rejects a contact with both or neither address', async () => {
    const c = client(server({}))
    await expect(c.signUp({ verificationId: 'v', code: '1' } as never)).rejects.toMatchObject({ error: 'invalid_argument' })
  })
})

describe('credentials and refresh', () => {
  async function signedIn(routes: Record<string, Route | Route[]>, over: Partial<IdentityClientOptions> = {}, expiresIn = 7200) {
    const fake = server({ 'POST /v1/auth/signup/anonymously': () => tokens(0, 'u1', expiresIn), ...routes })
    const c = client(fake, over)
    await c.signUpAnonymously()
    return { fake, c }
  }

  it('sends the bearer token on authenticated calls', async () => {
    const { fake, c } = await signedIn({ 'GET /v1/user/me': () => json({ sub: 'u1', name: 'A', vip_info: [] }) })
    await c.getUser()
    expect(fake.of('GET /v1/user/me')[0]?.headers.authorization).toBe('Bearer at0')
  })

  it('fails unauthenticated without credentials', async () => {
    const c = client(server({}))
    await expect(c.getUser()).rejects.toMatchObject({ error: 'unauthenticated' })
  })

  it('refreshes expired credentials before the call (600 s keeps a 120 s margin)', async () => {
    const { fake, c } = await signedIn({ 'POST /v1/auth/token': () => tokens(1), 'GET /v1/user/me': () => json({ sub: 'u1' }) }, {}, 600)
    await vi.advanceTimersByTimeAsync(479_000)
    await c.getUser()
    expect(fake.of('POST /v1/auth/token')).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1_000)
    await c.getUser()
    expect(fake.of('POST /v1/auth/token')[0]?.body).toEqual({ grant_type: 'refresh_token', refresh_token: 'rt0', client_id: 'web' })
    expect(fake.of('GET /v1/user/me')[1]?.headers.authorization).toBe('Bearer at1')
  })

  it('uses a 30 s margin below 600 s', async () => {
    const { c } = await signedIn({}, {}, 599)
    expect(c.credentials()?.expires_at).toBe(Date.now() + 569_000)
  })

  it('refreshes once after a 401 and retries the call', async () => {
    const { fake, c } = await signedIn({
      'POST /v1/auth/token': () => tokens(1),
      'GET /v1/user/me': [() => wire(GenericErrors.unauthenticated), () => json({ sub: 'u1' })],
    })
    await expect(c.getUser()).resolves.toEqual({ sub: 'u1' })
    expect(fake.of('GET /v1/user/me').map((x) => x.headers.authorization)).toEqual(['Bearer at0', 'Bearer at1'])
  })

  it('throttles refresh to once per 120 s unless forced (119 s vs 121 s)', async () => {
    let n = 0
    const { fake, c } = await signedIn({ 'POST /v1/auth/token': () => tokens(++n) })
    await c.refresh()
    await vi.advanceTimersByTimeAsync(119_000)
    expect((await c.refresh()).access_token).toBe('at1')
    expect(fake.of('POST /v1/auth/token')).toHaveLength(1)
    await c.refresh({ force: true })
    expect(fake.of('POST /v1/auth/token')).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(121_000)
    expect((await c.refresh()).access_token).toBe('at3')
  })

  it('shares the refresh throttle with another tab on the same storage', async () => {
    let n = 0
    const storage = new MemoryStorage()
    const { fake, c } = await signedIn({ 'POST /v1/auth/token': () => tokens(++n) }, { storage })
    await c.refresh()
    const otherTab = client(fake, { storage })
    await vi.advanceTimersByTimeAsync(60_000)
    expect((await otherTab.refresh()).access_token).toBe('at1')
    expect(fake.of('POST /v1/auth/token')).toHaveLength(1)
  })

  it('shares one refresh between concurrent callers', async () => {
    let n = 0
    const { fake, c } = await signedIn({ 'POST /v1/auth/token': () => tokens(++n) })
    const results = await Promise.all([c.refresh({ force: true }), c.refresh({ force: true }), c.refresh({ force: true })])
    expect(results.map((r) => r.access_token)).toEqual(['at1', 'at1', 'at1'])
    expect(fake.of('POST /v1/auth/token')).toHaveLength(1)
  })

  it('needs a refresh token', async () => {
    const c = client(server({}))
    await expect(c.refresh()).rejects.toMatchObject({ error: 'unauthenticated', errorDescription: 'refresh token not found' })
  })

  it.each([GenericErrors.unauthenticated, OAuthErrors.invalid_grant, OAuthErrors.unauthorized_client])('a refresh refused with %s clears the credentials', async (entry) => {
    const { c } = await signedIn({ 'POST /v1/auth/token': () => wire(entry) })
    await expect(c.refresh({ force: true })).rejects.toMatchObject({ error: entry.reason })
    expect(c.credentials()).toBeNull()
    expect(c.userInfo().isLogin).toBe(false)
    expect(globalThis.__cumulusAnalytics?.at(-1)).toMatchObject({ event: 'refresh_failed', params: { error: entry.reason } })
  })

  it('keeps the credentials when refresh fails otherwise', async () => {
    const { c } = await signedIn({ 'POST /v1/auth/token': () => wire(GenericErrors.permission_denied) })
    await expect(c.refresh({ force: true })).rejects.toMatchObject({ error: 'permission_denied' })
    expect(c.credentials()?.access_token).toBe('at0')
  })

  it('does not refresh again when another tab sharing storage already did', async () => {
    const storage = new MemoryStorage()
    let n = 0
    const fake = server({ 'POST /v1/auth/signup/anonymously': () => tokens(0, 'u1', 600), 'POST /v1/auth/token': () => tokens(++n), 'GET /v1/user/me': () => json({ sub: 'u1' }) })
    const tab1 = client(fake, { storage })
    const tab2 = client(fake, { storage })
    await tab1.signUpAnonymously()
    await vi.advanceTimersByTimeAsync(480_000)
    const both = Promise.all([tab1.getUser(), tab2.getUser()])
    await vi.advanceTimersByTimeAsync(1_000)
    await both
    expect(fake.of('POST /v1/auth/token')).toHaveLength(1)
    expect(fake.of('GET /v1/user/me').map((x) => x.headers.authorization)).toEqual(['Bearer at1', 'Bearer at1'])
  })

  it('keeps several accounts and switches between them', async () => {
    const fake = server({ 'POST /v1/auth/signup/anonymously': [() => tokens(0, 'u1'), () => tokens(1, 'u2')] })
    const c = client(fake)
    await c.signUpAnonymously()
    await c.signUpAnonymously()
    expect(c.accounts().map((a) => a.sub)).toEqual(['u2', 'u1'])
    expect(c.switchAccount('u1').access_token).toBe('at0')
    expect(c.credentials()?.sub).toBe('u1')
    expect(() => c.switchAccount('nobody')).toThrow(expect.objectContaining({ error: 'not_found' }))
  })

  it('signs out: revokes and clears, even when revoke fails', async () => {
    const { fake, c } = await signedIn({ 'POST /v1/auth/revoke': () => new TypeError('offline') })
    await c.signOut()
    expect(fake.of('POST /v1/auth/revoke')[0]?.body).toEqual({ token: 'rt0', token_type_hint: 'refresh_token' })
    // Regression: the bearer used to be sent too, and an expired access token got the whole
    // revoke refused (401), leaving the session alive. The refresh token alone is the proof.
    expect(fake.of('POST /v1/auth/revoke')[0]?.headers.authorization).toBeUndefined()
    expect(c.credentials()).toBeNull()
    expect(c.accounts()).toEqual([])
    expect(globalThis.__cumulusAnalytics?.at(-1)?.event).toBe('sign_out')
  })

  it('gets a sudo token and deletes the account with it', async () => {
    const { fake, c } = await signedIn({ 'POST /v1/user/sudo': () => json({ sudo_token: 'st', expires_in: 300 }), 'DELETE /v1/user/me': () => json({}) })
    const sudo = await c.sudo('pw')
    expect(sudo).toBe('st')
    await c.deleteAccount(sudo)
    expect(fake.of('DELETE /v1/user/me')[0]?.url.searchParams.get('sudo_token')).toBe('st')
    expect(c.credentials()).toBeNull()
  })

  it('times out waiting for the credentials lock after lockTimeout ms', async () => {
    let release!: () => void
    const { c } = await signedIn({
      'POST /v1/auth/revoke': () => json({}),
      'POST /v1/auth/token': () => tokens(1),
    }, { lockTimeout: 50, locks: { request: (_name, fn) => new Promise((r) => (release = () => r(fn()))) as never } })
    const first = c.refresh({ force: true })
    const out = c.signOut().catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(50)
    expect(await out).toMatchObject({ error: 'local_timeout' })
    release()
    await first
  })
})

describe('user info and start-up', () => {
  const me = () =>
    json({
      sub: 'u1', name: 'Alice', email: 'a@b.c', phone_number: '', picture: 'p', providers: [], password: 'SET', status: 'ACTIVE',
      created_at: '', password_updated_at: '',
      vip_info: [{ user_vas: 2, is_vip: 1, is_year: 1, expire: '2031-01-01T00:00:00Z', vas_type: 'vip', level: 2, vip_icon: { large: 'L', small: 'S' } }],
    })

  it('is signed out before sign-in', () => {
    expect(client(server({})).userInfo()).toMatchObject({ isLogin: false, userId: '', deviceId: 'dev-1' })
  })

  it('initialize refreshes expired credentials and loads the profile', async () => {
    const storage = new MemoryStorage()
    const fake = server({ 'POST /v1/auth/signup/anonymously': () => tokens(0, 'u1', 600), 'POST /v1/auth/token': () => tokens(1), 'GET /v1/user/me': me })
    await client(fake, { storage }).signUpAnonymously()
    await vi.advanceTimersByTimeAsync(600_000)
    const info = await client(fake, { storage }).initialize()
    expect(info).toMatchObject({ isLogin: true, userId: 'u1', nickname: 'Alice', isVip: true, isYear: true, vipIcon: 'S' })
    expect(fake.of('POST /v1/auth/token')).toHaveLength(1)
  })

  it('initialize ends signed out when the refresh is refused', async () => {
    const storage = new MemoryStorage()
    const fake = server({ 'POST /v1/auth/signup/anonymously': () => tokens(0, 'u1', 600), 'POST /v1/auth/token': () => wire(OAuthErrors.invalid_grant) })
    await client(fake, { storage }).signUpAnonymously()
    await vi.advanceTimersByTimeAsync(600_000)
    await expect(client(fake, { storage }).initialize()).resolves.toMatchObject({ isLogin: false })
  })

  it('initialize leaves a sign-in still waiting at the provider alone, and continues one that came back with a code', async () => {
    const fake = server({
      'POST /v1/auth/provider/token': () => json({ provider_token: 'pt', expires_in: 600, provider_profile: { sub: 'p1', name: 'P', email: '', email_verified: false, picture: '' } }),
      'POST /v1/auth/signin/with/provider': () => tokens(0, 'u7', 7200),
      'GET /v1/user/me': () => json({ sub: 'u7', name: 'P', email: '', phone_number: '', picture: '', providers: [], password: '', status: 'ACTIVE', created_at: '2026-01-01T00:00:00Z', password_updated_at: '2026-01-01T00:00:00Z', vip_info: [] }),
    })
    const c = client(fake)
    c.setPendingProviderSignIn({ providerId: 'google', state: 's', redirectUri: 'https://app.example/auth/callback' })
    // Another tab starting up while this one is away at the provider: nothing happens to it.
    await expect(c.initialize()).resolves.toMatchObject({ isLogin: false })
    expect(fake.of('POST /v1/auth/provider/token')).toHaveLength(0)
    c.setPendingProviderSignIn({ providerId: 'google', state: 's', redirectUri: 'https://app.example/auth/callback', code: 'the-code' })
    await expect(c.initialize()).resolves.toMatchObject({ isLogin: true })
    expect(fake.of('POST /v1/auth/provider/token')[0]!.body).toMatchObject({ provider_code: 'the-code', state: 's' })
  })

  it('completes a provider redirect: checks the state, trades the code, signs in', async () => {
    const fake = server({
      'GET /v1/auth/provider/uri': () => json({ uri: 'https://id.example/authorize?x=1', state: 'ignored' }),
      'POST /v1/auth/provider/token': () => json({ provider_token: 'pt', expires_in: 600, provider_profile: { sub: 'p1', name: 'P', email: '', email_verified: false, picture: '' } }),
      'POST /v1/auth/signin/with/provider': () => tokens(0, 'u9', 7200),
    })
    const c = client(fake)
    const uri = await c.startProviderSignIn({ providerId: 'google', redirectUri: 'https://app.example/auth/callback', returnTo: '/account' })
    expect(uri).toBe('https://id.example/authorize?x=1')
    // A redirect with another state is refused, and forgets the pending sign-in.
    await expect(c.completeProviderRedirect({ code: 'c', state: 'forged' })).rejects.toMatchObject({ error: 'invalid_request' })
    await expect(c.completeProviderRedirect({ code: 'c', state: fake.of('GET /v1/auth/provider/uri')[0]!.url.searchParams.get('state') })).rejects.toMatchObject({ error: 'invalid_request' })
    await c.startProviderSignIn({ providerId: 'google', redirectUri: 'https://app.example/auth/callback', returnTo: '/account' })
    const state = fake.of('GET /v1/auth/provider/uri')[1]!.url.searchParams.get('state')
    const result = await c.completeProviderRedirect({ code: 'the-code', state })
    expect(result).toEqual({ mode: 'signin', returnTo: '/account' })
    expect(fake.of('POST /v1/auth/provider/token')[0]!.body).toMatchObject({ provider_id: 'google', provider_code: 'the-code', provider_redirect_uri: 'https://app.example/auth/callback', state })
    expect(fake.of('POST /v1/auth/signin/with/provider')[0]!.body).toMatchObject({ provider_token: 'pt' })
    expect(c.credentials()?.sub).toBe('u9')
  })

  it('with an Android host: device id and user info from the host, tokens from an authorization code', async () => {
    const trackEvent = vi.fn()
    const host: AndroidHostBridge = {
      getUserInfo: () => JSON.stringify({ userId: 'u1', isLogin: true, nickname: 'Native' }),
      getDeviceId: () => 'android-dev',
      getAuthorizationCode: vi.fn(async () => 'code-1'),
      trackEvent,
    }
    globalThis.CumulusAndroid = host
    const fake = server({ 'POST /v1/auth/token': () => tokens(1) })
    const c = client(fake, { deviceId: undefined, platform: undefined })
    const info = await c.initialize()
    expect(host.getAuthorizationCode).toHaveBeenCalledWith('pan user offline')
    expect(fake.of('POST /v1/auth/token')[0]?.body).toEqual({ grant_type: 'authorization_code', code: 'code-1', client_id: 'web' })
    expect(fake.of('POST /v1/auth/token')[0]?.headers).toMatchObject({ 'x-device-id': 'android-dev', 'x-platform-version': '10' })
    expect(info).toMatchObject({ userId: 'u1', nickname: 'Native', isLogin: true, deviceId: 'android-dev' })
    expect(c.credentials()?.access_token).toBe('at1')
    expect(trackEvent).toHaveBeenCalledWith('sign_in', expect.any(String))
    await c.initialize()
    expect(fake.of('POST /v1/auth/token')).toHaveLength(1)
  })

  it('generates a device id once and keeps it in storage', () => {
    const storage = new MemoryStorage()
    const a = client(server({}), { storage, deviceId: undefined }).deviceId
    expect(a).toMatch(/^[0-9a-f]{32}$/)
    expect(client(server({}), { storage, deviceId: undefined }).deviceId).toBe(a)
  })
})

describe('request', () => {
  it('rotates origins on the client and remembers the answering one', async () => {
    const fake = server({ 'GET /v1/ping': () => json({ ok: true }) })
    let first = true
    const fetch: typeof globalThis.fetch = async (input, init) => {
      if (String(input).startsWith('https://down.test')) throw new TypeError('fetch failed')
      first = false
      return fake.fetch(input, init)
    }
    const c = client(fake, { origins: ['https://down.test', 'https://id.test'], fetch })
    await expect(c.request('GET', '/v1/ping')).resolves.toEqual({ ok: true })
    expect(first).toBe(false)
    expect(c.origin).toBe('https://id.test')
  })

  it('protects any call with captcha: true using METHOD:/path', async () => {
    const fake = server({ 'POST /v1/shield/captcha/init': captchaOk, 'DELETE /v1/user/provider/google': () => json({}) })
    const c = client(fake)
    await c.request('DELETE', '/v1/user/provider/google', { captcha: true })
    expect(fake.of('POST /v1/shield/captcha/init')[0]?.body?.action).toBe('DELETE:/v1/user/provider/google')
  })

  it('errorMessage uses the client locale, whose texts load lazily', async () => {
    const c = client(server({}), { locale: 'en-US' })
    expect(c.errorMessage({ error: 'x', error_code: 8000 })).toBe(ERROR_MESSAGES['en-US'].network_unreachable)
    c.setLocale('ms')
    await c.messagesReady
    expect(c.errorMessage({ error: 'x', error_code: 8000 })).toBe(ERROR_MESSAGES.ms.network_unreachable)
  })
})
