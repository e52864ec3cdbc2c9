import { GenericErrors, OAuthErrors, type TokenReply, type UserSession, WEB_CLIENT_ID } from '@cumulus/protocol'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { aUser, type BuiltUser } from '../../../test/builders.js'
import { call, captchaFor, expectErrorReply } from '../../../test/http.js'
import { type TestApp, buildTestApp } from '../../../test/test-app.js'
import { startSession } from '../tokens/sessions.js'
import { describeDevice } from './user-sessions.js'

const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

describe('what a session runs on', () => {
  it('names the browser, the OS and the kind of device from the User-Agent', () => {
    expect(describeDevice({ deviceName: '', userAgent: WINDOWS_CHROME, ip: '' })).toEqual({ name: '', browser: 'Chrome', os: 'Windows 10', type: 'desktop' })
    expect(describeDevice({ deviceName: '', userAgent: ANDROID_CHROME, ip: '' })).toMatchObject({ browser: 'Chrome', os: 'Android 14', type: 'mobile' })
    expect(describeDevice({ deviceName: 'Ann’s phone', userAgent: IPHONE_SAFARI, ip: '' })).toMatchObject({ name: 'Ann’s phone', browser: 'Safari', type: 'mobile' })
    expect(describeDevice({ deviceName: '', userAgent: '', ip: '' })).toEqual({ name: '', browser: '', os: '', type: '' })
  })

  it('never throws on any User-Agent, and says only what it found', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), (userAgent) => {
        const device = describeDevice({ deviceName: '', userAgent, ip: '' })
        expect(['desktop', 'mobile', 'tablet', 'tv', '']).toContain(device.type)
        expect(typeof device.browser).toBe('string')
        expect(typeof device.os).toBe('string')
      }),
      { numRuns: 300 },
    )
  })
})

