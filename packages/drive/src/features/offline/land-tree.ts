import { FOLDER_KIND } from '@cumulus/protocol'
import type { Kysely } from 'kysely'
import type { DriveDatabase, FilesTable } from '../../db/schema.js'
import { insertItem } from '../../domain/index.js'
import { sanitizeName } from './offline-url.js'

/** A file a download gave: its path inside the download (one element for a lone file), size and blob. */
export interface LandedFile {
  path: string[]
  size: number
  gcid: string
}

/**
 * Whether `files` named `name` land as one file rather than a folder: a lone file whose path is
 * just its name (an HTTP download, a single-file torrent). A torrent folder of one file stays a folder.
 */
export function landsAsOneFile(name: string, files: readonly LandedFile[]): boolean {
  return files.length === 1 && files[0]!.path.length === 1 && files[0]!.path[0] === name
}

/**
 * Inserts what a download gave into the caller's transaction: one file, or one folder named
 * `name` holding the files under their paths (sub-folders made on the way). Names are made
 * acceptable and clashes get suffixes, as for any new item. Returns the top item and every item
 * made. The caller takes the space and the blob references.
 */
export async function insertDownloadTree(trx: Kysely<DriveDatabase>, input: { userId: string; parentId: string; name: string; files: readonly LandedFile[]; oneFile: boolean; nowMs: number }): Promise<{ top: FilesTable; created: FilesTable[] }> {
  const { userId, nowMs } = input
  if (input.oneFile) {
    const only = input.files[0]!
    const top = await insertItem(trx, { userId, parentId: input.parentId, name: sanitizeName(input.name), kind: 'drive#file', size: only.size, gcid: only.gcid, phase: 'PHASE_TYPE_COMPLETE', nowMs })
    return { top, created: [top] }
  }
  const top = await insertItem(trx, { userId, parentId: input.parentId, name: sanitizeName(input.name), kind: FOLDER_KIND, size: 0, gcid: null, phase: 'PHASE_TYPE_COMPLETE', nowMs })
  const created = [top]
  const folders = new Map<string, string>()
  for (const file of input.files) {
    let parent = top.id
    for (let depth = 1; depth < file.path.length; depth++) {
      const key = file.path.slice(0, depth).join('/')
      let id = folders.get(key)
      if (!id) {
        const folder = await insertItem(trx, { userId, parentId: parent, name: sanitizeName(file.path[depth - 1]!), kind: FOLDER_KIND, size: 0, gcid: null, phase: 'PHASE_TYPE_COMPLETE', nowMs })
        created.push(folder)
        id = folder.id
        folders.set(key, id)
      }
      parent = id
    }
    created.push(await insertItem(trx, { userId, parentId: parent, name: sanitizeName(file.path[file.path.length - 1]!), kind: 'drive#file', size: file.size, gcid: file.gcid, phase: 'PHASE_TYPE_COMPLETE', nowMs }))
  }
  return { top, created }
}
