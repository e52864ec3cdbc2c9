import type { IdentityClient, UserInfo } from '@cumulus/sdk'
import { describe, expect, it, vi } from 'vitest'
import { holdSessionLoads, isSessionStorageKey, loadSession, refreshSession, sessionSnapshot, subscribeSession } from './session-store'

const user = (nickname: string, isLogin = true) => ({ isLogin, nickname, userId: 'u-1' }) as UserInfo

/** A client whose initialize() resolves when the test says so, counting the calls. */
function controllableClient() {
  const pending: ((info: UserInfo) => void)[] = []
  const client = {
    initialize: vi.fn(() => new Promise<UserInfo>((resolve) => pending.push(resolve))),
    userInfo: () => user('', false),
    accounts: () => [],
  }
  return { client: client as unknown as IdentityClient, initialize: client.initialize, resolveNext: (info: UserInfo) => pending.shift()!(info) }
}

describe('session store', () => {
  it('shares one start-up between concurrent loads and publishes the result', async () => {
    const { client, initialize, resolveNext } = controllableClient()
    const listener = vi.fn()
    const unsubscribe = subscribeSession(listener)
    const a = loadSession(client)
    const b = loadSession(client)
    resolveNext(user('Ann'))
    await Promise.all([a, b])
    expect(initialize).toHaveBeenCalledTimes(1)
    expect(sessionSnapshot()).toMatchObject({ status: 'signed-in', user: { nickname: 'Ann' } })
    expect(listener).toHaveBeenCalled()
    unsubscribe()
  })

  it('reloads after a change even while a load that read the old state is in flight', async () => {
    const { client, initialize, resolveNext } = controllableClient()
    void loadSession(client) // started before the user renamed themselves
    const refreshed = refreshSession(client)
    resolveNext(user('Old name'))
    await vi.waitFor(() => expect(initialize).toHaveBeenCalledTimes(2))
    resolveNext(user('New name'))
    await expect(refreshed).resolves.toMatchObject({ user: { nickname: 'New name' } })
    expect(sessionSnapshot().user?.nickname).toBe('New name')
  })

  it('publishes signed-out when the start-up fails (offline) and nothing is stored', async () => {
    const client = { initialize: () => Promise.reject(new Error('offline')), userInfo: () => user('', false), accounts: () => [] } as unknown as IdentityClient
    await expect(loadSession(client)).resolves.toMatchObject({ status: 'signed-out', user: null })
  })

  it('listens to storage changes of this app only', () => {
    expect(isSessionStorageKey('cumulus-web:current_account')).toBe(true)
    expect(isSessionStorageKey(null)).toBe(true) // localStorage.clear() in another tab
    expect(isSessionStorageKey('cumulus-color-mode')).toBe(false)
  })

  // A tab reloading its session on another tab's provider sign-in would run the SDK's start-up,
  // which takes the pending sign-in away from that tab's callback page.
  it('ignores a provider sign-in starting in another tab', () => {
    expect(isSessionStorageKey('cumulus-web:pending_provider')).toBe(false)
  })

  it('starts no session load while a provider redirect is being completed, and starts it once that settles', async () => {
    const { client, initialize, resolveNext } = controllableClient()
    let finish!: () => void
    holdSessionLoads(new Promise<void>((_resolve, reject) => (finish = () => reject(new Error('refused')))))
    const loaded = loadSession(client)
    await Promise.resolve()
    expect(initialize).not.toHaveBeenCalled()
    finish()
    await vi.waitFor(() => expect(initialize).toHaveBeenCalledTimes(1))
    resolveNext(user('Ann'))
    await expect(loaded).resolves.toMatchObject({ status: 'signed-in' })
  })
})
