import type { DriveAbout, DriveQuotaCount } from '@cumulus/protocol'

/** A plan count as numbers. `limit` is null when the plan sets none (a negative or missing limit). */
export interface QuotaCount {
  limit: number | null
  usage: number
}

export interface OfflineQuotas {
  /** Offline downloads created today against the plan's daily limit; null when the server does not say. */
  daily: QuotaCount | null
  /** Offline downloads pending or running against the plan's cap; null when the server does not say. */
  running: QuotaCount | null
}

/** The offline-download counts of an `about()` reply (`quotas.offline_daily`, `quotas.offline_running`). */
export function offlineQuotasOf(about: Pick<DriveAbout, 'quotas'>): OfflineQuotas {
  const quotas = about.quotas ?? {}
  return { daily: countOf(quotas.offline_daily), running: countOf(quotas.offline_running) }
}

function countOf(quota: DriveQuotaCount | undefined): QuotaCount | null {
  if (quota === undefined || quota === null || typeof quota !== 'object') return null
  const usage = Number(quota.usage)
  const limit = Number(quota.limit)
  if (!Number.isFinite(usage)) return null
  return { usage: Math.max(0, usage), limit: Number.isFinite(limit) && limit >= 0 && quota.limit !== '' ? limit : null }
}
