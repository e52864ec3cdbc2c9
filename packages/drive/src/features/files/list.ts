import { DRIVE_LIST_LIMIT_MAX, type DriveFileList, type DriveOrderField, FILE_KIND, FOLDER_KIND, PHASES } from '@cumulus/protocol'
import { type SelectQueryBuilder, sql } from 'kysely'
import type { DriveDatabase, FilesTable } from '../../db/schema.js'
import type { Caller, DriveDeps } from '../../deps.js'
import { fileView, liveFolder } from '../../domain/index.js'
import { filterConditions, filterTime, invalidFilter } from '../../lib/filters.js'
import { pageLimit } from '../../lib/paging.js'
import { isId } from '../../lib/ids.js'

export interface ListQuery {
  parentId?: string | undefined
  limit?: number | string | undefined
  pageToken?: string | undefined
  /** The raw `filters` JSON. */
  filters?: string | undefined
  orderBy?: string | undefined
  direction?: string | undefined
}

/** The filters this server applies (drive.md); unknown keys are ignored, as clients send extras. */
export interface ParsedFilters {
  trashed: boolean
  phase?: string
  kind?: string
  starred?: boolean
  mimePrefix?: string
  modifiedAfterMs?: number
  modifiedBeforeMs?: number
  ids?: string[]
}

const invalid = invalidFilter

function boolOf(value: unknown, field: string): boolean {
  if (typeof value === 'boolean') return value
  if (value === 'true' || value === 'false') return value === 'true'
  throw invalid(`filters.${field}.eq must be true or false`, `filters.${field}`)
}

export function parseFilters(raw: string | undefined): ParsedFilters {
  const parsed: ParsedFilters = { trashed: false }
  const condition = filterConditions(raw)
  if (!condition) return parsed
  const trashed = condition('trashed')
  if (trashed && 'eq' in trashed) parsed.trashed = boolOf(trashed['eq'], 'trashed')
  const starred = condition('starred')
  if (starred && 'eq' in starred) parsed.starred = boolOf(starred['eq'], 'starred')
  const phase = condition('phase')
  if (phase && 'eq' in phase) {
    if (!PHASES.includes(phase['eq'] as (typeof PHASES)[number])) throw invalid(`filters.phase.eq must be one of ${PHASES.join(', ')}`, 'filters.phase')
    parsed.phase = phase['eq'] as string
  }
  const kind = condition('kind')
  if (kind && 'eq' in kind) {
    if (kind['eq'] !== FILE_KIND && kind['eq'] !== FOLDER_KIND) throw invalid('filters.kind.eq must be drive#file or drive#folder', 'filters.kind')
    parsed.kind = kind['eq']
  }
  const mime = condition('mime_type')
  if (mime && 'prefix' in mime) {
    if (typeof mime['prefix'] !== 'string' || mime['prefix'].length > 255) throw invalid('filters.mime_type.prefix must be a string', 'filters.mime_type')
    parsed.mimePrefix = mime['prefix']
  }
  const modified = condition('modified_time')
  if (modified && 'gt' in modified) parsed.modifiedAfterMs = filterTime(modified['gt'], 'gt')
  if (modified && 'lt' in modified) parsed.modifiedBeforeMs = filterTime(modified['lt'], 'lt')
  const ids = condition('id')
  if (ids && 'in' in ids) {
    const value = ids['in']
    const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : null
    if (!list || list.some((v) => typeof v !== 'string')) throw invalid('filters.id.in must be a comma-separated list of ids', 'filters.id')
    parsed.ids = (list as string[]).map((v) => v.trim()).filter(Boolean).slice(0, DRIVE_LIST_LIMIT_MAX)
  }
  return parsed
}

const ORDER_COLUMNS = { name: 'name_key', modified_time: 'modified_at', size: 'size' } as const satisfies Record<DriveOrderField, keyof FilesTable>

interface Order {
  field: DriveOrderField
  descending: boolean
}

/** `order_by=size&direction=desc`, or the `order_by=size desc` / `-size` forms some clients send. */
export function parseOrder(orderBy: string | undefined, direction: string | undefined): Order {
  let field = (orderBy ?? '').trim()
  let dir = (direction ?? '').trim().toLowerCase()
  if (field.startsWith('-')) {
    field = field.slice(1)
    dir ||= 'desc'
  }
  const parts = field.split(/\s+/)
  if (parts.length === 2) {
    field = parts[0] ?? ''
    dir ||= (parts[1] ?? '').toLowerCase()
  }
  field = field.toLowerCase()
  if (field === '' || field === 'name') field = 'name'
  if (field === 'modified' || field === 'updated_time' || field === 'modified_time') field = 'modified_time'
  if (!(field in ORDER_COLUMNS)) throw invalid('order_by must be name, modified_time or size', 'order_by')
  if (dir !== '' && dir !== 'asc' && dir !== 'desc') throw invalid('direction must be asc or desc', 'direction')
  return { field: field as DriveOrderField, descending: dir === 'desc' }
}

