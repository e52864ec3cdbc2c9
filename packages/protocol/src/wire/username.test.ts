import { describe, expect, it } from 'vitest'
import { classifyUsername } from './username.js'

describe('classifyUsername', () => {
  it.each([
    ['+8613800000000', 'phone_number'],
    [' +1 (415) 555-0100 ', 'phone_number'],
    ['+a@b.c', 'phone_number'],
    ['a@b.c', 'email'],
    ['  Ann@Example.com ', 'email'],
    ['@', 'email'],
    ['alice', 'username'],
    ['86138', 'username'],
    ['', 'username'],
  ] as const)('%j is a %s', (username, kind) => {
    expect(classifyUsername(username)).toBe(kind)
  })
})
