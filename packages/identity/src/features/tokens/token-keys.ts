import { type JsonWebKey, type KeyObject, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, verify } from 'node:crypto'

export const ACCESS_TOKEN_ALG = 'ES256'

/** A JSON Web Key as stored in the data directory or given in JWT_PRIVATE_KEY. */
export type JWK = JsonWebKey & { kid?: string; alg?: string; use?: string }

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
  /** The verified claims, or null for a token that is malformed, forged, of another issuer, or expired at `nowMs`. */
  verify(token: string, nowMs: number): Promise<AccessTokenClaims | null>
  jwks(): { keys: JWK[] }
  /**
   * Signs an OpenID Connect ID token; `iss` is added. With an RSA key, RS256 (the algorithm OpenID
   * Connect requires every provider to offer and clients assume); else ES256 with the access-token
   * key. Never accepted by `verify`.
   */
  signIdToken(claims: Record<string, unknown>): Promise<string>
  /** The algorithm ID tokens are signed with (discovery's id_token_signing_alg_values_supported). */
  readonly idTokenAlg: 'RS256' | 'ES256'
}

/** A fresh RS256 private key as a JWK (with a random `kid`), for ID tokens. */
export async function generateIdTokenJwk(): Promise<JWK> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { ...privateKey.export({ format: 'jwk' }), alg: 'RS256', use: 'sig', kid: `r${randomBytes(9).toString('base64url')}` }
}

/** A fresh ES256 private key as a JWK (with a random `kid`), for the server to keep in its data directory. */
export async function generateSigningJwk(): Promise<JWK> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  return { ...privateKey.export({ format: 'jwk' }), alg: ACCESS_TOKEN_ALG, use: 'sig', kid: `k${randomBytes(9).toString('base64url')}` }
}

/** Verified tokens are remembered (claims only) so a client reusing its token for two hours costs one ECDSA check. */
const VERIFIED_CACHE_SIZE = 10_000
const MAX_TOKEN_LENGTH = 4096
const ES256_SIGNATURE_BYTES = 64

const b64json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/**
 * Signs on libuv's pool (crypto.sign with a callback): the main thread pays ~10 µs to queue the
 * job instead of ~25-50 µs for the ECDSA itself, and a refresh is bound by the main thread.
 * Argon2 no longer shares that pool (it has worker threads of its own, decision 027), so signs
 * do not wait behind hashes.
 */
function signAsync(data: string, key: KeyObject | { key: KeyObject; dsaEncoding: 'ieee-p1363' }): Promise<string> {
  return new Promise((resolve, reject) => {
    sign('sha256', Buffer.from(data), key, (err, signature) => (err ? reject(err) : resolve(`${data}.${signature.toString('base64url')}`)))
  })
}

/**
 * ES256 JWTs on node:crypto (decision 006). Verifying runs synchronously on the main thread
 * (~120 µs, once per token: verified tokens are cached); jose's WebCrypto path queued it on the
 * libuv pool, where it waited behind argon2 hashes for hundreds of milliseconds during sign-in
 * bursts, before those moved to their own workers.
 */
