export {
  DEFAULT_QUEUE_OPTIONS,
  type EnqueueOptions,
  JobDeferred,
  JobFailedPermanently,
  type JobContext,
  type JobHandler,
  type JobInfo,
  type JobRunner,
  type JobState,
  type Json,
  type QueueOptions,
  retryDelayMs,
} from './job-runner.js'
export type { ClaimedJob, JobStore, NewJob } from './job-store.js'
export { migrateJobs } from './migrations.js'
export { PgBossJobStore, type PgBossJobStoreOptions } from './pg-boss-job-store.js'
export { SqliteJobStore } from './sqlite-job-store.js'
export { StoreJobRunner, type StoreJobRunnerOptions } from './store-job-runner.js'
export { openJobRunner, type OpenJobRunnerOptions } from './open-job-runner.js'
