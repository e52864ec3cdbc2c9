import { type LoaderFunctionArgs, useLoaderData } from 'react-router'
import { CloudDownloadIllustration } from '../components/marketing/illustrations'
import { SectionHeading } from '../components/marketing/section-heading'
import { PageTitle } from '../components/page-title'
import { visitorPlatformOf } from '../components/platform/detect-platform'
import { PlatformCards } from '../components/platform/platform-cards'
import { useT } from '../i18n/use-locale'
import { type RouteHandle, usePublicConfig } from '../root'
import { useSession } from '../session/use-session'
import { ThunderLinkBox } from './thunder-link-box'

/** The cloud-download landing page is designed for the dark theme only. */
export const handle: RouteHandle = { colorMode: 'dark' }

/** The visitor's platform, from the request, so the platform cards render in their final order. */
export function loader({ request }: LoaderFunctionArgs) {
  return visitorPlatformOf(request)
}

const STEPS = ['paste', 'fetch', 'enjoy'] as const
const KINDS = ['http', 'ftp', 'magnet', 'ed2k', 'thunder'] as const

export default function ThunderPage() {
  const { t } = useT()
  const { visitorPlatform } = useLoaderData<typeof loader>()
  const { platformLinks } = usePublicConfig()
  const session = useSession()

  return (
    <>
      <PageTitle title={t('pages.thunder.title')} description={t('pages.thunder.description')} />

      <section aria-labelledby="thunder-title" className="relative isolate overflow-hidden">
        <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10 bg-gradient-to-b from-slate-950 via-[#0b1433] to-slate-950">
          <div className="absolute left-1/2 top-[-12rem] h-[34rem] w-[60rem] -translate-x-1/2 rounded-full bg-brand-600/25 blur-3xl" />
          <div className="absolute bottom-0 right-[-8rem] h-80 w-80 rounded-full bg-violet-600/15 blur-3xl" />
        </div>
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 pb-16 pt-12 sm:px-6 sm:pt-20 lg:grid-cols-[1.15fr_1fr]">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wider text-brand-300">{t('pages.thunder.hero.eyebrow')}</p>
            <h1 id="thunder-title" className="mt-3 text-4xl font-extrabold tracking-tight text-balance text-white sm:text-5xl">
              {t('pages.thunder.hero.heading')}
            </h1>
            <p className="mt-5 max-w-xl text-lg leading-relaxed text-slate-300">{t('pages.thunder.hero.lead')}</p>
            <p className="mt-6 flex max-w-xl gap-2 rounded-xl border border-amber-400/30 bg-amber-400/10 px-4 py-3 text-sm text-amber-100">
              <svg viewBox="0 0 20 20" className="mt-0.5 size-4 shrink-0" fill="currentColor" aria-hidden="true">
                <path fillRule="evenodd" d="M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16zm.75-12.25a.75.75 0 0 0-1.5 0v4.5a.75.75 0 0 0 1.5 0zM10 14.5a1 1 0 1 0 0-2 1 1 0 0 0 0 2z" />
              </svg>
              {t('pages.thunder.hero.later')}
            </p>
            <div className="mt-8">
              <ThunderLinkBox sessionStatus={session.status} />
            </div>
          </div>
          <CloudDownloadIllustration label={t('pages.thunder.hero.illustration')} className="mx-auto hidden w-full max-w-lg lg:block" />
        </div>
      </section>

      <section aria-labelledby="thunder-steps" className="border-t border-slate-800 py-20">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <SectionHeading id="thunder-steps" title={t('pages.thunder.steps.heading')} />
          <ol className="mt-12 grid gap-5 md:grid-cols-3">
            {STEPS.map((step, index) => (
              <li key={step} className="relative rounded-2xl border border-slate-800 bg-slate-900/70 p-6">
                <span className="inline-flex size-10 items-center justify-center rounded-full bg-brand-600 text-base font-bold text-white" aria-hidden="true">
                  {index + 1}
                </span>
                <h3 className="mt-4 text-lg font-semibold text-white">{t(`pages.thunder.steps.${step}.title`)}</h3>
                <p className="mt-2 text-sm leading-relaxed text-slate-300">{t(`pages.thunder.steps.${step}.body`)}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="thunder-kinds" className="border-t border-slate-800 bg-slate-900/40 py-20">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <SectionHeading id="thunder-kinds" title={t('pages.thunder.kinds.heading')} />
          <ul className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
            {KINDS.map((kind) => (
              <li key={kind} className="rounded-2xl border border-slate-800 bg-slate-950/60 p-5">
                <h3 className="font-mono text-sm font-semibold text-brand-200">{t(`pages.thunder.kinds.${kind}.title`)}</h3>
                <p className="mt-2 text-sm leading-relaxed text-slate-300">{t(`pages.thunder.kinds.${kind}.body`)}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="thunder-platforms" className="border-t border-slate-800 py-20">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <SectionHeading id="thunder-platforms" title={t('pages.thunder.platforms.heading')}>
            {t('pages.thunder.platforms.intro')}
          </SectionHeading>
          <div className="mt-12">
            <PlatformCards visitor={visitorPlatform} links={platformLinks} />
          </div>
        </div>
      </section>
    </>
  )
}
