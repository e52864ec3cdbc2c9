import { describe, expect, it } from 'vitest'
import { checkUserCode, normalizeUserCode } from './user-code'

describe('normalizeUserCode', () => {
  it.each([
    ['WDJB-MJHT', 'WDJB-MJHT'],
    ['wdjb-mjht', 'WDJB-MJHT'],
    ['WDJBMJHT', 'WDJB-MJHT'],
    [' wdjb mjht ', 'WDJB-MJHT'],
    ['wd–jb.mj_ht', 'WDJB-MJHT'],
    ['ab12cd34', 'AB12-CD34'],
  ])('reads %j as %s', (typed, code) => {
    expect(normalizeUserCode(typed)).toBe(code)
  })

  it.each(['', 'WDJB-MJH', 'WDJB-MJHTX', 'WDJB-MJHT-WDJB', 'ÄÖÜB-MJHT'])('refuses %j, which has not eight letters or digits', (typed) => {
    expect(normalizeUserCode(typed)).toBeNull()
  })
})

describe('checkUserCode', () => {
  it('asks for a code, then for a well-formed one', () => {
    expect(checkUserCode('  ')).toBe('oauth.device.codeRequired')
    expect(checkUserCode('WDJB')).toBe('oauth.device.codeInvalid')
    expect(checkUserCode('wdjbmjht')).toBeNull()
  })
})
