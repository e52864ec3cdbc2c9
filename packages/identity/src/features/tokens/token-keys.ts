import { randomBytes } from 'node:crypto'
import { type CryptoKey, type JWK, type JWTPayload, SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify } from 'jose'

export const ACCESS_TOKEN_ALG = 'ES256'

export interface AccessTokenClaims {
  sub: string
  client_id: string
  scope: string
  sid: string
  jti: string
  iat: number
  exp: number
}

/** Signs and verifies access tokens; publishes the public half as a JWKS. */
export interface TokenKeys {
  sign(claims: AccessTokenClaims): Promise<string>
  /** The verified claims, or null for a token that is malformed, forged or expired at `nowMs`. */
  verify(token: string, nowMs: number): Promise<AccessTokenClaims | null>
  jwks(): { keys: JWK[] }
}

/** A fresh ES256 private key as a JWK (with `kid`), for the server to keep in its data directory. */
export async function generateSigningJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(ACCESS_TOKEN_ALG, { extractable: true })
  const jwk = await exportJWK(privateKey)
  return { ...jwk, alg: ACCESS_TOKEN_ALG, use: 'sig', kid: `k${randomBytes(9).toString('base64url')}` }
}

export async function createTokenKeys(privateJwk: JWK, issuer: string): Promise<TokenKeys> {
  if (!privateJwk.d || privateJwk.kty !== 'EC') throw new Error('the signing key must be a private EC (P-256) JWK')
  const kid = privateJwk.kid ?? 'default'
  const privateKey = (await importJWK({ ...privateJwk, alg: ACCESS_TOKEN_ALG }, ACCESS_TOKEN_ALG)) as CryptoKey
  const { d: _private, ...publicJwk } = privateJwk
  const publicKey = (await importJWK({ ...publicJwk, alg: ACCESS_TOKEN_ALG }, ACCESS_TOKEN_ALG)) as CryptoKey
  const published: JWK = { kty: publicJwk.kty, crv: publicJwk.crv, x: publicJwk.x, y: publicJwk.y, alg: ACCESS_TOKEN_ALG, use: 'sig', kid }

  return {
    sign(claims) {
      const { iat, exp, ...rest } = claims
      return new SignJWT(rest as JWTPayload).setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid, typ: 'JWT' }).setIssuer(issuer).setIssuedAt(iat).setExpirationTime(exp).sign(privateKey)
    },
    async verify(token, nowMs) {
      try {
        const { payload } = await jwtVerify(token, publicKey, { algorithms: [ACCESS_TOKEN_ALG], issuer, currentDate: new Date(nowMs) })
        const { sub, client_id, scope, sid, jti, iat, exp } = payload as Record<string, unknown>
        if (typeof sub !== 'string' || typeof sid !== 'string' || typeof client_id !== 'string' || typeof iat !== 'number' || typeof exp !== 'number') return null
        return { sub, sid, client_id, scope: typeof scope === 'string' ? scope : '', jti: typeof jti === 'string' ? jti : '', iat, exp }
      } catch {
        return null
      }
    },
    jwks: () => ({ keys: [published] }),
  }
}
