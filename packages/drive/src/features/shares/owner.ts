import { AppError, type CreateShareReply, DriveErrors, type DriveItemKind, type DriveShare, type FileCategory, FOLDER_KIND, GenericErrors, type Locale, SHARE_MAX_EXPIRATION_DAYS, SHARE_MAX_ITEMS, SHARE_PASS_CODE_PATTERN, SHARE_TEXTS, type ShareListReply, type ShareStatus, type ShareTo } from '@cumulus/protocol'
import type { FilesTable, ShareRow } from '../../db/schema.js'
import type { Caller, DriveDeps } from '../../deps.js'
import { signedThumbnailUrl } from '../../domain/index.js'
import { newId } from '../../lib/ids.js'
import { newestFirstPage } from '../../lib/paging.js'
import { chunks } from '../../lib/rows.js'
import { DAY_MS, rfc3339 } from '../../lib/time.js'
import { newPassCode } from './access.js'
import { statusText } from './views.js'

type Deps = Pick<DriveDeps, 'db' | 'clock' | 'config' | 'linkSecret'>

export interface CreateShareInput {
  fileIds: readonly string[]
  shareTo?: string | undefined
  passCodeOption?: string | undefined
  expirationDays?: number | string | undefined
  customPassCode?: string | undefined
  title?: string | undefined
  locale: Locale
}

function invalid(description: string, field: string): AppError {
  return new AppError(GenericErrors.invalid_argument, { description, metadata: { field } })
}

/** -1 (never) or a whole number of days up to SHARE_MAX_EXPIRATION_DAYS; absent is never. */
export function expirationDaysOf(raw: number | string | undefined): number {
  if (raw === undefined || raw === '') return -1
  const days = typeof raw === 'number' ? raw : /^-?\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN
  if (days === -1 || (Number.isSafeInteger(days) && days >= 1 && days <= SHARE_MAX_EXPIRATION_DAYS)) return days
  throw invalid(`expiration_days must be -1 or 1 to ${SHARE_MAX_EXPIRATION_DAYS}`, 'expiration_days')
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole)
}

/** The share's address: the web app's public page, which clients also open directly. */
export function shareUrl(deps: Pick<DriveDeps, 'config'>, shareId: string): string {
  return `${deps.config.publicUrl}/s/${shareId}`
}

export function shareText(deps: Pick<DriveDeps, 'config'>, share: Pick<ShareRow, 'id' | 'title' | 'pass_code'>, locale: Locale): string {
  const texts = SHARE_TEXTS[locale]
  const text = fill(texts.shareText, { title: share.title, url: shareUrl(deps, share.id) })
  return share.pass_code === '' ? text : `${text}\n${fill(texts.passCodeLine, { code: share.pass_code })}`
}

/** A share as its owner sees it; `first` is its first live item (for the icon), `fileNum` how many are live. */
function ownerView(deps: Deps, share: ShareRow, first: FilesTable | undefined, fileNum: number, locale: Locale): DriveShare {
  const nowMs = deps.clock.nowMs()
  const expiresAt = share.expires_at === null ? null : Number(share.expires_at)
  const status: ShareStatus = share.deleted_at !== null || fileNum === 0 ? 'DELETED' : expiresAt !== null && nowMs >= expiresAt ? 'EXPIRED' : 'OK'
  return {
    share_id: share.id,
    share_url: shareUrl(deps, share.id),
    share_to: share.share_to,
    pass_code_option: share.pass_code === '' ? 'NOT_REQUIRED' : 'REQUIRED',
    pass_code: share.pass_code,
    title: share.title,
    file_num: String(fileNum),
    file_id: first?.id ?? '',
    file_kind: (first?.kind ?? 'drive#file') as DriveItemKind,
    file_category: (first?.file_category ?? 'OTHER') as FileCategory,
    thumbnail_link: first?.gcid && (first.file_category === 'IMAGE' || first.file_category === 'VIDEO') ? signedThumbnailUrl(deps, { fileId: first.id, gcid: first.gcid }) : '',
    icon_link: '',
    expiration_days: String(share.expiration_days),
    expiration_at: expiresAt === null ? null : rfc3339(expiresAt),
    expiration_left_seconds: expiresAt === null ? '-1' : String(Math.max(0, Math.floor((expiresAt - nowMs) / 1000))),
    create_time: rfc3339(Number(share.created_at)),
    share_status: status,
    share_status_text: statusText(locale, status),
    view_count: String(share.view_count),
    restore_count: String(share.restore_count),
    download_count: String(share.download_count),
    share_text: shareText(deps, share, locale),
  }
}

