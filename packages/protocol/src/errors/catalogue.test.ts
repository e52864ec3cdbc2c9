import { describe, expect, it } from 'vitest'
import {
  AccountErrors,
  DriveErrors,
  Errors,
  GenericErrors,
  HttpErrors,
  LocalErrors,
  OAuthErrors,
  allErrors,
  findErrorByCode,
  findErrorByReason,
} from './catalogue.js'

const all = allErrors()

describe('error catalogue', () => {
  it('holds every group, and nothing else', () => {
    const groups = [GenericErrors, LocalErrors, AccountErrors, OAuthErrors, DriveErrors, HttpErrors]
    const total = groups.reduce((n, g) => n + Object.keys(g).length, 0)
    expect(all).toHaveLength(total)
    expect(Object.keys(Errors)).toHaveLength(total)
  })

  it('has unique reasons', () => {
    const reasons = all.map((e) => e.reason)
    expect(new Set(reasons).size).toBe(reasons.length)
  })

  it('has unique codes outside the drive and HTTP groups, whose codes repeat generic ones (drive.md)', () => {
    const driveReasons = new Set([...Object.keys(DriveErrors), ...Object.keys(HttpErrors)])
    const codes = all.filter((e) => !driveReasons.has(e.reason)).map((e) => e.code)
    expect(new Set(codes).size).toBe(codes.length)
  })

  it('finds the generic entry for a code a drive reason shares', () => {
    expect(findErrorByCode(5)?.reason).toBe('not_found')
    expect(findErrorByCode(8)?.reason).toBe('resource_exhausted')
    expect(findErrorByReason('file_space_not_enough')).toMatchObject({ code: 8, status: 403 })
  })

  it('keys every entry by its own reason', () => {
    for (const [key, entry] of Object.entries(Errors)) expect(entry.reason).toBe(key)
  })

  it('gives every server error a 4xx or 5xx status', () => {
    for (const entry of all) {
      if (entry.code >= 8000 && entry.code <= 8003) continue
      expect(entry.status, entry.reason).toBeGreaterThanOrEqual(400)
      expect(entry.status, entry.reason).toBeLessThan(600)
    }
  })

  it('gives the local errors 8000-8003 status 0', () => {
    expect(Object.values(LocalErrors).map((e) => [e.reason, e.code, e.status])).toEqual([
      ['unreachable', 8000, 0],
      ['local', 8001, 0],
      ['local_timeout', 8002, 0],
      ['local_invalid_response', 8003, 0],
    ])
    for (const entry of all) if (entry.status === 0) expect(entry.code).toBeGreaterThanOrEqual(8000)
  })

  it('is frozen', () => {
    expect(Object.isFrozen(Errors)).toBe(true)
    expect(Object.isFrozen(Errors.captcha_invalid)).toBe(true)
  })

  it('finds entries by code and by reason', () => {
    for (const entry of all) {
      if (!Object.hasOwn(DriveErrors, entry.reason) && !Object.hasOwn(HttpErrors, entry.reason)) expect(findErrorByCode(entry.code)).toBe(entry)
      expect(findErrorByReason(entry.reason)).toBe(entry)
    }
    expect(findErrorByCode(0)).toBeNull()
    expect(findErrorByCode(17)).toBeNull()
    expect(findErrorByCode(99999)).toBeNull()
    expect(findErrorByReason('nope')).toBeNull()
    expect(findErrorByReason('toString')).toBeNull()
    expect(findErrorByReason('')).toBeNull()
  })
})

describe('generic codes (RPC mapping)', () => {
  const expected: Record<string, [code: number, status: number]> = {
    cancelled: [1, 499],
    unknown: [2, 500],
    invalid_argument: [3, 400],
    deadline_exceeded: [4, 504],
    not_found: [5, 404],
    already_exists: [6, 409],
    permission_denied: [7, 403],
    resource_exhausted: [8, 429],
    failed_precondition: [9, 400],
    aborted: [10, 409],
    out_of_range: [11, 400],
    unimplemented: [12, 501],
    internal: [13, 500],
    unavailable: [14, 503],
    data_loss: [15, 500],
    unauthenticated: [16, 401],
  }

  it('covers exactly codes 1 to 16', () => {
    expect(Object.values(GenericErrors).map((e) => e.code)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1))
    expect(Object.keys(GenericErrors).sort()).toEqual(Object.keys(expected).sort())
  })

  it.each(Object.entries(expected))('%s is %j', (reason, [code, status]) => {
    const entry = findErrorByReason(reason)
    expect(entry).toMatchObject({ reason, code, status })
    expect(findErrorByCode(code)?.reason).toBe(reason)
  })
})

