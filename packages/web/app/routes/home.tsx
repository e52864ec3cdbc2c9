import { type LoaderFunctionArgs, useLoaderData } from 'react-router'
import { FEATURE_ICONS, type Feature, FeatureGrid } from '../components/marketing/feature-grid'
import { DriveIllustration, ServerIllustration } from '../components/marketing/illustrations'
import { heroPrimaryLinkClass, heroSecondaryLinkClass, invertedLinkClass, secondaryLinkClass } from '../components/marketing/link-styles'
import { SectionHeading } from '../components/marketing/section-heading'
import { PageTitle } from '../components/page-title'
import { visitorPlatformOf } from '../components/platform/detect-platform'
import { PlatformCards } from '../components/platform/platform-cards'
import { useT } from '../i18n/use-locale'
import { LocaleLink } from '../navigation/locale-link'
import { usePublicConfig } from '../root'
import { useSession } from '../session/use-session'

/** The visitor's platform, from the request, so the platform cards render in their final order. */
export function loader({ request }: LoaderFunctionArgs) {
  return visitorPlatformOf(request)
}

export default function HomePage() {
  const { t } = useT()
  const { visitorPlatform } = useLoaderData<typeof loader>()
  const { platformLinks } = usePublicConfig()
  const session = useSession().status
  const signedIn = session === 'signed-in'
  // Until the browser has read the session (the server never knows it) the signed-in and
  // signed-out texts both hold their place unseen, so neither flashes for the wrong visitor.
  const untilKnown = session === 'unknown' ? 'invisible' : ''

  const features: Feature[] = [
    { key: 'drive', icon: FEATURE_ICONS.drive, title: t('pages.home.features.drive.title'), body: t('pages.home.features.drive.body'), status: 'available' },
    { key: 'download', icon: FEATURE_ICONS.download, title: t('pages.home.features.download.title'), body: t('pages.home.features.download.body'), status: 'available' },
    { key: 'decompress', icon: FEATURE_ICONS.decompress, title: t('pages.home.features.decompress.title'), body: t('pages.home.features.decompress.body'), status: 'available' },
    { key: 'search', icon: FEATURE_ICONS.search, title: t('pages.home.features.search.title'), body: t('pages.home.features.search.body'), status: 'available' },
    { key: 'vip', icon: FEATURE_ICONS.vip, title: t('pages.home.features.vip.title'), body: t('pages.home.features.vip.body'), status: 'available' },
    { key: 'account', icon: FEATURE_ICONS.account, title: t('pages.home.features.account.title'), body: t('pages.home.features.account.body'), status: 'available' },
  ]

  return (
    <>
      <PageTitle title={t('pages.home.title')} description={t('pages.home.description')} />

      <section aria-labelledby="home-title" className="relative overflow-hidden">
        <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10">
          <div className="absolute -top-40 left-1/2 h-[36rem] w-[56rem] -translate-x-1/2 rounded-full bg-gradient-to-br from-brand-100 via-sky-50 to-transparent opacity-80 blur-3xl dark:from-brand-900/50 dark:via-slate-900 dark:opacity-100" />
        </div>
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pb-16 pt-12 sm:px-6 sm:pt-20 lg:grid-cols-[1.05fr_1fr] lg:pb-24">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full border border-brand-200 bg-white/70 px-3 py-1 text-sm font-semibold text-brand-700 dark:border-brand-800 dark:bg-slate-900/70 dark:text-brand-200">
              <span className="size-2 rounded-full bg-brand-500" aria-hidden="true" />
              {t('pages.home.hero.eyebrow')}
            </p>
            <h1 id="home-title" className="mt-5 text-4xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-5xl lg:text-6xl dark:text-white">
              {t('pages.home.hero.heading')}
            </h1>
            <p className="mt-6 max-w-xl text-lg leading-relaxed text-slate-600 dark:text-slate-300">{t('pages.home.hero.lead')}</p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              {/* The drive for everyone (signed-out visitors sign in on the way): the same link whether or not the session is known yet. */}
              <LocaleLink page="drive" className={heroPrimaryLinkClass} data-testid="hero-drive">
                {t('pages.home.hero.openDrive')}
              </LocaleLink>
              <LocaleLink page="newbie-guide" className={heroSecondaryLinkClass}>
                {t('pages.home.hero.guide')}
              </LocaleLink>
            </div>
            <p className="mt-6 flex max-w-xl gap-2 text-sm text-slate-600 dark:text-slate-300">
              <svg viewBox="0 0 20 20" className="mt-0.5 size-4 shrink-0 text-brand-600 dark:text-brand-300" fill="currentColor" aria-hidden="true">
                <path fillRule="evenodd" d="M18 10a8 8 0 1 1-16 0 8 8 0 0 1 16 0zm-7-4a1 1 0 1 1-2 0 1 1 0 0 1 2 0zM9 9a1 1 0 0 0 0 2v3a1 1 0 0 0 1 1h1a1 1 0 1 0 0-2v-3a1 1 0 0 0-1-1z" />
              </svg>
              {t('pages.home.hero.today')}
            </p>
          </div>
          <DriveIllustration label={t('pages.home.hero.illustration')} className="mx-auto w-full max-w-xl drop-shadow-xl" />
        </div>
      </section>

      <section aria-labelledby="home-features" className="border-t border-slate-200/70 bg-slate-50/70 py-20 dark:border-slate-800 dark:bg-slate-900/40">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <SectionHeading id="home-features" eyebrow={t('pages.home.features.eyebrow')} title={t('pages.home.features.heading')}>
            {t('pages.home.features.intro')}
          </SectionHeading>
          <div className="mt-12">
            <FeatureGrid features={features} />
          </div>
        </div>
      </section>

      <section id="platforms" aria-labelledby="home-platforms" className="scroll-mt-20 py-20">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <SectionHeading id="home-platforms" eyebrow={t('pages.home.platforms.eyebrow')} title={t('pages.home.platforms.heading')}>
            {t('pages.home.platforms.intro')}
          </SectionHeading>
          <div className="mt-12">
            <PlatformCards visitor={visitorPlatform} links={platformLinks} />
          </div>
        </div>
      </section>

      <section aria-labelledby="home-self-host" className="mx-auto max-w-6xl px-4 pb-20 sm:px-6">
        <div className="grid items-center gap-8 overflow-hidden rounded-3xl border border-slate-200 bg-white p-8 shadow-sm sm:p-12 md:grid-cols-[1fr_auto] dark:border-slate-800 dark:bg-slate-900">
          <div>
            <h2 id="home-self-host" className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white">
              {t('pages.home.selfHost.heading')}
            </h2>
            <p className="mt-4 max-w-2xl leading-relaxed text-slate-600 dark:text-slate-300">{t('pages.home.selfHost.body')}</p>
            <LocaleLink page="about" className={`${secondaryLinkClass} mt-6`}>
              {t('pages.home.selfHost.link')}
            </LocaleLink>
          </div>
          <ServerIllustration className="mx-auto w-56 md:w-64" />
        </div>
      </section>

      <section aria-labelledby="home-cta" className="mx-auto max-w-6xl px-4 pb-24 sm:px-6">
        <div className="relative overflow-hidden rounded-3xl bg-gradient-to-br from-brand-700 via-brand-800 to-slate-900 px-8 py-14 text-center shadow-xl sm:px-16">
          <div aria-hidden="true" className="absolute -right-24 -top-24 size-72 rounded-full bg-white/10 blur-2xl" />
          <h2 id="home-cta" className="relative text-3xl font-bold tracking-tight text-white sm:text-4xl">
            {t('pages.home.cta.heading')}
          </h2>
          <p className={`relative mx-auto mt-4 max-w-xl text-lg text-brand-50 ${untilKnown}`}>{signedIn ? t('pages.home.cta.signedIn') : t('pages.home.cta.signedOut')}</p>
          <div className={`relative mt-8 flex justify-center ${untilKnown}`}>
            {signedIn ? (
              <LocaleLink page="drive" className={invertedLinkClass}>
                {t('pages.home.hero.openDrive')}
              </LocaleLink>
            ) : (
              <LocaleLink page="account-login" className={invertedLinkClass}>
                {t('pages.home.hero.signIn')}
              </LocaleLink>
            )}
          </div>
        </div>
      </section>
    </>
  )
}
