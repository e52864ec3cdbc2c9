import { useState } from 'react'
import { Link } from 'react-router'
import type { Platform } from '../../../src/public-config'
import { useLocale, useT } from '../../i18n/use-locale'
import { Button } from '../ui/button'
import { primaryLinkClass, secondaryLinkClass } from '../marketing/link-styles'
import { orderPlatforms } from './detect-platform'
import { type InstallState, useInstallPrompt } from './install-prompt'
import { PlatformIcon } from './platform-icon'
import { type PlatformTarget, resolvePlatformTarget } from './platform-target'

export interface PlatformCardsProps {
  /** The visitor's platform (from the route loader): its card comes first and stands out. */
  visitor: Platform
  /** Each platform's configured target (`usePublicConfig().platformLinks`). */
  links: Record<Platform, string>
  /** The level of each card's heading, one below the section's. */
  headingLevel?: 2 | 3
}

/**
 * The platform cards home and thunder share (spec 2): Web, Windows, macOS, Linux and Android,
 * the visitor's own first. Each leads where the operator configured: a page, a download, another
 * site, or the web app's install offer.
 */
export function PlatformCards({ visitor, links, headingLevel = 3 }: PlatformCardsProps) {
  const locale = useLocale()
  const { state, install } = useInstallPrompt()
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="platform-cards">
      {orderPlatforms(visitor).map((platform) => (
        <PlatformCard
          key={platform}
          platform={platform}
          isVisitor={platform === visitor}
          target={resolvePlatformTarget(links[platform] ?? '', locale)}
          installState={state}
          onInstall={install}
          headingLevel={headingLevel}
        />
      ))}
    </ul>
  )
}

interface PlatformCardProps {
  platform: Platform
  isVisitor: boolean
  target: PlatformTarget
  installState: InstallState
  onInstall: () => Promise<'accepted' | 'dismissed' | 'unavailable'>
  headingLevel: 2 | 3
}

function PlatformCard({ platform, isVisitor, target, installState, onInstall, headingLevel }: PlatformCardProps) {
  const { t } = useT()
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const name = t(`pages.platform.names.${platform}`)
  const headingId = `platform-${platform}-title`
  return (
    <li
      aria-labelledby={headingId}
      data-platform={platform}
      className={
        isVisitor
          ? 'relative flex flex-col gap-5 overflow-hidden rounded-3xl border border-brand-200 bg-gradient-to-br from-brand-50 via-white to-white p-6 shadow-sm ring-1 ring-brand-500/20 sm:col-span-2 sm:flex-row sm:items-center sm:p-8 lg:col-span-4 dark:border-brand-800 dark:from-brand-900/50 dark:via-slate-900 dark:to-slate-900'
          : 'flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition-shadow hover:shadow-md dark:border-slate-800 dark:bg-slate-900'
      }
    >
      <div className={isVisitor ? 'flex flex-1 items-start gap-5' : 'flex flex-1 flex-col gap-4'}>
        <span
          className={`inline-flex shrink-0 items-center justify-center rounded-2xl ${isVisitor ? 'size-14 bg-brand-600 text-white shadow-lg shadow-brand-600/25' : 'size-12 bg-brand-50 text-brand-700 dark:bg-brand-900/60 dark:text-brand-200'}`}
        >
          <PlatformIcon platform={platform} className={isVisitor ? 'size-7' : 'size-6'} />
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <Heading id={headingId} className={`font-semibold tracking-tight text-slate-900 dark:text-white ${isVisitor ? 'text-xl' : 'text-lg'}`}>
              {name}
            </Heading>
            {isVisitor ? (
              <span className="rounded-full bg-brand-600 px-2.5 py-0.5 text-xs font-semibold text-white dark:bg-brand-500 dark:text-slate-950">{t('pages.platform.yourDevice')}</span>
            ) : null}
          </div>
          <p className="mt-1.5 text-sm leading-relaxed text-slate-600 dark:text-slate-300">{t(`pages.platform.descriptions.${platform}`)}</p>
        </div>
      </div>
      <div className={isVisitor ? 'sm:w-72 sm:shrink-0' : 'mt-auto'}>
        <PlatformAction platform={platform} name={name} isVisitor={isVisitor} target={target} installState={installState} onInstall={onInstall} />
      </div>
    </li>
  )
}

