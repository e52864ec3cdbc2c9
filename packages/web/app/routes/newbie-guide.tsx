import type { ComponentType, ReactNode } from 'react'
import { Link } from 'react-router'
import { AccountIllustration, ArchiveIllustration, DevicesIllustration, LinkIllustration, UploadIllustration } from '../components/marketing/illustrations'
import { secondaryLinkClass, textLinkClass } from '../components/marketing/link-styles'
import { type FeatureStatus, StatusBadge } from '../components/marketing/status-badge'
import { PageTitle } from '../components/page-title'
import { useT } from '../i18n/use-locale'
import { LocaleLink, usePagePath } from '../navigation/locale-link'
import { useSession } from '../session/use-session'

type StepKey = 'account' | 'upload' | 'link' | 'unpack' | 'install'

const STEPS: { key: StepKey; status: FeatureStatus; Illustration: ComponentType<{ label?: string; className?: string }> }[] = [
  { key: 'account', status: 'available', Illustration: AccountIllustration },
  { key: 'upload', status: 'available', Illustration: UploadIllustration },
  { key: 'link', status: 'available', Illustration: LinkIllustration },
  { key: 'unpack', status: 'available', Illustration: ArchiveIllustration },
  { key: 'install', status: 'available', Illustration: DevicesIllustration },
]

/** The operator commands of packages/server (run-cli.ts USAGE), as the README shows them. */
const CLI_COMMANDS = [
  { key: 'serve', command: 'npm run cumulus -- serve' },
  { key: 'create', command: "npm run cumulus -- user create --email ann@example.com --password 'S3cure-passphrase' --name Ann" },
  { key: 'list', command: 'npm run cumulus -- user list --limit 50 --offset 0 --json' },
  { key: 'grantVip', command: 'npm run cumulus -- user grant-vip ann@example.com --days 30' },
  { key: 'restore', command: 'npm run cumulus -- user restore ann@example.com' },
  { key: 'help', command: 'npm run cumulus -- help' },
] as const

