import { AccountErrors, GenericErrors, OAuthErrors, WEB_CLIENT_ID } from '@cumulus/protocol'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { type TestApp, type TestAppOptions, buildTestApp, buildTestAppWith } from '../../../test/test-app.js'
import { issueCaptchaToken } from './captcha-token.js'
import { captchaGuard } from './guard.js'

const PROTECTED = '/v1/test/protected'
const ACTION = `POST:${PROTECTED}`

/** An app with two routes behind the guard (every guarded route spends its token). */
function buildGuardedApp(config: TestAppOptions['config'] = {}): Promise<TestApp> {
  return buildTestAppWith(async (app, deps) => {
    app.post(PROTECTED, { preHandler: captchaGuard(deps) }, async () => ({ ok: true }))
    app.post(`${PROTECTED}/once`, { preHandler: captchaGuard(deps) }, async () => ({ ok: true }))
  }, { config })
}

describe('captchaGuard', () => {
  let t: TestApp | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  async function setup(config: TestAppOptions['config'] = {}) {
    t = await buildGuardedApp(config)
    return t
  }

  const call = (app: FastifyInstance, options: { token?: string; bodyToken?: string; device?: string; clientId?: string | null; path?: string } = {}) =>
    app.inject({
      method: 'POST',
      url: options.path ?? PROTECTED,
      headers: {
        ...(options.token !== undefined ? { 'x-captcha-token': options.token } : {}),
        ...(options.device !== undefined ? { 'x-device-id': options.device } : {}),
      },
      payload: {
        ...(options.clientId === null ? {} : { client_id: options.clientId ?? WEB_CLIENT_ID }),
        ...(options.bodyToken !== undefined ? { captcha_token: options.bodyToken } : {}),
      },
    })

  it('refuses a call without a token with captcha_required', async () => {
    const { app } = await setup()
    for (const res of [await call(app), await call(app, { token: '' }), await call(app, { bodyToken: '  ' })]) {
      expect(res.statusCode).toBe(AccountErrors.captcha_required.status)
      expect(res.json()).toMatchObject({ error: AccountErrors.captcha_required.reason, error_code: AccountErrors.captcha_required.code })
    }
  })

  it('refuses a bad token with captcha_invalid', async () => {
    const { app, deps } = await setup()
    const otherAction = issueCaptchaToken(deps, { clientId: WEB_CLIENT_ID, deviceId: '', action: 'POST:/v1/auth/signup' }).captchaToken
    for (const token of ['not-a-token', otherAction]) {
      const res = await call(app, { token })
      expect(res.statusCode).toBe(AccountErrors.captcha_invalid.status)
      expect(res.json()).toMatchObject({ error: AccountErrors.captcha_invalid.reason, error_code: AccountErrors.captcha_invalid.code })
    }
  })

  it('lets a good token through, from the header or the body', async () => {
    const { app, deps } = await setup()
    const issue = () => issueCaptchaToken(deps, { clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: `post:https://cumulus.example${PROTECTED}` }).captchaToken
    const viaHeader = await call(app, { token: issue(), device: 'device-1' })
    expect(viaHeader.statusCode).toBe(200)
    expect(viaHeader.json()).toEqual({ ok: true })
    expect((await call(app, { bodyToken: issue() })).statusCode).toBe(200)
  })

  it('holds the token to the device the call names', async () => {
    const { app, deps } = await setup()
    const { captchaToken } = issueCaptchaToken(deps, { clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: ACTION })
    const res = await call(app, { token: captchaToken, device: 'device-2' })
    expect(res.json()).toMatchObject({ error_code: AccountErrors.captcha_invalid.code })
  })

  it.each([PROTECTED, `${PROTECTED}/once`])('accepts a token once on every guarded route (%s)', async (path) => {
    const { app, deps } = await setup()
    const { captchaToken } = issueCaptchaToken(deps, { clientId: WEB_CLIENT_ID, deviceId: '', action: `POST:${path}` })
    expect((await call(app, { token: captchaToken, path })).statusCode).toBe(200)
    const again = await call(app, { token: captchaToken, path })
    expect(again.json()).toMatchObject({ error_code: AccountErrors.captcha_invalid.code })
  })

  it('expects the token of the route pattern, whatever the query string or trailing slash', async () => {
    const { app, deps } = await setup()
    const { captchaToken } = issueCaptchaToken(deps, { clientId: WEB_CLIENT_ID, deviceId: '', action: ACTION })
    expect((await call(app, { token: captchaToken, path: `${PROTECTED}/?lang=ko` })).statusCode).toBe(200)
  })

  it('fails an unknown or missing client with the client registry error', async () => {
    const { app } = await setup()
    const unknown = await call(app, { clientId: 'nobody' })
    expect(unknown.json()).toMatchObject({ error_code: OAuthErrors.unauthorized_client.code })
    const missing = await call(app, { clientId: null })
    expect(missing.json()).toMatchObject({ error_code: GenericErrors.invalid_argument.code })
  })

  it('requires nothing and ignores any token in mode off', async () => {
    const { app } = await setup({ captcha: { mode: 'off' } })
    expect((await call(app)).statusCode).toBe(200)
    expect((await call(app, { token: 'garbage' })).statusCode).toBe(200)
  })
})

describe('the captcha flow on the real sign-in route', () => {
  let t: TestApp | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  it('passes a token from captcha init for a full-URL sign-in action, once', async () => {
    t = await buildTestApp()
    const { app } = t
    const init = await app.inject({
      method: 'POST',
      url: '/v1/shield/captcha/init',
      headers: { 'x-device-id': 'device-1' },
      payload: { client_id: WEB_CLIENT_ID, action: 'POST:http://127.0.0.1:3000/v1/auth/signin', meta: { username: 'nobody@example.com' } },
    })
    expect(init.statusCode).toBe(200)
    const token = init.json<{ captcha_token: string }>().captcha_token
    const signIn = () =>
      app.inject({ method: 'POST', url: '/v1/auth/signin', headers: { 'x-captcha-token': token, 'x-device-id': 'device-1' }, payload: { client_id: WEB_CLIENT_ID, username: 'nobody@example.com', password: 'wrong password' } })
    // Past the guard, the sign-in itself answers: unknown user.
    expect((await signIn()).json()).toMatchObject({ error_code: AccountErrors.invalid_account_or_password.code })
    expect((await signIn()).json()).toMatchObject({ error_code: AccountErrors.captcha_invalid.code })
  })
})
