import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkPhone } from '../../forms/patterns'
import { DEFAULT_PHONE_COUNTRY, findPhoneCountry, PHONE_COUNTRIES, splitE164, toE164 } from './phone-number'

const country = (alpha2: string) => findPhoneCountry(alpha2)!

describe('toE164', () => {
  it('joins the calling code and the digits typed, without separators', () => {
    expect(toE164(country('SG'), '9123 4567')).toBe('+6591234567')
    expect(toE164(country('US'), '(415) 555-0100')).toBe('+14155550100')
    expect(toE164(country('SG'), ' -')).toBe('')
  })

  it('drops the national trunk 0, except where it is part of the number (Italy)', () => {
    expect(toE164(country('GB'), '07700 900123')).toBe('+447700900123')
    expect(toE164(country('ID'), '0812-3456-7890')).toBe('+6281234567890')
    expect(toE164(country('IT'), '06 1234 5678')).toBe('+390612345678')
  })

  it('takes a number typed with its own + as international', () => {
    expect(toE164(country('US'), '+65 9123 4567')).toBe('+6591234567')
  })
})

describe('splitE164', () => {
  it('prefers the current country when its code matches, else the main country of the code', () => {
    expect(splitE164('+14165550100', 'CA')).toEqual({ country: country('CA'), national: '4165550100' })
    expect(splitE164('+14155550100', 'SG')).toEqual({ country: country('US'), national: '4155550100' })
    expect(splitE164('+6591234567')).toEqual({ country: country('SG'), national: '91234567' })
    expect(splitE164('+85212345678')?.country.alpha2).toBe('HK')
  })

  it('is null for values that are not international numbers', () => {
    expect(splitE164('')).toBeNull()
    expect(splitE164('6591234567')).toBeNull()
    expect(splitE164('+')).toBeNull()
  })

  it('round-trips with toE164 for every country', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PHONE_COUNTRIES), fc.stringMatching(/^[1-9]\d{5,9}$/), (c, national) => {
        const e164 = toE164(c, national)
        expect(checkPhone(e164)).toBeNull()
        const split = splitE164(e164, c.alpha2)
        expect(split).toEqual({ country: c, national })
      }),
    )
  })
})

describe('defaults', () => {
  it('starts each locale on its home country, which has a calling code', () => {
    expect(Object.values(DEFAULT_PHONE_COUNTRY).map((alpha2) => findPhoneCountry(alpha2)?.callingCode)).toEqual(['1', '62', '82', '60', '86', '886'])
  })
})
