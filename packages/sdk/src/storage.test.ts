import { afterEach, describe, expect, it } from 'vitest'
import { MemoryStorage, defaultStorage, readJson, storageKeys } from './storage.js'

afterEach(() => {
  delete (globalThis as { localStorage?: unknown }).localStorage
})

describe('storage', () => {
  it('MemoryStorage behaves like localStorage', () => {
    const s = new MemoryStorage()
    expect(s.getItem('k')).toBeNull()
    s.setItem('k', 'v')
    expect(s.getItem('k')).toBe('v')
    s.removeItem('k')
    s.removeItem('k')
    expect(s.getItem('k')).toBeNull()
  })

  it('defaults to globalThis.localStorage when present, else memory', () => {
    expect(defaultStorage()).toBeInstanceOf(MemoryStorage)
    const local = new MemoryStorage()
    ;(globalThis as { localStorage?: unknown }).localStorage = local
    expect(defaultStorage()).toBe(local)
  })

  it('reads broken JSON as null and prefixes keys with the client id', () => {
    const s = new MemoryStorage()
    s.setItem('x', '{')
    expect(readJson(s, 'x')).toBeNull()
    const keys = storageKeys('web')
    expect([keys.credentials('u1'), keys.currentAccount, keys.captcha].every((k) => k.startsWith('web:'))).toBe(true)
  })
})
