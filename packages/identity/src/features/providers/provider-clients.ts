import { AccountErrors, AppError, GenericErrors, type ProviderInfo, type ProviderProfile } from '@cumulus/protocol'
import { createRemoteJWKSet, jwtVerify } from 'jose'
import * as oidc from 'openid-client'
import type { Logger } from 'pino'
import type { IdentityProviderConfig, ProviderClaimMapping } from '../../config.js'

/** Seconds a request to a provider may take before the sign-in fails with provider_error. */
const PROVIDER_TIMEOUT_SECONDS = 10
/** A provider's discovered metadata is reused this long; a failed discovery is not remembered. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000

/** What a provider said about the person who signed in there. */
export interface ProviderIdentity {
  profile: ProviderProfile
}

function isLoopback(url: string | undefined): boolean {
  if (!url) return false
  try {
    const { hostname } = new URL(url)
    return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]'
  } catch {
    return false
  }
}

/** Reads a dotted path (`data.user.id`) of a JSON reply. */
function claimAt(source: unknown, path: string): unknown {
  let value: unknown = source
  for (const key of path.split('.')) {
    if (!value || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}

const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : '')

const ADDRESS = /^[^\s@\u0000-\u001f\u007f]+@[^\s@\u0000-\u001f\u007f]+$/

/** The profile a provider's claims give, by the configured mapping. No subject: the provider answered nonsense. */
export function profileOf(claims: unknown, mapping: ProviderClaimMapping): ProviderProfile {
  const sub = text(claimAt(claims, mapping.sub))
  // Control characters (NUL above all, which PostgreSQL text cannot hold) are no part of a subject.
  if (sub === '' || sub.length > 255 || /[\u0000-\u001f\u007f]/.test(sub)) throw providerError('the provider gave no usable subject for the user')
  const verified = claimAt(claims, mapping.emailVerified)
  const picture = text(claimAt(claims, mapping.picture))
  const email = text(claimAt(claims, mapping.email)).trim()
  return {
    sub,
    // Control characters out: the name is shown in pages and mail.
    name: text(claimAt(claims, mapping.name)).replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 256),
    // Only something shaped like an address, without controls, is an e-mail.
    email: ADDRESS.test(email) && email.length <= 254 ? email.toLowerCase() : '',
    // Only a real `true` (or the string some providers send) counts: anything else is unverified.
    email_verified: verified === true || verified === 'true',
    // Only an http(s) URL becomes a picture: it ends up in an <img src>.
    picture: /^https?:\/\/[^\s\u0000-\u001f\u007f]+$/i.test(picture) && picture.length <= 2048 ? picture : '',
  }
}

export function providerError(description: string, cause?: unknown): AppError {
  return new AppError(AccountErrors.provider_error, { description, ...(cause === undefined ? {} : { cause }) })
}

/** Why a call to the provider failed, for the reply's description (never the provider's secrets). */
function describe(error: unknown): string {
  if (error instanceof oidc.ResponseBodyError) return `the provider refused: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`
  if (error instanceof oidc.AuthorizationResponseError) return `the provider refused: ${error.error}`
  const e = error as { code?: string; message?: string; cause?: { code?: string } }
  if (e?.cause?.code) return `the provider could not be reached (${e.cause.code})`
  if (e?.code) return `the provider's reply failed a check (${e.code})`
  return 'the provider could not be reached'
}

/**
 * The configured identity providers, each talking through openid-client (discovery, PKCE,
 * state, nonce and ID-token checks are the library's, not ours). Plain OAuth 2 providers
 * (GitHub) are described by their endpoints; their profile comes from the user-info reply
 * through the configured claim mapping.
 */
export class ProviderClients {
  private readonly byId: Map<string, IdentityProviderConfig>
  private readonly configs = new Map<string, { config: Promise<oidc.Configuration>; until: number }>()
  private readonly jwks = new Map<string, ReturnType<typeof createRemoteJWKSet>>()

  constructor(
    providers: readonly IdentityProviderConfig[],
    private readonly logger: Pick<Logger, 'warn'>,
  ) {
    this.byId = new Map(providers.map((p) => [p.id, p]))
  }

