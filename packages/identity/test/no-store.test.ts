import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { call, signIn, signUpByEmail } from './http.js'
import { type TestApp, buildTestApp } from './test-app.js'

// Regression (issue 11): token replies (sign-in, sign-up, the token grant, sudo) and profile
// replies (/v1/user/me) were sent without Cache-Control, so a shared cache or the browser's
// back/forward cache could keep access and refresh tokens or personal data. One rule now covers
// every identity reply: no-store (RFC 6749 5.1), errors included; public documents opt out.
describe('identity replies are never stored', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await buildTestApp()
  })
  afterEach(() => t.close())

  const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' }
  const cachingOf = (res: { headers: Record<string, unknown> }) => ({ 'cache-control': res.headers['cache-control'], pragma: res.headers['pragma'] })

  it('sends no-store with every token, profile and sudo reply, and with errors', async () => {
    const tokens = await signUpByEmail(t, 'private@example.com', 'correct horse battery')
    const replies = {
      signIn: await signIn(t, 'private@example.com', 'correct horse battery'),
      anonymous: await call(t.app, 'POST', '/v1/auth/signup/anonymously', { body: { client_id: 'cumulus-web' } }),
      refresh: await call(t.app, 'POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'cumulus-web' } }),
      me: await call(t.app, 'GET', '/v1/user/me', { token: tokens.access_token }),
      sudo: await call(t.app, 'POST', '/v1/user/sudo', { token: tokens.access_token, body: { password: 'correct horse battery' } }),
      introspect: await call(t.app, 'GET', '/v1/auth/token/introspect', { query: { token: tokens.access_token } }),
      refused: await call(t.app, 'GET', '/v1/user/me', { token: 'not-a-token' }),
    }
    for (const [name, res] of Object.entries(replies)) {
      expect(res.statusCode < 500, `${name}: ${res.body}`).toBe(true)
      expect(cachingOf(res), name).toEqual(NO_STORE)
    }
  })

  it('lets the public key set say it may be cached', async () => {
    const res = await call(t.app, 'GET', '/.well-known/jwks.json')
    expect(res.headers['cache-control']).toBe('public, max-age=300')
  })
})
