/** Product spec section 9 and identity.md constants. */

export const SDK_VERSION = '7.0.8'
export const PROTOCOL_VERSION = 301

/** Platform codes sent in the platform header. */
export const PLATFORM = Object.freeze({ PC: 0, WEB: 1, WAP: 3, MAC: 4, ANDROID: 10, LINUX: 12 } as const)
export type PlatformName = keyof typeof PLATFORM

/** Verification purposes (the `usage` field of a verification request). */
export const VERIFICATION_PURPOSES = [
  'REGISTER',
  'SIGN_IN',
  'PASSWORD_RESET',
  'EMAIL_ADDRESS_CHANGE',
  'PHONE_NUMBER_CHANGE',
  'DEFAULT',
  'EMAIL_ADDRESS_VERIFICATION',
  'REGISTER_SIGN_IN',
  'PHONE_NUMBER_VERIFICATION',
] as const
export type VerificationPurpose = (typeof VERIFICATION_PURPOSES)[number]

/** Verification targets: any address, an existing user's, or the signed-in user's own. */
export const VERIFICATION_TARGETS = ['ANY', 'USER', 'CUR_USER'] as const
export type VerificationTarget = (typeof VERIFICATION_TARGETS)[number]

export const CONTACT_TYPES = ['unknown', 'phone', 'email', 'in-app'] as const
export type ContactType = (typeof CONTACT_TYPES)[number]

export const VERIFICATION_CHANNELS = ['VERIFICATION_EMAIL', 'VERIFICATION_PHONE'] as const
export type VerificationChannel = (typeof VERIFICATION_CHANNELS)[number]

/** The scope every first-party token carries. */
export const DEFAULT_SCOPE = 'pan user offline'

/** The built-in public client of the web app. */
export const WEB_CLIENT_ID = 'cumulus-web'

/** Anonymous accounts' `sub` starts with this prefix and is longer than 5 characters. */
export const ANONYMOUS_SUB_PREFIX = 'anon_'

/** The `user_vas` value of the VIP membership entry in `vip_info`. */
export const VIP_USER_VAS = 2

export const TOKEN_REFRESH_THROTTLE_SECONDS = 120
export const CREDENTIAL_EXPIRY_MARGIN_LONG_SECONDS = 120
export const CREDENTIAL_EXPIRY_MARGIN_SHORT_SECONDS = 30
export const CREDENTIAL_EXPIRY_LONG_THRESHOLD_SECONDS = 600
export const CAPTCHA_TOKEN_MARGIN_SECONDS = 30
export const CAPTCHA_FRAME = Object.freeze({ widthPx: 320, heightPx: 430 })

export const RETRY_DEFAULT = 2
export const RETRY_MIN = 0
export const RETRY_MAX = 5
export const RETRY_ATTEMPT_CAP = 15

export const LOCALE_COOKIE = Object.freeze({ name: 'i18n_redirected', maxAgeDays: 365, path: '/', sameSite: 'lax' } as const)
export const RELOAD_GUARD_SECONDS = 10
export const RIPPLE_DURATION_MS = Object.freeze({ fast: 150, normal: 250, slow: 500 } as const)

/** Request headers of the protocol. */
export const HEADERS = Object.freeze({
  clientId: 'x-client-id',
  clientVersion: 'x-client-version',
  sdkVersion: 'x-sdk-version',
  protocolVersion: 'x-protocol-version',
  deviceId: 'x-device-id',
  deviceModel: 'x-device-model',
  deviceName: 'x-device-name',
  platformVersion: 'x-platform-version',
  requestId: 'x-request-id',
  captchaToken: 'x-captcha-token',
} as const)

/** Password rules shared by the server and the sign-up forms' pattern check. */
export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 128

