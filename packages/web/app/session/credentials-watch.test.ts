import { WEB_CLIENT_ID } from '@cumulus/protocol'
import { MemoryStorage } from '@cumulus/sdk'
import { describe, expect, it, vi } from 'vitest'
import { watchCredentials } from './credentials-watch'

describe('watchCredentials', () => {
  it('tells after an account’s credentials are dropped, and only then', async () => {
    const inner = new MemoryStorage()
    const removed = vi.fn()
    const storage = watchCredentials(inner, removed)
    const key = `${WEB_CLIENT_ID}:credentials:u-1`
    storage.setItem(key, '{"access_token":"a"}')
    storage.setItem(`${WEB_CLIENT_ID}:captcha`, 'c')
    expect(storage.getItem(key)).toBe('{"access_token":"a"}')
    storage.removeItem(`${WEB_CLIENT_ID}:captcha`)
    storage.removeItem(`${WEB_CLIENT_ID}:credentials:never-stored`)
    storage.removeItem('other-app:credentials:u-1')
    await Promise.resolve()
    expect(removed).not.toHaveBeenCalled()

    storage.removeItem(key)
    // Not inside the SDK's own call: after it, once the SDK has finished its writes.
    expect(removed).not.toHaveBeenCalled()
    await Promise.resolve()
    expect(removed).toHaveBeenCalledTimes(1)
    expect(inner.getItem(key)).toBeNull()
  })
})