export default function NewbieGuidePage() {
  const { t } = useT()
  const path = usePagePath()
  const session = useSession().status

  const actions: Partial<Record<StepKey, ReactNode>> = {
    // Until the browser has read the session, no link: neither "sign in" for a signed-in user nor the reverse.
    account: session === 'unknown' ? null : session === 'signed-in' ? (
      <LocaleLink page="account-home" className={secondaryLinkClass}>
        {t('pages.guide.account.accountAction')}
      </LocaleLink>
    ) : (
      <LocaleLink page="account-login" className={secondaryLinkClass}>
        {t('pages.guide.account.action')}
      </LocaleLink>
    ),
    upload: (
      <LocaleLink page="drive" className={secondaryLinkClass}>
        {t('pages.guide.upload.action')}
      </LocaleLink>
    ),
    link: (
      <LocaleLink page="thunder" className={secondaryLinkClass}>
        {t('pages.guide.link.action')}
      </LocaleLink>
    ),
    install: (
      <Link to={`${path('index')}#platforms`} className={secondaryLinkClass}>
        {t('pages.guide.install.action')}
      </Link>
    ),
  }

  return (
    <>
      <PageTitle title={t('pages.guide.title')} description={t('pages.guide.description')} />

      <section aria-labelledby="guide-title" className="border-b border-slate-200/70 bg-gradient-to-b from-brand-50/70 to-white dark:border-slate-800 dark:from-slate-900 dark:to-slate-950">
        <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6 sm:py-20">
          <h1 id="guide-title" className="text-4xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-5xl dark:text-white">
            {t('pages.guide.heading')}
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg leading-relaxed text-slate-600 dark:text-slate-300">{t('pages.guide.lead')}</p>
          <nav aria-labelledby="guide-contents" className="mx-auto mt-10 max-w-3xl">
            <h2 id="guide-contents" className="sr-only">
              {t('pages.guide.contents')}
            </h2>
            <ol className="flex flex-wrap justify-center gap-2">
              {STEPS.map(({ key }, index) => (
                <li key={key}>
                  <a href={`#step-${key}`} className="inline-flex items-center gap-2 rounded-full border border-slate-200 bg-white px-3.5 py-1.5 text-sm font-medium text-slate-700 hover:border-brand-300 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:border-brand-700 dark:hover:text-brand-200">
                    <span className="text-xs font-bold text-brand-700 dark:text-brand-300">{index + 1}</span>
                    {t(`pages.guide.${key}.title`)}
                  </a>
                </li>
              ))}
              <li>
                <a href="#cli" className="inline-flex items-center gap-2 rounded-full border border-slate-200 bg-white px-3.5 py-1.5 text-sm font-medium text-slate-700 hover:border-brand-300 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:border-brand-700 dark:hover:text-brand-200">
                  <span className="font-mono text-xs font-bold text-brand-700 dark:text-brand-300" aria-hidden="true">
                    &gt;_
                  </span>
                  {t('pages.guide.cli.title')}
                </a>
              </li>
            </ol>
          </nav>
        </div>
      </section>

      <ol className="mx-auto max-w-5xl px-4 py-16 sm:px-6">
        {STEPS.map(({ key, status, Illustration }, index) => (
          <li key={key} id={`step-${key}`} aria-labelledby={`step-${key}-title`} className="scroll-mt-24 border-b border-slate-200 py-12 first:pt-0 last:border-b-0 dark:border-slate-800">
            <div className={`flex flex-col items-center gap-8 md:flex-row ${index % 2 === 1 ? 'md:flex-row-reverse' : ''}`}>
              <Illustration label={t(`pages.guide.illustrations.${key}`)} className="w-56 shrink-0 sm:w-64" />
              <div className="flex-1">
                <div className="flex flex-wrap items-center gap-3">
                  <span className="text-sm font-bold uppercase tracking-wider text-brand-700 dark:text-brand-300">{t('pages.guide.step', { number: index + 1 })}</span>
                  <StatusBadge status={status} />
                </div>
                <h2 id={`step-${key}-title`} className="mt-3 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white">
                  {t(`pages.guide.${key}.title`)}
                </h2>
                <p className="mt-4 leading-relaxed text-slate-600 dark:text-slate-300">{t(`pages.guide.${key}.body`)}</p>
                {actions[key] ? <div className="mt-6">{actions[key]}</div> : null}
              </div>
            </div>
          </li>
        ))}
      </ol>

      <section id="cli" aria-labelledby="cli-title" className="scroll-mt-20 border-t border-slate-200 bg-slate-50 py-16 dark:border-slate-800 dark:bg-slate-900/50">
        <div className="mx-auto max-w-5xl px-4 sm:px-6">
          <div className="flex items-center gap-3">
            <span className="inline-flex size-11 items-center justify-center rounded-xl bg-slate-900 font-mono text-sm font-bold text-emerald-300 dark:bg-black" aria-hidden="true">
              &gt;_
            </span>
            <h2 id="cli-title" className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white">
              {t('pages.guide.cli.title')}
            </h2>
          </div>
          <p className="mt-5 max-w-3xl leading-relaxed text-slate-600 dark:text-slate-300">{t('pages.guide.cli.intro')}</p>
          <h3 className="mt-10 text-lg font-semibold text-slate-900 dark:text-white">{t('pages.guide.cli.commandsLabel')}</h3>
          <dl className="mt-4 divide-y divide-slate-800 overflow-hidden rounded-2xl bg-slate-950 ring-1 ring-slate-800">
            {CLI_COMMANDS.map(({ key, command }) => (
              <div key={key} className="px-5 py-4">
                <dt>
                  <code className="whitespace-pre-wrap break-all font-mono text-sm text-emerald-300">
                    <span className="select-none text-slate-400" aria-hidden="true">
                      ${' '}
                    </span>
                    {command}
                  </code>
                </dt>
                <dd className="mt-1.5 text-sm text-slate-300">{t(`pages.guide.cli.commands.${key}`)}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-6 max-w-3xl text-sm leading-relaxed text-slate-600 dark:text-slate-300">{t('pages.guide.cli.note')}</p>
          <p className="mt-6">
            <LocaleLink page="about" className={textLinkClass}>
              {t('pages.about.heading')}
            </LocaleLink>
          </p>
        </div>
      </section>
    </>
  )
}