/** drive.md paging: `limit` defaults to 100; a larger one than 500 is clamped, not refused. */
export const DRIVE_LIST_LIMIT_DEFAULT = 100
export const DRIVE_LIST_LIMIT_MAX = 500
/** drive.md "Search": a page of results defaults to 20 and is clamped at 100; suggestions 10 and 20. */
export const SEARCH_LIMIT_DEFAULT = 20
export const SEARCH_LIMIT_MAX = 100
export const ASSOCIATE_LIMIT_DEFAULT = 10
export const ASSOCIATE_LIMIT_MAX = 20
/** The longest search query, in characters; a longer one is invalid_argument. */
export const SEARCH_QUERY_MAX_CHARS = 256
/** The longest file or folder name, in UTF-8 bytes. */
export const DRIVE_NAME_MAX_BYTES = 255
/** Signed download links live at least this long (drive.md: `expire` at least 10 minutes ahead). */
export const DRIVE_LINK_MIN_TTL_SECONDS = 600
/** Defaults an operator may change: trash retention and the storage each plan gets. */
export const DRIVE_DEFAULTS = Object.freeze({
  trashRetentionDays: 10,
  quotaFreeBytes: 10 * 1024 ** 3,
  quotaVipBytes: 10 * 1024 ** 4,
  linkTtlSeconds: 6 * 3600,
  uploadExpirySeconds: 7 * 24 * 3600,
  offlineTasksPerDayFree: 10,
  offlineTasksPerDayVip: 1000,
  /** Offline downloads that run at once per account; more wait as PENDING until one ends. */
  offlineRunningTasksFree: 2,
  offlineRunningTasksVip: 10,
  /** Video plays a day on the free plan (members: no limit). */
  playsPerDayFree: 5,
  /** Offline downloads one server process runs at once: network-bound, so more than the cores. */
  offlineWorkers: 8,
  /** Batch operations over subtrees larger than this run as jobs (a 10,000-file copy takes about a second inline). */
  batchInlineMaxItems: 20_000,
  /** The most items (all levels) one save of a share copies: folders and empty files cost no quota, so this bounds what a save can make. */
  shareRestoreMaxItems: 100_000,
  /** The most items (all levels) one copy in the drive makes: a copy holds its rows in memory, about 2 KB an item. */
  copyMaxItems: 100_000,
  /** The most one unpacking may write (and the quota left bounds it too). */
  archiveMaxUnpackBytes: 64 * 1024 ** 3,
  /**
   * The most an archive may declare per byte it takes: text compresses 5 to 20 times, a disk
   * image of mostly zeros a few hundred; a bomb claims thousands.
   */
  archiveMaxRatio: 1000,
  /** Unpackings one server process runs at once. */
  archiveWorkers: 2,
  /** How long a link preview waits for a magnet's metadata from its swarm (a task waits longer: it runs in the background). */
  torrentPreviewSeconds: 20,
} as const)
/** The tus protocol version the upload endpoints speak. */
export const TUS_VERSION = '1.0.0'

/**
 * The scopes a client may ask for. `pan` (the drive), `user` (the account), `offline` (offline
 * downloads) are the product's; `openid`, `profile`, `email`, `phone` are OpenID Connect's.
 */
export const OAUTH_SCOPES = ['pan', 'user', 'offline', 'openid', 'profile', 'email', 'phone'] as const
export type OAuthScope = (typeof OAUTH_SCOPES)[number]

/** Device flow (RFC 8628): seconds a device code lives, and the least seconds between polls. */
export const DEVICE_CODE_TTL_SECONDS = 600
export const DEVICE_POLL_INTERVAL_SECONDS = 5
/** An authorization code lives this long (RFC 6749 4.1.2 recommends at most ten minutes). */
export const AUTHORIZATION_CODE_TTL_SECONDS = 60
/** A provider token (POST /v1/auth/provider/token) lives this long; PATCH renews it up to PROVIDER_TOKEN_MAX_AGE_SECONDS after the sign-in at the provider. */
export const PROVIDER_TOKEN_TTL_SECONDS = 600
export const PROVIDER_TOKEN_MAX_AGE_SECONDS = 3600
