import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@cumulus/protocol'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import enUS from '../locales/en-US/index'
import {
  checkCode,
  checkEmail,
  checkPassword,
  checkPasswordConfirmation,
  checkPasswordEntered,
  checkPhone,
  checkUsername,
  normalizeUsername,
  type PatternMessageKey,
} from './patterns'

describe('checkEmail', () => {
  it('accepts ordinary addresses, with spaces around', () => {
    for (const email of ['ann@example.com', ' Ann.Lee+drive@mail.example.co.uk ', 'x@y.io']) expect(checkEmail(email)).toBeNull()
  })

  it('asks for an address when empty, and refuses malformed ones', () => {
    expect(checkEmail('  ')).toBe('auth.patterns.emailRequired')
    for (const email of ['ann', 'ann@', '@example.com', 'ann@example', 'a b@example.com', 'ann@@example.com', `${'a'.repeat(65)}@example.com`]) {
      expect(checkEmail(email), email).toBe('auth.patterns.emailInvalid')
    }
  })

  it('refuses addresses longer than 254 characters', () => {
    const domain = `${'d'.repeat(246)}.com` // 250 characters
    expect(checkEmail(`ann@${domain}`)).toBeNull()
    expect(checkEmail(`anne@${domain}`)).toBe('auth.patterns.emailInvalid')
  })
})

describe('checkPhone', () => {
  it('accepts E.164 numbers of 6 to 15 digits', () => {
    expect(checkPhone('+6591234567')).toBeNull()
    expect(checkPhone('+861380013800')).toBeNull()
    expect(checkPhone('+123456')).toBeNull()
    expect(checkPhone('+123456789012345')).toBeNull()
  })

  it('asks for a number when empty and refuses the rest', () => {
    expect(checkPhone('')).toBe('auth.patterns.phoneRequired')
    expect(checkPhone('+')).toBe('auth.patterns.phoneRequired')
    for (const phone of ['6591234567', '+0591234567', '+12345', '+1234567890123456', '+65 9123 4567', '+65abc']) expect(checkPhone(phone), phone).toBe('auth.patterns.phoneInvalid')
  })

  it('accepts exactly the strings made of a plus, a non-zero digit and 5 to 14 more digits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.stringMatching(/^\d{5,14}$/), (first, rest) => {
        expect(checkPhone(`+${first}${rest}`)).toBeNull()
      }),
    )
    fc.assert(
      fc.property(fc.string(), (value) => {
        const result = checkPhone(value)
        expect(result === null).toBe(/^\+[1-9]\d{5,14}$/.test(value.trim()))
      }),
    )
  })
})

describe('checkUsername', () => {
  it('classifies like the SDK: plus is a phone, at-sign an e-mail, else a plain username', () => {
    expect(checkUsername('+1 (415) 555-0100')).toBeNull()
    expect(checkUsername('+1')).toBe('auth.patterns.phoneInvalid')
    expect(checkUsername('ann@example.com')).toBeNull()
    expect(checkUsername('ann@')).toBe('auth.patterns.emailInvalid')
    expect(checkUsername('ann_lee')).toBeNull()
    expect(checkUsername('an')).toBe('auth.patterns.usernameInvalid')
    expect(checkUsername('ann lee')).toBe('auth.patterns.usernameInvalid')
    expect(checkUsername(' ')).toBe('auth.patterns.usernameRequired')
  })

  it('sends phone numbers without their separators', () => {
    expect(normalizeUsername(' +1 (415) 555-0100 ')).toBe('+14155550100')
    expect(normalizeUsername(' ann@example.com ')).toBe('ann@example.com')
  })
})

describe('checkPassword', () => {
  it('enforces the shared length bounds on both sides of each boundary', () => {
    expect(checkPassword('')).toBe('auth.patterns.passwordRequired')
    expect(checkPassword('a'.repeat(PASSWORD_MIN_LENGTH - 1))).toBe('auth.patterns.passwordTooShort')
    expect(checkPassword('a'.repeat(PASSWORD_MIN_LENGTH))).toBeNull()
    expect(checkPassword('a'.repeat(PASSWORD_MAX_LENGTH))).toBeNull()
    expect(checkPassword('a'.repeat(PASSWORD_MAX_LENGTH + 1))).toBe('auth.patterns.passwordTooLong')
  })

  it('counts characters, not UTF-16 units, as the server does', () => {
    // Seven emoji are 14 UTF-16 units but 7 characters: too short for the server too.
    expect(checkPassword('😀'.repeat(PASSWORD_MIN_LENGTH - 1))).toBe('auth.patterns.passwordTooShort')
    expect(checkPassword('😀'.repeat(PASSWORD_MIN_LENGTH))).toBeNull()
  })

  it('refuses a password of spaces only', () => {
    expect(checkPassword(' '.repeat(PASSWORD_MIN_LENGTH))).toBe('auth.patterns.passwordBlank')
  })

  it('accepts any non-blank password of an allowed length', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }), (password) => {
        fc.pre([...password].length <= PASSWORD_MAX_LENGTH && [...password].length >= PASSWORD_MIN_LENGTH && password.trim() !== '')
        expect(checkPassword(password)).toBeNull()
      }),
    )
  })

  it('only requires a password that proves who you are, and compares the confirmation', () => {
    expect(checkPasswordEntered('')).toBe('auth.patterns.passwordRequired')
    expect(checkPasswordEntered('x')).toBeNull()
    expect(checkPasswordConfirmation('secret-pass', 'secret-pass')).toBeNull()
    expect(checkPasswordConfirmation('secret-pass', 'secret-pas')).toBe('auth.patterns.passwordMismatch')
    expect(checkPasswordConfirmation('secret-pass', '')).toBe('auth.patterns.passwordRequired')
  })
})

describe('checkCode', () => {
  it('accepts exactly six digits', () => {
    expect(checkCode('012345')).toBeNull()
    expect(checkCode(' 987654 ')).toBeNull()
    expect(checkCode('')).toBe('auth.patterns.codeRequired')
    for (const code of ['12345', '1234567', '12345a', '١٢٣٤٥٦', '12 345']) expect(checkCode(code), code).toBe('auth.patterns.codeInvalid')
  })

  it('agrees with the six-digit pattern for any input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^\d{6}$/)), (value) => {
        expect(checkCode(value) === null).toBe(/^\d{6}$/.test(value.trim()))
      }),
    )
  })
})

describe('messages', () => {
  it('has an en-US text for every key a check can return', () => {
    const keys: PatternMessageKey[] = [
      checkEmail(''), checkEmail('x'), checkPhone(''), checkPhone('+1'), checkUsername(''), checkUsername('a'),
      checkPassword(''), checkPassword('a'), checkPassword('a'.repeat(PASSWORD_MAX_LENGTH + 1)), checkPassword(' '.repeat(PASSWORD_MIN_LENGTH)),
      checkPasswordConfirmation('a', 'b'), checkCode(''), checkCode('1'),
    ].filter((key): key is PatternMessageKey => key !== null)
    expect(keys).toHaveLength(13)
    const patterns = (enUS.auth as unknown as { patterns: Record<string, string> }).patterns
    for (const key of keys) expect(patterns[key.replace('auth.patterns.', '')], key).toEqual(expect.any(String))
  })
})
