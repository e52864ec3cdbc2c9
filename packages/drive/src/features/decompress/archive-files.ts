import { mkdtemp, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { withLocalFile } from '../../blobs/local-file.js'
import type { DriveDeps } from '../../deps.js'
import { sniffFormat } from './archive-listing.js'

/** One file of an archive: its content, and its volume number in a `.partN.rar` set (null for a lone archive). */
export interface ArchivePart {
  gcid: string
  volume: number | null
}

const VOLUME_NAME = /^(.*)\.part(\d{1,4})\.rar$/i

/**
 * The files an archive in the drive is read from: itself, or, for a `name.partN.rar`, every live
 * `name.partM.rar` of the caller in the same folder, first volume first (so opening any part of
 * a set reads the whole set).
 */
export async function archiveParts(deps: Pick<DriveDeps, 'db'>, file: { user_id: string; parent_id: string; name: string; gcid: string }): Promise<ArchivePart[]> {
  const match = VOLUME_NAME.exec(file.name)
  if (!match) return [{ gcid: file.gcid, volume: null }]
  const base = match[1]!
  const pattern = `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}.part%.rar`
  const rows = await deps.db
    .selectFrom('drive_files')
    .select(['name', 'gcid'])
    .where('user_id', '=', file.user_id)
    .where('parent_id', '=', file.parent_id)
    .where('trashed', '=', 0)
    .where(sql<boolean>`lower(name) like lower(${pattern}) escape '\\'`)
    .limit(1000)
    .execute()
  const parts = new Map<number, string>()
  for (const row of rows) {
    const volume = VOLUME_NAME.exec(row.name)
    if (!volume || !row.gcid || volume[1]!.toLowerCase() !== base.toLowerCase()) continue
    parts.set(Number(volume[2]), row.gcid)
  }
  if (parts.size === 0) return [{ gcid: file.gcid, volume: null }]
  return [...parts.entries()].sort((a, b) => a[0] - b[0]).map(([volume, gcid]) => ({ gcid, volume }))
}

/** A key naming the parts' contents together (for the listings kept in memory). */
export function partsKey(parts: readonly ArchivePart[]): string {
  return parts.map((p) => `${p.volume ?? ''}:${p.gcid}`).join('+')
}

/**
 * Runs `work` with a path the archive tools can open. A RAR is shown to lsar and unar under a
 * name of our making in a private folder (links to the stored files): they find a set's other
 * volumes by name beside the first, and would take the digits of a blob's name for a volume
 * number. Anything else is the stored file itself.
 */
export async function withArchivePath<T>(blobs: DriveDeps['blobs'], parts: readonly ArchivePart[], signal: AbortSignal | undefined, work: (path: string) => Promise<T>): Promise<T> {
  return withLocalFile(blobs, parts[0]!.gcid, signal, async (first) => {
    if ((await sniffFormat(first)) !== 'rar') return work(first)
    const dir = await mkdtemp(join(tmpdir(), 'cumulus-rar-'))
    try {
      const nameOf = (part: ArchivePart) => (part.volume === null ? 'archive.rar' : `archive.part${part.volume}.rar`)
      await symlink(first, join(dir, nameOf(parts[0]!)))
      const linkRest = async (index: number): Promise<T> => {
        if (index >= parts.length) return work(join(dir, nameOf(parts[0]!)))
        return withLocalFile(blobs, parts[index]!.gcid, signal, async (local) => {
          await symlink(local, join(dir, nameOf(parts[index]!)))
          return linkRest(index + 1)
        })
      }
      return await linkRest(1)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
}
