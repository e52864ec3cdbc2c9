/**
 * The error catalogue (product spec section 8, identity.md "Error body").
 * Codes are API: never rename or renumber an entry, only add.
 */
export interface ErrorEntry {
  /** The wire `error` string. */
  readonly reason: string
  /** The wire `error_code` number. */
  readonly code: number
  /** HTTP status of a reply carrying this error; 0 for errors that only exist on the client. */
  readonly status: number
}

function defineErrors<const T extends Record<string, { code: number; status: number }>>(
  table: T,
): { readonly [K in keyof T & string]: ErrorEntry & { readonly reason: K; readonly code: T[K]['code'] } } {
  const out: Record<string, ErrorEntry> = {}
  for (const [reason, { code, status }] of Object.entries(table)) out[reason] = Object.freeze({ reason, code, status })
  return Object.freeze(out) as never
}

/** Generic codes with the usual RPC-to-HTTP mapping. */
export const GenericErrors = defineErrors({
  cancelled: { code: 1, status: 499 },
  unknown: { code: 2, status: 500 },
  invalid_argument: { code: 3, status: 400 },
  deadline_exceeded: { code: 4, status: 504 },
  not_found: { code: 5, status: 404 },
  already_exists: { code: 6, status: 409 },
  permission_denied: { code: 7, status: 403 },
  resource_exhausted: { code: 8, status: 429 },
  failed_precondition: { code: 9, status: 400 },
  aborted: { code: 10, status: 409 },
  out_of_range: { code: 11, status: 400 },
  unimplemented: { code: 12, status: 501 },
  internal: { code: 13, status: 500 },
  unavailable: { code: 14, status: 503 },
  data_loss: { code: 15, status: 500 },
  unauthenticated: { code: 16, status: 401 },
})

/** Errors raised inside a client, never sent by a server (status 0). */
export const LocalErrors = defineErrors({
  unreachable: { code: 8000, status: 0 },
  local: { code: 8001, status: 0 },
  local_timeout: { code: 8002, status: 0 },
  local_invalid_response: { code: 8003, status: 0 },
})

/** Account and sign-in codes: 400, except the lock and freeze states, which are 403. */
export const AccountErrors = defineErrors({
  captcha_required: { code: 4001, status: 400 },
  captcha_invalid: { code: 4002, status: 400 },
  invalid_password: { code: 4010, status: 400 },
  invalid_status: { code: 4011, status: 403 },
  user_pending: { code: 4012, status: 400 },
  user_blocked: { code: 4013, status: 403 },
  invalid_verification_code: { code: 4014, status: 400 },
  two_factor_required: { code: 4015, status: 400 },
  invalid_two_factor: { code: 4016, status: 400 },
  invalid_two_factor_recovery: { code: 4017, status: 400 },
  under_review: { code: 4018, status: 400 },
  provider_error: { code: 4019, status: 400 },
  validate_required: { code: 4020, status: 400 },
  password_reset_required: { code: 4021, status: 400 },
  invalid_account_or_password: { code: 4022, status: 400 },
  user_not_exist: { code: 4023, status: 400 },
  expired_verification_code: { code: 4024, status: 400 },
  account_freeze: { code: 50, status: 403 },
  cannot_unlock: { code: 38, status: 403 },
})

/** OAuth 2.0 / OIDC codes: 400, except unauthorized_client 401, access_denied 403, 5026 500, 5027 503. */
export const OAuthErrors = defineErrors({
  invalid_request: { code: 4121, status: 400 },
  unauthorized_client: { code: 4122, status: 401 },
  access_denied: { code: 4123, status: 403 },
  unsupported_response_type: { code: 4124, status: 400 },
  invalid_scope: { code: 4125, status: 400 },
  invalid_grant: { code: 4126, status: 400 },
  interaction_required: { code: 4031, status: 400 },
  login_required: { code: 4032, status: 400 },
  account_selection_required: { code: 4033, status: 400 },
  consent_required: { code: 4034, status: 400 },
  invalid_request_uri: { code: 4035, status: 400 },
  invalid_request_object: { code: 4036, status: 400 },
  request_not_supported: { code: 4037, status: 400 },
  request_uri_not_supported: { code: 4038, status: 400 },
  registration_not_supported: { code: 4039, status: 400 },
  authorization_pending: { code: 4050, status: 400 },
  slow_down: { code: 4051, status: 400 },
  expired_token: { code: 4052, status: 400 },
  server_error: { code: 5026, status: 500 },
  temporarily_unavailable: { code: 5027, status: 503 },
})

