import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { LOCALES, type Locale } from '../locales.js'
import { ERROR_MESSAGES } from '../messages/index.js'
import { CAPTCHA_REJECT, ERROR_INFO_TYPE, LOCALIZED_MESSAGE_TYPE } from '../wire/error.js'
import { type ErrorReason, Errors, allErrors } from './catalogue.js'
import { loadMessages, loadedMessages } from '../messages/registry.js'
import { type ErrorLike, chooseErrorMessage } from './message-choice.js'
import { messageForReason } from './server-messages.js'

// Clients load message tables lazily; these tests read every locale, so load them all first.
beforeAll(async () => {
  await Promise.all(LOCALES.map(loadMessages))
})

const en = ERROR_MESSAGES['en-US']
const zhCN = ERROR_MESSAGES['zh-CN']

const info = (reason: string) => ({ '@type': ERROR_INFO_TYPE, reason, domain: 'identity', metadata: {} }) as const
const localized = (locale: string, message: string) => ({ '@type': LOCALIZED_MESSAGE_TYPE, locale, message }) as const

describe('chooseErrorMessage: 1. a localized message in details', () => {
  it('wins over everything else', () => {
    const error: ErrorLike = {
      error: 'captcha_invalid',
      error_code: 8000,
      details: [info(CAPTCHA_REJECT), localized('en-US', 'From the server')],
    }
    expect(chooseErrorMessage(error, 'en-US')).toBe('From the server')
  })

  it('prefers the detail in the requested locale', () => {
    const error: ErrorLike = {
      error: 'invalid_grant',
      error_code: 4126,
      details: [localized('en-US', 'English'), localized('ko', '한국어'), localized('zh-TW', '繁體')],
    }
    expect(chooseErrorMessage(error, 'ko')).toBe('한국어')
    expect(chooseErrorMessage(error, 'ko-KR')).toBe('한국어')
    expect(chooseErrorMessage(error, 'zh-HK')).toBe('繁體')
    expect(chooseErrorMessage(error, 'en-US')).toBe('English')
  })

  it('matches the detail locale loosely', () => {
    const error: ErrorLike = { details: [localized('en-US', 'English'), localized('zh_Hant_TW', '繁體')] }
    expect(chooseErrorMessage(error, 'zh-TW')).toBe('繁體')
  })

  it('takes the first localized detail when none is in the requested locale', () => {
    const error: ErrorLike = {
      error: 'invalid_grant',
      error_code: 4126,
      details: [info('X'), localized('en-US', 'English'), localized('ko', '한국어')],
    }
    expect(chooseErrorMessage(error, 'ms')).toBe('English')
    expect(chooseErrorMessage(error, 'id')).toBe('English')
  })

  it('for an unknown locale prefers a zh-CN detail, else the first', () => {
    const error: ErrorLike = { details: [localized('en-US', 'English'), localized('zh-CN', '简体')] }
    expect(chooseErrorMessage(error, 'fr')).toBe('简体')
    expect(chooseErrorMessage({ details: [localized('en-US', 'English')] }, 'fr')).toBe('English')
  })

  it('skips localized details without a usable message', () => {
    const error = {
      error: 'invalid_password',
      error_code: 4010,
      details: [{ '@type': LOCALIZED_MESSAGE_TYPE, locale: 'en-US', message: '' }, { '@type': LOCALIZED_MESSAGE_TYPE, locale: 'en-US' }],
    } as ErrorLike
    expect(chooseErrorMessage(error, 'en-US')).toBe(en.invalid_password)
  })

  it('does not take a message from a detail of another type', () => {
    const error = { error: 'invalid_password', error_code: 4010, details: [{ ...info('X'), message: 'nope' }] } as unknown as ErrorLike
    expect(chooseErrorMessage(error, 'en-US')).toBe(en.invalid_password)
  })
})

describe('chooseErrorMessage: 2. network unreachable', () => {
  it('code 8000 gives the network text', () => {
    expect(chooseErrorMessage({ error: 'unreachable', error_code: 8000 }, 'en-US')).toBe(en.network_unreachable)
    expect(chooseErrorMessage({ error_code: 8000 }, 'en-US')).toBe(en.network_unreachable)
    expect(chooseErrorMessage({ error: 'unreachable' }, 'en-US')).toBe(en.network_unreachable)
  })

  it('comes before the captcha rejection', () => {
    const error: ErrorLike = { error: 'captcha_invalid', error_code: 8000, details: [info(CAPTCHA_REJECT)] }
    expect(chooseErrorMessage(error, 'en-US')).toBe(en.network_unreachable)
  })
})

