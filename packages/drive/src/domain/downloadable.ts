import { AppError, DriveErrors } from '@cumulus/protocol'
import type { FilesTable } from '../db/schema.js'
import type { DriveDeps } from '../deps.js'
import { isAccountHeld } from './account-holds.js'
import { type LinkPurpose, verifyLink } from './signed-link.js'
import { isId } from '../lib/ids.js'

export interface DownloadableFile {
  file: FilesTable & { gcid: string }
  /** When the link stops working, epoch seconds: caches must not keep the reply longer. */
  linkExpiresAtSeconds: number
}

function notFound(id: string): AppError {
  return new AppError(DriveErrors.file_not_found, { description: `no file ${id}`, metadata: { id } })
}

/**
 * The complete file a signed link (`?e=&s=`) opens. No bearer: the link is the permission. An
 * unknown, deleted or trashed file, a folder or an unfinished upload is file_not_found; a link that was not signed
 * for this file's current content, or has expired, is file_link_invalid.
 */
export async function requireDownloadable(deps: Pick<DriveDeps, 'db' | 'clock' | 'linkSecret'>, fileId: string, params: { e?: string | undefined; s?: string | undefined }, purpose: LinkPurpose = 'download'): Promise<DownloadableFile> {
  if (!isId(fileId)) throw notFound(fileId)
  const file = await deps.db.selectFrom('drive_files').selectAll().where('id', '=', fileId).executeTakeFirst()
  // A link dies with its file: a trashed file serves nothing until it is restored (issue 11).
  if (!file || file.kind !== 'drive#file' || file.phase !== 'PHASE_TYPE_COMPLETE' || file.gcid === null || file.trashed !== 0) throw notFound(fileId)
  const gcid = file.gcid
  const check = verifyLink(deps.linkSecret, { fileId, gcid, purpose }, params, Math.floor(deps.clock.nowMs() / 1000))
  if (!check.ok) throw new AppError(DriveErrors.file_link_invalid, { description: `download link ${check.reason === 'expired' ? 'has expired' : 'is not valid for this file'}`, metadata: { reason: check.reason } })
  // Checked after the signature, so only a holder of a valid link learns that the account is frozen.
  if (await isAccountHeld(deps, file.user_id)) {
    throw new AppError(DriveErrors.file_link_invalid, { description: "the owner's account is pending deletion", metadata: { reason: 'account_frozen' } })
  }
  return { file: { ...file, gcid }, linkExpiresAtSeconds: Number(params.e) }
}
