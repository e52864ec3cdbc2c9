import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { FEATURE_ICONS } from '../components/marketing/feature-grid'
import { ServerIllustration } from '../components/marketing/illustrations'
import { textLinkClass } from '../components/marketing/link-styles'
import { PageTitle } from '../components/page-title'
import { useT } from '../i18n/use-locale'
import { LocaleLink, usePagePath } from '../navigation/locale-link'
import { usePublicConfig } from '../root'

export default function AboutPage() {
  const { t } = useT()
  const path = usePagePath()
  const { accountDeletionGraceDays } = usePublicConfig()

  return (
    <>
      <PageTitle title={t('pages.about.title')} description={t('pages.about.description')} />

      <section aria-labelledby="about-title" className="border-b border-slate-200/70 bg-gradient-to-b from-brand-50/70 to-white dark:border-slate-800 dark:from-slate-900 dark:to-slate-950">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-16 sm:px-6 sm:py-20 md:grid-cols-[1.4fr_1fr]">
          <div>
            <h1 id="about-title" className="text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl dark:text-white">
              {t('pages.about.heading')}
            </h1>
            <p className="mt-6 max-w-2xl text-lg leading-relaxed text-slate-600 dark:text-slate-300">{t('pages.about.lead')}</p>
          </div>
          <ServerIllustration label={t('pages.about.illustration')} className="mx-auto w-64 md:w-full md:max-w-sm" />
        </div>
      </section>

      <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
        <AboutSection id="about-product" icon={FEATURE_ICONS.drive} title={t('pages.about.product.heading')}>
          <p>{t('pages.about.product.body')}</p>
          <div className="rounded-xl border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-slate-800 dark:border-brand-800 dark:bg-brand-900/30 dark:text-slate-100">
            <p>{t('pages.about.product.today')}</p>
            <LocaleLink page="drive" className={`${textLinkClass} mt-2 inline-block`}>
              {t('pages.about.product.openDrive')}
            </LocaleLink>
          </div>
        </AboutSection>

        <AboutSection id="about-self-host" icon={FEATURE_ICONS.server} title={t('pages.about.selfHost.heading')}>
          <p>{t('pages.about.selfHost.body')}</p>
          <figure>
            <figcaption className="mb-2 text-sm font-medium text-slate-700 dark:text-slate-200">{t('pages.about.selfHost.commandLabel')}</figcaption>
            <pre className="overflow-x-auto rounded-xl bg-slate-900 px-4 py-3 text-sm text-slate-100 ring-1 ring-slate-800 dark:bg-black/60">
              <code>npm ci && npm start</code>
            </pre>
          </figure>
          <p>
            <Link to={`${path('newbie-guide')}#cli`} className={textLinkClass}>
              {t('pages.about.selfHost.guideLink')}
            </Link>
          </p>
        </AboutSection>

        <AboutSection id="about-privacy" icon={FEATURE_ICONS.lock} title={t('pages.about.privacy.heading')}>
          <ul className="space-y-3">
            {[t('pages.about.privacy.server'), t('pages.about.privacy.noTrackers'), t('pages.about.privacy.passwords'), t('pages.about.privacy.deletion', { days: accountDeletionGraceDays })].map((item) => (
              <li key={item} className="flex gap-3">
                <CheckIcon />
                <span>{item}</span>
              </li>
            ))}
          </ul>
        </AboutSection>

        <AboutSection id="about-protocols" icon={FEATURE_ICONS.protocol} title={t('pages.about.protocols.heading')} last>
          <p>{t('pages.about.protocols.body')}</p>
          <ul className="space-y-3">
            {[t('pages.about.protocols.items.identity'), t('pages.about.protocols.items.drive'), t('pages.about.protocols.items.upload')].map((item) => (
              <li key={item} className="flex gap-3">
                <CheckIcon />
                <span>{item}</span>
              </li>
            ))}
          </ul>
        </AboutSection>
      </div>
    </>
  )
}

function AboutSection({ id, icon, title, children, last = false }: { id: string; icon: ReactNode; title: string; children: ReactNode; last?: boolean }) {
  return (
    <section aria-labelledby={id} className={last ? '' : 'mb-14 border-b border-slate-200 pb-14 dark:border-slate-800'}>
      <div className="flex items-center gap-3">
        <span className="inline-flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700 ring-1 ring-inset ring-brand-100 dark:bg-brand-900/50 dark:text-brand-200 dark:ring-brand-800">{icon}</span>
        <h2 id={id} className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">
          {title}
        </h2>
      </div>
      <div className="mt-6 space-y-5 leading-relaxed text-slate-700 dark:text-slate-300">{children}</div>
    </section>
  )
}

function CheckIcon() {
  return (
    <svg viewBox="0 0 20 20" className="mt-1 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M4 10.5l4 4 8-9" />
    </svg>
  )
}