describe('account codes', () => {
  const expected: Record<string, number> = {
    captcha_required: 4001,
    captcha_invalid: 4002,
    invalid_password: 4010,
    invalid_status: 4011,
    user_pending: 4012,
    user_blocked: 4013,
    invalid_verification_code: 4014,
    two_factor_required: 4015,
    invalid_two_factor: 4016,
    invalid_two_factor_recovery: 4017,
    under_review: 4018,
    provider_error: 4019,
    validate_required: 4020,
    password_reset_required: 4021,
    invalid_account_or_password: 4022,
    user_not_exist: 4023,
    expired_verification_code: 4024,
    account_freeze: 50,
    cannot_unlock: 38,
  }
  const forbidden = new Set(['invalid_status', 'user_blocked', 'account_freeze', 'cannot_unlock'])

  it('has exactly the spec entries', () => {
    expect(Object.keys(AccountErrors).sort()).toEqual(Object.keys(expected).sort())
  })

  it.each(Object.entries(expected))('%s is %i', (reason, code) => {
    const status = forbidden.has(reason) ? 403 : 400
    expect(findErrorByReason(reason)).toMatchObject({ reason, code, status })
    expect(findErrorByCode(code)?.reason).toBe(reason)
  })
})

describe('OAuth codes', () => {
  const expected: Record<string, number> = {
    invalid_request: 4121,
    unauthorized_client: 4122,
    access_denied: 4123,
    unsupported_response_type: 4124,
    invalid_scope: 4125,
    invalid_grant: 4126,
    interaction_required: 4031,
    login_required: 4032,
    account_selection_required: 4033,
    consent_required: 4034,
    invalid_request_uri: 4035,
    invalid_request_object: 4036,
    request_not_supported: 4037,
    request_uri_not_supported: 4038,
    registration_not_supported: 4039,
    authorization_pending: 4050,
    slow_down: 4051,
    expired_token: 4052,
    server_error: 5026,
    temporarily_unavailable: 5027,
  }
  const statusOf: Record<string, number> = {
    unauthorized_client: 401,
    access_denied: 403,
    server_error: 500,
    temporarily_unavailable: 503,
  }

  it('has exactly the spec entries', () => {
    expect(Object.keys(OAuthErrors).sort()).toEqual(Object.keys(expected).sort())
  })

  it('fills the numbered ranges 4121-4126, 4031-4039 and 4050-4052 without gaps', () => {
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)
    for (const code of [...range(4121, 4126), ...range(4031, 4039), ...range(4050, 4052), 5026, 5027]) {
      expect(findErrorByCode(code), String(code)).not.toBeNull()
      expect(Object.values(OAuthErrors)).toContain(findErrorByCode(code))
    }
  })

  it.each(Object.entries(expected))('%s is %i', (reason, code) => {
    const status = statusOf[reason] ?? 400
    expect(findErrorByReason(reason)).toMatchObject({ reason, code, status })
    expect(findErrorByCode(code)?.reason).toBe(reason)
  })
})

describe('tus and HTTP entries (issue 11: every error in the catalogue shape, with the status clients act on)', () => {
  it.each([
    ['upload_offset_conflict', 10, 409],
    ['upload_expired', 5, 410],
    ['upload_size_exceeded', 11, 413],
    ['upload_protocol_unsupported', 9, 412],
    ['upload_content_type_invalid', 3, 415],
    ['upload_header_required', 3, 403],
    ['upload_checksum_mismatch', 3, 460],
    ['request_header_too_large', 3, 431],
    ['request_timeout', 4, 408],
    ['range_not_satisfiable', 11, 416],
    ['request_body_too_large', 3, 413],
    ['unsupported_media_type', 3, 415],
  ] as const)('%s is %i with HTTP %i', (reason, code, status) => {
    expect(findErrorByReason(reason)).toEqual({ reason, code, status })
  })
})
