import type { DriveAbout, VipPrivilegeReply } from '@cumulus/protocol'
import type { Caller, DriveDeps } from '../../deps.js'
import { offlineQuota, quotaLimit, usageOf } from '../../domain/index.js'
import { rfc3339 } from '../../lib/time.js'

/** `GET /drive/v1/about`: the quota from the membership and the usage counters. */
export async function about(deps: DriveDeps, caller: Caller): Promise<DriveAbout> {
  const nowMs = deps.clock.nowMs()
  const isVip = caller.membership !== null && caller.membership.expiresAtMs > nowMs
  const [{ usage, inTrash, inUploads }, offline] = await Promise.all([usageOf(deps.db, caller.userId), offlineQuota(deps, deps.db, caller.userId, isVip, nowMs)])
  const count = (c: { limit: number; usage: number }) => ({ kind: 'drive#quota' as const, limit: String(c.limit), usage: String(c.usage) })
  return {
    kind: 'drive#about',
    quota: {
      kind: 'drive#quota',
      limit: String(quotaLimit(deps.config, caller, nowMs)),
      usage: String(usage),
      usage_in_trash: String(inTrash),
      usage_in_uploads: String(inUploads),
      play_times_limit: '-1',
      play_times_usage: '0',
      is_unlimited: false,
    },
    expires_at: isVip && caller.membership ? rfc3339(caller.membership.expiresAtMs) : '',
    quotas: { offline_daily: count(offline.daily), offline_running: count(offline.running) },
  }
}

/** `GET /drive/v1/privilege/vip` (drive.md "Membership"), so clients can show the plan. */
export function vipPrivilege(deps: Pick<DriveDeps, 'clock'>, caller: Caller): VipPrivilegeReply {
  const membership = caller.membership
  const active = membership !== null && membership.expiresAtMs > deps.clock.nowMs()
  return {
    result: 'ACCEPTED',
    message: '',
    redirect_uri: '',
    data: {
      expire: membership ? rfc3339(membership.expiresAtMs) : '',
      status: active ? 'ok' : 'invalid',
      type: active ? 'vip' : 'novip',
      user_id: caller.userId,
    },
  }
}
