import type { JobRunner } from '@cumulus/jobs'
import type { Kysely, Transaction } from 'kysely'
import type { DriveDatabase } from '../db/schema.js'

/** The job queue that makes thumbnails (features/thumbnails), and what a job names. */
export const THUMBNAIL_QUEUE = 'drive.thumbnail'
export type ThumbnailCategory = 'IMAGE' | 'VIDEO'
export type ThumbnailJobData = {
  gcid: string
  category: ThumbnailCategory
}

export function isThumbnailCategory(category: string): category is ThumbnailCategory {
  return category === 'IMAGE' || category === 'VIDEO'
}

/** Enqueues the thumbnail of `gcid` in the caller's transaction, once per content; other categories have none. */
export async function enqueueThumbnail(jobs: JobRunner, trx: Kysely<DriveDatabase> | Transaction<DriveDatabase>, gcid: string, category: string): Promise<void> {
  if (!isThumbnailCategory(category)) return
  await jobs.enqueue<ThumbnailJobData>(THUMBNAIL_QUEUE, { gcid, category }, { uniqueKey: `thumbnail:${gcid}`, db: trx as Kysely<any> })
}
