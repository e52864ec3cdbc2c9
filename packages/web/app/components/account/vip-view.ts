import type { UserInfo } from '@cumulus/sdk'

/** What the membership card shows, derived from the SDK's user info (spec 4: the user_vas 2 entry). */
export type VipView =
  | {
      kind: 'member'
      /** Display name of the plan: `vas_type` upper-cased ('vip' -> 'VIP'). */
      typeLabel: string
      level: number
      /** When the membership ends; null when the server sent no usable date. */
      expiresAt: Date | null
      isYear: boolean
      /** The small VIP icon URL, '' when the server sent none. */
      iconUrl: string
    }
  | {
      kind: 'none'
      /**
       * When a past membership ended, or null for someone who never had one. The server reports a
       * never-member's expiry as the account's creation time, so that date is not a lapse.
       */
      endedAt: Date | null
    }

function parseDate(value: string | undefined | null): Date | null {
  if (!value) return null
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? null : date
}

/** Derives the membership card's view from the user info; `now` decides whether a past expiry counts. */
export function vipViewOf(user: Pick<UserInfo, 'isVip' | 'vipType' | 'vipLevel' | 'vipExpires' | 'isYear' | 'vipIcon' | 'curUser'>, now: Date = new Date()): VipView {
  const expires = parseDate(user.vipExpires)
  if (user.isVip) {
    const type = user.vipType && user.vipType !== 'novip' ? user.vipType : 'vip'
    return { kind: 'member', typeLabel: type.toUpperCase(), level: user.vipLevel, expiresAt: expires, isYear: user.isYear, iconUrl: user.vipIcon }
  }
  const createdAt = parseDate(user.curUser?.created_at)
  const lapsed = expires !== null && expires.getTime() <= now.getTime() && (createdAt === null || expires.getTime() > createdAt.getTime())
  return { kind: 'none', endedAt: lapsed ? expires : null }
}