interface Cursor {
  /** kind_rank of the last item. */
  r: number
  /** Its sort value. */
  v: string | number
  /** Its id. */
  i: string
  /** The order the cursor belongs to. */
  o: string
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url')
}

function decodeCursor(token: string, order: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<Cursor>
    // Only what this server writes reaches the query: no NUL (PostgreSQL text cannot hold one), a
    // whole number for the number orders, an id shaped as ids are.
    const validValue = order.startsWith('name:') ? typeof value.v === 'string' && value.v.length <= 4096 && !value.v.includes('\u0000') : typeof value.v === 'number' && Number.isSafeInteger(value.v)
    if ((value.r === 0 || value.r === 1) && validValue && typeof value.i === 'string' && isId(value.i) && value.o === order) return value as Cursor
  } catch {
    // fall through: a token this server did not make
  }
  throw invalid('page_token is not valid for this listing', 'page_token')
}

type FileQuery = SelectQueryBuilder<DriveDatabase, 'drive_files', FilesTable>

/**
 * One page of a folder (or, with parent_id "*", of every folder). Folders first, then by the
 * chosen order; the cursor is the last item's (kind, sort value, id), so each page is one or two
 * index range scans from that point, in constant time whatever the folder's size.
 */
export async function listFiles(deps: DriveDeps, caller: Caller, query: ListQuery): Promise<DriveFileList> {
  const limit = pageLimit(query.limit)
  const filters = parseFilters(query.filters)
  const order = parseOrder(query.orderBy, query.direction)
  const orderKey = `${order.field}:${order.descending ? 'desc' : 'asc'}`
  const cursor = query.pageToken ? decodeCursor(query.pageToken, orderKey) : null
  const allFolders = query.parentId === '*'
  const parentId = allFolders ? '*' : await liveFolder(deps.db, caller.userId, query.parentId)

  let base: FileQuery = deps.db.selectFrom('drive_files').selectAll().where('user_id', '=', caller.userId)
  if (!allFolders) base = base.where('parent_id', '=', parentId)
  // The trash lists what the user trashed, not everything under a trashed folder.
  base = filters.trashed ? base.where('trashed', '=', 1).where('trash_root', '=', 1) : base.where('trashed', '=', 0)
  if (filters.starred !== undefined) base = base.where('starred', '=', filters.starred ? 1 : 0)
  if (filters.phase) base = base.where('phase', '=', filters.phase)
  if (filters.mimePrefix !== undefined) {
    const pattern = `${filters.mimePrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    base = base.where(sql<boolean>`${sql.ref('mime_type')} like ${pattern} escape '\\'`)
  }
  if (filters.modifiedAfterMs !== undefined) base = base.where('modified_at', '>', filters.modifiedAfterMs)
  if (filters.modifiedBeforeMs !== undefined) base = base.where('modified_at', '<', filters.modifiedBeforeMs)
  if (filters.ids) base = filters.ids.length ? base.where('id', 'in', filters.ids) : base.where(sql<boolean>`1 = 0`)

  const ranks = filters.kind === FOLDER_KIND ? [0] : filters.kind === FILE_KIND ? [1] : [0, 1]
  const column = ORDER_COLUMNS[order.field]
  const dir = order.descending ? 'desc' : 'asc'
  const rows: FilesTable[] = []
  for (const rank of ranks) {
    if (cursor && rank < cursor.r) continue
    let q = base.where('kind_rank', '=', rank)
    if (cursor && rank === cursor.r) {
      const after = order.descending ? sql`<` : sql`>`
      q = q.where(sql<boolean>`(${sql.ref(column)}, ${sql.ref('id')}) ${after} (${cursor.v}, ${cursor.i})`)
    }
    const page = await q.orderBy(column, dir).orderBy('id', dir).limit(limit + 1 - rows.length).execute()
    rows.push(...page)
    if (rows.length > limit) break
  }

  let nextPageToken = ''
  if (rows.length > limit) {
    rows.length = limit
    const last = rows[rows.length - 1] as FilesTable
    nextPageToken = encodeCursor({ r: last.kind_rank, v: last[column] as string | number, i: last.id, o: orderKey })
  }
  return { kind: 'drive#fileList', files: rows.map((row) => fileView(deps, row)), next_page_token: nextPageToken, version: '' }
}
