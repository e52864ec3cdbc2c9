import { useEffect, useState } from 'react'
import { type LoaderFunctionArgs, useLoaderData } from 'react-router'
import { onDemand, useOnDemand } from '../components/lazy/on-demand'
import { CloudDownloadIllustration } from '../components/marketing/illustrations'
import { SectionHeading } from '../components/marketing/section-heading'
import { PageTitle } from '../components/page-title'
import { visitorPlatformOf } from '../components/platform/detect-platform'
import { PlatformCards } from '../components/platform/platform-cards'
import { Alert } from '../components/ui/alert'
import { Button } from '../components/ui/button'
import { Spinner } from '../components/ui/spinner'
import type { DriveApi } from '../drive/drive-api'
import { loadDriveApi } from '../drive/drive-client'
import { useLocale, useT } from '../i18n/use-locale'
import { type RouteHandle, usePublicConfig } from '../root'
import { useSession } from '../session/use-session'
import { ThunderLinkBox } from './thunder-link-box'

/** The cloud-download landing page is designed for the dark theme only. */
export const handle: RouteHandle = { colorMode: 'dark' }

/** The visitor's platform, from the request, so the platform cards render in their final order. */
export function loader({ request }: LoaderFunctionArgs) {
  return visitorPlatformOf(request)
}

/** The downloader (adding, previews, the task list) comes with the drive client, after sign-in only. */
const offlineDownloads = onDemand(() => import('../thunder/offline-downloads'))

/**
 * A signed-in visitor's downloader: the drive client (the SDK's drive chunk) and the offline
 * downloads module load on demand, so signed-out visitors download neither.
 */
function SignedInDownloads({ accountId }: { accountId: string }) {
  const { t } = useT()
  const locale = useLocale()
  const [api, setApi] = useState<DriveApi | null>(null)
  const [failed, setFailed] = useState(false)
  const [attempt, setAttempt] = useState(0)
  const module = useOnDemand(offlineDownloads, !failed, () => setFailed(true))
  useEffect(() => {
    let live = true
    loadDriveApi(locale).then(
      (client) => live && setApi(client),
      () => live && setFailed(true),
    )
    return () => {
      live = false
    }
  }, [locale, attempt])
  if (failed) {
    return (
      <div className="max-w-xl">
        <Alert tone="error">{t('drive.offline.tasks.loadFailed')}</Alert>
        <Button
          variant="secondary"
          className="mt-3"
          onClick={() => {
            setFailed(false)
            setAttempt((n) => n + 1)
          }}
        >
          {t('drive.offline.tasks.reload')}
        </Button>
      </div>
    )
  }
  if (!api || !module) {
    return (
      <div role="status" className="flex items-center gap-2 py-8 text-sm text-slate-300">
        <Spinner className="size-4" />
        {t('drive.offline.tasks.loading')}
      </div>
    )
  }
  // Keyed by account: after switching accounts nothing of the previous one's downloads stays.
  return <module.OfflineDownloads key={accountId} api={api} />
}

const STEPS = ['paste', 'fetch', 'enjoy'] as const
const KINDS = ['http', 'magnet', 'thunder', 'torrent'] as const

export default function ThunderPage() {
  const { t } = useT()
  const { visitorPlatform } = useLoaderData<typeof loader>()
  const { platformLinks } = usePublicConfig()
  const session = useSession()
  const signedIn = session.status === 'signed-in'

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
            {signedIn ? null : (
              <div className="mt-8">
                <ThunderLinkBox />
              </div>
            )}
          </div>
          <CloudDownloadIllustration label={t('pages.thunder.hero.illustration')} className={`mx-auto hidden w-full lg:block ${signedIn ? 'max-w-xs' : 'max-w-lg'}`} />
        </div>
        {signedIn ? (
          <div className="mx-auto max-w-6xl px-4 pb-16 sm:px-6" data-testid="thunder-downloads">
            <SignedInDownloads accountId={session.user?.userId ?? ''} />
          </div>
        ) : null}
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
