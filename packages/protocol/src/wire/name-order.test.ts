import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareCodePoints, driveNameKey } from './name-order.js'

describe('the order of names in a listing', () => {
  it('is natural, case folded and width folded', () => {
    const names = ['file10', 'File2', 'file1', 'ｆｉｌｅ3', 'report.txt', 'report(1).txt']
    expect([...names].sort((a, b) => compareCodePoints(driveNameKey(a), driveNameKey(b)))).toEqual(['file1', 'File2', 'ｆｉｌｅ3', 'file10', 'report(1).txt', 'report.txt'])
    expect(driveNameKey('a007b')).toBe(`a${'7'.padStart(20, '0')}b`)
  })

  it('compares by code point (UTF-8 byte order), not by UTF-16 unit, and is a total order', () => {
    expect(compareCodePoints('\u{1f600}', '\uffeb')).toBeGreaterThan(0)
    expect('\u{1f600}' < '\uffeb').toBe(true)
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const bytes = Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
        expect(Math.sign(compareCodePoints(a, b))).toBe(bytes)
        expect(Math.sign(compareCodePoints(b, a)) + bytes).toBe(0)
      }),
      { numRuns: 500 },
    )
  })
})
