import type { DriveAbout, VipPrivilegeReply, VipQuantityReply } from '@cumulus/protocol'
import type { Caller, DriveDeps } from '../../deps.js'
import { offlineQuota, planOf, playsToday, trafficToday, usageOf } from '../../domain/index.js'
import { DAY_MS, rfc3339 } from '../../lib/time.js'

/** `GET /drive/v1/about`: the quota from the membership and the usage counters. */
export async function about(deps: DriveDeps, caller: Caller): Promise<DriveAbout> {
  const nowMs = deps.clock.nowMs()
  const plan = planOf(deps.config, caller.membership, nowMs)
  const [{ usage, inTrash, inUploads }, offline, plays, downloaded] = await Promise.all([
    usageOf(deps.db, caller.userId),
    offlineQuota(deps.db, caller.userId, plan.limits, nowMs),
    playsToday(deps, caller.userId),
    trafficToday(deps, caller.userId),
  ])
  const count = (c: { limit: number; usage: number }) => ({ kind: 'drive#quota' as const, limit: String(c.limit), usage: String(c.usage) })
  return {
    kind: 'drive#about',
    quota: {
      kind: 'drive#quota',
      limit: String(plan.limits.storageBytes),
      usage: String(usage),
      usage_in_trash: String(inTrash),
      usage_in_uploads: String(inUploads),
      play_times_limit: String(plan.limits.playsPerDay),
      play_times_usage: String(plays),
      is_unlimited: false,
    },
    expires_at: plan.member && caller.membership ? rfc3339(caller.membership.expiresAtMs) : '',
    quotas: { offline_daily: count(offline.daily), offline_running: count(offline.running), download_daily: count({ limit: plan.limits.downloadBytesPerDay, usage: downloaded }) },
  }
}

/**
 * `GET /drive/v1/privilege/vip`, and `GET /vip/v1/vip/info` (drive.md "Membership"): the plan,
 * from the membership the session check read, so it agrees with `/v1/user/me`'s vip_info.
 */
export function vipPrivilege(deps: Pick<DriveDeps, 'clock'>, caller: Caller): VipPrivilegeReply {
  const membership = caller.membership
  const nowMs = deps.clock.nowMs()
  const active = membership !== null && membership.expiresAtMs > nowMs
  return {
    result: 'ACCEPTED',
    message: '',
    redirect_uri: '',
    data: {
      expire: membership ? rfc3339(membership.expiresAtMs) : '',
      status: active ? 'ok' : 'invalid',
      type: active ? membership.vasType : 'novip',
      user_id: caller.userId,
      vip_item: active ? [{ type: membership.vasType, expire: rfc3339(membership.expiresAtMs), surplus_day: Math.ceil((membership.expiresAtMs - nowMs) / DAY_MS) }] : [],
    },
  }
}

/** What the plans do not meter: transfer in either direction is limited only by the storage quota. */
const UNMETERED = { total_assets: -1, assets: -1 } as const

/** `GET /vip/v1/quantity/list?type=transfer`: what the plan allows and what is left of it today. */
export async function vipQuantities(deps: DriveDeps, caller: Caller, transferType: string): Promise<VipQuantityReply> {
  const nowMs = deps.clock.nowMs()
  const membership = caller.membership
  const plan = planOf(deps.config, membership, nowMs)
  const [offline, downloaded] = await Promise.all([offlineQuota(deps.db, caller.userId, plan.limits, nowMs), trafficToday(deps, caller.userId)])
  const daily = plan.limits.downloadBytesPerDay
  return {
    base: {
      offline: { total_assets: offline.daily.limit, assets: Math.max(0, offline.daily.limit - offline.daily.usage) },
      download: { ...UNMETERED },
      upload: { ...UNMETERED },
      // The plan's daily download traffic and what is left of it today.
      download_daily: daily < 0 ? { ...UNMETERED } : { total_assets: daily, assets: Math.max(0, daily - downloaded) },
      vip_status: plan.member ? 'ok' : 'invalid',
      expire_time: membership ? rfc3339(membership.expiresAtMs) : '',
    },
    transfer_type: transferType,
  }
}
