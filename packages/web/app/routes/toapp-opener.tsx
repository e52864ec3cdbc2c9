import { useEffect, useState } from 'react'
import type { Platform } from '../../src/public-config'
import { PlatformCards } from '../components/platform/platform-cards'
import { Button } from '../components/ui/button'
import { Spinner } from '../components/ui/spinner'
import { secondaryLinkClass } from '../components/marketing/link-styles'
import { useT } from '../i18n/use-locale'
import { LocaleLink } from '../navigation/locale-link'
import { resolveNavigationTarget, UNSAFE_SCHEMES } from '../navigation/safe-navigation'

/** How long the page waits for the app to take over before it offers the platform cards. */
export const OPEN_APP_FALLBACK_MS = 1500


/**
 * Whether the configured deep link may be opened. It is an explicitly allowed external
 * navigation (spec 2), but only to an app scheme (`cumulus://open`, `intent://…`) or a web
 * address (Android App Links, iOS Universal Links), never to a script or a local file.
 */
export function isOpenableDeepLink(link: string): boolean {
  let url: URL
  try {
    url = new URL(link.trim())
  } catch {
    return false
  }
  return !UNSAFE_SCHEMES.has(url.protocol.toLowerCase())
}

/** Opens the deep link: the one explicitly allowed external navigation of the app (spec 2). */
function openExternal(link: string): void {
  const target = resolveNavigationTarget(link, window.location.origin, { external: true })
  if (target.kind === 'external') window.location.assign(target.url)
  else if (target.kind === 'internal') window.location.assign(target.path)
}

type Phase = 'opening' | 'left' | 'fallback' | 'invalid'

export interface AppOpenerProps {
  deepLink: string
  visitor: Platform
  links: Record<Platform, string>
  /** Opens the deep link; the browser's `location.assign` by default (tests pass a spy). */
  open?: (link: string) => void
}

/**
 * The page's h1 and the app opening. Opens the native app after hydration. When the page is still visible 1.5 s later the app
 * did not take over (not installed, or the visitor declined), so the platform cards appear;
 * "Try again" repeats the attempt.
 */
export function AppOpener({ deepLink, visitor, links, open = openExternal }: AppOpenerProps) {
  const { t } = useT()
  const openable = isOpenableDeepLink(deepLink)
  const [phase, setPhase] = useState<Phase>(openable ? 'opening' : 'invalid')
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    if (!openable) return
    setPhase('opening')
    let timer: ReturnType<typeof setTimeout> | undefined
    // The app taking over hides the page (or, on some browsers, unloads it).
    const onHidden = () => {
      if (document.visibilityState !== 'hidden') return
      clearTimeout(timer)
      setPhase('left')
    }
    document.addEventListener('visibilitychange', onHidden)
    window.addEventListener('pagehide', onHidden)
    timer = setTimeout(() => setPhase((current) => (current === 'opening' ? 'fallback' : current)), OPEN_APP_FALLBACK_MS)
    open(deepLink.trim())
    return () => {
      clearTimeout(timer)
      document.removeEventListener('visibilitychange', onHidden)
      window.removeEventListener('pagehide', onHidden)
    }
    // `open` is stable for the page's life; a new attempt is a new `attempt`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [deepLink, openable, attempt])

  const retry = (
    <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
      <Button onClick={() => setAttempt((n) => n + 1)}>{t('pages.toapp.tryAgain')}</Button>
      <LocaleLink page="index" className={secondaryLinkClass}>
        {t('pages.toapp.continueWeb')}
      </LocaleLink>
    </div>
  )

  return (
    <>
      <h1 id="toapp-title" className="mt-8 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
        {phase === 'fallback' || phase === 'invalid' ? t('pages.toapp.fallbackHeading') : t('pages.toapp.heading')}
      </h1>
      <div role="status" className="mx-auto mt-4 max-w-xl text-lg text-slate-600 dark:text-slate-300">
        {phase === 'opening' ? (
          <span className="inline-flex items-center gap-3">
            <Spinner className="size-5 text-brand-600 dark:text-brand-300" />
            {t('pages.toapp.opening')}
          </span>
        ) : phase === 'left' ? (
          t('pages.toapp.left')
        ) : phase === 'invalid' ? (
          t('pages.toapp.invalid')
        ) : (
          t('pages.toapp.fallbackBody')
        )}
      </div>
      {phase === 'left' || phase === 'fallback' ? retry : null}
      {phase === 'fallback' || phase === 'invalid' ? (
        <section aria-labelledby="toapp-platforms" className="mt-14 text-left">
          <h2 id="toapp-platforms" className="mb-6 text-center text-xl font-semibold tracking-tight text-slate-900 dark:text-white">
            {t('pages.toapp.platformsHeading')}
          </h2>
          <PlatformCards visitor={visitor} links={links} />
        </section>
      ) : null}
    </>
  )
}
