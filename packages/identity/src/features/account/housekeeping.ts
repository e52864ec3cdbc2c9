import type { IdentityDeps } from '../../deps.js'

type Deps = Pick<IdentityDeps, 'users' | 'sessions' | 'verifications' | 'clock' | 'logger' | 'events' | 'oauth' | 'providerStore'>

/** Ended sessions are kept this long for support and audit questions before they are deleted. */
const ENDED_SESSION_RETENTION_MS = 7 * 86_400_000

export interface HousekeepingResult {
  erasedUserIds: string[]
  purgedSessions: number
  purgedVerifications: number
  /** Expired provider sign-ins and tokens, authorization codes and device codes. */
  purgedGrants: number
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
  const purgedGrants = (await deps.oauth.purgeExpired(nowMs)) + (await deps.providerStore.purgeExpired(nowMs))
  if (erasedUserIds.length > 0) {
    deps.logger.info({ count: erasedUserIds.length }, 'erased accounts after their deletion grace period')
    // Their account.erased events were committed with the deletion; the other services purge now.
    await deps.events.eventsRecorded()
  }
  return { erasedUserIds, purgedSessions, purgedVerifications, purgedGrants }
}
