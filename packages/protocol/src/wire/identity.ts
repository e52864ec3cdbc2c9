import type { VerificationChannel, VerificationPurpose, VerificationTarget } from '../constants.js'

/** identity.md wire shapes. Fields are snake_case, as on the wire. */

export interface CaptchaInitRequest {
  client_id?: string
  action: string
  device_id?: string
  captcha_token?: string
  redirect_uri?: string
  meta?: Record<string, unknown>
}

export type CaptchaInitReply =
  | { captcha_token: string; expires_in: number; url?: undefined }
  | { url: string; expires_in: number; captcha_token?: undefined }

export interface VerificationRequest {
  email?: string
  phone_number?: string
  target?: VerificationTarget
  usage?: VerificationPurpose
  client_id?: string
  locale?: string
}

export interface VerificationReply {
  verification_id: string
  expires_in: number
  selected_channel: VerificationChannel
  is_user: boolean
}

export interface VerifyRequest {
  verification_id: string
  verification_code: string
  client_id?: string
}

export interface VerifyReply {
  verification_token: string
  expires_in: number
}

export interface SignUpRequest {
  email?: string
  phone_number?: string
  verification_code?: string
  verification_token: string
  password?: string
  name?: string
  client_id?: string
  client_secret?: string
}

export interface SignInRequest {
  client_id?: string
  client_secret?: string
  username: string
  password?: string
  verification_code?: string
  verification_token?: string
  captcha_token?: string
}

export interface TokenReply {
  token_type: 'Bearer'
  access_token: string
  refresh_token: string
  expires_in: number
  sub: string
  scope: string
  /** With the `openid` scope (authorization-code and device grants): an OpenID Connect ID token. */
  id_token?: string
}

export interface IntrospectReply {
  active: boolean
  sub?: string
  client_id?: string
  scope?: string
  exp?: number
  iat?: number
  token_type?: string
  iss?: string
  aud?: string
}

export interface VipInfo {
  user_vas: number
  is_vip: 0 | 1
  is_year: 0 | 1
  expire: string
  vas_type: string
  level: number
  vip_icon: { large: string; small: string }
}

export interface UserProfile {
  sub: string
  name: string
  email: string
  phone_number: string
  picture: string
  providers: { id: string; provider_user_id: string; name: string }[]
  password: 'SET' | ''
  status: 'ACTIVE'
  created_at: string
  password_updated_at: string
  vip_info: VipInfo[]
}

export interface PublicProfile {
  sub: string
  name: string
  picture: string
}

export interface SudoReply {
  sudo_token: string
  expires_in: number
}

// ---- provider sign-in, consent and device flow (identity.md "Provider sign-in, consent and device flow") ----

/** One identity provider the operator configured, as the login page shows it (GET /v1/auth/providers). */
export interface ProviderInfo {
  id: string
  name: string
  /** An image URL, or '' for the product's generic icon. */
  icon: string
}

export interface ProvidersReply {
  providers: ProviderInfo[]
}

export interface ProviderUriReply {
  uri: string
  /** The `state` the provider will send back: the caller's own, or one the server made when none was given. */
  state: string
}

export interface ProviderProfile {
  sub: string
  name: string
  email: string
  email_verified: boolean
  picture: string
}

export interface ProviderTokenReply {
  provider_token: string
  expires_in: number
  provider_profile: ProviderProfile
}

/** One provider identity bound to the account (`providers` of /v1/user/me, GET /v1/user/provider). */
export interface ProviderBinding {
  id: string
  provider_user_id: string
  name: string
}

export interface ProviderBindingsReply {
  data: ProviderBinding[]
}

/** What a scope lets a client do, in the caller's language. */
export interface ScopeDescription {
  id: string
  description: string
}

export interface OAuthClientInfo {
  client_id: string
  name: string
  logo: string
}

export interface AuthorizeInfoReply {
  client: OAuthClientInfo
  scopes: ScopeDescription[]
  redirect_uri: string
}

export interface AuthorizeDetectReply {
  authorized: boolean
}

export interface AuthorizeReply {
  code: string
  state: string
  redirect_uri: string
}

export interface DeviceCodeReply {
  device_code: string
  user_code: string
  verification_uri: string
  verification_uri_complete: string
  expires_in: number
  interval: number
}

/** GET /v1/user/device/info: what the device behind a user code asks for, before the user agrees. */
export interface DeviceInfoReply {
  user_code: string
  client: OAuthClientInfo
  scopes: ScopeDescription[]
  expires_in: number
}

/** OpenID Connect UserInfo (GET /v1/auth/userinfo): the claims the token's scopes allow. */
export interface UserInfoClaims {
  sub: string
  name?: string
  picture?: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
}

/** GET /v1/user/authorize/clients: an app the user let in (the account page's connected apps). */
export interface ConnectedApp {
  client: OAuthClientInfo
  scopes: ScopeDescription[]
  /** RFC 3339: the last time the user granted it something. */
  granted_at: string
}

export interface ConnectedAppsReply {
  data: ConnectedApp[]
}

/** What a signed-in session runs on, as the sign-in told it (headers), for people to recognise it. */
export interface SessionDevice {
  /** `x-device-name` (else `x-device-model`) as the client sent it; '' when it sent none. */
  name: string
  /** From the User-Agent: the browser or app ('Chrome'), its OS ('Android 14'); '' when unknown. */
  browser: string
  os: string
  /** 'desktop' | 'mobile' | 'tablet' | 'tv' | '' (unknown). */
  type: string
}

/** GET /v1/user/sessions: a live session of the signed-in user (the account page's devices list). */
export interface UserSession {
  id: string
  client: OAuthClientInfo
  device: SessionDevice
  /** The address the session signed in from. */
  ip: string
  /** RFC 3339: when it signed in, and when it last renewed its tokens (its last activity, to the hour). */
  created_at: string
  last_active_at: string
  /** The session the request came from. */
  current: boolean
}

export interface UserSessionsReply {
  data: UserSession[]
}
