import { AppError, type DriveFile, DriveErrors, FOLDER_KIND } from '@cumulus/protocol'
import type { FilesTable } from '../../db/schema.js'
import type { Caller, DriveDeps } from '../../deps.js'
import { checkName, fileView, findOwned, videoDetail, insertItem, insertItemInOneStatement, isPostgres, liveFolder, nameColumns, recordEvents, retryOnNameRace, takenNames } from '../../domain/index.js'
import { isUniqueViolation } from '../../lib/db-errors.js'
import { isId } from '../../lib/ids.js'

export async function getFile(deps: DriveDeps, caller: Caller, id: string): Promise<DriveFile> {
  const row = await findOwned(deps.db, caller.userId, id)
  // Medias (and a play) only here, as drive.md says: a listing stays cheap.
  return videoDetail(deps, caller, row, fileView(deps, row))
}

export async function createFolder(deps: DriveDeps, caller: Caller, input: { name: unknown; parentId?: string | null | undefined; folderType?: string }): Promise<DriveFile> {
  const name = checkName(input.name)
  const nowMs = deps.clock.nowMs()
  const item = { userId: caller.userId, parentId: input.parentId ?? '', name, kind: FOLDER_KIND, size: 0, gcid: null, phase: 'PHASE_TYPE_COMPLETE', folderType: input.folderType ?? 'NORMAL', nowMs } as const
  // The common case on PostgreSQL in one round trip; anything unusual (a clash, a bad parent) below.
  if (isPostgres(deps.db) && isId(item.parentId || 'root')) {
    const created = await insertItemInOneStatement(deps.db, item, 'TYPE_CREATE')
    if (created) return fileView(deps, created)
  }
  const row = await retryOnNameRace(() => deps.db.transaction().execute(async (trx) => {
    const parentId = await liveFolder(trx, caller.userId, input.parentId, { forInsert: true })
    const created = await insertItem(trx, { userId: caller.userId, parentId, name, kind: FOLDER_KIND, size: 0, gcid: null, phase: 'PHASE_TYPE_COMPLETE', folderType: input.folderType ?? 'NORMAL', nowMs })
    await recordEvents(trx, nowMs, caller.userId, 'TYPE_CREATE', [created])
    return created
  }))
  return fileView(deps, row)
}

/** PATCH: rename (a clash is file_duplicated_name, not a suffix) and star. */
export async function updateFile(deps: DriveDeps, caller: Caller, id: string, input: { name?: unknown; starred?: boolean | undefined }): Promise<DriveFile> {
  const nowMs = deps.clock.nowMs()
  const row = await deps.db.transaction().execute(async (trx) => {
    const current = await findOwned(trx, caller.userId, id)
    const changes: Partial<FilesTable> = {}
    if (input.name !== undefined) {
      const name = checkName(input.name)
      if (name !== current.name) {
        if (current.trashed === 0 && (await takenNames(trx, caller.userId, current.parent_id, [name])).size > 0) {
          throw new AppError(DriveErrors.file_duplicated_name, { description: `"${name}" already exists in this folder`, metadata: { name } })
        }
        Object.assign(changes, nameColumns(name, current.kind === FOLDER_KIND), { modified_at: nowMs })
        await recordEvents(trx, nowMs, caller.userId, 'TYPE_RENAME', [{ id: current.id, name }])
      }
    }
    if (input.starred !== undefined) changes.starred = input.starred ? 1 : 0
    if (Object.keys(changes).length === 0) return current
    changes.revision = current.revision + 1
    try {
      await trx.updateTable('drive_files').set(changes).where('id', '=', current.id).execute()
    } catch (error) {
      // A concurrent rename took the name between the check and the update.
      if (isUniqueViolation(error)) throw new AppError(DriveErrors.file_duplicated_name, { description: 'name already exists in this folder' })
      throw error
    }
    return { ...current, ...changes }
  })
  return fileView(deps, row)
}