describe('chooseErrorMessage: 3. captcha rejection', () => {
  it('captcha_invalid whose first detail is CAPTCHA_REJECT gives the rejection text', () => {
    const error: ErrorLike = { error: 'captcha_invalid', error_code: 4002, details: [info(CAPTCHA_REJECT), info('OTHER')] }
    expect(chooseErrorMessage(error, 'en-US')).toBe(en.captcha_reject)
    expect(chooseErrorMessage(error, 'zh-CN')).toBe('你的操作过于频繁，请稍后再试')
  })

  it('recognises captcha_invalid by its code alone', () => {
    expect(chooseErrorMessage({ error_code: 4002, details: [info(CAPTCHA_REJECT)] }, 'en-US')).toBe(en.captcha_reject)
  })

  it('not when CAPTCHA_REJECT is only in the second detail', () => {
    const error: ErrorLike = { error: 'captcha_invalid', error_code: 4002, details: [info('OTHER'), info(CAPTCHA_REJECT)] }
    expect(chooseErrorMessage(error, 'en-US')).toBe(en.captcha_invalid)
  })

  it('not for another error with a CAPTCHA_REJECT detail', () => {
    const error: ErrorLike = { error: 'captcha_required', error_code: 4001, details: [info(CAPTCHA_REJECT)] }
    expect(chooseErrorMessage(error, 'en-US')).toBe(en.captcha_required)
  })

  it('not without details', () => {
    expect(chooseErrorMessage({ error: 'captcha_invalid', error_code: 4002 }, 'en-US')).toBe(en.captcha_invalid)
    expect(chooseErrorMessage({ error: 'captcha_invalid', error_code: 4002, details: [] }, 'en-US')).toBe(en.captcha_invalid)
  })
})

describe('chooseErrorMessage: 4. text by code (17 and above)', () => {
  const specific = allErrors().filter((e) => e.code >= 17 && e.code !== 8000) as { reason: ErrorReason; code: number }[]

  it.each(specific.map((e) => [e.reason, e.code] as const))('%s (%i) gives its own text', (reason, code) => {
    for (const locale of LOCALES) {
      const table = ERROR_MESSAGES[locale]
      expect(chooseErrorMessage({ error: reason, error_code: code }, locale)).toBe(table[reason])
    }
  })

  it('reads the code, not the error string', () => {
    expect(chooseErrorMessage({ error: 'something_else', error_code: 4022 }, 'en-US')).toBe(en.invalid_account_or_password)
  })

  it('includes the low-numbered account codes 38 and 50', () => {
    expect(chooseErrorMessage({ error_code: 38 }, 'en-US')).toBe(en.cannot_unlock)
    expect(chooseErrorMessage({ error_code: 50 }, 'en-US')).toBe(en.account_freeze)
  })
})

describe('chooseErrorMessage: 5. default', () => {
  it.each(Object.values(Errors).filter((e) => e.code < 17).map((e) => [e.reason, e.code] as const))(
    'generic %s (%i) gives the default with error and description',
    (reason, code) => {
      expect(chooseErrorMessage({ error: reason, error_code: code, error_description: 'details here' }, 'en-US')).toBe(
        `${en.default} [${reason}: details here]`,
      )
    },
  )

  it('leaves out an empty description', () => {
    expect(chooseErrorMessage({ error: 'not_found', error_code: 5, error_description: '' }, 'en-US')).toBe(`${en.default} [not_found]`)
    expect(chooseErrorMessage({ error: 'not_found', error_code: 5 }, 'en-US')).toBe(`${en.default} [not_found]`)
  })

  it('unknown codes give the default', () => {
    expect(chooseErrorMessage({ error: 'brand_new', error_code: 4999, error_description: 'new' }, 'en-US')).toBe(`${en.default} [brand_new: new]`)
    expect(chooseErrorMessage({ error: 'odd', error_code: 17 }, 'en-US')).toBe(`${en.default} [odd]`)
    expect(chooseErrorMessage({ error: 'negative', error_code: -1 }, 'en-US')).toBe(`${en.default} [negative]`)
  })

  it('names the error unknown when the reply has no error string', () => {
    expect(chooseErrorMessage({}, 'en-US')).toBe(`${en.default} [unknown]`)
    expect(chooseErrorMessage({ error: '', error_description: 'boom' }, 'en-US')).toBe(`${en.default} [unknown: boom]`)
  })

  it('only puts strings into the brackets', () => {
    const broken = { error: { toString: 'not a function' }, error_code: '4022', error_description: Object.create(null) } as unknown as ErrorLike
    expect(chooseErrorMessage(broken, 'en-US')).toBe(`${en.default} [unknown]`)
  })

  it('is in the requested locale', () => {
    expect(chooseErrorMessage({ error: 'internal', error_code: 13 }, 'ko')).toBe(`${ERROR_MESSAGES.ko.default} [internal]`)
  })
})

