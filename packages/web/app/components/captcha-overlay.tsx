import { useState, useSyncExternalStore } from 'react'
import { currentCaptchaRequest, settleCaptcha, subscribeCaptcha } from '../captcha/captcha-store'
import { onDemand, useOnDemand } from './lazy/on-demand'

export { CAPTCHA_MESSAGE_TYPE, challengeFor } from './lazy/captcha-challenge'

const dialog = onDemand(() => import('./lazy/captcha-dialog'))

/**
 * The captcha overlay (spec 2 and 4), mounted once in the default layout. Only the store
 * subscription is part of the page; the dialog (lazy/captcha-dialog.tsx, with Radix Dialog) is
 * fetched when the SDK first asks for a check, and stays mounted from then on. Should its chunk
 * fail to arrive, the request is settled null (the SDK fails the call `cancelled`, which the
 * form reports) and the next request tries again.
 */
export function CaptchaOverlay() {
  const request = useSyncExternalStore(subscribeCaptcha, currentCaptchaRequest, () => null)
  const [wanted, setWanted] = useState(false)
  if (request && !wanted) setWanted(true)
  const loaded = useOnDemand(dialog, wanted, () => {
    setWanted(false)
    settleCaptcha(null)
  })
  return loaded ? <loaded.CaptchaDialog /> : null
}
