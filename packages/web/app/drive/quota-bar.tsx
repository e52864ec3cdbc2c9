import type { DriveAbout } from '@cumulus/protocol'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useLocale, useT } from '../i18n/use-locale'
import type { DriveApi } from './drive-api'
import { formatBytes } from './format'

/** Past this share of the limit the bar turns amber and says so. */
const ALMOST_FULL = 0.9

/** `about()` for the quota bar, with a `refresh` for after uploads, copies and deletions. */
export function useQuota(api: DriveApi): { about: DriveAbout | null; refresh(): void } {
  const [about, setAbout] = useState<DriveAbout | null>(null)
  const live = useRef(true)
  const refresh = useCallback(() => {
    api.about().then(
      (next) => live.current && setAbout(next),
      // The bar is a hint; a failed read leaves the last one (the page shows its own errors).
      () => undefined,
    )
  }, [api])
  useEffect(() => {
    live.current = true
    refresh()
    return () => {
      live.current = false
    }
  }, [refresh])
  return { about, refresh }
}

/**
 * Storage used against the plan's limit, and the parts of it that are not files in the drive:
 * space held by uploads not finished (abandoned ones too, until they expire) and the trash, so
 * the numbers add up for a user whose drive shows less than the bar.
 */
export function QuotaBar({ about, className = '' }: { about: DriveAbout | null; className?: string }) {
  const { t } = useT()
  const locale = useLocale()
  if (!about) return <div className={`h-14 ${className}`} aria-hidden="true" />
  const usage = Number(about.quota.usage) || 0
  const trash = Math.min(usage, Number(about.quota.usage_in_trash) || 0)
  // Absent from the commercial service's replies: then nothing extra is shown.
  const inUploads = Math.min(usage - trash, Number(about.quota.usage_in_uploads) || 0)
  const limit = Number(about.quota.limit) || 0
  const unlimited = about.quota.is_unlimited || limit <= 0
  const share = unlimited ? 0 : Math.min(1, usage / limit)
  const trashShare = unlimited ? 0 : Math.min(share, trash / limit)
  const uploadsShare = unlimited ? 0 : Math.min(share - trashShare, inUploads / limit)
  const used = formatBytes(usage, locale)
  const text = unlimited ? t('drive.quota.unlimited', { used }) : t('drive.quota.used', { used, limit: formatBytes(limit, locale) })
  const full = share >= ALMOST_FULL
  const over = !unlimited && usage > limit
  return (
    <div className={className} data-testid="quota">
      <p className="text-sm font-medium text-slate-700 dark:text-slate-200">{t('drive.quota.label')}</p>
      {unlimited ? null : (
        <div
          role="meter"
          aria-label={t('drive.quota.label')}
          aria-valuemin={0}
          aria-valuemax={limit}
          aria-valuenow={Math.min(usage, limit)}
          aria-valuetext={text}
          className="mt-2 flex h-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
        >
          <div className={full ? 'bg-amber-500' : 'bg-brand-600 dark:bg-brand-400'} style={{ width: `${(share - trashShare - uploadsShare) * 100}%` }} />
          <div className="bg-sky-300 dark:bg-sky-700" style={{ width: `${uploadsShare * 100}%` }} data-testid="quota-uploads-segment" />
          <div className="bg-slate-400 dark:bg-slate-500" style={{ width: `${trashShare * 100}%` }} />
        </div>
      )}
      <p className="mt-1.5 text-xs text-slate-600 dark:text-slate-300" data-testid="quota-text">
        {text}
      </p>
      {inUploads > 0 ? (
        <p className="flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400" data-testid="quota-uploads">
          <span className="size-2 shrink-0 rounded-full bg-sky-300 dark:bg-sky-700" aria-hidden="true" />
          {t('drive.quota.inUploads', { size: formatBytes(inUploads, locale) })}
        </p>
      ) : null}
      {trash > 0 ? (
        <p className="flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
          <span className="size-2 shrink-0 rounded-full bg-slate-400 dark:bg-slate-500" aria-hidden="true" />
          {t('drive.quota.inTrash', { size: formatBytes(trash, locale) })}
        </p>
      ) : null}
      {over ? (
        // A membership that ended leaves more stored than the free plan holds: say what still works.
        <p role="status" data-testid="quota-over" className="mt-1 text-xs font-medium text-red-700 dark:text-red-300">
          {t('drive.quota.over')}
        </p>
      ) : full && !unlimited ? (
        <p className="mt-1 text-xs font-medium text-amber-700 dark:text-amber-300">{t('drive.quota.almostFull')}</p>
      ) : null}
    </div>
  )
}
