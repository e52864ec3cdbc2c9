import { AccountErrors, CAPTCHA_REJECT, ERROR_INFO_TYPE, ERROR_MESSAGES, GenericErrors, LOCALES, LocalErrors, chooseErrorMessage, loadMessages } from '@cumulus/protocol'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { IdentityError, errorMessage, wrongOptionsParam } from './errors.js'

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
