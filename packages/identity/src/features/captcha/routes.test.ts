import { createHash, webcrypto } from 'node:crypto'
import vm from 'node:vm'
import { AccountErrors, CAPTCHA_REJECT, ERROR_INFO_TYPE, GenericErrors, LOCALIZED_MESSAGE_TYPE, OAuthErrors, WEB_CLIENT_ID } from '@cumulus/protocol'
import type { FastifyInstance } from 'fastify'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { type TestApp, type TestAppOptions, buildTestAppWith } from '../../../test/test-app.js'
import { lockoutKeys } from '../sign-in/lockout.js'
import { verifyCaptchaToken } from './captcha-token.js'
import { leadingZeroBits } from './challenge.js'
import { CHALLENGE_TEXTS } from './challenge-texts.js'
import { captchaRoutes } from './routes.js'

const SIGN_IN = 'POST:/v1/auth/signin'
const BITS = 8

function buildCaptchaApp(config: TestAppOptions['config'] = {}): Promise<TestApp> {
  return buildTestAppWith((app, deps) => app.register(captchaRoutes, { deps }), { config: { ...config, captcha: { powDifficultyBits: BITS, ...config.captcha } } })
}

function solve(challenge: string, bits: number): string {
  for (let nonce = 0; ; nonce++) {
    if (leadingZeroBits(createHash('sha256').update(`${challenge}:${nonce}`).digest()) >= bits) return String(nonce)
  }
}

/** The contract's error body (identity.md "Error body") for a catalogue entry. */
function expectErrorBody(body: unknown, entry: { reason: string; code: number }) {
  expect(body).toMatchObject({
    error: entry.reason,
    error_code: entry.code,
    error_description: expect.any(String),
    details: expect.arrayContaining([expect.objectContaining({ '@type': ERROR_INFO_TYPE }), expect.objectContaining({ '@type': LOCALIZED_MESSAGE_TYPE })]),
  })
}

