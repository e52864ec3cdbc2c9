import { isUniqueViolation } from '../lib/db-errors.js'

/** Runs `work` (a whole transaction) again when a concurrent change took a name it chose. */
export async function retryOnNameRace<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work()
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 4) throw error
    }
  }
}

/** PostgreSQL's "deadlock detected": it aborted this transaction so the other could go on. */
function isDeadlock(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '40P01'
}

/**
 * Runs `work` (a whole transaction) again when PostgreSQL broke a deadlock by aborting it, or a
 * concurrent change took a name it chose. A batch locks the user's usage row and then blob rows;
 * an instant upload takes a blob row and then the usage row, so the two can deadlock on the same
 * user and content. Retrying the loser is the standard answer; it never shows as a 500.
 */
export async function retryOnConflict<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await retryOnNameRace(work)
    } catch (error) {
      if (!isDeadlock(error) || attempt >= 4) throw error
    }
  }
}
