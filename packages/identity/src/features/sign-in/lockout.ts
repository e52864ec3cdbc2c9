import type { UserRecord } from '../../stores/user-store.js'

/**
 * Counter keys shared by every password check (sign-in, sudo, password change), which count
 * failures and lock out, and by captcha init, which reads them to decide when to ask for a
 * challenge.
 */
export const lockoutKeys = {
  /** Failed password checks against one account identifier (an e-mail, a phone number or a username). */
  account: (identifier: string) => `signin:account:${identifier}`,
  /** Failed password checks from one IP address. */
  ip: (ip: string) => `signin:ip:${ip}`,
  /** Failed password checks from one device id. */
  device: (deviceId: string) => `signin:device:${deviceId}`,
  /**
   * Failed password checks against one account identifier from one IP address (decision 018):
   * captcha init challenges that pair after `challengeAfterFailures`. The IP comes first,
   * URI-encoded (an IPv6 address holds colons), and the identifier last, as typed when it is
   * unparseable, so no identifier can name another IP's key.
   */
  accountAtIp: (identifier: string, ip: string) => `signin:account-ip:${encodeURIComponent(ip)}:${identifier}`,
  /**
   * Failed password checks from one IP as captcha init weighs them (decision 018): each
   * (account, IP) pair adds at most `challengeAfterFailures`, so one person hammering one account
   * does not put everyone else behind that NAT behind a challenge; a spray across accounts does.
   * The lockout (`signin:ip:…`) still counts every failure.
   */
  ipRisk: (ip: string) => `signin:ip-risk:${ip}`,
  /**
   * Password checks in flight under a failure key (`signin:account:…` or `signin:ip:…`): each
   * holds one of the limit's places until it is settled (decision 015). A prefix, not a suffix:
   * an unparseable username is used as typed, so `victim@example.com:pending` must not name
   * another account's key.
   */
  pending: (failureKey: string) => `pending:${failureKey}`,
}

/**
 * Every identifier a user can sign in with, normalised as sign-in normalises what people type.
 * All of them share one lockout: otherwise the e-mail, the phone number and the username would
 * each buy the limit's guesses.
 */
export function accountIdentifiers(user: Pick<UserRecord, 'id' | 'email' | 'phoneNumber' | 'username'>): string[] {
  const identifiers = [user.email, user.phoneNumber, user.username?.toLowerCase()].filter((value): value is string => Boolean(value))
  // An account with no identifier cannot sign in with a password, but sudo still needs a key.
  return identifiers.length > 0 ? identifiers : [`#${user.id}`]
}