/** The live top-level items of several shares at once (one query per 500 shares), by share, in name order. */
async function liveItemsOf(deps: Deps, shares: readonly ShareRow[]): Promise<Map<string, FilesTable[]>> {
  const byShare = new Map<string, FilesTable[]>()
  const byId = new Map(shares.map((s) => [s.id, s]))
  for (const chunk of chunks(shares.map((s) => s.id))) {
    const rows = await deps.db
      .selectFrom('drive_share_items')
      .innerJoin('drive_files', 'drive_files.id', 'drive_share_items.file_id')
      .selectAll('drive_files')
      .select('drive_share_items.share_id')
      .where('drive_share_items.share_id', 'in', chunk)
      .where('drive_files.trashed', '=', 0)
      .orderBy('drive_files.kind_rank')
      .orderBy('drive_files.name_key')
      .execute()
    for (const row of rows) {
      const share = byId.get(row.share_id)
      // The item must still be the owner's: ids are unique, but the check costs nothing.
      if (!share || row.user_id !== share.user_id || (row.kind !== FOLDER_KIND && row.phase !== 'PHASE_TYPE_COMPLETE')) continue
      const list = byShare.get(row.share_id)
      if (list) list.push(row)
      else byShare.set(row.share_id, [row])
    }
  }
  return byShare
}

/**
 * `POST /drive/v1/share`: shares the caller's live items behind one link. A pass code is asked
 * for by `share_to: "encryptedlink"`, `pass_code_option: "REQUIRED"` or a custom code; it is
 * random (4 letters and digits) unless the owner gives one.
 */
export async function createShare(deps: Deps, caller: Caller, input: CreateShareInput): Promise<CreateShareReply> {
  const ids = [...new Set(input.fileIds)]
  if (ids.length === 0 || ids.length > SHARE_MAX_ITEMS) throw invalid(`file_ids must name 1 to ${SHARE_MAX_ITEMS} items`, 'file_ids')
  const custom = input.customPassCode ?? ''
  if (custom !== '' && !SHARE_PASS_CODE_PATTERN.test(custom)) {
    throw new AppError(DriveErrors.share_pass_code_invalid, { description: 'custom_pass_code must be 4 to 16 ASCII letters or digits', metadata: { field: 'custom_pass_code' } })
  }
  const needsCode = input.shareTo === 'encryptedlink' || input.passCodeOption === 'REQUIRED' || custom !== ''
  const expirationDays = expirationDaysOf(input.expirationDays)
  const title = (input.title ?? '').trim()
  if (title.length > 255) throw invalid('title is longer than 255 characters', 'title')

  const nowMs = deps.clock.nowMs()
  const share = await deps.db.transaction().execute(async (trx) => {
    const items: FilesTable[] = []
    for (const chunk of chunks(ids)) items.push(...(await trx.selectFrom('drive_files').selectAll().where('user_id', '=', caller.userId).where('id', 'in', chunk).execute()))
    const usable = new Map(items.filter((i) => i.trashed === 0 && (i.kind === FOLDER_KIND || i.phase === 'PHASE_TYPE_COMPLETE')).map((i) => [i.id, i]))
    const missing = ids.find((id) => !usable.has(id))
    if (missing !== undefined) throw new AppError(DriveErrors.file_not_found, { description: `no item ${missing} to share`, metadata: { id: missing } })
    const first = usable.get(ids[0] as string) as FilesTable
    const row: ShareRow = {
      id: newId(),
      user_id: caller.userId,
      title: title || (ids.length === 1 ? first.name : fill(SHARE_TEXTS[input.locale].titleMore, { name: first.name, count: String(ids.length - 1) })),
      share_to: (needsCode ? 'encryptedlink' : 'publiclink') satisfies ShareTo,
      pass_code: needsCode ? custom || newPassCode() : '',
      expiration_days: expirationDays,
      expires_at: expirationDays === -1 ? null : nowMs + expirationDays * DAY_MS,
      created_at: nowMs,
      deleted_at: null,
      view_count: 0,
      restore_count: 0,
      download_count: 0,
    }
    await trx.insertInto('drive_shares').values(row).execute()
    for (const chunk of chunks(ids)) await trx.insertInto('drive_share_items').values(chunk.map((id) => ({ share_id: row.id, file_id: id }))).execute()
    return row
  })
  const view = ownerView(deps, share, (await liveItemsOf(deps, [share])).get(share.id)?.[0], ids.length, input.locale)
  return { share_id: share.id, share_url: view.share_url, pass_code: share.pass_code, share_text: view.share_text, share_list: [view] }
}

