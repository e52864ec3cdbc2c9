import { createHash } from 'node:crypto'
import { AccountErrors, AppError, OAuthErrors, WEB_CLIENT_ID } from '@cumulus/protocol'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { hostileFragment, hostileRedirect } from '../../../../../test-support/hostile-urls.js'
import { CONFIDENTIAL_CLIENT, OTHER_CLIENT, type TestDeps, buildTestDeps } from '../../../test/test-app.js'
import { verifyCaptchaToken } from './captcha-token.js'
import { issueChallenge, leadingZeroBits } from './challenge.js'
import { allowedRedirectTarget } from './redirect-target.js'
import { verifyChallenge } from './verify-challenge.js'

const SIGN_IN = 'POST:/v1/auth/signin'
const BITS = 8

/** What the page's script does, in Node: the first nonce whose hash has `bits` leading zero bits. */
function solve(challenge: string, bits: number): string {
  for (let nonce = 0; ; nonce++) {
    if (leadingZeroBits(createHash('sha256').update(`${challenge}:${nonce}`).digest()) >= bits) return String(nonce)
  }
}

function wrongNonce(challenge: string, bits: number): string {
  for (let nonce = 0; ; nonce++) {
    if (leadingZeroBits(createHash('sha256').update(`${challenge}:${nonce}`).digest()) < bits) return String(nonce)
  }
}

describe('leadingZeroBits', () => {
  it('counts whole zero bytes and the zero bits of the first non-zero byte', () => {
    expect(leadingZeroBits(Uint8Array.from([0x80]))).toBe(0)
    expect(leadingZeroBits(Uint8Array.from([0x01]))).toBe(7)
    expect(leadingZeroBits(Uint8Array.from([0, 0, 0x10, 0xff]))).toBe(19)
    expect(leadingZeroBits(new Uint8Array(4))).toBe(32)
  })
})

describe('verifyChallenge', () => {
  let t: TestDeps
  beforeEach(async () => {
    t = await buildTestDeps({ config: { captcha: { powDifficultyBits: BITS } } })
  })
  afterEach(async () => {
    await t.close()
  })

  const newChallenge = () => issueChallenge(t.deps, { clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: SIGN_IN }).challenge

  it('turns a solved challenge into a token for its client, device and action', async () => {
    const challenge = newChallenge()
    const reply = await verifyChallenge(t.deps, { challenge, nonce: solve(challenge, BITS), redirectUri: '', state: 's1' })
    expect(reply).toEqual({ captcha_token: expect.any(String), expires_in: 300, state: 's1', redirect_to: '' })
    await expect(verifyCaptchaToken(t.deps, { token: reply.captcha_token, clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: SIGN_IN, singleUse: true })).resolves.toBeTruthy()
  })

  it('refuses a nonce that does not solve it, and the challenge stays usable', async () => {
    const challenge = newChallenge()
    await expect(verifyChallenge(t.deps, { challenge, nonce: wrongNonce(challenge, BITS), redirectUri: '', state: '' })).rejects.toMatchObject({ entry: AccountErrors.captcha_invalid })
    await expect(verifyChallenge(t.deps, { challenge, nonce: solve(challenge, BITS), redirectUri: '', state: '' })).resolves.toBeTruthy()
  })

  it('refuses a reused challenge, also when the reuses race', async () => {
    const challenge = newChallenge()
    const nonce = solve(challenge, BITS)
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => verifyChallenge(t.deps, { challenge, nonce, redirectUri: '', state: '' })))
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    await expect(verifyChallenge(t.deps, { challenge, nonce, redirectUri: '', state: '' })).rejects.toMatchObject({ entry: AccountErrors.captcha_invalid })
  })

  it('is solvable at 299 s and expired at 301 s', async () => {
    const first = newChallenge()
    const second = newChallenge()
    t.clock.advanceSeconds(299)
    await expect(verifyChallenge(t.deps, { challenge: first, nonce: solve(first, BITS), redirectUri: '', state: '' })).resolves.toBeTruthy()
    t.clock.advanceSeconds(2)
    await expect(verifyChallenge(t.deps, { challenge: second, nonce: solve(second, BITS), redirectUri: '', state: '' })).rejects.toMatchObject({ entry: AccountErrors.captcha_invalid })
  })

  it('refuses a tampered challenge and a captcha token posing as one', async () => {
    const challenge = newChallenge()
    const [kind, body, mac] = challenge.split('.') as [string, string, string]
    const easier = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), bits: 0 })).toString('base64url')
    const forged = `${kind}.${easier}.${mac}`
    const error = await verifyChallenge(t.deps, { challenge: forged, nonce: '0', redirectUri: '', state: '' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).entry).toBe(AccountErrors.captcha_invalid)
  })

  it('adds the result to an allowed redirect_uri, replacing look-alike parameters and keeping the rest', async () => {
    const challenge = newChallenge()
    const reply = await verifyChallenge(t.deps, { challenge, nonce: solve(challenge, BITS), redirectUri: 'http://127.0.0.1:3000/sign-in?next=%2Fdrive&captcha_token=planted', state: 'xyz' })
    const target = new URL(reply.redirect_to)
    expect(target.origin + target.pathname).toBe('http://127.0.0.1:3000/sign-in')
    expect(Object.fromEntries(target.searchParams)).toEqual({ next: '/drive', captcha_token: reply.captcha_token, expires_in: '300', state: 'xyz' })
  })

  it('never redirects to a URI the client has not registered', async () => {
    const challenge = newChallenge()
    const error = await verifyChallenge(t.deps, { challenge, nonce: solve(challenge, BITS), redirectUri: 'https://evil.example/steal', state: 'xyz' }).catch((e: unknown) => e)
    expect(error).toMatchObject({ entry: OAuthErrors.invalid_request, metadata: { field: 'redirect_uri' } })
    // Refused before the challenge is burnt: the user can still finish it without the bad redirect.
    await expect(verifyChallenge(t.deps, { challenge, nonce: solve(challenge, BITS), redirectUri: '', state: 'xyz' })).resolves.toMatchObject({ redirect_to: '' })
  })
})

