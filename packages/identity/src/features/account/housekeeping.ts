import type { IdentityDeps } from '../../deps.js'

type Deps = Pick<IdentityDeps, 'users' | 'sessions' | 'verifications' | 'clock' | 'logger' | 'events'>

/** Ended sessions are kept this long for support and audit questions before they are deleted. */
const ENDED_SESSION_RETENTION_MS = 7 * 86_400_000

export interface HousekeepingResult {
  erasedUserIds: string[]
  purgedSessions: number
  purgedVerifications: number
}

/**
 * Erases accounts whose cancellation review has ended and purges expired rows. Idempotent, so
 * several nodes may run it at once.
 */
export async function runHousekeeping(deps: Deps): Promise<HousekeepingResult> {
  const nowMs = deps.clock.nowMs()
  const erasedUserIds = await deps.users.eraseDue(nowMs)
  const purgedSessions = await deps.sessions.purgeEnded(nowMs - ENDED_SESSION_RETENTION_MS)
  const purgedVerifications = await deps.verifications.purgeExpired(nowMs)
  if (erasedUserIds.length > 0) {
    deps.logger.info({ count: erasedUserIds.length }, 'erased accounts after their deletion grace period')
    // Their account.erased events were committed with the deletion; the other services purge now.
    await deps.events.eventsRecorded()
  }
  return { erasedUserIds, purgedSessions, purgedVerifications }
}

/** Runs housekeeping now and then every `intervalMs`; returns a stop function. */
export function startHousekeeping(deps: Deps, intervalMs = 10 * 60_000): () => void {
  const run = () => runHousekeeping(deps).catch((err: unknown) => deps.logger.error({ err }, 'housekeeping failed'))
  void run()
  const timer = setInterval(run, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
