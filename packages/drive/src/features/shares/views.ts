import { AppError, type DriveFile, type DriveMedia, FOLDER_KIND, GenericErrors, type Locale, SHARE_TEXTS, type ShareDetailReply, type ShareFileInfoReply, type ShareInfoReply, type SharePreview, type ShareStatus } from '@cumulus/protocol'
import { sql } from 'kysely'
import type { FilesTable, ShareRow } from '../../db/schema.js'
import type { DriveDeps } from '../../deps.js'
import { fileView, itemInShare, probeOf, shareStanding, signedShareContentUrl, signedShareThumbnailUrl } from '../../domain/index.js'
import { chunks } from '../../lib/rows.js'
import { isId } from '../../lib/ids.js'
import { pageLimit } from '../../lib/paging.js'
import { rfc3339 } from '../../lib/time.js'
import { type ShareAccess, type ShareRequest, openShare } from './access.js'

type Deps = Pick<DriveDeps, 'db' | 'clock' | 'linkSecret' | 'counters' | 'config' | 'profiles'>

/** The text of a status in the visitor's language; a held-back guess says so. */
export function statusText(locale: Locale, status: ShareStatus, throttled = false): string {
  const texts = SHARE_TEXTS[locale]
  return throttled ? texts.tooManyGuesses : texts.status[status]
}

/** A file of a share as a visitor sees it: its links are the share's own (they die with it), and nothing of it is writable. */
export function sharedFileView(deps: Pick<DriveDeps, 'config' | 'clock' | 'linkSecret'>, shareId: string, row: FilesTable, isRoot: boolean): DriveFile {
  const view = fileView(deps, row, {
    content: (file) => signedShareContentUrl(deps, { ...file, shareId }),
    thumbnail: (file) => signedShareThumbnailUrl(deps, { ...file, shareId }),
  })
  delete view.apps
  view.starred = false
  view.writable = false
  // A visitor learns neither the content's hash (with global dedup it would let them add the file
  // to their drive after the share ends) nor where the owner keeps a shared item.
  view.hash = ''
  if (isRoot) view.parent_id = ''
  return view
}

// ---- paging in name order -----------------------------------------------------------------

interface NameCursor {
  rank: number
  key: string
  id: string
}

function encodeCursor(row: Pick<FilesTable, 'kind_rank' | 'name_key' | 'id'>): string {
  return Buffer.from(JSON.stringify({ f: 'share', r: row.kind_rank, k: row.name_key, i: row.id })).toString('base64url')
}

function decodeCursor(token: string | undefined): NameCursor | null {
  if (!token) return null
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { f?: unknown; r?: unknown; k?: unknown; i?: unknown }
    // No NUL (PostgreSQL text cannot hold one) and an id shaped as ids are: nothing else reaches the query.
    if (v.f === 'share' && (v.r === 0 || v.r === 1) && typeof v.k === 'string' && v.k.length <= 4096 && !v.k.includes('\u0000') && typeof v.i === 'string' && isId(v.i)) return { rank: v.r, key: v.k, id: v.i }
  } catch {
    // fall through: not ours
  }
  throw new AppError(GenericErrors.invalid_argument, { description: 'page_token is not valid for this listing', metadata: { field: 'page_token' } })
}

