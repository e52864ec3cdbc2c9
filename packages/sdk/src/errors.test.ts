import { AccountErrors, CAPTCHA_REJECT, ERROR_INFO_TYPE, ERROR_MESSAGES, GenericErrors, LOCALES, LocalErrors, chooseErrorMessage, loadMessages } from '@cumulus/protocol'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { IdentityError, errorMessage, parseRetryAfter, wrongOptionsParam } from './errors.js'

// Error texts load lazily per locale; these tests read several, so load them first.
beforeAll(async () => {
  await Promise.all(LOCALES.map(loadMessages))
})

describe('IdentityError.fromWire', () => {
  it('carries every field of the error body and the status', () => {
    const details = [{ '@type': ERROR_INFO_TYPE, reason: CAPTCHA_REJECT, domain: 'identity', metadata: {} }] as const
    const error = IdentityError.fromWire(
      { error: 'captcha_invalid', error_code: 4002, error_description: 'bad token', error_uri: 'https://x', details },
      400,
    )
    expect(error).toBeInstanceOf(IdentityError)
    expect(error).toBeInstanceOf(Error)
    expect({ ...error.toJSON(), status: error.status }).toEqual({
      error: 'captcha_invalid',
      error_code: 4002,
      error_description: 'bad token',
      error_uri: 'https://x',
      details,
      status: 400,
    })
    expect(error.errorCode).toBe(AccountErrors.captcha_invalid.code)
    expect(error.detailReason).toBe(CAPTCHA_REJECT)
    expect(error.message).toBe('bad token')
  })

  it('falls back on the status for a body that is not an error body', () => {
    expect(IdentityError.fromWire('<html>', 502)).toMatchObject({ error: 'unavailable', errorCode: 14, status: 502 })
    expect(IdentityError.fromWire(null, 401)).toMatchObject({ error: 'unauthenticated', errorCode: 16 })
    expect(IdentityError.fromWire({}, 418)).toMatchObject({ error: 'unknown', errorCode: 2 })
  })

  it('fills a missing code from the reason and a missing reason from the code', () => {
    expect(IdentityError.fromWire({ error: 'invalid_grant' }, 400).errorCode).toBe(4126)
    expect(IdentityError.fromWire({ error_code: 4022 }, 400).error).toBe('invalid_account_or_password')
  })

  it('never throws, whatever the body', () => {
    fc.assert(
      fc.property(fc.anything(), fc.integer({ min: 100, max: 599 }), (body, status) => {
        const error = IdentityError.fromWire(body, status)
        expect(typeof error.error).toBe('string')
        expect(typeof error.errorCode).toBe('number')
        expect(Array.isArray(error.details)).toBe(true)
      }),
    )
  })
})

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-27T12:00:00Z')

  it('reads delay-seconds and an HTTP-date as seconds from now', () => {
    expect(parseRetryAfter('42', now)).toBe(42)
    expect(parseRetryAfter(' 0 ', now)).toBe(0)
    expect(parseRetryAfter('Fri, 27 Nov 2026 12:01:30 GMT', now)).toBe(90)
    // A date already past: no wait.
    expect(parseRetryAfter('Fri, 27 Nov 2026 11:00:00 GMT', now)).toBe(0)
    expect(IdentityError.fromWire({ error: 'resource_exhausted' }, 429, '17', now).retryAfterSeconds).toBe(17)
  })

  it('takes no header, and anything that is neither form, as no wait at all', () => {
    for (const value of [null, undefined, '', '-5', '1.5', '1e3', 'soon', '2026-11-27T12:01:30Z', 'Friday', '0x10']) {
      expect(parseRetryAfter(value, now)).toBeUndefined()
    }
    expect(IdentityError.fromWire({ error: 'resource_exhausted' }, 429, null, now).retryAfterSeconds).toBeUndefined()
  })

  it('never asks for more than a day, whatever the server says', () => {
    expect(parseRetryAfter('99999999999999999999', now)).toBe(86_400)
    expect(parseRetryAfter('Fri, 27 Nov 2099 12:00:00 GMT', now)).toBe(86_400)
  })

  it('is a whole number of seconds in [0, one day] or undefined, for any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.nat().map(String), fc.date({ noInvalidDate: true }).map((d) => d.toUTCString())), (value) => {
        const seconds = parseRetryAfter(value, now)
        if (seconds !== undefined) {
          expect(Number.isInteger(seconds)).toBe(true)
          expect(seconds).toBeGreaterThanOrEqual(0)
          expect(seconds).toBeLessThanOrEqual(86_400)
        }
      }),
    )
  })
})

describe('errorMessage', () => {
  it('follows the protocol choice order for IdentityErrors', () => {
    const unreachable = IdentityError.of(LocalErrors.unreachable, 'down')
    expect(errorMessage(unreachable, 'en-US')).toBe(ERROR_MESSAGES['en-US'].network_unreachable)
    const reject = IdentityError.fromWire(
      { error: 'captcha_invalid', error_code: 4002, details: [{ '@type': ERROR_INFO_TYPE, reason: CAPTCHA_REJECT }] },
      400,
    )
    expect(errorMessage(reject, 'en-US')).toBe(ERROR_MESSAGES['en-US'].captcha_reject)
    const generic = IdentityError.of(GenericErrors.not_found, 'no file')
    expect(errorMessage(generic, 'ko')).toBe(chooseErrorMessage(generic.toJSON(), 'ko'))
  })

  it('reads wire bodies and non-errors too', () => {
    expect(errorMessage({ error: 'x', error_code: 4022 }, 'en-US')).toBe(ERROR_MESSAGES['en-US'].invalid_account_or_password)
    expect(errorMessage(new Error('boom'), 'en-US')).toBe(`${ERROR_MESSAGES['en-US'].default} [unknown]`)
    expect(errorMessage(undefined, 'fr')).toBe(`${ERROR_MESSAGES['zh-CN'].default} [unknown]`)
  })
})

it('wrongOptionsParam names the option in the message', () => {
  expect(wrongOptionsParam('retry').message).toBe('wrong options param: retry')
})
