import { describe, expect, it } from 'vitest'
import { COUNTRIES } from './countries'

describe('COUNTRIES', () => {
  it('has one well-formed entry per ISO 3166-1 code', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(249)
    for (const country of COUNTRIES) {
      expect(country.alpha2, JSON.stringify(country)).toMatch(/^[A-Z]{2}$/)
      expect(country.alpha3).toMatch(/^[A-Z]{3}$/)
      expect(country.numeric).toMatch(/^\d{3}$/)
      expect(country.nameEn.length).toBeGreaterThan(1)
      expect(country.nameZh.length).toBeGreaterThan(0)
      if (country.callingCode !== null) expect(country.callingCode).toMatch(/^[1-9]\d{0,2}$/)
    }
    for (const key of ['alpha2', 'alpha3', 'numeric'] as const) expect(new Set(COUNTRIES.map((c) => c[key])).size).toBe(COUNTRIES.length)
  })

  it('holds the spec fields of the six locales’ home countries', () => {
    const byCode = new Map(COUNTRIES.map((c) => [c.alpha2, c]))
    expect(byCode.get('SG')).toEqual({ alpha2: 'SG', alpha3: 'SGP', numeric: '702', nameEn: 'Singapore', nameZh: '新加坡', callingCode: '65' })
    expect(byCode.get('US')).toMatchObject({ alpha3: 'USA', numeric: '840', nameEn: 'United States', callingCode: '1' })
    expect(byCode.get('ID')).toMatchObject({ alpha3: 'IDN', numeric: '360', callingCode: '62' })
    expect(byCode.get('KR')).toMatchObject({ alpha3: 'KOR', numeric: '410', nameEn: 'South Korea', callingCode: '82' })
    expect(byCode.get('MY')).toMatchObject({ alpha3: 'MYS', numeric: '458', callingCode: '60' })
    expect(byCode.get('CN')).toMatchObject({ alpha3: 'CHN', numeric: '156', nameEn: 'China', nameZh: '中国', callingCode: '86' })
    expect(byCode.get('TW')).toMatchObject({ alpha3: 'TWN', numeric: '158', nameEn: 'Taiwan', callingCode: '886' })
    // Uninhabited territories have no calling code.
    expect(byCode.get('AQ')?.callingCode).toBeNull()
  })
})
