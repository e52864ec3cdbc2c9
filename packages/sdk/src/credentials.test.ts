import { describe, expect, it } from 'vitest'
import { CredentialStore, computeExpiresAt, credentialsFromToken, isExpired } from './credentials.js'
import { MemoryStorage } from './storage.js'

const NOW = 1_700_000_000_000

describe('expiry', () => {
  it('takes 120 s off an expires_in of 600 s or more, 30 s below', () => {
    expect(computeExpiresAt(600, NOW)).toBe(NOW + 480_000)
    expect(computeExpiresAt(599, NOW)).toBe(NOW + 569_000)
    expect(computeExpiresAt(7200, NOW)).toBe(NOW + 7_080_000)
  })

  it('is expired without an access token, without expires_at, or when expires_at has passed', () => {
    const c = { access_token: 'a', expires_at: NOW + 1 }
    expect(isExpired(c, NOW)).toBe(false)
    expect(isExpired({ ...c, expires_at: NOW }, NOW)).toBe(true)
    expect(isExpired({ ...c, access_token: '' }, NOW)).toBe(true)
    expect(isExpired({ access_token: 'a' }, NOW)).toBe(true)
    expect(isExpired(null, NOW)).toBe(true)
  })

  it('fills expires_at from a token reply', () => {
    const c = credentialsFromToken({ token_type: 'Bearer', access_token: 'a', refresh_token: 'r', expires_in: 7200, sub: 's', scope: 'pan' }, NOW)
    expect(c).toEqual({ token_type: 'Bearer', access_token: 'a', refresh_token: 'r', expires_in: 7200, expires_at: NOW + 7_080_000, sub: 's', scope: 'pan' })
  })
})

describe('CredentialStore', () => {
  const tokens = (sub: string) => ({ access_token: `a-${sub}`, refresh_token: `r-${sub}`, expires_in: 3600, sub })

  it('keys accounts by client id and sub and remembers the current one', () => {
    const storage = new MemoryStorage()
    const store = new CredentialStore(storage, 'web')
    store.set(tokens('u1'), NOW)
    store.set(tokens('u2'), NOW)
    expect(store.currentSub()).toBe('u2')
    expect(storage.getItem('web:current_account')).toBe('u2')
    expect(JSON.parse(storage.getItem('web:credentials:u1') ?? 'null')).toMatchObject({ access_token: 'a-u1', expires_at: NOW + 3_480_000 })
    expect(store.list().map((c) => c.sub)).toEqual(['u2', 'u1'])
    expect(store.switchTo('u1')).toBe(true)
    expect(store.current()?.sub).toBe('u1')
    expect(store.switchTo('nobody')).toBe(false)
    expect(store.current()?.sub).toBe('u1')
  })

  it('does not mix clients sharing one storage', () => {
    const storage = new MemoryStorage()
    new CredentialStore(storage, 'web').set(tokens('u1'), NOW)
    expect(new CredentialStore(storage, 'other').current()).toBeNull()
  })

  it('clears the current account and its marker when set to empty credentials', () => {
    const storage = new MemoryStorage()
    const store = new CredentialStore(storage, 'web')
    store.set(tokens('u1'), NOW)
    store.set(tokens('u2'), NOW)
    expect(store.set({}, NOW)).toBeNull()
    expect(store.current()).toBeNull()
    expect(storage.getItem('web:current_account')).toBeNull()
    expect(storage.getItem('web:credentials:u2')).toBeNull()
    expect(store.list().map((c) => c.sub)).toEqual(['u1'])
    store.switchTo('u1')
    store.set(null, NOW)
    expect(store.list()).toEqual([])
  })

  it('keeps a given expires_at', () => {
    const store = new CredentialStore(new MemoryStorage(), 'web')
    expect(store.set({ ...tokens('u1'), expires_at: 42 }, NOW)?.expires_at).toBe(42)
  })

  it('reads broken JSON as no credentials', () => {
    const storage = new MemoryStorage()
    storage.setItem('web:current_account', 'u1')
    storage.setItem('web:credentials:u1', '{oops')
    expect(new CredentialStore(storage, 'web').current()).toBeNull()
  })
})
