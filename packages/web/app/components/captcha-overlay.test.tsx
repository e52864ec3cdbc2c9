import { CAPTCHA_FRAME } from '@cumulus/protocol'
import type { CaptchaResult } from '@cumulus/sdk'
import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { renderPage } from '../../test/render'
import { presentCaptcha, settleCaptcha } from '../captcha/captcha-store'
import { CaptchaOverlay } from './captcha-overlay'

const challengeUrl = () => `${window.location.origin}/captcha/challenge?challenge=c-1`

/** Asks for a captcha as the SDK does and tracks the outcome. */
function requestCaptcha() {
  const outcome: { settled: boolean; result?: CaptchaResult | null } = { settled: false }
  let promise!: Promise<CaptchaResult | null>
  act(() => {
    promise = presentCaptcha(challengeUrl(), { action: 'POST:/v1/auth/signin', expiresIn: 300 })
  })
  void promise.then((result) => Object.assign(outcome, { settled: true, result }))
  return { outcome, promise }
}

function post(data: unknown, origin = window.location.origin) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin }))
  })
}

const frame = () => screen.getByTitle('Security check challenge') as HTMLIFrameElement
const stateOf = () => new URL(frame().src).searchParams.get('state')

// happy-dom does not load frames; it prints a NotSupportedError per frame on its own console.
afterEach(() => settleCaptcha(null))

describe('CaptchaOverlay', () => {
  it('shows nothing until the SDK asks for a check', () => {
    renderPage(<CaptchaOverlay />)
    expect(screen.queryByTestId('captcha-overlay')).toBeNull()
  })

  it('opens a labelled 320×430 frame of the challenge page with state and locale added', async () => {
    renderPage(<CaptchaOverlay />, { locale: 'ko' })
    requestCaptcha()
    const dialog = await screen.findByRole('dialog', { name: '보안 확인' })
    const container = screen.getByTestId('captcha-overlay')
    expect(container).toBe(dialog)
    expect(container.style.width).toBe(`${CAPTCHA_FRAME.widthPx}px`)
    expect(container.style.height).toBe(`${CAPTCHA_FRAME.heightPx}px`)
    const src = new URL(screen.getByTitle('보안 확인 문제').getAttribute('src')!)
    expect(src.pathname).toBe('/captcha/challenge')
    expect(src.searchParams.get('challenge')).toBe('c-1')
    expect(src.searchParams.get('locale')).toBe('ko')
    expect(src.searchParams.get('state')).toMatch(/^[0-9a-f-]{36}$/)
    expect(screen.getByRole('button', { name: '보안 확인 닫기' })).toBeDefined()
  })

  it('settles with the token of a matching message and closes', async () => {
    renderPage(<CaptchaOverlay />)
    const { promise } = requestCaptcha()
    await screen.findByTestId('captcha-overlay')
    post({ type: 'cumulus:captcha', captcha_token: 'solved-token', expires_in: 300, state: stateOf() })
    await expect(promise).resolves.toEqual({ captchaToken: 'solved-token', expiresIn: 300 })
    expect(screen.queryByTestId('captcha-overlay')).toBeNull()
  })

  it('ignores messages with another state, from another origin, or of another type', async () => {
    renderPage(<CaptchaOverlay />)
    const { outcome, promise } = requestCaptcha()
    await screen.findByTestId('captcha-overlay')
    const state = stateOf()
    post({ type: 'cumulus:captcha', captcha_token: 'forged', expires_in: 300, state: 'guessed-state' })
    post({ type: 'cumulus:captcha', captcha_token: 'forged', expires_in: 300, state }, 'https://evil.example')
    post({ type: 'something-else', captcha_token: 'forged', expires_in: 300, state })
    post({ type: 'cumulus:captcha', captcha_token: '', expires_in: 300, state })
    await Promise.resolve()
    expect(outcome.settled).toBe(false)
    expect(screen.getByTestId('captcha-overlay')).toBeDefined()
    post({ type: 'cumulus:captcha', captcha_token: 'real', expires_in: 120, state })
    await expect(promise).resolves.toEqual({ captchaToken: 'real', expiresIn: 120 })
  })

  it('settles null when the user closes it', async () => {
    renderPage(<CaptchaOverlay />)
    const { promise } = requestCaptcha()
    await userEvent.click(await screen.findByRole('button', { name: 'Close the security check' }))
    await expect(promise).resolves.toBeNull()
    expect(screen.queryByTestId('captcha-overlay')).toBeNull()
  })

  it('settles null on Escape', async () => {
    renderPage(<CaptchaOverlay />)
    const { promise } = requestCaptcha()
    await screen.findByTestId('captcha-overlay')
    await userEvent.keyboard('{Escape}')
    await expect(promise).resolves.toBeNull()
  })
})
