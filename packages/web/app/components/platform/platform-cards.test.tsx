import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../../test/render'
import { DEFAULT_WEB_PUBLIC_CONFIG, type Platform } from '../../../src/public-config'
import { resetInstallPrompt } from './install-prompt'
import { PlatformCards } from './platform-cards'

const LINKS: Record<Platform, string> = { ...DEFAULT_WEB_PUBLIC_CONFIG.platformLinks }

/** Chromium's install offer, with the visitor's answer to the dialog. */
function fireInstallOffer(outcome: 'accepted' | 'dismissed') {
  const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt: vi.fn(async () => {}),
    userChoice: Promise.resolve({ outcome, platform: 'web' }),
  })
  act(() => {
    window.dispatchEvent(event)
  })
  return event
}

function cardNames() {
  return within(screen.getByTestId('platform-cards'))
    .getAllByRole('heading')
    .map((heading) => heading.textContent)
}

function card(name: string) {
  return screen.getByRole('listitem', { name })
}

afterEach(() => resetInstallPrompt())

describe('PlatformCards', () => {
  it('puts the visitor’s platform first, marked as their device', () => {
    renderPage(<PlatformCards visitor="linux" links={LINKS} />)
    expect(cardNames()).toEqual(['Linux', 'Web', 'Windows', 'macOS', 'Android'])
    expect(within(card('Linux')).getByText('Your device')).toBeDefined()
    expect(within(card('Web')).queryByText('Your device')).toBeNull()
  })

  it('keeps the same order in another language', () => {
    renderPage(<PlatformCards visitor="android" links={LINKS} />, { locale: 'zh-CN' })
    expect(cardNames()).toEqual(['Android', '网页版', 'Windows', 'macOS', 'Linux'])
  })

  it('links page targets in the current locale, and the Linux card to the CLI guide', () => {
    renderPage(<PlatformCards visitor="web" links={LINKS} />, { locale: 'ko' })
    expect(within(card('웹')).getByRole('link', { name: 'Cumulus 열기' }).getAttribute('href')).toBe('/ko/account/home')
    expect(within(card('Linux')).getByRole('link', { name: 'Linux에서 시작하기' }).getAttribute('href')).toBe('/ko/newbie/guide#cli')
  })

  it('links download URLs externally with rel=noopener, and other paths as given', () => {
    const links = { ...LINKS, windows: 'https://downloads.example.org/Cumulus-Setup.exe', macos: '/files/Cumulus.dmg', android: 'javascript:alert(1)' }
    renderPage(<PlatformCards visitor="windows" links={links} />)
    const windows = within(card('Windows')).getByRole('link', { name: 'Download for Windows' })
    expect(windows.getAttribute('href')).toBe('https://downloads.example.org/Cumulus-Setup.exe')
    expect(windows.getAttribute('rel')).toBe('noopener')
    expect(within(card('Windows')).getByText('From downloads.example.org')).toBeDefined()
    expect(within(card('macOS')).getByRole('link', { name: 'Download for macOS' }).getAttribute('href')).toBe('/files/Cumulus.dmg')
    expect(within(card('Android')).queryByRole('link')).toBeNull()
    expect(within(card('Android')).getByText('This server does not offer an app for this platform yet.')).toBeDefined()
  })

  it('shows install instructions for a `pwa` target while the browser makes no install offer', () => {
    renderPage(<PlatformCards visitor="android" links={LINKS} />)
    expect(within(card('Android')).queryByRole('button')).toBeNull()
    expect(within(card('Android')).getByText('How to install')).toBeDefined()
    expect(within(card('Android')).getByText(/tap the ⋮ menu, then Add to Home screen/)).toBeDefined()
  })

  it('offers to install the web app on the visitor’s `pwa` card when the browser allows it', async () => {
    renderPage(<PlatformCards visitor="windows" links={LINKS} />)
    const offer = fireInstallOffer('accepted')
    expect(offer.defaultPrevented).toBe(true)

    // Only the visitor's own card installs; the other `pwa` cards (macOS, Android) explain how.
    expect(screen.getAllByRole('button', { name: 'Install Cumulus' })).toHaveLength(1)
    expect(within(card('macOS')).queryByRole('button')).toBeNull()

    await userEvent.click(within(card('Windows')).getByRole('button', { name: 'Install Cumulus' }))
    expect(offer.prompt).toHaveBeenCalledOnce()
    expect(await within(card('Windows')).findByText('Cumulus is installed on this device')).toBeDefined()
    expect(screen.queryByRole('button', { name: 'Install Cumulus' })).toBeNull()
  })

  it('falls back to instructions when the visitor dismisses the install dialog', async () => {
    renderPage(<PlatformCards visitor="macos" links={LINKS} />)
    const offer = fireInstallOffer('dismissed')
    await userEvent.click(screen.getByRole('button', { name: 'Install Cumulus' }))
    expect(offer.prompt).toHaveBeenCalledOnce()
    expect(await within(card('macOS')).findByText('How to install')).toBeDefined()
    expect(screen.queryByRole('button', { name: 'Install Cumulus' })).toBeNull()
  })
})
