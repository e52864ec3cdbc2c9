import { ANONYMOUS_SUB_PREFIX } from '@cumulus/protocol'
import { describe, expect, it } from 'vitest'
import { classifyUsername, isAnonymousSub, usernameMeta } from './username.js'

describe('classifyUsername', () => {
  it.each([
    ['+8613800000000', 'phone_number'],
    ['+a@b.c', 'phone_number'],
    ['a@b.c', 'email'],
    ['alice', 'username'],
    ['86138', 'username'],
  ] as const)('%s is a %s', (username, kind) => {
    expect(classifyUsername(username)).toBe(kind)
    expect(usernameMeta(username)).toEqual({ [kind]: username })
  })
})

describe('isAnonymousSub', () => {
  it('needs the prefix and more than 5 characters', () => {
    expect(ANONYMOUS_SUB_PREFIX).toBe('anon_')
    expect(isAnonymousSub('anon_x')).toBe(true)
    expect(isAnonymousSub('anon_')).toBe(false)
    expect(isAnonymousSub('user_anon_x')).toBe(false)
    expect(isAnonymousSub('')).toBe(false)
    expect(isAnonymousSub(null)).toBe(false)
  })
})