function PlatformAction({ platform, name, isVisitor, target, installState, onInstall }: Omit<PlatformCardProps, 'headingLevel'> & { name: string }) {
  const { t } = useT()
  const linkClass = `${isVisitor ? primaryLinkClass : secondaryLinkClass} w-full`
  switch (target.kind) {
    case 'page':
      return (
        <Link to={target.to} className={linkClass}>
          {platform === 'web' ? t('pages.platform.openWeb') : t('pages.platform.getStarted', { platform: name })}
        </Link>
      )
    case 'path':
      return (
        <a href={target.href} className={linkClass}>
          <DownloadIcon />
          {t('pages.platform.download', { platform: name })}
        </a>
      )
    case 'external':
      return (
        <div className="flex flex-col gap-1.5">
          <a href={target.href} rel="noopener" className={linkClass}>
            <DownloadIcon />
            {t('pages.platform.download', { platform: name })}
          </a>
          <p className="text-center text-xs text-slate-600 dark:text-slate-300">{t('pages.platform.from', { host: new URL(target.href).host })}</p>
        </div>
      )
    case 'pwa':
      return <PwaAction platform={platform} isVisitor={isVisitor} installState={installState} onInstall={onInstall} />
    case 'invalid':
      return <p className="text-sm text-slate-600 dark:text-slate-300">{t('pages.platform.notOffered')}</p>
  }
}

/**
 * The web app's install offer. Only the visitor's own card can install (the browser installs
 * on this device); on the other cards, and where the browser makes no offer, the card says how.
 */
function PwaAction({ platform, isVisitor, installState, onInstall }: { platform: Platform; isVisitor: boolean; installState: InstallState; onInstall: () => Promise<'accepted' | 'dismissed' | 'unavailable'> }) {
  const { t } = useT()
  const [busy, setBusy] = useState(false)
  if (isVisitor && installState === 'installed') {
    return (
      <p role="status" className="flex items-center gap-2 rounded-xl bg-emerald-50 px-4 py-3 text-sm font-medium text-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-200">
        <svg viewBox="0 0 20 20" className="size-5 shrink-0" fill="currentColor" aria-hidden="true">
          <path fillRule="evenodd" d="M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16zm3.7-9.3a1 1 0 0 0-1.4-1.4L9 10.6 7.7 9.3a1 1 0 0 0-1.4 1.4l2 2a1 1 0 0 0 1.4 0l4-4z" />
        </svg>
        {t('pages.platform.installed')}
      </p>
    )
  }
  if (isVisitor && installState === 'available') {
    return (
      <Button
        block
        loading={busy}
        onClick={async () => {
          setBusy(true)
          try {
            await onInstall()
          } finally {
            setBusy(false)
          }
        }}
      >
        <DownloadIcon />
        {t('pages.platform.install')}
      </Button>
    )
  }
  return (
    <div className="rounded-xl border border-dashed border-slate-300 bg-slate-50 px-4 py-3 text-sm dark:border-slate-700 dark:bg-slate-950/40">
      <p className="font-semibold text-slate-800 dark:text-slate-100">{t('pages.platform.howToInstall')}</p>
      <p className="mt-1 leading-relaxed text-slate-600 dark:text-slate-300">{t(`pages.platform.instructions.${platform}`)}</p>
    </div>
  )
}

function DownloadIcon() {
  return (
    <svg viewBox="0 0 20 20" className="size-4 shrink-0" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M10 3v10m-4-4 4 4 4-4M4 16h12" />
    </svg>
  )
}
