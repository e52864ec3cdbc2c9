import type { DriveFile, DriveLink, FileCategory, FolderType, Phase } from '@cumulus/protocol'
import type { FilesTable } from '../db/schema.js'
import type { DriveDeps } from '../deps.js'
import { rfc3339 } from '../lib/time.js'
import { signedContentUrl, signedThumbnailUrl } from './content-url.js'

export type FileRow = FilesTable

/** Makes a complete file's links: the owner's signed links by default, a share's own in a share. */
export interface LinkMakers {
  content(file: { fileId: string; gcid: string; name: string }): { url: string; expiresAtMs: number }
  thumbnail(file: { fileId: string; gcid: string }): string
}

/** A stored item as the wire's file object (drive.md "File object"), with fresh signed links for complete files. */
export function fileView(
  deps: Pick<DriveDeps, 'config' | 'clock' | 'linkSecret'>,
  row: FileRow,
  makers: LinkMakers = { content: (file) => signedContentUrl(deps, file), thumbnail: (file) => signedThumbnailUrl(deps, file) },
): DriveFile {
  const isFolder = row.kind === 'drive#folder'
  const links: Record<string, DriveLink> = {}
  let webContentLink = ''
  let thumbnailLink = ''
  if (!isFolder && row.phase === 'PHASE_TYPE_COMPLETE' && row.gcid) {
    const { url, expiresAtMs } = makers.content({ fileId: row.id, gcid: row.gcid, name: row.name })
    webContentLink = url
    const link: DriveLink = { url, token: '', expire: rfc3339(expiresAtMs), type: '' }
    links['application/octet-stream'] = link
    // Images and videos have a thumbnail (made by a job after the upload, or when first asked for).
    if (row.file_category === 'IMAGE' || row.file_category === 'VIDEO') thumbnailLink = makers.thumbnail({ fileId: row.id, gcid: row.gcid })
  }
  return {
    kind: row.kind,
    id: row.id,
    parent_id: row.parent_id,
    name: row.name,
    user_id: row.user_id,
    size: String(row.size),
    revision: String(row.revision),
    file_extension: row.file_extension,
    mime_type: row.mime_type,
    file_category: row.file_category as FileCategory,
    folder_type: row.folder_type as FolderType,
    hash: row.gcid ?? '',
    md5_checksum: '',
    phase: row.phase as Phase,
    trashed: row.trashed === 1,
    starred: row.starred === 1,
    created_time: rfc3339(row.created_at),
    modified_time: rfc3339(row.modified_at),
    delete_time: row.trashed_at === null ? '' : rfc3339(row.trashed_at),
    thumbnail_link: thumbnailLink,
    icon_link: '',
    web_content_link: webContentLink,
    links,
    // A video's medias are in its detail only (drive.md; domain/video-detail.ts).
    medias: [],
    audit: { status: 'STATUS_OK', message: '', title: '' },
    params: {},
    space: '',
    writable: true,
    // An archive opens in the archive page (drive.md "Decompress"), which lists and unpacks it.
    ...(!isFolder && row.file_category === 'ARCHIVE' ? { apps: [{ id: 'decompress', name: 'Decompress', link: `${deps.config.publicUrl}/decompress/${row.id}` }] } : {}),
  }
}
