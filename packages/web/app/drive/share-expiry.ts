import type { DriveShare } from '@cumulus/protocol'

const SECONDS_PER_MINUTE = 60
const SECONDS_PER_HOUR = 3_600
const SECONDS_PER_DAY = 86_400

/** How long a share has left, as its owner's list says it. */
export type ShareExpiry = { kind: 'never' } | { kind: 'expired' } | { kind: 'left'; value: number; unit: 'day' | 'hour' | 'minute' }

/**
 * From the server's `expiration_left_seconds` ("-1" never, "0" once expired) and status: whole
 * days while a day or more is left, then hours, then minutes, each rounded up (a week minus a
 * second is still "7 days"; the last seconds are "1 minute").
 */
export function shareExpiry(share: Pick<DriveShare, 'expiration_at' | 'expiration_left_seconds' | 'share_status'>): ShareExpiry {
  if (share.share_status === 'EXPIRED') return { kind: 'expired' }
  const left = Number(share.expiration_left_seconds)
  if (share.expiration_at === null || left < 0) return { kind: 'never' }
  if (!Number.isFinite(left) || left === 0) return { kind: 'expired' }
  if (left >= SECONDS_PER_DAY) return { kind: 'left', value: Math.ceil(left / SECONDS_PER_DAY), unit: 'day' }
  if (left >= SECONDS_PER_HOUR) return { kind: 'left', value: Math.ceil(left / SECONDS_PER_HOUR), unit: 'hour' }
  return { kind: 'left', value: Math.max(1, Math.ceil(left / SECONDS_PER_MINUTE)), unit: 'minute' }
}

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>()

/** `in 7 days` (en-US), `7일 후` (ko), `7天后` (zh-CN): the time left in the locale's own words. */
export function formatTimeLeft(expiry: Extract<ShareExpiry, { kind: 'left' }>, locale: string): string {
  let format = relativeFormats.get(locale)
  if (!format) relativeFormats.set(locale, (format = new Intl.RelativeTimeFormat(locale, { numeric: 'always' })))
  return format.format(expiry.value, expiry.unit)
}
