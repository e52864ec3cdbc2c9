import type { CaptchaRequest } from '../../captcha/captcha-store'

/** The message the challenge page posts to its parent when the check is passed (docs/sdk.md, Captcha). */
export const CAPTCHA_MESSAGE_TYPE = 'cumulus:captcha'

export interface Challenge {
  src: string
  origin: string
  state: string
}

/** The challenge URL with our `state` (matched on the way back) and the page language. */
export function challengeFor(request: CaptchaRequest, locale: string, base: string): Challenge {
  const page = new URL(request.url, base)
  const state = crypto.randomUUID()
  page.searchParams.set('state', state)
  page.searchParams.set('locale', locale)
  return { src: page.href, origin: page.origin, state }
}
