import { PLATFORM } from '@cumulus/protocol'
import { describe, expect, it } from 'vitest'
import { IdentityClient } from './identity-client.js'
import { IdentityError } from './errors.js'
import { MemoryStorage } from './storage.js'

const base = { clientId: 'web', origins: ['https://a.test'], storage: new MemoryStorage(), fetch: async () => new Response('{}') }

describe('options', () => {
  it.each([0, 1, 2, 5])('accepts retry %s', (retry) => {
    expect(() => new IdentityClient({ ...base, retry })).not.toThrow()
  })

  it.each([6, -1, 1.5, Number.NaN, '2', null])('rejects retry %s', (retry) => {
    expect(() => new IdentityClient({ ...base, retry: retry as number })).toThrow('wrong options param: retry')
  })

  it('throws IdentityError for bad options', () => {
    expect(() => new IdentityClient({ ...base, retry: 6 })).toThrow(IdentityError)
  })

  it('accepts a numeric lock timeout and rejects anything else', () => {
    expect(() => new IdentityClient({ ...base, lockTimeout: 0 })).not.toThrow()
    expect(() => new IdentityClient({ ...base, lockTimeout: 5000 })).not.toThrow()
    expect(() => new IdentityClient({ ...base, lockTimeout: '5000' as unknown as number })).toThrow('wrong options param: timeout')
    expect(() => new IdentityClient({ ...base, lockTimeout: Number.NaN })).toThrow('wrong options param: timeout')
  })

  it('requires a non-empty origin list', () => {
    expect(() => new IdentityClient({ ...base, origins: [] })).toThrow('wrong options param: origins')
    expect(() => new IdentityClient({ ...base, origins: undefined as unknown as string[] })).toThrow('wrong options param: origins')
  })

  it('checks env, clientId and platform', () => {
    expect(new IdentityClient({ ...base }).env).toBe('production')
    expect(new IdentityClient({ ...base, env: 'test' }).env).toBe('test')
    expect(() => new IdentityClient({ ...base, env: 'staging' as 'test' })).toThrow('wrong options param: env')
    expect(() => new IdentityClient({ ...base, clientId: '' })).toThrow('wrong options param: clientId')
    expect(() => new IdentityClient({ ...base, platform: 99 })).toThrow('wrong options param: platform')
    expect(() => new IdentityClient({ ...base, platform: 'LINUX' })).not.toThrow()
    expect(PLATFORM.LINUX).toBe(12)
  })
})