/**
 * Drive codes (drive.md). The commercial service reuses generic numbers for several of them
 * (5 not found, 8 space, 9 move into itself, 11 daily limit); the reason tells them apart.
 */
export const DriveErrors = defineErrors({
  file_name_empty: { code: 3, status: 400 },
  file_name_invalid: { code: 3, status: 400 },
  file_name_too_long: { code: 3, status: 400 },
  file_duplicated_name: { code: 6, status: 409 },
  file_not_found: { code: 5, status: 404 },
  file_parent_not_folder: { code: 9, status: 400 },
  file_space_not_enough: { code: 8, status: 403 },
  file_move_or_copy_to_cur: { code: 9, status: 400 },
  file_upload_incomplete: { code: 9, status: 409 },
  task_not_found: { code: 5, status: 404 },
  task_daily_create_limit_vip: { code: 11, status: 400 },
  file_link_invalid: { code: 7, status: 403 },
  // Offline downloads: refusals at creation, and the reasons a task's run failed (params.error).
  offline_url_refused: { code: 3, status: 400 },
  offline_source_unsupported: { code: 3, status: 400 },
  offline_source_failed: { code: 9, status: 502 },
  offline_source_too_large: { code: 8, status: 403 },
  offline_torrent_unavailable: { code: 9, status: 503 },
  offline_torrent_no_metadata: { code: 9, status: 504 },
  // Membership (drive.md "Membership"): an activation code that does not exist or has expired,
  // and one already redeemed.
  activation_code_invalid: { code: 3, status: 400 },
  activation_code_used: { code: 6, status: 409 },
  // Playback (drive.md "Media and playback"): today's plays of the plan are used up.
  play_limit_reached: { code: 8, status: 403 },
  // Downloads: today's download traffic of the owner's plan is used up.
  download_limit_reached: { code: 8, status: 403 },
  // Shares (drive.md "Shares"): saving one's own share, and a pass code the owner chose that is not 4-16 letters or digits.
  file_restore_own: { code: 9, status: 400 },
  share_pass_code_invalid: { code: 3, status: 400 },
  // A save of more items than one save may copy (SHARE_RESTORE_MAX_ITEMS): choose fewer.
  share_restore_too_large: { code: 11, status: 400 },
  // tus 1.0 replies (issue 11): the statuses tus clients act on, in the catalogue's shape.
  upload_offset_conflict: { code: 10, status: 409 },
  upload_expired: { code: 5, status: 410 },
  upload_size_exceeded: { code: 11, status: 413 },
  upload_protocol_unsupported: { code: 9, status: 412 },
  upload_content_type_invalid: { code: 3, status: 415 },
  upload_header_required: { code: 3, status: 403 },
  upload_checksum_mismatch: { code: 3, status: 460 },
})

/**
 * Errors of HTTP itself, raised before or beside any service's logic (a request Node's parser
 * refuses, a byte range past the end). Like the drive's, their numbers repeat generic ones; the
 * reason and status tell them apart.
 */
export const HttpErrors = defineErrors({
  request_header_too_large: { code: 3, status: 431 },
  request_timeout: { code: 4, status: 408 },
  range_not_satisfiable: { code: 11, status: 416 },
  // Bodies Fastify refuses before any route runs (issue 11: these were invalid_argument 400).
  // Code 3, as before, so a client that keyed on the number sees no change; the status is HTTP's.
  request_body_too_large: { code: 3, status: 413 },
  unsupported_media_type: { code: 3, status: 415 },
})

/** Every catalogue entry, keyed by reason. */
export const Errors = Object.freeze({ ...GenericErrors, ...LocalErrors, ...AccountErrors, ...OAuthErrors, ...DriveErrors, ...HttpErrors })
export type ErrorReason = keyof typeof Errors

// Drive and HTTP reasons share numbers with generic ones; a bare code names the generic (first) entry.
const byCode = new Map<number, ErrorEntry>()
for (const e of Object.values(Errors)) if (!byCode.has(e.code)) byCode.set(e.code, e)
const byReason = new Map<string, ErrorEntry>(Object.values(Errors).map((e) => [e.reason, e]))

export function findErrorByCode(code: number): ErrorEntry | null {
  return byCode.get(code) ?? null
}

export function findErrorByReason(reason: string): ErrorEntry | null {
  return byReason.get(reason) ?? null
}

/** Every entry, for catalogue checks and documentation. */
export function allErrors(): readonly ErrorEntry[] {
  return [...byReason.values()]
}