  list(): ProviderInfo[] {
    return [...this.byId.values()].map((p) => ({ id: p.id, name: p.name, icon: p.icon }))
  }

  has(id: string): boolean {
    return this.byId.has(id)
  }

  /** The provider's configuration; an unknown id is invalid_argument naming `provider_id`. */
  get(id: string): IdentityProviderConfig {
    const provider = this.byId.get(id)
    if (!provider) throw new AppError(GenericErrors.invalid_argument, { description: `no identity provider "${id.slice(0, 64)}" is configured`, metadata: { field: 'provider_id' } })
    return provider
  }

  /** The display name of a configured provider, or its id when it was removed from the configuration since. */
  nameOf(id: string): string {
    return this.byId.get(id)?.name ?? id
  }

  private async configuration(provider: IdentityProviderConfig): Promise<oidc.Configuration> {
    const cached = this.configs.get(provider.id)
    if (cached && cached.until > Date.now()) return cached.config
    const auth = provider.clientSecret ? oidc.ClientSecretPost(provider.clientSecret) : oidc.None()
    const insecure = isLoopback(provider.issuer ?? provider.authorizationEndpoint)
    const made =
      provider.kind === 'oidc'
        ? oidc.discovery(new URL(provider.issuer!), provider.clientId, undefined, auth, { timeout: PROVIDER_TIMEOUT_SECONDS, ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}) })
        : Promise.resolve().then(() => {
            const config = new oidc.Configuration(
              {
                issuer: provider.issuer ?? new URL(provider.authorizationEndpoint!).origin,
                authorization_endpoint: provider.authorizationEndpoint!,
                token_endpoint: provider.tokenEndpoint!,
                ...(provider.userinfoEndpoint ? { userinfo_endpoint: provider.userinfoEndpoint } : {}),
              },
              provider.clientId,
              undefined,
              auth,
            )
            config.timeout = PROVIDER_TIMEOUT_SECONDS
            if (insecure) oidc.allowInsecureRequests(config)
            return config
          })
    const entry = { config: made, until: Date.now() + DISCOVERY_TTL_MS }
    this.configs.set(provider.id, entry)
    try {
      return await made
    } catch (error) {
      if (this.configs.get(provider.id) === entry) this.configs.delete(provider.id)
      this.logger.warn({ provider: provider.id, err: error }, 'identity provider discovery failed')
      throw providerError(`the identity provider ${provider.id} is unavailable: ${describe(error)}`, error)
    }
  }

  /** The provider's authorize URL for a sign-in with PKCE (S256), `state` and, for OpenID Connect, `nonce`. */
  async authorizationUrl(id: string, input: { redirectUri: string; state: string; codeVerifier: string; nonce: string; scope?: string | undefined }): Promise<string> {
    const provider = this.get(id)
    const config = await this.configuration(provider)
    const parameters: Record<string, string> = {
      redirect_uri: input.redirectUri,
      scope: input.scope ?? provider.scopes.join(' '),
      state: input.state,
      code_challenge: await oidc.calculatePKCECodeChallenge(input.codeVerifier),
      code_challenge_method: 'S256',
      response_type: 'code',
    }
    if (provider.kind === 'oidc') parameters['nonce'] = input.nonce
    return oidc.buildAuthorizationUrl(config, parameters).href
  }

  /** Exchanges the code the provider sent back, checks what the library checks, and reads the profile. */
  async exchangeCode(id: string, input: { redirectUri: string; code: string; state: string; codeVerifier: string; nonce: string; iss?: string | undefined }): Promise<ProviderIdentity> {
    const provider = this.get(id)
    const config = await this.configuration(provider)
    const back = new URL(input.redirectUri)
    back.search = ''
    back.searchParams.set('code', input.code)
    back.searchParams.set('state', input.state)
    if (input.iss) back.searchParams.set('iss', input.iss)
    try {
      const tokens = await oidc.authorizationCodeGrant(config, back, {
        pkceCodeVerifier: input.codeVerifier,
        expectedState: input.state,
        ...(provider.kind === 'oidc' ? { expectedNonce: input.nonce, idTokenExpected: true } : {}),
      })
      if (provider.kind === 'oidc') {
        const claims = tokens.claims()!
        return { profile: await this.withUserInfo(provider, config, tokens.access_token, claims) }
      }
      return { profile: await this.oauth2Profile(provider, config, tokens.access_token) }
    } catch (error) {
      if (error instanceof AppError) throw error
      throw providerError(describe(error), error)
    }
  }

  /**
   * A native SDK's proof (Google Sign-In on Android, Sign in with Apple): an ID token, checked
   * against the provider's keys, issuer, audience and expiry by jose; or an access token, whose
   * owner the provider's user-info endpoint names.
   */
  async verifyNativeToken(id: string, input: { idToken?: string | undefined; accessToken?: string | undefined }): Promise<ProviderIdentity> {
    const provider = this.get(id)
    const config = await this.configuration(provider)
    try {
      if (input.idToken) {
        if (provider.kind !== 'oidc') throw new AppError(GenericErrors.invalid_argument, { description: `provider ${id} does not issue ID tokens`, metadata: { field: 'provider_id_token' } })
        const metadata = config.serverMetadata()
        if (!metadata.jwks_uri) throw providerError(`provider ${id} publishes no keys`)
        let keys = this.jwks.get(id)
        if (!keys) {
          keys = createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: PROVIDER_TIMEOUT_SECONDS * 1000 })
          this.jwks.set(id, keys)
        }
        const { payload } = await jwtVerify(input.idToken, keys, { issuer: metadata.issuer, audience: [provider.clientId, ...provider.extraAudiences] })
        return { profile: profileOf(payload, provider.claims) }
      }
      if (provider.kind === 'oidc') {
        const info = await oidc.fetchUserInfo(config, input.accessToken!, oidc.skipSubjectCheck)
        return { profile: profileOf(info, provider.claims) }
      }
      return { profile: await this.oauth2Profile(provider, config, input.accessToken!) }
    } catch (error) {
      if (error instanceof AppError) throw error
      const code = (error as { code?: string }).code
      // jose's verdicts on the token itself: the caller sent a bad token, not a provider failure.
      if (typeof code === 'string' && code.startsWith('ERR_J')) throw providerError(`the provider's ID token was refused (${code})`, error)
      throw providerError(describe(error), error)
    }
  }

  private async withUserInfo(provider: IdentityProviderConfig, config: oidc.Configuration, accessToken: string, claims: oidc.IDToken): Promise<ProviderProfile> {
    const fromToken = profileOf(claims, provider.claims)
    // Many providers keep name, e-mail and picture out of the ID token; the user-info reply has them.
    if (config.serverMetadata().userinfo_endpoint && (!fromToken.email || !fromToken.name)) {
      try {
        const info = await oidc.fetchUserInfo(config, accessToken, claims.sub)
        const more = profileOf({ ...info, sub: claims.sub }, provider.claims)
        return {
          sub: fromToken.sub,
          name: fromToken.name || more.name,
          email: fromToken.email || more.email,
          email_verified: fromToken.email ? fromToken.email_verified : more.email_verified,
          picture: fromToken.picture || more.picture,
        }
      } catch (error) {
        this.logger.warn({ provider: provider.id, err: error }, 'identity provider user-info failed; using the ID token alone')
      }
    }
    return fromToken
  }

  private async oauth2Profile(provider: IdentityProviderConfig, config: oidc.Configuration, accessToken: string): Promise<ProviderProfile> {
    const url = provider.userinfoEndpoint ?? config.serverMetadata().userinfo_endpoint
    if (!url) throw providerError(`provider ${provider.id} has no user-info endpoint`)
    const response = await oidc.fetchProtectedResource(config, accessToken, new URL(url), 'GET', undefined, new Headers({ accept: 'application/json' }))
    if (!response.ok) throw providerError(`the provider's user-info endpoint answered ${response.status}`)
    return profileOf(await response.json(), provider.claims)
  }
}