describe('allowedRedirectTarget', () => {
  const publicUrl = 'http://127.0.0.1:3000'
  const client = { ...CONFIDENTIAL_CLIENT, redirectUris: ['http://127.0.0.1:9/callback', 'https://app.example', 'com.example.drive:/captcha'] }

  it.each([
    'http://127.0.0.1:9/callback',
    'http://127.0.0.1:9/callback?state=1',
    'http://127.0.0.1:9/callback/deeper',
    'https://app.example/any/where',
    'com.example.drive:/captcha?x=1',
  ])('allows %s', (uri) => {
    expect(allowedRedirectTarget(client, uri)?.toString()).toBe(new URL(uri).toString())
  })

  it.each([
    // The service's own origin is not enough: only what the client registered.
    'http://127.0.0.1:3000/',
    'http://127.0.0.1:3000/sign-in?x=1#top',
    'https://evil.example/',
    'http://127.0.0.1:3000.evil.example/',
    'http://127.0.0.1:3001/',
    'https://127.0.0.1:3000/',
    'http://127.0.0.1:9/callback-evil',
    'http://127.0.0.1:9/other',
    'https://app.example.evil.test/',
    'https://user:pass@app.example/',
    'http://127.0.0.1:3000@evil.example/',
    '//evil.example/',
    '/relative',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'com.example.drive:/other',
    'com.evil:/captcha',
    '',
  ])('refuses %s', (uri) => {
    expect(allowedRedirectTarget(client, uri)).toBeNull()
  })

  it('allows nothing for a client without redirect URIs, not even the own origin', () => {
    expect(allowedRedirectTarget(OTHER_CLIENT, 'http://127.0.0.1:9/callback')).toBeNull()
    expect(allowedRedirectTarget(OTHER_CLIENT, 'http://127.0.0.1:3000/x')).toBeNull()
  })

  // Regression (issue 11): the page sent the token to any URL on the service's own origin, even
  // for a client that never registered it. Only a registered URI, or under one, is a target.
  it('allows only targets under a registered URI, whatever an attacker writes', () => {
    fc.assert(
      fc.property(fc.oneof(hostileRedirect, hostileFragment.map((f) => `http://127.0.0.1:9/callback${f}`), hostileFragment.map((f) => `https://app.example${f}`)), (uri) => {
        const target = allowedRedirectTarget(client, uri)
        if (target === null) return
        expect(target.username + target.password).toBe('')
        const under = client.redirectUris.some((raw) => {
          const registered = new URL(raw)
          return target.origin === registered.origin && target.protocol === registered.protocol && (target.pathname === registered.pathname || target.pathname.startsWith(registered.pathname.endsWith('/') ? registered.pathname : `${registered.pathname}/`))
        })
        expect(under, `${uri} -> ${target.href}`).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })
})
