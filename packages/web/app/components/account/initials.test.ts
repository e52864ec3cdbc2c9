import { describe, expect, it } from 'vitest'
import { AVATAR_COLORS, avatarColorOf, initialsOf } from './initials'

describe('initialsOf', () => {
  it('takes the first letters of the first two words, upper-cased', () => {
    expect(initialsOf('ann lee')).toBe('AL')
    expect(initialsOf('  Ann   Marie Lee ')).toBe('AM')
  })

  it('takes one character of a single word, and whole code points (CJK, emoji)', () => {
    expect(initialsOf('Ann')).toBe('A')
    expect(initialsOf('王小明')).toBe('王')
    expect(initialsOf('😀 smile')).toBe('😀S')
  })

  it('falls back for an empty name', () => {
    expect(initialsOf('   ')).toBe('?')
    expect(initialsOf('', 'U')).toBe('U')
  })
})

describe('avatarColorOf', () => {
  it('gives an account the same colour every time, from the palette', () => {
    expect(avatarColorOf('u1annxxxxxxxxxxx')).toBe(avatarColorOf('u1annxxxxxxxxxxx'))
    expect(AVATAR_COLORS).toContain(avatarColorOf('anything'))
  })

  it('spreads ids over the palette', () => {
    const colors = new Set(Array.from({ length: 64 }, (_, i) => avatarColorOf(`user-${i}`)))
    expect(colors.size).toBeGreaterThan(4)
  })
})
