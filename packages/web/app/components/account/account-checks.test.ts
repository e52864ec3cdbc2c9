import { describe, expect, it } from 'vitest'
import { checkName, checkNewContact, checkPasswordChange, NAME_MAX_LENGTH } from './account-checks'

describe('checkName', () => {
  it('accepts 1 to 64 characters after trimming, counting code points', () => {
    expect(checkName(' Ann ')).toBeNull()
    expect(checkName('😀'.repeat(NAME_MAX_LENGTH))).toBeNull()
  })

  it('refuses an empty or control-character-only name, and a 65-character one', () => {
    expect(checkName('   ')).toBe('accountHome.checks.nameRequired')
    expect(checkName('\u0007\u0000')).toBe('accountHome.checks.nameRequired')
    expect(checkName('a'.repeat(NAME_MAX_LENGTH + 1))).toBe('accountHome.checks.nameTooLong')
  })
})

describe('checkNewContact', () => {
  it('refuses the address already bound (e-mail case-insensitively)', () => {
    expect(checkNewContact('email', ' Ann@Example.com ', 'ann@example.com')).toBe('accountHome.checks.emailSame')
    expect(checkNewContact('phone', '+6591234567', '+6591234567')).toBe('accountHome.checks.phoneSame')
  })

  it('accepts a different address, and any address when none is bound', () => {
    expect(checkNewContact('email', 'bob@example.com', 'ann@example.com')).toBeNull()
    expect(checkNewContact('phone', '+6591234567', '')).toBeNull()
  })
})

describe('checkPasswordChange', () => {
  it('passes a filled-in form with a valid, changed and confirmed password', () => {
    expect(checkPasswordChange({ current: 'old-password', next: 'new-password-1', confirm: 'new-password-1' })).toBeNull()
  })

  it('points at the first field with a problem', () => {
    expect(checkPasswordChange({ current: '', next: 'x', confirm: '' })).toEqual({ field: 'current', key: 'auth.patterns.passwordRequired' })
    expect(checkPasswordChange({ current: 'old-password', next: 'short', confirm: 'short' })).toEqual({ field: 'next', key: 'auth.patterns.passwordTooShort' })
    expect(checkPasswordChange({ current: 'same-password', next: 'same-password', confirm: 'same-password' })).toEqual({ field: 'next', key: 'accountHome.checks.passwordUnchanged' })
    expect(checkPasswordChange({ current: 'old-password', next: 'new-password-1', confirm: 'new-password-2' })).toEqual({ field: 'confirm', key: 'auth.patterns.passwordMismatch' })
  })
})
