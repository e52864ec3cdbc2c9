import type { Kysely } from 'kysely'
import type { Json } from './job-runner.js'

/** Creates or replaces a schedule; its first run is due at once. */
export async function saveSchedule(db: Kysely<any>, input: { queue: string; everyMs: number; data: Json; nowMs: number }): Promise<void> {
  await db
    .insertInto('job_schedules')
    .values({ queue: input.queue, every_ms: input.everyMs, data: JSON.stringify(input.data), next_run_at: input.nowMs })
    .onConflict((oc) => oc.column('queue').doUpdateSet({ every_ms: input.everyMs, data: JSON.stringify(input.data) }))
    .execute()
}

/**
 * The schedules whose period has come, each moved to its next period by a conditional update, so
 * that of several nodes ticking at once exactly one gets each period.
 */
export async function dueSchedules(db: Kysely<any>, nowMs: number): Promise<{ queue: string; data: Json }[]> {
  const rows: { queue: string; every_ms: number | string; data: string; next_run_at: number | string }[] = await db
    .selectFrom('job_schedules')
    .selectAll()
    .where('next_run_at', '<=', nowMs)
    .execute() as any
  const due: { queue: string; data: Json }[] = []
  for (const row of rows) {
    const everyMs = Number(row.every_ms)
    const claimed = await db
      .updateTable('job_schedules')
      .set({ next_run_at: nowMs + everyMs })
      .where('queue', '=', row.queue)
      .where('next_run_at', '=', row.next_run_at)
      .executeTakeFirst()
    if (Number(claimed.numUpdatedRows) === 1) due.push({ queue: row.queue, data: JSON.parse(row.data) as Json })
  }
  return due
}
