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
}

export interface IntrospectReply {
  active: boolean
  sub?: string
  client_id?: string
  scope?: string
  exp?: number
  iat?: number
  token_type?: string
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
