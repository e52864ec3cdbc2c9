import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../test/render'
import { DEFAULT_WEB_PUBLIC_CONFIG } from '../../src/public-config'
import { AppOpener, isOpenableDeepLink, OPEN_APP_FALLBACK_MS } from './toapp-opener'

const LINKS = DEFAULT_WEB_PUBLIC_CONFIG.platformLinks

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state })
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'))
  })
}

describe('isOpenableDeepLink', () => {
  it('allows app schemes and web addresses', () => {
    for (const link of ['cumulus://open', 'cumulus://open?path=%2Fdrive', 'intent://open#Intent;scheme=cumulus;package=org.example.cumulus;end', 'https://app.example.org/open'])
      expect(isOpenableDeepLink(link)).toBe(true)
  })

  it('refuses scripts, local data and garbage', () => {
    for (const link of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,hi', 'vbscript:x', 'file:///etc/passwd', 'blob:https://x/1', 'about:blank', 'not a url', ''])
      expect(isOpenableDeepLink(link)).toBe(false)
  })
})

describe('AppOpener', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  })
  afterEach(() => {
    vi.useRealTimers()
    Reflect.deleteProperty(document, 'visibilityState')
  })

  it('opens the deep link, then offers the platform cards when the app did not take over', () => {
    const open = vi.fn()
    renderPage(<AppOpener deepLink="cumulus://open" visitor="android" links={LINKS} open={open} />, { path: '/toapp' })
    expect(open).toHaveBeenCalledExactlyOnceWith('cumulus://open')
    expect(screen.getByText('If your device asks, allow it to open Cumulus.')).toBeDefined()

    act(() => vi.advanceTimersByTime(OPEN_APP_FALLBACK_MS - 1))
    expect(screen.queryByRole('heading', { name: 'The app did not open' })).toBeNull()
    expect(screen.queryByTestId('platform-cards')).toBeNull()

    act(() => vi.advanceTimersByTime(1))
    expect(screen.getByRole('heading', { name: 'The app did not open' })).toBeDefined()
    expect(screen.getByTestId('platform-cards').querySelector('li')?.getAttribute('data-platform')).toBe('android')
  })

  it('stays quiet when the page is hidden (the app opened)', () => {
    renderPage(<AppOpener deepLink="cumulus://open" visitor="web" links={LINKS} open={vi.fn()} />, { path: '/toapp' })
    setVisibility('hidden')
    act(() => vi.advanceTimersByTime(OPEN_APP_FALLBACK_MS * 2))
    expect(screen.queryByRole('heading', { name: 'The app did not open' })).toBeNull()
    expect(screen.getByText('Cumulus opened in the app. You can close this page.')).toBeDefined()
  })

  it('tries again on request', () => {
    const open = vi.fn()
    renderPage(<AppOpener deepLink="cumulus://open" visitor="web" links={LINKS} open={open} />, { path: '/toapp' })
    act(() => vi.advanceTimersByTime(OPEN_APP_FALLBACK_MS))
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(open).toHaveBeenCalledTimes(2)
    expect(screen.queryByRole('heading', { name: 'The app did not open' })).toBeNull()
    act(() => vi.advanceTimersByTime(OPEN_APP_FALLBACK_MS))
    expect(screen.getByRole('heading', { name: 'The app did not open' })).toBeDefined()
  })

  it('never navigates to an unsafe deep link, and offers the platform cards at once', () => {
    const open = vi.fn()
    renderPage(<AppOpener deepLink="javascript:alert(document.cookie)" visitor="windows" links={LINKS} open={open} />, { path: '/toapp' })
    act(() => vi.advanceTimersByTime(OPEN_APP_FALLBACK_MS))
    expect(open).not.toHaveBeenCalled()
    expect(screen.getByText(/app link is not valid/)).toBeDefined()
    expect(screen.getByTestId('platform-cards')).toBeDefined()
  })
})
