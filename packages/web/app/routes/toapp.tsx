import { type LoaderFunctionArgs, useLoaderData } from 'react-router'
import { Logo } from '../components/logo'
import { PageTitle } from '../components/page-title'
import { visitorPlatformOf } from '../components/platform/detect-platform'
import { useT } from '../i18n/use-locale'
import { usePublicConfig } from '../root'
import { AppOpener } from './toapp-opener'

/** The visitor's platform, for the fallback platform cards. */
export function loader({ request }: LoaderFunctionArgs) {
  return visitorPlatformOf(request)
}

export default function ToappPage() {
  const { t } = useT()
  const { visitorPlatform } = useLoaderData<typeof loader>()
  const { appDeepLink, platformLinks } = usePublicConfig()
  return (
    <>
      <PageTitle title={t('pages.toapp.title')} description={t('pages.toapp.description')} />
      <section aria-labelledby="toapp-title" className="mx-auto max-w-6xl px-4 py-16 text-center sm:px-6 sm:py-24">
        <div className="relative mx-auto size-20">
          <span className="absolute inset-0 animate-ping rounded-3xl [animation-iteration-count:3] bg-brand-400/30 motion-reduce:hidden" aria-hidden="true" />
          <Logo className="relative size-20 drop-shadow-lg" />
        </div>
        {/* The opener names the page (h1): its title follows whether the app opened. */}
        <AppOpener deepLink={appDeepLink} visitor={visitorPlatform} links={platformLinks} />
      </section>
    </>
  )
}
