/** @cumulus/sdk: the isomorphic identity and drive clients (browsers and Node 20+). */
export {
  IdentityClient,
  type ContactInput,
  type AuthorizeParams,
  type PendingProviderSignIn,
  type ProviderRedirectResult,
  type RequestOptions,
  type ResetPasswordInput,
  type SendVerificationInput,
  type SendVerificationResult,
  type SignUpInput,
  type VerifyResult,
} from './identity-client.js'
export { IdentityError, type IdentityErrorInit, errorMessage, isIdentityError } from './errors.js'
export type { CaptchaChallenge, CaptchaResult, Environment, IdentityClientOptions, LockManagerLike } from './options.js'
export { defaultStorage, type KeyValueStorage, MemoryStorage } from './storage.js'
export { type Credentials, computeExpiresAt, isExpired } from './credentials.js'
export { type CaptchaTokenInfo, captchaAction, isCaptchaExpired, withCaptchaRedirect } from './captcha.js'
export { ReentrantLock } from './lock.js'
export { type UserInfo, findVipEntry } from './user-info.js'
export { type UsernameKind, classifyUsername, isAnonymousSub } from './username.js'
export type { AnalyticsEvent, AnalyticsEventName } from './analytics.js'
export type { AndroidHostBridge } from './android.js'
// The drive client lives in its own modules: an app that imports only IdentityClient does not bundle it.
export {
  DEFAULT_CHUNK_SIZE,
  DEFAULT_RETRY_DELAYS_MS,
  DriveClient,
  type CreateOfflineTaskInput,
  type CreateShareInput,
  type OpenShareInput,
  type RestoreShareInput,
  type DriveClientOptions,
  type ListFilesInput,
  type SearchInput,
  type ListOfflineTasksInput,
  type ListTasksInput,
  type PreviewSource,
  type SavePlaybackInput,
  type TaskResult,
} from './drive/drive-client.js'
export { type OfflineQuotas, type QuotaCount, offlineQuotasOf } from './drive/offline-quotas.js'
export type { UploadHandle, UploadInput, UploadState } from './drive/upload.js'
export type { UploadProgress } from './drive/progress.js'
export { type StoredUpload, UPLOAD_KEY_PREFIX } from './drive/upload-records.js'
export type { XhrLike } from './drive/tus.js'
/** Loads one locale's error texts; `errorMessage` reads en-US for a locale not loaded yet. */
export { loadMessages } from '@cumulus/protocol'
