import * as Dialog from '@radix-ui/react-dialog'
import { CAPTCHA_FRAME } from '@cumulus/protocol'
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react'
import { currentCaptchaRequest, settleCaptcha, subscribeCaptcha } from '../../captcha/captcha-store'
import { useLocale, useT } from '../../i18n/use-locale'
import { Spinner } from '../ui/spinner'
import { CAPTCHA_MESSAGE_TYPE, challengeFor } from './captcha-challenge'

/**
 * The captcha overlay's dialog (spec 2 and 4), loaded with Radix Dialog when the first request
 * arrives (captcha-overlay.tsx): when the SDK needs a human check, the service's challenge
 * page opens in a frame of 320×430 px (full screen on smaller screens). Its result arrives by
 * postMessage; only a message from the page's origin carrying this request's random `state`
 * counts, so another frame or window cannot slip in a token. Closing settles null, which makes
 * the SDK fail the call `cancelled`.
 */
export function CaptchaDialog() {
  const { t } = useT()
  const locale = useLocale()
  const request = useSyncExternalStore(subscribeCaptcha, currentCaptchaRequest, () => null)
  const challenge = useMemo(() => (request ? challengeFor(request, locale, window.location.href) : null), [request, locale])
  const [loaded, setLoaded] = useState(false)

  useEffect(() => {
    setLoaded(false)
    if (!challenge) return
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; state?: unknown; captcha_token?: unknown; expires_in?: unknown } | null
      if (event.origin !== challenge.origin || !data || data.type !== CAPTCHA_MESSAGE_TYPE || data.state !== challenge.state) return
      const expiresIn = Number(data.expires_in)
      if (typeof data.captcha_token !== 'string' || data.captcha_token === '' || !Number.isFinite(expiresIn)) return
      settleCaptcha({ captchaToken: data.captcha_token, expiresIn })
    }
    window.addEventListener('message', onMessage)
    return () => window.removeEventListener('message', onMessage)
  }, [challenge])

  return (
    <Dialog.Root
      open={challenge !== null}
      onOpenChange={(open) => {
        if (!open) settleCaptcha(null)
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-slate-950/70 backdrop-blur-sm" />
        <Dialog.Content
          aria-describedby={undefined}
          data-testid="captcha-overlay"
          style={{ width: CAPTCHA_FRAME.widthPx, height: CAPTCHA_FRAME.heightPx }}
          // On screens smaller than the frame it fills the screen (spec 9); `!` beats the inline size.
          className="fixed top-1/2 left-1/2 z-[60] -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white shadow-2xl ring-1 ring-slate-900/10 max-[320px]:inset-0! max-[320px]:h-dvh! max-[320px]:w-screen! max-[320px]:translate-x-0! max-[320px]:translate-y-0! max-[320px]:rounded-none [@media(max-height:429px)]:inset-0! [@media(max-height:429px)]:h-dvh! [@media(max-height:429px)]:w-screen! [@media(max-height:429px)]:translate-x-0! [@media(max-height:429px)]:translate-y-0! [@media(max-height:429px)]:rounded-none dark:bg-slate-900 dark:ring-white/10"
        >
          <Dialog.Title className="sr-only">{t('auth.captcha.title')}</Dialog.Title>
          {challenge && !loaded ? (
            <div className="absolute inset-0 flex items-center justify-center text-brand-600 dark:text-brand-300">
              <Spinner className="size-8" />
            </div>
          ) : null}
          {challenge ? (
            <iframe
              key={challenge.state}
              src={challenge.src}
              title={t('auth.captcha.frameTitle')}
              width={CAPTCHA_FRAME.widthPx}
              height={CAPTCHA_FRAME.heightPx}
              onLoad={() => setLoaded(true)}
              className="relative size-full overflow-hidden rounded-[inherit] border-0"
            />
          ) : null}
          <Dialog.Close
            aria-label={t('auth.captcha.close')}
            title={t('auth.captcha.close')}
            className="absolute right-0 bottom-full mb-2 inline-flex size-9 items-center justify-center rounded-full bg-white text-slate-700 shadow-md ring-1 ring-slate-900/10 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 max-[320px]:top-2 max-[320px]:right-2 max-[320px]:bottom-auto max-[320px]:mb-0 [@media(max-height:429px)]:top-2 [@media(max-height:429px)]:right-2 [@media(max-height:429px)]:bottom-auto [@media(max-height:429px)]:mb-0 dark:bg-slate-800 dark:text-slate-100 dark:ring-white/10 dark:hover:bg-slate-700"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <path d="M5 5l10 10M15 5L5 15" />
            </svg>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
