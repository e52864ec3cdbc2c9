import { describe, expect, it } from 'vitest'
import { COUNTRIES } from '../../countries/countries'
import { countryDisplayName, regionNamesFor } from './country-names'

const korea = COUNTRIES.find((c) => c.alpha2 === 'KR')!
const kosovo = COUNTRIES.find((c) => c.alpha2 === 'XK')!

describe('countryDisplayName', () => {
  it('uses the table for en-US and zh-CN', () => {
    expect(regionNamesFor('en-US')).toBeNull()
    expect(regionNamesFor('zh-CN')).toBeNull()
    expect(countryDisplayName(korea, 'en-US', null)).toBe('South Korea')
    expect(countryDisplayName(korea, 'zh-CN', null)).toBe('韩国')
  })

  it('asks Intl for Korean, Indonesian, Malay and Traditional Chinese names', () => {
    expect(countryDisplayName(korea, 'ko', regionNamesFor('ko'))).toBe('대한민국')
    expect(countryDisplayName(korea, 'zh-TW', regionNamesFor('zh-TW'))).toBe('南韓')
    expect(countryDisplayName(korea, 'id', regionNamesFor('id'))).toBe('Korea Selatan')
  })

  it('falls back to the table when Intl does not know a region or echoes its code', () => {
    const echo = { of: (code: string) => code }
    const none = { of: () => undefined }
    expect(countryDisplayName(kosovo, 'ms', echo)).toBe('Kosovo')
    expect(countryDisplayName(korea, 'zh-TW', none)).toBe('韩国')
  })
})
