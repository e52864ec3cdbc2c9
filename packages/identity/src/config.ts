/**
 * The identity service's slice of the configuration. The server parses the environment once
 * (packages/server/src/config.ts) and passes this down; nothing here reads process.env.
 */
/**
 * `first_party`: the product's own apps (the web app, the Android app); they are trusted, so the
 * user is never asked to consent. `confidential`: a third-party server app holding a secret.
 * `public`: a third-party app that cannot keep a secret (mobile, desktop, browser, TV); it must
 * use PKCE with S256 and refreshes without a secret.
 */
export type ClientType = 'first_party' | 'confidential' | 'public'

export interface RegisteredClient {
  clientId: string
  /** Absent for public clients (the web app); present for confidential ones, compared in constant time. */
  clientSecret?: string | undefined
  /** For clients registered with the CLI: the SHA-256 (hex) of the secret, which is never stored. */
  clientSecretHash?: string | undefined
  name: string
  /** Redirect URIs the client may use (captcha challenge, authorization code), matched exactly. */
  redirectUris: string[]
  /** OAuth grant types the client may use at the token endpoint. */
  grantTypes: string[]
  /** Default: first_party for configured clients, as before this field existed. */
  type?: ClientType | undefined
  /** The scopes the client may ask for; default: the product's (`pan user offline`) and OpenID Connect's. */
  scopes?: string[] | undefined
  /** An image URL the consent page shows; '' for none. */
  logo?: string | undefined
}

/** How the profile's fields are read from a plain OAuth 2 provider's user-info reply (dotted paths). */
export interface ProviderClaimMapping {
  sub: string
  name: string
  email: string
  emailVerified: string
  picture: string
}

/** An identity provider the operator configured (AUTH_PROVIDERS). */
export interface IdentityProviderConfig {
  id: string
  /** `oidc`: discovered from `issuer`, ID token checked. `oauth2`: the endpoints below, profile from user-info. */
  kind: 'oidc' | 'oauth2'
  name: string
  icon: string
  clientId: string
  clientSecret?: string | undefined
  scopes: string[]
  issuer?: string | undefined
  authorizationEndpoint?: string | undefined
  tokenEndpoint?: string | undefined
  userinfoEndpoint?: string | undefined
  claims: ProviderClaimMapping
  /** An identity nobody has yet signs up (true), or is refused with user_not_exist (false). */
  signUp: boolean
  /**
   * Audiences an ID token from a native SDK (`provider_id_token`) may carry besides `clientId`:
   * the Android app's own client id at that provider, say.
   */
  extraAudiences: string[]
  /**
   * Accept a bare access token from a native SDK (`provider_access_token`), traded at the
   * provider's user-info endpoint. Off by default: such a token does not say which app it was
   * issued to, so any other app's token of the same person would sign in here. Turn it on only
   * for a provider that issues tokens to this installation alone.
   */
  acceptAccessTokens?: boolean | undefined
}

export type CaptchaMode = 'auto' | 'always' | 'off'

export interface IdentityConfig {
  /** Absolute base URL this service is reached at (links in mail, the captcha challenge URL). */
  publicUrl: string
  /** The web app's base URL (the consent and device pages); default: publicUrl. */
  webUrl?: string | undefined
  clients: RegisteredClient[]
  /** Identity providers users may sign in with; none by default. */
  providers?: IdentityProviderConfig[] | undefined
  /** Allowed CORS origins; '*' allows any. */
  corsOrigins: string[]
  captcha: {
    mode: CaptchaMode
    tokenTtlSeconds: number
    /**
     * Sign-in failures (per account, per (account, IP) pair, or per device) after which captcha
     * init answers with a challenge; also the most one pair adds to its IP's count (decision 018).
     */
    challengeAfterFailures: number
    /**
     * The same for one IP, much higher: everyone behind a NAT or an office proxy shares it, and one
     * user's failures must not put the others behind a challenge. Each (account, IP) pair adds at
     * most `challengeAfterFailures` to it.
     */
    challengeAfterIpFailures: number
    /** Leading zero bits the proof-of-work challenge asks for at the threshold (the least work). */
    powDifficultyBits: number
    /** The most it asks for, however many failures: each failure past the threshold adds one bit. */
    powMaxDifficultyBits: number
    /** Captcha init requests per IP per minute before tokens are refused with CAPTCHA_REJECT. */
    initPerIpPerMinute: number
  }
  tokens: {
    accessTtlSeconds: number
    /** A session that is not refreshed for this long ends. */
    refreshIdleTtlSeconds: number
    /** A rotated refresh token still works this long (two tabs refreshing at once). */
    refreshReuseGraceSeconds: number
    sudoTtlSeconds: number
    /**
     * How long a node reuses the session check of an access token (stores/session-cache.ts).
     * Revocations through the service reach every node at once (Redis when configured); this
     * bounds only what bypasses it. 0: every request reads the database.
     */
    sessionCacheSeconds: number
  }
  lockout: {
    windowSeconds: number
    maxFailuresPerAccount: number
    maxFailuresPerIp: number
  }
  verification: {
    codeTtlSeconds: number
    tokenTtlSeconds: number
    maxAttempts: number
    /** At most one code per address per this many seconds (0: no throttle). */
    resendIntervalSeconds: number
    /** Send budgets (send-budgets.ts): per address per day, per client IP per hour, whole service per hour. */
    maxPerAddressPerDay: number
    maxPerIpPerHour: number
    maxGlobalPerHour: number
  }
  anonymousSignUpsPerIpPerHour: number
  /** The paid plans activation codes may grant (the membership's vas_type), with each one's level. */
  plans: Readonly<Record<string, number>>
  /** Invite codes (GET /vip/v1/activity/inviteCode): what a sign-up with one gives both accounts. */
  invites: {
    /** Days of membership for the new account and for the inviter; 0 turns rewards off. */
    rewardDays: number
    /** Rewarded sign-ups per inviter in 30 days; more still sign up, without the reward. */
    rewardsPer30Days: number
  }
  /** How long a deleted account stays in cancellation review before it is erased. */
  deletionGraceSeconds: number
  /** Product name used in mail and SMS texts. */
  productName: string
}

export const IDENTITY_DEFAULTS = {
  captcha: {
    mode: 'auto',
    tokenTtlSeconds: 300,
    challengeAfterFailures: 3,
    challengeAfterIpFailures: 20,
    powDifficultyBits: 18,
    powMaxDifficultyBits: 20,
    initPerIpPerMinute: 60,
  },
  tokens: {
    accessTtlSeconds: 7200,
    refreshIdleTtlSeconds: 60 * 60 * 24 * 90,
    refreshReuseGraceSeconds: 30,
    sudoTtlSeconds: 300,
    sessionCacheSeconds: 5,
  },
  lockout: { windowSeconds: 15 * 60, maxFailuresPerAccount: 5, maxFailuresPerIp: 50 },
  verification: {
    codeTtlSeconds: 600,
    tokenTtlSeconds: 600,
    maxAttempts: 5,
    resendIntervalSeconds: 60,
    maxPerAddressPerDay: 10,
    maxPerIpPerHour: 20,
    maxGlobalPerHour: 1000,
  },
  anonymousSignUpsPerIpPerHour: 20,
  plans: { vip: 1 },
  invites: { rewardDays: 7, rewardsPer30Days: 4 },
  deletionGraceSeconds: 60 * 60 * 24 * 15,
  productName: 'Cumulus',
} as const satisfies Omit<IdentityConfig, 'publicUrl' | 'clients' | 'corsOrigins'>