/** `GET /drive/v1/share/list`: the caller's shares, newest first, with their counts; cancelled ones are gone. */
export async function listShares(deps: Deps, caller: Caller, input: { limit?: string | number | undefined; pageToken?: string | undefined; locale: Locale }): Promise<ShareListReply> {
  const { rows, nextPageToken } = await newestFirstPage(deps.db.selectFrom('drive_shares').selectAll().where('user_id', '=', caller.userId).where('deleted_at', 'is', null), 'shares', input)
  const items = await liveItemsOf(deps, rows)
  return { data: rows.map((share) => ownerView(deps, share, items.get(share.id)?.[0], items.get(share.id)?.length ?? 0, input.locale)), next_page_token: nextPageToken }
}

/** The most ids one cancel request may name. */
export const SHARE_DELETE_MAX_IDS = 1000

/** `POST /drive/v1/share:batchDelete`: cancels the caller's shares; their links read DELETED at once. Others' and unknown ids are ignored. */
export async function deleteShares(deps: Deps, caller: Caller, ids: readonly string[]): Promise<Record<string, never>> {
  const nowMs = deps.clock.nowMs()
  for (const chunk of chunks([...new Set(ids)])) {
    await deps.db.updateTable('drive_shares').set({ deleted_at: nowMs }).where('user_id', '=', caller.userId).where('id', 'in', chunk).where('deleted_at', 'is', null).execute()
  }
  return {}
}


/** How long a cancelled or expired share still says so (DELETED, EXPIRED) before it is forgotten (NOT_FOUND). */
export const SHARE_TOMBSTONE_MS = 30 * DAY_MS

/**
 * Housekeeping: forgets shares cancelled or expired more than SHARE_TOMBSTONE_MS ago, with the
 * rows of their items, a few hundred at a time. Idempotent, and safe on several nodes at once.
 */
export async function forgetOldShares(deps: Pick<DriveDeps, 'db' | 'clock'>): Promise<number> {
  const before = deps.clock.nowMs() - SHARE_TOMBSTONE_MS
  let forgotten = 0
  for (;;) {
    const old = await deps.db
      .selectFrom('drive_shares')
      .select('id')
      .where((eb) => eb.or([eb('deleted_at', '<', before), eb('expires_at', '<', before)]))
      .limit(500)
      .execute()
    if (old.length === 0) return forgotten
    const ids = old.map((s) => s.id)
    await deps.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('drive_share_items').where('share_id', 'in', ids).execute()
      await trx.deleteFrom('drive_shares').where('id', 'in', ids).execute()
    })
    forgotten += ids.length
  }
}