describe('chooseErrorMessage: locales', () => {
  const error: ErrorLike = { error: 'expired_verification_code', error_code: 4024 }

  it('unknown or missing locales read zh-CN', () => {
    for (const locale of ['fr', 'de-DE', 'xx', '', '*', undefined, null]) {
      expect(chooseErrorMessage(error, locale), String(locale)).toBe(zhCN.expired_verification_code)
    }
    expect(chooseErrorMessage(error)).toBe('验证码已过期')
    expect(chooseErrorMessage({ error_code: 8000 }, 'fr')).toBe(zhCN.network_unreachable)
    expect(chooseErrorMessage({ error: 'internal', error_code: 13 }, 'fr')).toBe(`${zhCN.default} [internal]`)
  })

  it('every locale gives its own text', () => {
    const texts = LOCALES.map((locale) => chooseErrorMessage(error, locale))
    expect(new Set(texts).size).toBe(LOCALES.length)
    for (const locale of LOCALES) expect(chooseErrorMessage(error, locale)).toBe(ERROR_MESSAGES[locale].expired_verification_code)
  })

  it('accepts regional variants', () => {
    expect(chooseErrorMessage(error, 'en-GB')).toBe(en.expired_verification_code)
    expect(chooseErrorMessage(error, 'zh-HK')).toBe(ERROR_MESSAGES['zh-TW'].expired_verification_code)
    expect(chooseErrorMessage(error, 'in')).toBe(ERROR_MESSAGES.id.expired_verification_code)
    expect(chooseErrorMessage(error, 'ms-MY')).toBe(ERROR_MESSAGES.ms.expired_verification_code)
  })
})

describe('chooseErrorMessage: properties', () => {
  const detail = fc.oneof(
    fc.anything(),
    fc.record(
      {
        '@type': fc.oneof(fc.constantFrom(LOCALIZED_MESSAGE_TYPE, ERROR_INFO_TYPE), fc.anything()),
        locale: fc.oneof(fc.constantFrom(...LOCALES, 'fr', 'zh-HK'), fc.anything()),
        message: fc.oneof(fc.string(), fc.anything()),
        reason: fc.oneof(fc.constantFrom(CAPTCHA_REJECT), fc.anything()),
      },
      { requiredKeys: [] },
    ),
  )
  const codes = fc.oneof(fc.constantFrom(...allErrors().map((e) => e.code)), fc.integer(), fc.double(), fc.anything())
  const reasons = fc.oneof(fc.constantFrom(...allErrors().map((e) => e.reason)), fc.string(), fc.anything())
  const errorLike = fc.record(
    {
      error: reasons,
      error_code: codes,
      error_description: fc.oneof(fc.string(), fc.anything()),
      details: fc.oneof(fc.array(detail, { maxLength: 4 }), fc.anything()),
    },
    { requiredKeys: [] },
  )
  const locale = fc.oneof(fc.constantFrom(...LOCALES), fc.string(), fc.constant(undefined), fc.constant(null))

  it('always returns a non-empty string and never throws', () => {
    fc.assert(
      fc.property(errorLike, locale, (error, loc) => {
        const text = chooseErrorMessage(error as ErrorLike, loc)
        expect(typeof text).toBe('string')
        expect(text.length).toBeGreaterThan(0)
      }),
      { numRuns: 2000 },
    )
  })

  it('never throws for any object at all', () => {
    fc.assert(
      fc.property(fc.object({ withNullPrototype: true }), fc.string(), (error, loc) => {
        const text = chooseErrorMessage(error as ErrorLike, loc)
        expect(typeof text).toBe('string')
        expect(text).not.toBe('')
      }),
      { numRuns: 1000 },
    )
  })
})

describe('messageForReason', () => {
  it('gives the text of each reason in each locale', () => {
    for (const locale of LOCALES) {
      for (const { reason } of allErrors()) {
        expect(messageForReason(reason, locale)).toBe(ERROR_MESSAGES[locale][reason as ErrorReason])
      }
    }
  })

  it('gives the special texts', () => {
    expect(messageForReason('captcha_reject', 'zh-CN')).toBe('你的操作过于频繁，请稍后再试')
    expect(messageForReason('network_unreachable', 'ko')).toBe(ERROR_MESSAGES.ko.network_unreachable)
  })

  it('gives null for an unknown reason', () => {
    expect(messageForReason('no_such_reason', 'en-US')).toBeNull()
    expect(messageForReason('', 'zh-TW')).toBeNull()
  })

  it('does not read the object prototype', () => {
    for (const reason of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(messageForReason(reason, 'en-US'), reason).toBeNull()
    }
  })

  it('falls back to en-US for a locale outside the six', () => {
    expect(messageForReason('invalid_password', 'fr' as Locale)).toBe(en.invalid_password)
  })
})

describe('lazy message tables', () => {
  it('loads a locale once', async () => {
    // en-US is always present; the rest arrive through loadMessages (loaded above for the suite).
    expect(loadedMessages('en-US')).toBe(ERROR_MESSAGES['en-US'])
    expect(await loadMessages('ko')).toBe(ERROR_MESSAGES.ko)
    expect(await loadMessages('ko')).toBe(loadedMessages('ko'))
  })
})
