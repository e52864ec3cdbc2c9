import { type UserProfile, VIP_USER_VAS, type VipInfo } from '@cumulus/protocol'
import type { Credentials } from './credentials.js'

/** Spec 3: the client-side user info object. Unknown fields are empty strings or false. */
export interface UserInfo {
  /** The session id (`sid` claim of the access token), '' when unknown. */
  sessionId: string
  avatar: string
  nickname: string
  /** E-mail, else phone number, else name: what the user signs in with. */
  username: string
  /** No user number exists in this protocol; the sub is used. */
  userNo: string
  userId: string
  deviceId: string
  phoneNumber: string
  email: string
  isLogin: boolean
  isVip: boolean
  /** `vas_type` of the VIP entry ('novip', 'vip', ...), '' without one. */
  vipType: string
  vipLevel: number
  /** The small VIP icon URL. */
  vipIcon: string
  /** RFC 3339 expiry of the VIP entry, '' without one. */
  vipExpires: string
  isYear: boolean
  /** The profile as the server sent it, null when not loaded. */
  curUser: UserProfile | null
}

/** Spec 4: the `vip_info` entry with `user_vas` 2, or null. */
export function findVipEntry(vipInfo: readonly VipInfo[] | null | undefined): VipInfo | null {
  if (!Array.isArray(vipInfo)) return null
  return vipInfo.find((entry) => entry?.user_vas === VIP_USER_VAS) ?? null
}

/** Reads the `sid` claim of a JWT access token without verifying it; '' when absent. */
export function sessionIdOf(accessToken: string | undefined): string {
  const payload = accessToken?.split('.')[1]
  if (!payload) return ''
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=')
    const claims: unknown = JSON.parse(atob(base64))
    const sid = (claims as { sid?: unknown } | null)?.sid
    return typeof sid === 'string' ? sid : ''
  } catch {
    return ''
  }
}

export interface UserInfoSource {
  credentials: Credentials | null
  profile: UserProfile | null
  deviceId: string
  /** Whether the credentials are usable (signed in); false clears the user fields. */
  isLogin: boolean
}

/** Builds the user info from what the client knows; everything empty when signed out. */
export function buildUserInfo({ credentials, profile, deviceId, isLogin }: UserInfoSource): UserInfo {
  const user = isLogin ? profile : null
  const vip = findVipEntry(user?.vip_info)
  const sub = isLogin ? (credentials?.sub ?? user?.sub ?? '') : ''
  return {
    sessionId: isLogin ? sessionIdOf(credentials?.access_token) : '',
    avatar: user?.picture ?? '',
    nickname: user?.name ?? '',
    username: user ? user.email || user.phone_number || user.name || '' : '',
    userNo: sub,
    userId: sub,
    deviceId,
    phoneNumber: user?.phone_number ?? '',
    email: user?.email ?? '',
    isLogin,
    isVip: vip !== null && Number(vip.is_vip) !== 0,
    vipType: vip?.vas_type ?? '',
    vipLevel: typeof vip?.level === 'number' ? vip.level : 0,
    vipIcon: vip?.vip_icon?.small ?? '',
    vipExpires: vip?.expire ?? '',
    isYear: vip !== null && Number(vip.is_year) === 1,
    curUser: user,
  }
}

/** User info from the Android host's JSON, over the defaults of a signed-out user. */
export function userInfoFromHost(host: Record<string, unknown> | null, deviceId: string): UserInfo {
  const base = buildUserInfo({ credentials: null, profile: null, deviceId, isLogin: false })
  if (!host) return base
  const pick = <K extends keyof UserInfo>(key: K): UserInfo[K] => {
    const value = host[key]
    return (typeof value === typeof base[key] ? value : base[key]) as UserInfo[K]
  }
  const merged = { ...base }
  for (const key of Object.keys(base) as (keyof UserInfo)[]) {
    if (key === 'curUser') continue
    ;(merged as Record<string, unknown>)[key] = pick(key)
  }
  if (merged.deviceId === '') merged.deviceId = deviceId
  return merged
}