describe('captcha routes', () => {
  let t: TestApp | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  async function setup(config: TestAppOptions['config'] = {}) {
    t = await buildCaptchaApp(config)
    return t
  }

  async function challengeFromInit(app: FastifyInstance): Promise<string> {
    const res = await app.inject({ method: 'POST', url: '/v1/shield/captcha/init', headers: { 'x-device-id': 'device-1' }, payload: { client_id: WEB_CLIENT_ID, action: SIGN_IN } })
    expect(res.statusCode).toBe(200)
    return new URL(res.json<{ url: string }>().url).searchParams.get('challenge')!
  }

  describe('POST /v1/shield/captcha/init', () => {
    it('gives a low-risk caller a token bound to the body device_id, whatever meta holds', async () => {
      const { app, deps } = await setup()
      const res = await app.inject({
        method: 'POST',
        url: '/v1/shield/captcha/init',
        payload: { client_id: WEB_CLIENT_ID, action: 'POST:https://cumulus.example/v1/auth/signin', device_id: 'device-9', captcha_token: '', meta: { username: 'ann', nested: { a: [1, null] }, timestamp: 1 } },
      })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^application\/json/)
      const body = res.json<{ captcha_token: string; expires_in: number }>()
      expect(body).toEqual({ captcha_token: expect.any(String), expires_in: 300 })
      await expect(verifyCaptchaToken(deps, { token: body.captcha_token, clientId: WEB_CLIENT_ID, deviceId: 'device-9', action: SIGN_IN, targets: ['ann'], singleUse: false })).resolves.toBeTruthy()
    })

    it('takes the client from x-client-id and the device from x-device-id', async () => {
      const { app, deps } = await setup()
      const res = await app.inject({ method: 'POST', url: '/v1/shield/captcha/init', headers: { 'x-client-id': WEB_CLIENT_ID, 'x-device-id': 'device-h' }, payload: { action: SIGN_IN } })
      expect(res.statusCode).toBe(200)
      const token = res.json<{ captcha_token: string }>().captcha_token
      await expect(verifyCaptchaToken(deps, { token, clientId: WEB_CLIENT_ID, deviceId: 'device-x', action: SIGN_IN, singleUse: false })).rejects.toMatchObject({ entry: AccountErrors.captcha_invalid })
      await expect(verifyCaptchaToken(deps, { token, clientId: WEB_CLIENT_ID, deviceId: 'device-h', action: SIGN_IN, singleUse: false })).resolves.toBeTruthy()
    })

    it('answers with a challenge URL after repeated failures of the device', async () => {
      const { app, deps } = await setup({ captcha: { challengeAfterFailures: 2 } })
      await deps.counters.increment(lockoutKeys.device('device-1'), 900)
      await deps.counters.increment(lockoutKeys.device('device-1'), 900)
      const res = await app.inject({ method: 'POST', url: '/v1/shield/captcha/init', payload: { client_id: WEB_CLIENT_ID, action: SIGN_IN, device_id: 'device-1' } })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:3000\/captcha\/challenge\?challenge=cc1\./), expires_in: 300 })
    })

    it('refuses past the per-IP limit with CAPTCHA_REJECT, its text and Retry-After', async () => {
      const { app } = await setup({ captcha: { initPerIpPerMinute: 2 } })
      const init = () => app.inject({ method: 'POST', url: '/v1/shield/captcha/init', headers: { 'accept-language': 'zh-CN' }, payload: { client_id: WEB_CLIENT_ID, action: SIGN_IN } })
      expect((await init()).statusCode).toBe(200)
      expect((await init()).statusCode).toBe(200)
      const res = await init()
      expect(res.statusCode).toBe(AccountErrors.captcha_invalid.status)
      expectErrorBody(res.json(), AccountErrors.captcha_invalid)
      const details = res.json<{ details: { reason?: string; locale?: string; message?: string }[] }>().details
      expect(details[0]?.reason).toBe(CAPTCHA_REJECT)
      expect(details[1]).toMatchObject({ locale: 'zh-CN', message: '你的操作过于频繁，请稍后再试' })
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
    })

    it('names the missing field or refuses an unknown client', async () => {
      const { app } = await setup()
      const noAction = await app.inject({ method: 'POST', url: '/v1/shield/captcha/init', payload: { client_id: WEB_CLIENT_ID } })
      expect(noAction.statusCode).toBe(GenericErrors.invalid_argument.status)
      expectErrorBody(noAction.json(), GenericErrors.invalid_argument)
      expect(noAction.json<{ details: { metadata?: Record<string, string> }[] }>().details[0]?.metadata).toEqual({ field: 'action' })
      const unknown = await app.inject({ method: 'POST', url: '/v1/shield/captcha/init', payload: { client_id: 'nobody', action: SIGN_IN } })
      expect(unknown.statusCode).toBe(OAuthErrors.unauthorized_client.status)
      expectErrorBody(unknown.json(), OAuthErrors.unauthorized_client)
    })

    it('answers any JSON body with 200 or a contract error, never a 5xx', async () => {
      const { app } = await setup({ captcha: { initPerIpPerMinute: 100_000 } })
      const plausible = fc.record(
        {
          client_id: fc.oneof(fc.constant(WEB_CLIENT_ID), fc.string(), fc.jsonValue()),
          action: fc.oneof(fc.constant(SIGN_IN), fc.string(), fc.webUrl().map((u) => `POST:${u}`), fc.jsonValue()),
          device_id: fc.oneof(fc.string(), fc.jsonValue()),
          captcha_token: fc.oneof(fc.string(), fc.jsonValue()),
          redirect_uri: fc.oneof(fc.webUrl(), fc.jsonValue()),
          meta: fc.jsonValue(),
        },
        { requiredKeys: [] },
      )
      await fc.assert(
        fc.asyncProperty(fc.oneof(plausible, fc.jsonValue()), async (body) => {
          const res = await app.inject({ method: 'POST', url: '/v1/shield/captcha/init', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) })
          if (res.statusCode === 200) {
            expect(res.json()).toHaveProperty('expires_in', 300)
            return
          }
          expect(res.statusCode).toBeGreaterThanOrEqual(400)
          expect(res.statusCode).toBeLessThan(500)
          expect(res.json()).toMatchObject({ error: expect.any(String), error_code: expect.any(Number), error_description: expect.any(String), details: expect.any(Array) })
        }),
        { numRuns: 200 },
      )
    })
  })

  describe('GET /captcha/challenge', () => {
    it('renders an accessible, self-contained page under a strict CSP that allows framing by the web app', async () => {
      const { app } = await setup({ captcha: { mode: 'always' } })
      const challenge = await challengeFromInit(app)
      const res = await app.inject({ method: 'GET', url: `/captcha/challenge?${new URLSearchParams({ challenge, redirect_uri: 'http://127.0.0.1:3000/', state: 's"<1>' })}` })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
      const html = res.body
      expect(html).toMatch(/^<!doctype html>\n<html lang="en-US">/)
      expect(html).toContain(challenge)
      expect(html).toContain('<h1 id="heading">')
      expect(html).toContain("Verify I'm human</button>")
      expect(html).toMatch(/role="status" aria-live="polite"/)
      expect(html).toContain('<noscript>')
      expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/)
      // The state reaches the script only as escaped JSON, never as markup.
      expect(html).not.toContain('s"<1>')
      const csp = String(res.headers['content-security-policy'])
      const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1]
      expect(nonce).toBeTruthy()
      expect(csp).toContain("default-src 'none'")
      expect(csp).toContain(`style-src 'nonce-${nonce}'`)
      expect(csp).toContain("frame-ancestors 'self' http://127.0.0.1:3000")
      expect(csp).not.toContain('unsafe-inline')
      expect(html).toContain(`<script nonce="${nonce}">`)
      expect(html).toContain(`<style nonce="${nonce}">`)
      expect(res.headers['x-frame-options']).toBeUndefined()
      expect(res.headers['cache-control']).toBe('no-store')
    })

    it('uses a fresh nonce for every response', async () => {
      const { app } = await setup({ captcha: { mode: 'always' } })
      const challenge = await challengeFromInit(app)
      const csp = async () => (await app.inject({ method: 'GET', url: `/captcha/challenge?challenge=${challenge}` })).headers['content-security-policy']
      expect(await csp()).not.toBe(await csp())
    })

    it.each([
      [{ locale: 'ko' }, {}, 'ko'],
      [{ locale: 'zh-Hant-HK' }, { 'accept-language': 'ms' }, 'zh-TW'],
      [{}, { 'accept-language': 'fr, id;q=0.8, en;q=0.5' }, 'id'],
      [{}, { 'accept-language': 'zh-CN' }, 'zh-CN'],
      [{ locale: 'fr' }, { 'accept-language': 'ms-MY' }, 'ms'],
      [{}, {}, 'en-US'],
    ] as const)('speaks the language chosen by %j and %j: %s', async (query, headers, locale) => {
      const { app } = await setup({ captcha: { mode: 'always' } })
      const challenge = await challengeFromInit(app)
      const res = await app.inject({ method: 'GET', url: `/captcha/challenge?${new URLSearchParams({ challenge, ...query })}`, headers })
      expect(res.body).toContain(`<html lang="${locale}">`)
      expect(res.body).toContain(`>${CHALLENGE_TEXTS[locale].heading}</h1>`)
      expect(res.headers['content-language']).toBe(locale)
    })

    it('says so on the page when the challenge is expired or forged', async () => {
      const { app, clock } = await setup({ captcha: { mode: 'always' } })
      const challenge = await challengeFromInit(app)
      clock.advanceSeconds(301)
      for (const c of [challenge, 'cc1.forged.mac']) {
        const res = await app.inject({ method: 'GET', url: `/captcha/challenge?challenge=${encodeURIComponent(c)}` })
        expect(res.statusCode).toBe(200)
        expect(res.body).toContain('"valid":false')
      }
    })

    it('needs a challenge parameter', async () => {
      const { app } = await setup()
      const res = await app.inject({ method: 'GET', url: '/captcha/challenge' })
      expect(res.statusCode).toBe(GenericErrors.invalid_argument.status)
      expectErrorBody(res.json(), GenericErrors.invalid_argument)
    })
  })

  describe('POST /captcha/challenge/verify', () => {
    it('trades a solved challenge for a token the sign-in check accepts, with an allowed redirect', async () => {
      const { app, deps } = await setup({ captcha: { mode: 'always' } })
      const challenge = await challengeFromInit(app)
      const res = await app.inject({
        method: 'POST',
        url: '/captcha/challenge/verify',
        payload: { challenge, nonce: solve(challenge, BITS), redirect_uri: 'http://127.0.0.1:3000/sign-in', state: 'st-1' },
      })
      expect(res.statusCode).toBe(200)
      const body = res.json<{ captcha_token: string; expires_in: number; state: string; redirect_to: string }>()
      expect(body).toEqual({ captcha_token: expect.any(String), expires_in: 300, state: 'st-1', redirect_to: expect.any(String) })
      expect(Object.fromEntries(new URL(body.redirect_to).searchParams)).toEqual({ captcha_token: body.captcha_token, expires_in: '300', state: 'st-1' })
      await expect(verifyCaptchaToken(deps, { token: body.captcha_token, clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: SIGN_IN, singleUse: true })).resolves.toBeTruthy()
    })

    // Regression (issue 11): a redirect_uri the client never registered got a 200 (and the page
    // then posted the token elsewhere); it is the catalogue's invalid_request, on the page and on verify.
    it('refuses a redirect_uri the client has not registered with invalid_request, on the page and on verify', async () => {
      const { app } = await setup({ captcha: { mode: 'always' } })
      const challenge = await challengeFromInit(app)
      for (const redirect_uri of ['https://evil.example/', '//evil.example/', 'http://127.0.0.1:3000@evil.example/', 'http://127.0.0.1:3000.evil.example/']) {
        const page = await app.inject({ method: 'GET', url: `/captcha/challenge?${new URLSearchParams({ challenge, redirect_uri, state: 'st' })}` })
        const verify = await app.inject({ method: 'POST', url: '/captcha/challenge/verify', payload: { challenge, nonce: solve(challenge, BITS), redirect_uri, state: 'st' } })
        for (const res of [page, verify]) {
          expect(res.statusCode, redirect_uri).toBe(OAuthErrors.invalid_request.status)
          expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
          expect(res.json()).toMatchObject({ error: OAuthErrors.invalid_request.reason, error_code: OAuthErrors.invalid_request.code, details: [{ metadata: { field: 'redirect_uri' } }, {}] })
        }
      }
    })

    it('refuses a reused challenge and a wrong nonce with captcha_invalid', async () => {
      const { app } = await setup({ captcha: { mode: 'always' } })
      const challenge = await challengeFromInit(app)
      const nonce = solve(challenge, BITS)
      const post = (n: string) => app.inject({ method: 'POST', url: '/captcha/challenge/verify', payload: { challenge, nonce: n } })
      let wrong = 0
      while (leadingZeroBits(createHash('sha256').update(`${challenge}:${wrong}`).digest()) >= BITS) wrong++
      const bad = await post(String(wrong))
      expect(bad.statusCode).toBe(AccountErrors.captcha_invalid.status)
      expectErrorBody(bad.json(), AccountErrors.captcha_invalid)
      expect((await post(nonce)).statusCode).toBe(200)
      const reused = await post(nonce)
      expect(reused.statusCode).toBe(AccountErrors.captcha_invalid.status)
      expectErrorBody(reused.json(), AccountErrors.captcha_invalid)
    })
  })

  describe('the page script', () => {
    interface FakeElement {
      textContent: string
      className: string
      hidden: boolean
      disabled: boolean
      style: Record<string, string>
      listeners: Record<string, () => Promise<void>>
      addEventListener(type: string, listener: () => Promise<void>): void
    }

    /** Runs the page's own inline script against a minimal DOM whose fetch goes to app.inject. */
    async function runPage(app: FastifyInstance, url: string, options: { subtle: boolean; framed: boolean }) {
      const html = (await app.inject({ method: 'GET', url })).body
      const configJson = /<script type="application\/json" id="captcha-config">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ''
      const script = /<script nonce="[^"]+">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ''
      const element = (): FakeElement => ({
        textContent: '',
        className: '',
        hidden: true,
        disabled: false,
        style: {},
        listeners: {},
        addEventListener(type, listener) {
          this.listeners[type] = listener
        },
      })
      const elements: Record<string, FakeElement> = { 'captcha-config': { ...element(), textContent: configJson }, verify: element(), status: element(), bar: element() }
      const navigations: string[] = []
      const messages: { message: unknown; targetOrigin: string }[] = []
      const parent = { postMessage: (message: unknown, targetOrigin: string) => messages.push({ message, targetOrigin }) }
      const context: Record<string, unknown> = {
        document: { getElementById: (id: string) => elements[id] ?? null },
        TextEncoder,
        setTimeout: (fn: () => void) => setImmediate(fn),
        location: { assign: (to: string) => navigations.push(to) },
        opener: null,
        crypto: options.subtle ? { subtle: webcrypto.subtle } : undefined,
        fetch: async (to: string, init: { method: string; headers: Record<string, string>; body: string }) => {
          const res = await app.inject({ method: init.method as 'POST', url: to, headers: init.headers, payload: init.body })
          return { ok: res.statusCode < 300, status: res.statusCode, json: async () => JSON.parse(res.body) as unknown }
        },
      }
      context['window'] = context
      context['parent'] = options.framed ? parent : context
      vm.runInNewContext(script, context)
      const button = elements['verify']!
      expect(button.hidden).toBe(false)
      await button.listeners['click']!()
      return { status: elements['status']!, button, bar: elements['bar']!, navigations, messages }
    }

    it.each([
      ['where crypto.subtle exists', true],
      ['in an insecure context without crypto.subtle', false],
    ])('solves the challenge %s (in JavaScript either way) and navigates to the allowed redirect', async (_how, subtle) => {
      const { app, deps } = await setup({ captcha: { mode: 'always', powDifficultyBits: 12 } })
      const challenge = await challengeFromInit(app)
      const page = await runPage(app, `/captcha/challenge?${new URLSearchParams({ challenge, redirect_uri: 'http://127.0.0.1:3000/cb', state: 'st' })}`, { subtle, framed: true })
      expect(page.status.textContent).toBe(CHALLENGE_TEXTS['en-US'].verified)
      expect(page.bar.style['width']).toBe('100%')
      expect(page.messages).toEqual([])
      expect(page.navigations).toHaveLength(1)
      const target = new URL(page.navigations[0]!)
      expect(target.pathname).toBe('/cb')
      expect(target.searchParams.get('state')).toBe('st')
      await expect(verifyCaptchaToken(deps, { token: target.searchParams.get('captcha_token')!, clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: SIGN_IN, singleUse: true })).resolves.toBeTruthy()
    })

    it('posts the token to the framing web app when there is no redirect_uri', async () => {
      const { app } = await setup({ captcha: { mode: 'always' } })
      const challenge = await challengeFromInit(app)
      const page = await runPage(app, `/captcha/challenge?${new URLSearchParams({ challenge, state: 'st', locale: 'ko' })}`, { subtle: true, framed: true })
      expect(page.navigations).toEqual([])
      expect(page.status.textContent).toBe(CHALLENGE_TEXTS.ko.verified)
      expect(page.messages).toEqual([{ message: { type: 'cumulus:captcha', captcha_token: expect.any(String), expires_in: 300, state: 'st' }, targetOrigin: 'http://127.0.0.1:3000' }])
    })

    it('tells the user when the challenge was already used', async () => {
      const { app } = await setup({ captcha: { mode: 'always' } })
      const challenge = await challengeFromInit(app)
      const url = `/captcha/challenge?${new URLSearchParams({ challenge })}`
      await runPage(app, url, { subtle: true, framed: true })
      const second = await runPage(app, url, { subtle: true, framed: true })
      expect(second.status.textContent).toBe(CHALLENGE_TEXTS['en-US'].expired)
      expect(second.messages).toEqual([])
      expect(second.button.disabled).toBe(true)
    })
  })
})