describe('signed-in devices (GET and DELETE /v1/user/sessions)', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await buildTestApp()
  })
  afterEach(() => t.close())

  async function signIn(user: BuiltUser, headers: Record<string, string> = {}): Promise<TokenReply> {
    const captcha = await captchaFor(t.app, 'POST:/v1/auth/signin', { username: user.user.email })
    const res = await call(t.app, 'POST', '/v1/auth/signin', { captcha, headers, body: { username: user.user.email, password: user.password, client_id: 'cumulus-web' } })
    expect(res.statusCode, res.body).toBe(200)
    return res.json()
  }
  async function list(token: string): Promise<UserSession[]> {
    const res = await call(t.app, 'GET', '/v1/user/sessions', { token })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['cache-control']).toBe('no-store')
    return res.json().data
  }
  const me = (token: string) => call(t.app, 'GET', '/v1/user/me', { token })
  const refresh = (refreshToken: string) => call(t.app, 'POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'cumulus-web' } })

  it('lists where the user is signed in, this session first and marked, with what each device said about itself', async () => {
    const ann = await aUser(t)
    const phone = await signIn(ann, {
      'user-agent': ANDROID_CHROME,
      // A client that sends its name in UTF-8 (Node reads header bytes as Latin-1), with a
      // right-to-left override and a control character that must not reach the page.
      'x-device-name': Buffer.from('小米\u202e 13\u0007', 'utf8').toString('latin1'),
    })
    t.clock.advanceSeconds(60)
    const laptop = await signIn(ann, { 'user-agent': WINDOWS_CHROME })
    const bob = await aUser(t)
    await signIn(bob, { 'user-agent': IPHONE_SAFARI })

    const fromLaptop = await list(laptop.access_token)
    expect(fromLaptop.map((s) => [s.current, s.device])).toEqual([
      [true, { name: '', browser: 'Chrome', os: 'Windows 10', type: 'desktop' }],
      [false, { name: '小米 13', browser: 'Chrome', os: 'Android 14', type: 'mobile' }],
    ])
    expect(fromLaptop[1]).toMatchObject({ client: { client_id: 'cumulus-web', name: 'Cumulus web' }, ip: '127.0.0.1' })
    expect(Date.parse(fromLaptop[0]!.created_at) - Date.parse(fromLaptop[1]!.created_at)).toBe(60_000)
    // From the phone, the phone is this session.
    expect((await list(phone.access_token)).map((s) => [s.current, s.device.os])).toEqual([
      [true, 'Android 14'],
      [false, 'Windows 10'],
    ])
  })

  it('signs one session out at once: its access token, its refresh token and its place in the list', async () => {
    const ann = await aUser(t)
    const phone = await signIn(ann, { 'user-agent': ANDROID_CHROME })
    const laptop = await signIn(ann, { 'user-agent': WINDOWS_CHROME })
    expect((await me(phone.access_token)).statusCode).toBe(200)
    const phoneId = (await list(laptop.access_token)).find((s) => !s.current)!.id

    const ended = await call(t.app, 'DELETE', `/v1/user/sessions/${phoneId}`, { token: laptop.access_token })
    expect(ended.statusCode, ended.body).toBe(200)
    expectErrorReply(await me(phone.access_token), GenericErrors.unauthenticated)
    expectErrorReply(await refresh(phone.refresh_token), OAuthErrors.invalid_grant)
    expect((await list(laptop.access_token)).map((s) => s.current)).toEqual([true])
    // Ended already: not found, the same as an id that never was.
    expectErrorReply(await call(t.app, 'DELETE', `/v1/user/sessions/${phoneId}`, { token: laptop.access_token }), GenericErrors.not_found)
    expect((await me(laptop.access_token)).statusCode).toBe(200)
  })

  it('cannot end another account’s session, and says not_found as for any unknown id', async () => {
    const ann = await aUser(t)
    const bob = await aUser(t)
    const annSession = await signIn(ann)
    const bobSession = await signIn(bob)
    const bobId = (await list(bobSession.access_token))[0]!.id
    expectErrorReply(await call(t.app, 'DELETE', `/v1/user/sessions/${bobId}`, { token: annSession.access_token }), GenericErrors.not_found)
    expect((await me(bobSession.access_token)).statusCode).toBe(200)
  })

  it('ends a session exactly once when 20 requests end it at once', async () => {
    const ann = await aUser(t)
    const phone = await signIn(ann)
    const laptop = await signIn(ann)
    const phoneId = (await list(laptop.access_token)).find((s) => !s.current)!.id
    const replies = await Promise.all(Array.from({ length: 20 }, () => call(t.app, 'DELETE', `/v1/user/sessions/${phoneId}`, { token: laptop.access_token })))
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, ...Array<number>(19).fill(404)])
    expectErrorReply(await me(phone.access_token), GenericErrors.unauthenticated)
  })

  it('signs out everywhere else, leaving this session and other accounts alone', async () => {
    const ann = await aUser(t)
    const others = await Promise.all([signIn(ann), signIn(ann), signIn(ann)])
    const here = await signIn(ann)
    const bob = await signIn(await aUser(t))
    const res = await call(t.app, 'DELETE', '/v1/user/sessions/others', { token: here.access_token })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ ended: 3 })
    for (const other of others) expectErrorReply(await me(other.access_token), GenericErrors.unauthenticated)
    expect((await me(here.access_token)).statusCode).toBe(200)
    expect((await me(bob.access_token)).statusCode).toBe(200)
    expect((await list(here.access_token)).length).toBe(1)
    expect((await call(t.app, 'DELETE', '/v1/user/sessions/others', { token: here.access_token })).json()).toEqual({ ended: 0 })
  })

  it('is for the product’s own apps and signed-in callers only', async () => {
    await t.close()
    const tvApp = { clientId: 'tv-app', name: 'TV app', type: 'public' as const, redirectUris: [], grantTypes: ['refresh_token'] }
    t = await buildTestApp({ config: { clients: [{ clientId: WEB_CLIENT_ID, name: 'Cumulus web', redirectUris: ['http://127.0.0.1:3000/'], grantTypes: ['refresh_token'] }, tvApp] } })
    const ann = await aUser(t)
    const client = t.deps.clients.all().find((c) => c.clientId === tvApp.clientId)!
    const app = await startSession(t.deps, { userId: ann.user.id, client, deviceId: '' })
    expectErrorReply(await call(t.app, 'GET', '/v1/user/sessions', { token: app.access_token }), GenericErrors.permission_denied)
    expectErrorReply(await call(t.app, 'DELETE', '/v1/user/sessions/others', { token: app.access_token }), GenericErrors.permission_denied)
    expectErrorReply(await call(t.app, 'GET', '/v1/user/sessions'), GenericErrors.unauthenticated)
    // The app's session is listed (by the app's name) for the user to end.
    const web = await signIn(ann)
    expect((await list(web.access_token)).map((s) => s.client.name)).toEqual(['Cumulus web', 'TV app'])
  })

  it('answers any session id a client can send with the catalogue’s shape, never 5xx', async () => {
    const ann = await aUser(t)
    const here = await signIn(ann)
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ minLength: 1, maxLength: 200 }), fc.constantFrom('..', '%2e%2e', 'a'.repeat(129), '%00', 'x%2Fy', '\u202e')), async (id) => {
        const res = await call(t.app, 'DELETE', `/v1/user/sessions/${encodeURIComponent(id)}`, { token: here.access_token })
        expect(res.statusCode, res.body).toBeLessThan(500)
        expect([400, 404]).toContain(res.statusCode)
        expect(res.json()).toMatchObject({ error: expect.any(String), error_code: expect.any(Number) })
      }),
      { numRuns: 60 },
    )
    expect((await me(here.access_token)).statusCode).toBe(200)
  })
})
