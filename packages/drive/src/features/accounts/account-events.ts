import { ACCOUNT_ERASED, ACCOUNT_FROZEN, ACCOUNT_RESTORED, type EventSubscriber } from '@cumulus/identity'
import type { DriveDeps } from '../../deps.js'
import { cancelDecompressRun, cancelOfflineRun, countByGcid, holdAccount, lockUserTree, releaseAccount, releaseBlobRefsInBulk, stagingOf } from '../../domain/index.js'

/*
 * What the drive does when identity changes an account (identity's domain events, delivered at
 * least once each, in order per account). Every handler is idempotent: running it twice, or
 * after a crash half-way, ends in the same state.
 */

/** The name deliveries to the drive are remembered under. Never rename it. */
export const DRIVE_SUBSCRIBER = 'drive'

export interface ErasedDriveAccount {
  files: number
  uploads: number
  /** Distinct blobs that lost references; those left at none are deleted by the blob collector after its grace period. */
  blobsReleased: number
}

/**
 * account.erased: forgets everything the drive holds for the account. Staged upload bytes are
 * removed first (removing is idempotent), then one transaction deletes every file, folder,
 * upload, task, event, usage row and hold, and releases the blob references of its files.
 * Content another account also uses keeps that account's references; content nobody uses any
 * more is garbage, and `collectGarbageBlobs` deletes it from the blob store (local disk or S3)
 * once the grace that protects uploads in flight has passed.
 */
export async function eraseDriveAccount(deps: Pick<DriveDeps, 'db' | 'clock' | 'config' | 'jobs'>, userId: string): Promise<ErasedDriveAccount> {
  // Downloads and unpackings under way stop first (their tools too), and their partial data goes.
  const running = await deps.db.selectFrom('drive_tasks').select(['id', 'type', 'work']).where('user_id', '=', userId).where('type', 'in', ['offline', 'decompress']).where('phase', 'in', ['PHASE_TYPE_PENDING', 'PHASE_TYPE_RUNNING']).execute()
  for (const task of running) await (task.type === 'offline' ? cancelOfflineRun(deps, task) : cancelDecompressRun(deps, task))
  const staging = stagingOf(deps.config)
  const uploads = await deps.db.selectFrom('drive_uploads').select('id').where('user_id', '=', userId).execute()
  for (const { id } of uploads) await staging.remove(id)

  const nowMs = deps.clock.nowMs()
  return deps.db.transaction().execute(async (trx) => {
    // After any landing under way (a download or unpacking lands under the same lock, and finds
    // its task gone once this commits).
    await lockUserTree(trx, userId)
    const contents = await trx.selectFrom('drive_files').select('gcid').where('user_id', '=', userId).where('gcid', 'is not', null).execute()
    const counts = countByGcid(contents)
    await releaseBlobRefsInBulk(trx, counts, nowMs)
    const files = await trx.deleteFrom('drive_files').where('user_id', '=', userId).executeTakeFirst()
    const droppedUploads = await trx.deleteFrom('drive_uploads').where('user_id', '=', userId).executeTakeFirst()
    await trx.deleteFrom('drive_tasks').where('user_id', '=', userId).execute()
    await trx.deleteFrom('drive_events').where('user_id', '=', userId).execute()
    await trx.deleteFrom('drive_usage').where('user_id', '=', userId).execute()
    await trx.deleteFrom('drive_account_holds').where('user_id', '=', userId).execute()
    await trx.deleteFrom('drive_plays').where('user_id', '=', userId).execute()
    await trx.deleteFrom('drive_play_days').where('user_id', '=', userId).execute()
    await trx.deleteFrom('drive_playback').where('user_id', '=', userId).execute()
    // The account's own traffic and its shares' (domain/traffic.ts).
    await trx.deleteFrom('drive_traffic_days').where('user_id', 'in', [userId, `${userId}:shares`]).execute()
    // The account's shares go with it: their links read NOT_FOUND from now on.
    const shares = trx.selectFrom('drive_shares').select('id').where('user_id', '=', userId)
    await trx.deleteFrom('drive_share_items').where('share_id', 'in', shares).execute()
    await trx.deleteFrom('drive_shares').where('user_id', '=', userId).execute()
    return { files: Number(files.numDeletedRows), uploads: Number(droppedUploads.numDeletedRows), blobsReleased: counts.size }
  })
}

/** The drive's subscription to identity's account events, for the composition root to wire. */
export function driveAccountSubscriber(deps: Pick<DriveDeps, 'db' | 'clock' | 'config' | 'logger' | 'jobs'>): EventSubscriber {
  return {
    name: DRIVE_SUBSCRIBER,
    types: [ACCOUNT_FROZEN, ACCOUNT_RESTORED, ACCOUNT_ERASED],
    async handle(event) {
      switch (event.type) {
        case ACCOUNT_FROZEN:
          return holdAccount(deps, event.subjectId, event.occurredAtMs)
        case ACCOUNT_RESTORED:
          return releaseAccount(deps, event.subjectId)
        case ACCOUNT_ERASED: {
          const erased = await eraseDriveAccount(deps, event.subjectId)
          deps.logger.info({ userId: event.subjectId, ...erased }, 'erased the drive of a deleted account')
          return
        }
      }
    },
  }
}
