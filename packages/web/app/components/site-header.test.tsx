import type { IdentityClient, UserInfo } from '@cumulus/sdk'
import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../test/render'
import { SiteHeader } from './site-header'

// The browser's session: a start-up that resolves when the test says so.
const mock = vi.hoisted(() => ({ user: null as Partial<UserInfo> | null, release: () => undefined as void, started: 0 }))
vi.mock('../session/identity-client', () => ({
  getIdentityClient: () =>
    ({
      initialize: () => {
        mock.started += 1
        return new Promise((resolve) => {
          mock.release = () => resolve(mock.user)
        })
      },
      userInfo: () => mock.user,
      accounts: () => [],
    }) as unknown as IdentityClient,
}))

const signIn = () => screen.queryByRole('link', { name: 'Sign in' })
const account = () => screen.queryByRole('link', { name: 'My account' })

describe('SiteHeader', () => {
  // Regression (issue 10): /drive rendered a signed-out header ("Sign in") for a signed-in user
  // until the session was read, and the header had no Drive link for a signed-out visitor.
  it('shows neither Sign in nor Account until the session is known, then the right one; Drive always', async () => {
    mock.user = { isLogin: true, userId: 'u1' }
    renderPage(<SiteHeader />, { path: '/drive' })
    expect(signIn()).toBeNull()
    expect(account()).toBeNull()
    expect(screen.getByTestId('session-pending')).toBeDefined()
    expect(screen.getByTestId('header-drive').getAttribute('href')).toBe('/drive')
    await waitFor(() => expect(mock.started).toBe(1))
    await act(async () => mock.release())
    expect(await screen.findByRole('link', { name: 'My account' })).toBeDefined()
    expect(signIn()).toBeNull()
    expect(screen.queryByTestId('session-pending')).toBeNull()

    // Signed out in another tab: Sign in, and still the Drive link (the auth middleware leads to sign-in).
    mock.user = { isLogin: false }
    act(() => window.dispatchEvent(new StorageEvent('storage', { key: null })))
    await act(async () => mock.release())
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeDefined()
    expect(account()).toBeNull()
    expect(screen.getByTestId('header-drive-phone').getAttribute('href')).toBe('/drive')
  })

  it('brings a visitor who signs in from a share page back to the share', async () => {
    // The session was read as signed out by the test above (the store outlives a render).
    mock.user = { isLogin: false }
    renderPage(<SiteHeader />, { path: '/zh-CN/s/VNshare1' })
    await act(async () => mock.release())
    const link = await screen.findByTestId('header-sign-in')
    expect(link.getAttribute('href')).toBe(`/zh-CN/account/login?redirect=${encodeURIComponent('/zh-CN/s/VNshare1')}`)
  })
})
