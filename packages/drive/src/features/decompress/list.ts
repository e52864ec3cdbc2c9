import { AppError, type DecompressListReply, DriveErrors, FOLDER_KIND, GenericErrors } from '@cumulus/protocol'
import { withLocalFile } from '../../blobs/local-file.js'
import type { Caller, DriveDeps } from '../../deps.js'
import { findOwned } from '../../domain/index.js'
import { ToolMissing } from '../../lib/tools.js'
import { type ListingOutcome, listArchive } from './archive-listing.js'
import { archiveTree, levelEntries, nodeAt } from './archive-tree.js'
import { entryPath } from './entry-path.js'
import { codePageOfLanguage } from './zip-names.js'

type Deps = Pick<DriveDeps, 'db' | 'blobs' | 'config' | 'logger'>

export interface ListInput {
  fileId: string
  gcid: string
  path: string
  password: string
  /** The caller's language (Accept-Language): it breaks ties between legacy zip code pages. */
  language: string
}

/**
 * `POST /decompress/v1/list`: one level of the caller's archive. Whatever the archive holds, the
 * answer is a status (drive.md "Decompress"): a missing or wrong password, or an archive this
 * server cannot read, is not an HTTP error.
 */
export async function listArchiveLevel(deps: Deps, caller: Caller, input: ListInput): Promise<DecompressListReply> {
  const file = await findOwned(deps.db, caller.userId, input.fileId)
  const gcid = file.gcid
  if (file.trashed === 1 || file.kind === FOLDER_KIND || !gcid || (input.gcid !== '' && input.gcid.toUpperCase() !== gcid)) {
    throw new AppError(DriveErrors.file_not_found, { description: 'no such archive', metadata: { id: input.fileId } })
  }
  const path: string = input.path === '' ? '' : (entryPath(input.path) ?? noSuchPath())
  const reply = (status: DecompressListReply['status'], statusText: string, files: DecompressListReply['files'] = []): DecompressListReply => ({
    status,
    status_text: statusText,
    task_id: '',
    current_path: path,
    title: file.name,
    file_size: String(file.size),
    gcid,
    files,
  })

  let listed: ListingOutcome
  try {
    listed = await withLocalFile(deps.blobs, gcid, undefined, (local) =>
      listArchive(deps.config.archive, local, input.password, { preferredCodePage: codePageOfLanguage(input.language) }),
    )
  } catch (err) {
    if (!(err instanceof ToolMissing)) throw err
    deps.logger.warn({ tool: err.tool }, 'an archive tool is missing: install 7zip and unar (SEVEN_ZIP_PATH, LSAR_PATH)')
    return reply('NOT_SUPPORTED', 'this server cannot open archives of this kind yet')
  }
  switch (listed.status) {
    case 'PASS_WORD_EMPTY':
      return reply(listed.status, 'this archive needs a password')
    case 'PASS_WORD_ERROR':
      return reply(listed.status, 'the password is wrong')
    case 'NOT_SUPPORTED':
      return reply(listed.status, listed.reason)
    case 'OK':
      return reply('OK', '', levelEntries(nodeAt(archiveTree(listed.entries), path) ?? noSuchPath()))
  }
}

function noSuchPath(): never {
  throw new AppError(GenericErrors.invalid_argument, { description: 'path names no folder of the archive', metadata: { field: 'path' } })
}