/** Byte-wise order of (kind_rank, name_key, id), as the listing indexes sort them. */
function compareRows(a: FilesTable, b: FilesTable): number {
  if (a.kind_rank !== b.kind_rank) return a.kind_rank - b.kind_rank
  const key = Buffer.compare(Buffer.from(a.name_key), Buffer.from(b.name_key))
  if (key !== 0) return key
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

function afterCursor(row: FilesTable, cursor: NameCursor): boolean {
  return compareRows(row, { ...row, kind_rank: cursor.rank, name_key: cursor.key, id: cursor.id }) > 0
}

interface Page {
  rows: FilesTable[]
  nextPageToken: string
}

/** The share's top-level items (at most SHARE_MAX_ITEMS), sorted and paged in memory. */
async function rootPage(deps: Deps, rootIds: readonly string[], limit: number, pageToken: string | undefined): Promise<Page> {
  const cursor = decodeCursor(pageToken)
  const rows: FilesTable[] = []
  for (const chunk of chunks(rootIds)) rows.push(...(await deps.db.selectFrom('drive_files').selectAll().where('id', 'in', chunk).execute()))
  rows.sort(compareRows)
  const after = cursor ? rows.filter((r) => afterCursor(r, cursor)) : rows
  const page = after.slice(0, limit)
  return { rows: page, nextPageToken: after.length > limit ? encodeCursor(page[page.length - 1] as FilesTable) : '' }
}

/** One page of a folder inside the share: its live folders and complete files, folders first, by name; one index range scan. */
async function folderPage(deps: Deps, share: ShareRow, folderId: string, limit: number, pageToken: string | undefined): Promise<Page> {
  const cursor = decodeCursor(pageToken)
  let query = deps.db
    .selectFrom('drive_files')
    .selectAll()
    .where('user_id', '=', share.user_id)
    .where('parent_id', '=', folderId)
    .where('trashed', '=', 0)
    .where(sql<boolean>`(kind = ${FOLDER_KIND} or phase = 'PHASE_TYPE_COMPLETE')`)
  if (cursor) {
    query = query.where(({ eb, or, and }) =>
      or([eb('kind_rank', '>', cursor.rank), and([eb('kind_rank', '=', cursor.rank), or([eb('name_key', '>', cursor.key), and([eb('name_key', '=', cursor.key), eb('id', '>', cursor.id)])])])]),
    )
  }
  const rows = await query.orderBy('kind_rank').orderBy('name_key').orderBy('id').limit(limit + 1).execute()
  const page = rows.slice(0, limit)
  return { rows: page, nextPageToken: rows.length > limit ? encodeCursor(page[page.length - 1] as FilesTable) : '' }
}

// ---- the public calls ----------------------------------------------------------------------

export interface ShareInfoInput extends ShareRequest {
  pageToken?: string | undefined
  limit?: string | number | undefined
  locale: Locale
}

const NOBODY = { user_id: '', nickname: '', avatar: '' }

/**
 * `GET /drive/v1/share`: a share's standing and, when it opens, one page of its top-level items.
 * Always HTTP 200: whatever stands in the way is a status (drive.md). A view is counted when the
 * first page is read.
 */
export async function shareInfo(deps: Deps, input: ShareInfoInput): Promise<ShareInfoReply> {
  const access = await openShare(deps, input)
  const empty: ShareInfoReply = {
    share_status: access.status,
    share_status_text: statusText(input.locale, access.status, access.status !== 'OK' && access.throttled === true),
    share_id: input.shareId,
    pass_code_token: '',
    title: '',
    file_num: '0',
    expiration_at: null,
    restore_count_left: '-1',
    user_info: NOBODY,
    files: [],
    next_page_token: '',
  }
  if (access.status !== 'OK') return empty
  const { share } = access
  const limit = pageLimit(input.limit)
  const [page, owner] = await Promise.all([rootPage(deps, access.rootIds, limit, input.pageToken), deps.profiles.find(share.user_id)])
  if (!input.pageToken) await deps.db.updateTable('drive_shares').set((eb) => ({ view_count: eb('view_count', '+', 1) })).where('id', '=', share.id).execute()
  return {
    ...empty,
    pass_code_token: access.passCodeToken,
    title: share.title,
    file_num: String(access.rootIds.length),
    expiration_at: share.expires_at === null ? null : rfc3339(Number(share.expires_at)),
    user_info: { user_id: share.user_id, nickname: owner?.nickname ?? '', avatar: owner?.avatar ?? '' },
    files: page.rows.map((row) => sharedFileView(deps, share.id, row, true)),
    next_page_token: page.nextPageToken,
  }
}

/** A file or folder that is not (or no longer) in a share that stands: a status like the share's own, HTTP 200 (drive.md). */
function notInShare(locale: Locale): { share_status: 'NOT_FOUND'; share_status_text: string } {
  return { share_status: 'NOT_FOUND', share_status_text: SHARE_TEXTS[locale].itemNotFound }
}

/** `GET /drive/v1/share/detail`: one page of a folder inside the share (file_not_found shape for a folder not in it). */
export async function shareDetail(deps: Deps, input: ShareInfoInput & { parentId: string }): Promise<ShareDetailReply> {
  const access = await openShare(deps, input)
  const reply = (a: ShareAccess): ShareDetailReply => ({ share_status: a.status, share_status_text: statusText(input.locale, a.status, a.status !== 'OK' && a.throttled === true), files: [], next_page_token: '' })
  if (access.status !== 'OK') return reply(access)
  const limit = pageLimit(input.limit)
  if (input.parentId === '') {
    const page = await rootPage(deps, access.rootIds, limit, input.pageToken)
    return { ...reply(access), files: page.rows.map((row) => sharedFileView(deps, access.share.id, row, true)), next_page_token: page.nextPageToken }
  }
  const folder = await itemInShare(deps.db, access.share, access.rootIds, input.parentId)
  if (!folder || folder.kind !== FOLDER_KIND) return { ...notInShare(input.locale), files: [], next_page_token: '' }
  const page = await folderPage(deps, access.share, folder.id, limit, input.pageToken)
  return { ...reply(access), files: page.rows.map((row) => sharedFileView(deps, access.share.id, row, false)), next_page_token: page.nextPageToken }
}

/** A shared video's Original, playable through the share's own link (renditions are for the owner's and members' players). */
async function originalMedia(deps: Deps, view: DriveFile, row: FilesTable): Promise<DriveMedia[]> {
  if (row.file_category !== 'VIDEO' || !row.gcid || view.web_content_link === '') return []
  const stored = await deps.db.selectFrom('drive_media').selectAll().where('gcid', '=', row.gcid).executeTakeFirst()
  const probe = probeOf(stored)
  const download = view.links['application/octet-stream']
  if (!download) return []
  // Played inline: a play is not a download (the share's download count leaves it out).
  const link = { ...download, url: `${download.url}&disposition=inline` }
  return [
    {
      media_id: `${row.id}-origin`,
      media_name: 'Original',
      video: probe
        ? { width: probe.width, height: probe.height, duration: Math.round(probe.duration), bit_rate: probe.bitRate, frame_rate: probe.frameRate, video_codec: probe.videoCodec, audio_codec: probe.audioCodec, video_type: probe.videoType, hdr_type: probe.hdrType }
        : null,
      link,
      need_more_quota: false,
      vip_types: [],
      redirect_link: '',
      icon_link: '',
      is_default: true,
      priority: 0,
      is_origin: true,
      resolution_name: 'Original',
      is_visible: true,
      category: 'category_origin',
    },
  ]
}

/** `GET /drive/v1/share/file_info`: one item of the share with fresh links (and a video's Original in `medias`). */
export async function shareFileInfo(deps: Deps, input: ShareInfoInput & { fileId: string }): Promise<ShareFileInfoReply> {
  const access = await openShare(deps, input)
  if (access.status !== 'OK') return { share_status: access.status, share_status_text: statusText(input.locale, access.status, access.throttled === true), file_info: null }
  const row = await itemInShare(deps.db, access.share, access.rootIds, input.fileId)
  if (!row) return { ...notInShare(input.locale), file_info: null }
  const view = sharedFileView(deps, access.share.id, row, access.rootIds.includes(row.id))
  view.medias = await originalMedia(deps, view, row)
  return { share_status: 'OK', share_status_text: '', file_info: view }
}

/**
 * What the server-rendered share page may show before anyone opens the share (link previews): no
 * view is counted, no code is taken, and a share behind a code shows only who shared it.
 */
export async function sharePreview(deps: Pick<DriveDeps, 'db' | 'clock' | 'profiles'>, shareId: string): Promise<SharePreview> {
  const standing = await shareStanding(deps, shareId)
  const share = standing.share
  if (standing.status !== 'OK' || !share) return { status: standing.status, title: '', fileNum: 0, ownerName: '', passCodeRequired: false }
  const owner = await deps.profiles.find(share.user_id)
  const isPublic = share.pass_code === ''
  return { status: 'OK', title: isPublic ? share.title : '', fileNum: isPublic ? standing.rootIds.length : 0, ownerName: owner?.nickname ?? '', passCodeRequired: !isPublic }
}
