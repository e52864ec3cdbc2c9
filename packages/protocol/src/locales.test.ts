import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  CLIENT_UNKNOWN_LOCALE_FALLBACK,
  DEFAULT_LOCALE,
  LOCALES,
  type Locale,
  isLocale,
  matchLocale,
  negotiateLocale,
} from './locales.js'

describe('constants', () => {
  it('ships six locales, en-US first', () => {
    expect(LOCALES).toEqual(['en-US', 'id', 'ko', 'ms', 'zh-CN', 'zh-TW'])
    expect(DEFAULT_LOCALE).toBe('en-US')
    expect(CLIENT_UNKNOWN_LOCALE_FALLBACK).toBe('zh-CN')
  })
})

describe('matchLocale', () => {
  const cases: [string, Locale | null][] = [
    ['en-US', 'en-US'],
    ['en', 'en-US'],
    ['en-GB', 'en-US'],
    ['EN-au', 'en-US'],
    ['id', 'id'],
    ['id-ID', 'id'],
    ['in', 'id'],
    ['in-ID', 'id'],
    ['ko', 'ko'],
    ['ko-KR', 'ko'],
    ['ms', 'ms'],
    ['ms-MY', 'ms'],
    ['zh', 'zh-CN'],
    ['zh-CN', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['zh-Hans', 'zh-CN'],
    ['zh-Hans-CN', 'zh-CN'],
    ['zh-Hans-HK', 'zh-CN'],
    ['zh-TW', 'zh-TW'],
    ['zh-HK', 'zh-TW'],
    ['zh-MO', 'zh-TW'],
    ['zh-Hant', 'zh-TW'],
    ['zh-Hant-TW', 'zh-TW'],
    ['zh-Hant-CN', 'zh-TW'],
    ['zh_TW', 'zh-TW'],
    ['zh-tw', 'zh-TW'],
    ['  zh-HK  ', 'zh-TW'],
    ['zh-CN-u-co-tw', 'zh-CN'],
    ['zh-x-hk', 'zh-CN'],
    ['fr', null],
    ['fr-FR', null],
    ['english', null],
    ['*', null],
    ['-', null],
    ['', null],
    ['   ', null],
  ]

  it.each(cases)('%j -> %j', (tag, expected) => {
    expect(matchLocale(tag)).toBe(expected)
  })

  it('returns null for missing or non-string input', () => {
    expect(matchLocale(null)).toBeNull()
    expect(matchLocale(undefined)).toBeNull()
    expect(matchLocale(42 as unknown as string)).toBeNull()
    expect(matchLocale({} as unknown as string)).toBeNull()
  })

  it('maps every shipped locale to itself', () => {
    for (const locale of LOCALES) expect(matchLocale(locale)).toBe(locale)
  })

  it('never throws and returns null or a shipped locale', () => {
    fc.assert(
      fc.property(fc.string(), (tag) => {
        const result = matchLocale(tag)
        expect(result === null || (LOCALES as readonly string[]).includes(result)).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('negotiateLocale', () => {
  it('falls back when there is no header', () => {
    expect(negotiateLocale(undefined)).toBe('en-US')
    expect(negotiateLocale(null)).toBe('en-US')
    expect(negotiateLocale('')).toBe('en-US')
    expect(negotiateLocale('', 'zh-CN')).toBe('zh-CN')
  })

  it('takes the first supported tag in order', () => {
    expect(negotiateLocale('ko-KR,ko,en-US')).toBe('ko')
    expect(negotiateLocale('fr-FR, de, ms-MY, en')).toBe('ms')
    expect(negotiateLocale('zh-TW, zh-CN')).toBe('zh-TW')
  })

  it('honours q-values', () => {
    expect(negotiateLocale('en-US;q=0.5, ko;q=0.9')).toBe('ko')
    expect(negotiateLocale('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toBe('en-US')
    expect(negotiateLocale('id;q=0.3, zh-CN;q=0.8, ko')).toBe('ko')
    expect(negotiateLocale('zh;q=0.1, ms;q=0.2')).toBe('ms')
  })

  it('keeps the header order between equal q-values', () => {
    expect(negotiateLocale('ko;q=0.8, id;q=0.8')).toBe('ko')
    expect(negotiateLocale('id;q=0.8, ko;q=0.8')).toBe('id')
    expect(negotiateLocale('ms, zh-CN;q=1')).toBe('ms')
  })

  it('skips tags with q=0 or an unreadable weight', () => {
    expect(negotiateLocale('ko;q=0, id')).toBe('id')
    expect(negotiateLocale('ko;q=0.000, ms;q=0.001')).toBe('ms')
    expect(negotiateLocale('ko;q=abc, zh-HK;q=0.2')).toBe('zh-TW')
    expect(negotiateLocale('ko;q=0')).toBe('en-US')
  })

  it('reads the weight name case-insensitively and with spaces', () => {
    expect(negotiateLocale('en;Q=0.1, ko;Q=0.9')).toBe('ko')
    expect(negotiateLocale('en ; q=0.1 , ko ; q=0.9')).toBe('ko')
  })

  it('ignores parameters other than q', () => {
    expect(negotiateLocale('ko;level=1;q=0.2, id;q=0.1')).toBe('ko')
  })

  it('maps regional and legacy tags', () => {
    expect(negotiateLocale('zh-HK')).toBe('zh-TW')
    expect(negotiateLocale('zh-Hant-TW')).toBe('zh-TW')
    expect(negotiateLocale('zh')).toBe('zh-CN')
    expect(negotiateLocale('in')).toBe('id')
    expect(negotiateLocale('en-GB')).toBe('en-US')
  })

  it('returns the fallback for garbage', () => {
    for (const header of ['garbage', ';;;', ',,,', '*', 'q=1', ';q=1', 'fr;q=1, de;q=0.5', '🙂', 'x'.repeat(5000)]) {
      expect(negotiateLocale(header), header).toBe('en-US')
      expect(negotiateLocale(header, 'zh-CN'), header).toBe('zh-CN')
    }
  })

  it('returns the fallback for a non-string header', () => {
    expect(negotiateLocale(['ko'] as unknown as string)).toBe('en-US')
  })

  it('never throws and always returns one of LOCALES', () => {
    const tag = fc.oneof(
      fc.constantFrom('en', 'en-GB', 'id', 'in', 'ko-KR', 'ms', 'zh', 'zh-HK', 'zh-Hant-TW', 'fr', '*', ''),
      fc.string(),
    )
    const weight = fc.oneof(
      fc.constant(''),
      fc.double().map((q) => `;q=${q}`),
      fc.string().map((q) => `;q=${q}`),
      fc.string().map((p) => `;${p}`),
    )
    const structured = fc
      .array(fc.tuple(tag, weight).map(([t, w]) => t + w), { maxLength: 8 })
      .map((parts) => parts.join(','))
    const header = fc.oneof(structured, fc.string(), fc.string({ unit: 'binary' }))
    const fallback = fc.constantFrom(...LOCALES)
    fc.assert(
      fc.property(header, fallback, (value, fb) => {
        const result = negotiateLocale(value, fb)
        expect(isLocale(result)).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('isLocale', () => {
  it('accepts only the six', () => {
    for (const locale of LOCALES) expect(isLocale(locale)).toBe(true)
    for (const value of ['en', 'zh', 'zh-HK', 'EN-US', '', null, undefined, 1, {}]) expect(isLocale(value)).toBe(false)
  })
})
