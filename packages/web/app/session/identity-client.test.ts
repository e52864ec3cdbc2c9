import type { IdentityClient } from '@cumulus/sdk'
import { beforeEach, describe, expect, it, vi } from 'vitest'

/** The real client the SDK chunk would create: just what these tests look at. */
const sdk = vi.hoisted(() => {
  const real = {
    locale: 'en-US',
    setLocale(locale: string) {
      real.locale = locale
    },
    initialize: async () => ({ isLogin: true, nickname: 'Ann' }),
    signIn: async (input: unknown) => ({ signedIn: input }),
    accounts: () => [{ sub: 'user-1' }],
  }
  return { real, create: vi.fn((locale: string) => Object.assign(real, { locale })) }
})
vi.mock('../components/lazy/identity-sdk', () => ({ createIdentityClient: sdk.create }))

// The module keeps the one client: each test starts from a fresh copy of it.
async function freshModule() {
  vi.resetModules()
  return import('./identity-client')
}

beforeEach(() => {
  sdk.create.mockClear()
  localStorage.clear()
})

describe('getIdentityClient', () => {
  it('starts a visitor with nothing stored signed out, without fetching the SDK', async () => {
    const { getIdentityClient } = await freshModule()
    const client = getIdentityClient('ko')
    await expect(client.initialize()).resolves.toMatchObject({ isLogin: false, userId: '', curUser: null })
    expect(client.accounts()).toEqual([])
    expect(client.locale).toBe('ko')
    expect(sdk.create).not.toHaveBeenCalled()
  })

  it('fetches the SDK to start a session when this client has something stored', async () => {
    localStorage.setItem('cumulus-web:current_account', 'user-1')
    const { getIdentityClient } = await freshModule()
    const client = getIdentityClient('zh-CN')
    await expect(client.initialize()).resolves.toMatchObject({ isLogin: true, nickname: 'Ann' })
    expect(sdk.create).toHaveBeenCalledWith('zh-CN')
    // The stand-in the session hook keeps is the real client from now on.
    expect(client.accounts()).toEqual([{ sub: 'user-1' }])
    expect(getIdentityClient('zh-CN')).toBe(sdk.real)
  })

  it('ignores other keys in the storage', async () => {
    localStorage.setItem('cumulus-color-mode', 'dark')
    const { getIdentityClient } = await freshModule()
    await getIdentityClient('en-US').initialize()
    expect(sdk.create).not.toHaveBeenCalled()
  })

  it('fetches the SDK for a call and forwards it, in the latest locale', async () => {
    const { getIdentityClient } = await freshModule()
    const client: IdentityClient = getIdentityClient('en-US')
    getIdentityClient('ms')
    await expect(client.signIn({ username: 'ann', password: 'secret' })).resolves.toEqual({ signedIn: { username: 'ann', password: 'secret' } })
    expect(sdk.create).toHaveBeenCalledTimes(1)
    expect(sdk.create).toHaveBeenCalledWith('ms')
    getIdentityClient('id')
    expect(sdk.real.locale).toBe('id')
  })

  it('is browser-only', async () => {
    const { getIdentityClient } = await freshModule()
    vi.stubGlobal('window', undefined)
    try {
      expect(() => getIdentityClient('en-US')).toThrow(/browser-only/)
    } finally {
      vi.unstubAllGlobals()
    }
  })
})
