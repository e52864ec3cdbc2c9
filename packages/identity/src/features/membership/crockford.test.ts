import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { normaliseCode, randomCode } from './crockford.js'

describe('Crockford codes', () => {
  it('reads a code back however it is typed: case, spaces, dashes, O for 0, I and L for 1', () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 20 }), fc.boolean(), (length, loose) => {
        const code = randomCode(length)
        expect(code).toMatch(new RegExp(`^[0-9A-HJKMNP-TV-Z]{${length}}$`))
        const typed = loose ? code.toLowerCase().replace(/0/g, 'o').replace(/1/g, 'l').replace(/(.{4})/g, '$1 - ') : code
        expect(normaliseCode(typed, length)).toBe(code)
      }),
    )
  })

  it('gives null, never a throw or a code of another length, for anything else', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.integer({ min: 1, max: 20 }), (input, length) => {
        const code = normaliseCode(input, length)
        if (code !== null) expect(code).toMatch(new RegExp(`^[0-9A-HJKMNP-TV-Z]{${length}}$`))
      }),
    )
    expect(normaliseCode('ABCD-EFGH-JKMN-PQRU', 16)).toBeNull()
    expect(normaliseCode('ABCD', 16)).toBeNull()
  })
})
