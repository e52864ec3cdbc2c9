import type { DriveConfig } from '../config.js'

/**
 * Membership plans (issue 13): what each plan allows, from the operator's configuration. `free`
 * is the plan of everyone without a running membership; each paid plan is named by the
 * membership's `vas_type` ('vip' by default; an operator may add 'platinum' and more) and has a
 * level. -1 means "no limit" for the counts below.
 */
export interface PlanLimits {
  storageBytes: number
  offlineTasksPerDay: number
  /** Offline downloads running at once; more wait as PENDING. */
  offlineRunningTasks: number
  /** Transcoded renditions (1080P/720P/480P) for playback (features/media). */
  transcodedPlayback: boolean
  /** Videos played a day (domain/plays.ts: one per video per UTC day). */
  playsPerDay: number
  /** Bytes of the account's files downloaded through their links a day (domain/traffic.ts). */
  downloadBytesPerDay: number
}

export interface PaidPlan extends PlanLimits {
  level: number
}

export interface PlanTable {
  free: PlanLimits
  paid: Readonly<Record<string, PaidPlan>>
}

/** The plan a caller is on now. `name` is 'novip' for the free plan, as the wire says it. */
export interface ActivePlan {
  name: string
  member: boolean
  limits: PlanLimits
}

export const FREE_PLAN_NAME = 'novip'

/** A paid plan's limits by name; a name no longer configured falls back to 'vip', then to free. */
export function limitsOf(plans: PlanTable, name: string | null | undefined): PlanLimits {
  if (!name || name === FREE_PLAN_NAME || name === 'free') return plans.free
  // Own properties only: a membership named `constructor` must not find Object's.
  const own = (key: string) => (Object.hasOwn(plans.paid, key) ? plans.paid[key] : undefined)
  return own(name) ?? own('vip') ?? plans.free
}

/** The caller's plan: their membership's while it runs, else free. */
export function planOf(config: Pick<DriveConfig, 'plans'>, membership: { vasType: string; expiresAtMs: number } | null, nowMs: number): ActivePlan {
  if (membership && membership.expiresAtMs > nowMs) return { name: membership.vasType, member: true, limits: limitsOf(config.plans, membership.vasType) }
  return { name: FREE_PLAN_NAME, member: false, limits: config.plans.free }
}
