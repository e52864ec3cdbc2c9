import type { CaptchaChallenge, CaptchaResult } from '@cumulus/sdk'

/**
 * Connects the SDK's `onCaptcha` callback to the captcha overlay component: the SDK asks for a
 * challenge, the overlay (mounted once in the default layout) shows it in a frame, and settles
 * the request with the token or with null when the user closes it (the SDK then cancels the call).
 */

export interface CaptchaRequest {
  /** The challenge page URL from the service. */
  url: string
  action: string
  expiresIn: number
}

type Listener = () => void

let current: (CaptchaRequest & { settle(result: CaptchaResult | null): void }) | null = null
const listeners = new Set<Listener>()

function emit(): void {
  for (const listener of listeners) listener()
}

/** The SDK's `onCaptcha`: resolves when the overlay settles. A new request cancels an older one. */
export function presentCaptcha(url: string, challenge: CaptchaChallenge): Promise<CaptchaResult | null> {
  current?.settle(null)
  return new Promise((resolve) => {
    const request = {
      url,
      action: challenge.action,
      expiresIn: challenge.expiresIn,
      settle(result: CaptchaResult | null) {
        if (current === request) current = null
        resolve(result)
        emit()
      },
    }
    current = request
    emit()
  })
}

export function currentCaptchaRequest(): CaptchaRequest | null {
  return current
}

/** Settles the pending request: a token from the frame, or null when the user closed it. */
export function settleCaptcha(result: CaptchaResult | null): void {
  current?.settle(result)
}

export function subscribeCaptcha(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
