import type { DriveAbout } from '@cumulus/protocol'
import { useEffect, useState } from 'react'
import { formatBytes } from '../../drive/format'
import { useLocale, useT } from '../../i18n/use-locale'
import { getIdentityClient } from '../../session/identity-client'

/**
 * What the account's plan allows and how much of it is used (GET /drive/v1/about): storage, cloud
 * downloads today and at once, videos played today and bytes downloaded today. Read again when the plan changes
 * (`planKey`: the membership's type and expiry), so a redeemed code shows its new limits.
 */
export function PlanUsage({ planKey }: { planKey: string }) {
  const { t } = useT()
  const locale = useLocale()
  const [about, setAbout] = useState<DriveAbout | null>(null)

  useEffect(() => {
    let live = true
    getIdentityClient(locale)
      .request<DriveAbout>('GET', '/drive/v1/about', { auth: true })
      .then((value) => live && setAbout(value))
      .catch(() => live && setAbout(null))
    return () => {
      live = false
    }
  }, [locale, planKey])

  if (!about) return null
  const count = (n: number) => n.toLocaleString(locale)
  const { offline_daily: daily, offline_running: running, download_daily: traffic } = about.quotas
  const of = (used: string, limit: number, format: (n: number) => string) =>
    limit < 0 ? t('accountHome.vip.usageUnlimited', { used: format(Number(used) || 0) }) : t('accountHome.vip.usageOf', { used: format(Number(used) || 0), limit: format(limit) })
  const rows = [
    { key: 'storage', label: t('accountHome.vip.usageStorage'), value: of(about.quota.usage, Number(about.quota.limit), (n) => formatBytes(n, locale)) },
    ...(daily ? [{ key: 'offline-daily', label: t('accountHome.vip.usageOfflineDaily'), value: of(daily.usage, Number(daily.limit), count) }] : []),
    ...(running ? [{ key: 'offline-running', label: t('accountHome.vip.usageOfflineRunning'), value: of(running.usage, Number(running.limit), count) }] : []),
    { key: 'plays', label: t('accountHome.vip.usagePlays'), value: of(about.quota.play_times_usage, Number(about.quota.play_times_limit), count) },
    ...(traffic ? [{ key: 'traffic', label: t('accountHome.vip.usageTraffic'), value: of(traffic.usage, Number(traffic.limit), (n) => formatBytes(n, locale)) }] : []),
  ]
  return (
    <div data-testid="plan-usage" className="mt-5 rounded-xl bg-white/80 p-4 ring-1 ring-slate-200 ring-inset dark:bg-slate-950/40 dark:ring-slate-700">
      <h3 className="text-sm font-semibold">{t('accountHome.vip.usageTitle')}</h3>
      <dl className="mt-2 divide-y divide-slate-200 text-sm dark:divide-slate-700">
        {rows.map((row) => (
          <div key={row.key} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5 py-1.5" data-testid={`usage-${row.key}`}>
            <dt className="opacity-90">{row.label}</dt>
            <dd className="font-medium tabular-nums">{row.value}</dd>
          </div>
        ))}
      </dl>
    </div>
  )
}
