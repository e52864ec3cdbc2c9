import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { type AccessTokenClaims, type TokenKeys, createTokenKeys, generateSigningJwk } from './token-keys.js'

const NOW_MS = Date.UTC(2026, 10, 22)
const claims: AccessTokenClaims = { sub: 'u1', client_id: 'cumulus-web', scope: 'pan user offline', sid: 's1', jti: 'j1', iat: NOW_MS / 1000, exp: NOW_MS / 1000 + 7200 }
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

describe('ES256 token keys', () => {
  let keys: TokenKeys
  let token: string
  let jwk: Awaited<ReturnType<typeof generateSigningJwk>>
  beforeAll(async () => {
    jwk = await generateSigningJwk()
    keys = await createTokenKeys(jwk, 'https://drive.example')
    token = await keys.sign(claims)
  })

  it('round-trips the claims and publishes only the public key', async () => {
    expect(await keys.verify(token, NOW_MS)).toEqual(claims)
    const [published] = keys.jwks().keys
    expect(published).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' })
    expect(published).not.toHaveProperty('d')
  })

  it('refuses a changed payload, a foreign key, another issuer, alg none and crit headers', async () => {
    const [header, , signature] = token.split('.')
    expect(await keys.verify(`${header}.${b64({ ...claims, sub: 'admin', iss: 'https://drive.example' })}.${signature}`, NOW_MS)).toBeNull()
    const other = await createTokenKeys(await generateSigningJwk(), 'https://drive.example')
    expect(await keys.verify(await other.sign(claims), NOW_MS)).toBeNull()
    // Same key, other issuer: only the iss check can refuse it.
    const otherIssuer = await createTokenKeys(jwk, 'https://evil.example')
    expect(await otherIssuer.verify(token, NOW_MS)).toBeNull()
    expect(await keys.verify(`${b64({ alg: 'none' })}.${token.split('.')[1]}.`, NOW_MS)).toBeNull()
    expect(await keys.verify(`${b64({ alg: 'ES256', crit: ['x'] })}.${token.split('.')[1]}.${signature}`, NOW_MS)).toBeNull()
  })

  it('never throws on garbage, and accepts nothing but real tokens', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.string().map((s) => `${s}.${s}.${s}`), fc.base64String()), async (garbage) => {
        expect(await keys.verify(garbage, NOW_MS)).toBeNull()
      }),
      { numRuns: 300 },
    )
  })
})