export async function createTokenKeys(privateJwk: JWK, issuer: string, options: { idTokenJwk?: JWK | undefined } = {}): Promise<TokenKeys> {
  if (!privateJwk.d || privateJwk.kty !== 'EC' || privateJwk.crv !== 'P-256') throw new Error('the signing key must be a private EC P-256 JWK')
  const kid = privateJwk.kid ?? 'default'
  const { kid: _kid, alg: _alg, use: _use, ...keyMaterial } = privateJwk
  const privateKey: KeyObject = createPrivateKey({ key: keyMaterial, format: 'jwk' })
  const publicKey: KeyObject = createPublicKey(privateKey)
  const published: JWK = { ...publicKey.export({ format: 'jwk' }), alg: ACCESS_TOKEN_ALG, use: 'sig', kid }
  const encodedHeader = b64json({ alg: ACCESS_TOKEN_ALG, kid, typ: 'JWT' })
  const verified = new Map<string, AccessTokenClaims>()
  const rsa = options.idTokenJwk ? rsaKeyOf(options.idTokenJwk) : null

  function check(token: string, nowSeconds: number): AccessTokenClaims | null {
    if (token.length > MAX_TOKEN_LENGTH) return null
    const [header, payload, signature, extra] = token.split('.')
    if (!header || !payload || !signature || extra !== undefined) return null
    if (header !== encodedHeader) {
      // Another encoding of the same header is still valid JWT; anything else is not ours.
      const parsed = parseJson(header)
      if (!parsed || parsed['alg'] !== ACCESS_TOKEN_ALG || (parsed['kid'] !== undefined && parsed['kid'] !== kid) || parsed['crit'] !== undefined) return null
    }
    const sig = Buffer.from(signature, 'base64url')
    if (sig.length !== ES256_SIGNATURE_BYTES) return null
    if (!verify('sha256', Buffer.from(`${header}.${payload}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, sig)) return null
    const claims = parseJson(payload)
    if (!claims) return null
    const { sub, client_id, scope, sid, jti, iat, exp, iss } = claims
    if (iss !== issuer || typeof sub !== 'string' || typeof sid !== 'string' || typeof client_id !== 'string' || typeof iat !== 'number' || typeof exp !== 'number') return null
    if (exp <= nowSeconds) return null
    return { sub, sid, client_id, scope: typeof scope === 'string' ? scope : '', jti: typeof jti === 'string' ? jti : '', iat, exp }
  }

  return {
    async sign(claims) {
      const body = b64json({ sub: claims.sub, client_id: claims.client_id, scope: claims.scope, sid: claims.sid, jti: claims.jti, iss: issuer, iat: claims.iat, exp: claims.exp })
      return signAsync(`${encodedHeader}.${body}`, { key: privateKey, dsaEncoding: 'ieee-p1363' })
    },
    async verify(token, nowMs) {
      const nowSeconds = Math.floor(nowMs / 1000)
      const cached = verified.get(token)
      if (cached) return cached.exp > nowSeconds ? cached : null
      const claims = check(token, nowSeconds)
      if (claims) {
        // Map keeps insertion order: dropping the first key evicts the oldest entry.
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!)
        verified.set(token, claims)
      }
      return claims
    },
    jwks: () => ({ keys: rsa ? [published, rsa.published] : [published] }),
    idTokenAlg: rsa ? 'RS256' : ACCESS_TOKEN_ALG,
    async signIdToken(claims) {
      // ID tokens carry no `sid`/`client_id` pair (and RS256 ones another alg and kid), so `check`
      // refuses them as access tokens.
      const body = b64json({ ...claims, iss: issuer })
      if (rsa) {
        return signAsync(`${b64json({ alg: 'RS256', kid: rsa.kid, typ: 'JWT' })}.${body}`, rsa.privateKey)
      }
      return signAsync(`${b64json({ alg: ACCESS_TOKEN_ALG, kid, typ: 'JWT' })}.${body}`, { key: privateKey, dsaEncoding: 'ieee-p1363' })
    },
  }
}

function rsaKeyOf(jwk: JWK) {
  if (!jwk.d || jwk.kty !== 'RSA') throw new Error('the ID-token key must be a private RSA JWK')
  const kid = jwk.kid ?? 'id-token'
  const { kid: _kid, alg: _alg, use: _use, ...keyMaterial } = jwk
  const privateKey = createPrivateKey({ key: keyMaterial, format: 'jwk' })
  if ((privateKey.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw new Error('the ID-token key must be RSA of 2048 bits or more')
  const published: JWK = { ...createPublicKey(privateKey).export({ format: 'jwk' }), alg: 'RS256', use: 'sig', kid }
  return { privateKey, published, kid }
}

function parseJson(segment: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'))
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}
