/**
 * Counter keys shared by sign-in (which counts failures and locks out) and captcha init
 * (which reads them to decide when to ask for a challenge).
 */
export const lockoutKeys = {
  /** Sign-in attempts against one account identifier (reserved before the hash, released on success). */
  account: (identifier: string) => `signin:account:${identifier}`,
  /** Failed sign-ins from one IP address. */
  ip: (ip: string) => `signin:ip:${ip}`,
  /** Failed sign-ins from one device id. */
  device: (deviceId: string) => `signin:device:${deviceId}`,
}
