/** @cumulus/sdk: the isomorphic identity client (browsers and Node 20+). */
export {
  IdentityClient,
  type ContactInput,
  type PendingProviderSignIn,
  type RequestOptions,
  type ResetPasswordInput,
  type SendVerificationInput,
  type SendVerificationResult,
  type SignUpInput,
  type VerifyResult,
} from './identity-client.js'
export { IdentityError, type IdentityErrorInit, errorMessage, isIdentityError } from './errors.js'
export type { CaptchaChallenge, CaptchaResult, Environment, IdentityClientOptions, LockManagerLike } from './options.js'
export { type KeyValueStorage, MemoryStorage } from './storage.js'
export { type Credentials, computeExpiresAt, isExpired } from './credentials.js'
export { type CaptchaTokenInfo, captchaAction, isCaptchaExpired, withCaptchaRedirect } from './captcha.js'
export { ReentrantLock } from './lock.js'
export { type UserInfo, findVipEntry } from './user-info.js'
export { type UsernameKind, classifyUsername, isAnonymousSub } from './username.js'
export type { AnalyticsEvent, AnalyticsEventName } from './analytics.js'
export type { AndroidHostBridge } from './android.js'
/** Loads one locale's error texts; `errorMessage` reads en-US for a locale not loaded yet. */
export { loadMessages } from '@cumulus/protocol'
