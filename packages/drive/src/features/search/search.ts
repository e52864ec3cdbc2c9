import {
  ASSOCIATE_LIMIT_DEFAULT,
  ASSOCIATE_LIMIT_MAX,
  type DriveAssociateList,
  type DriveFileList,
  FILE_CATEGORIES,
  FILE_KIND,
  FOLDER_KIND,
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  SEARCH_QUERY_MAX_CHARS,
  type SearchMatch,
} from '@cumulus/protocol'
import { createHash } from 'node:crypto'
import { type RawBuilder, sql } from 'kysely'
import type { FilesTable } from '../../db/schema.js'
import type { Caller, DriveDeps } from '../../deps.js'
import { fileView, foldQuery, hasCjk, highlightOf, isPostgres, wordsOf } from '../../domain/index.js'
import { filterConditions, filterTime, invalidFilter } from '../../lib/filters.js'
import { folderPaths } from './paths.js'

export interface SearchQuery {
  q?: string | undefined
  limit?: string | number | undefined
  pageToken?: string | undefined
  /** The raw `filters` JSON. */
  filters?: string | undefined
}

const invalid = invalidFilter

/** `filters` of a search (decision 029): kind, categories, size and modified-time bounds. */
export interface SearchFilters {
  kindRank?: 0 | 1
  categories?: string[]
  sizeAbove?: number
  sizeBelow?: number
  modifiedAfterMs?: number
  modifiedBeforeMs?: number
}

export function parseSearchFilters(raw: string | undefined): SearchFilters {
  const parsed: SearchFilters = {}
  const condition = filterConditions(raw)
  if (!condition) return parsed
  const kind = condition('kind')
  if (kind && 'eq' in kind) {
    if (kind['eq'] !== FILE_KIND && kind['eq'] !== FOLDER_KIND) throw invalid('filters.kind.eq must be drive#file or drive#folder', 'filters.kind')
    parsed.kindRank = kind['eq'] === FOLDER_KIND ? 0 : 1
  }
  const category = condition('file_category')
  if (category && 'in' in category) {
    const value = category['in']
    const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : null
    if (!list || list.length > FILE_CATEGORIES.length * 2 || list.some((v) => typeof v !== 'string' || !(FILE_CATEGORIES as readonly string[]).includes(v.trim().toUpperCase()))) {
      throw invalid(`filters.file_category.in must list categories among ${FILE_CATEGORIES.join(', ')}`, 'filters.file_category')
    }
    parsed.categories = [...new Set((list as string[]).map((v) => v.trim().toUpperCase()))]
  }
  const size = condition('size')
  const bytes = (value: unknown, bound: string): number => {
    const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN
    if (!Number.isSafeInteger(n) || n < 0) throw invalid(`filters.size.${bound} must be a whole number of bytes`, 'filters.size')
    return n
  }
  if (size && 'gt' in size) parsed.sizeAbove = bytes(size['gt'], 'gt')
  if (size && 'lt' in size) parsed.sizeBelow = bytes(size['lt'], 'lt')
  const modified = condition('modified_time')
  if (modified && 'gt' in modified) parsed.modifiedAfterMs = filterTime(modified['gt'], 'gt')
  if (modified && 'lt' in modified) parsed.modifiedBeforeMs = filterTime(modified['lt'], 'lt')
  return parsed
}

/** The query as typed: required, at most SEARCH_QUERY_MAX_CHARS characters. */
function checkQuery(raw: string | undefined): string {
  const q = (raw ?? '').normalize('NFC').trim()
  if (q === '') throw invalid('q is required', 'q')
  if ([...q].length > SEARCH_QUERY_MAX_CHARS) throw invalid(`q is longer than ${SEARCH_QUERY_MAX_CHARS} characters`, 'q')
  return q
}

function limitOf(raw: string | number | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback
  const n = typeof raw === 'number' ? raw : Number(raw)
  if (!Number.isSafeInteger(n) || n < 1) throw invalid('limit must be a positive integer', 'limit')
  return Math.min(n, max)
}

/**
 * Where a tier stands: the prefix tier's (search_text, id); an FTS5 tier's document number
 * (SQLite), or how many of the tier were shown (PostgreSQL). A GIN index yields its matches in no
 * order: ordering them would read and sort every match (thousands for "y" over a million names)
 * to show 20, so PostgreSQL takes them in the order it finds them and pages by count (decision 029).
 */
type TierKey = [string, string] | number | string

interface Found {
  row: FilesTable
  tier: number
  key: TierKey
}

/**
 * One band of the ranking, fetched in its own order from `after` on. Later tiers leave out what
 * earlier ones found, so a result appears once and the page token only needs (tier, key).
 */
interface Tier {
  fetch(after: TierKey | null, count: number): Promise<Found[]>
}

/** The highest code point: `prefix || MAX` bounds every string that starts with prefix, byte-wise. */
const MAX_CHAR = '\u{10FFFF}'

/**
 * The ranking's tiers for a folded query (decision 029): exact and prefix from a B-tree range;
 * word starts and substrings from trigrams, or, for one and two characters, which trigrams
 * cannot serve, from the words index (each CJK character a word); then pinyin.
 */
function tiersFor(deps: DriveDeps, userId: string, folded: string, filters: SearchFilters): Tier[] {
  const db = deps.db
  const pg = isPostgres(db)
  const starting = ` ${folded}`
  const length = [...folded].length
  const conditions: RawBuilder<unknown>[] = [sql`f.user_id = ${userId}`, sql`f.trashed = 0`]
  if (filters.kindRank !== undefined) conditions.push(sql`f.kind_rank = ${filters.kindRank}`)
  if (filters.categories) conditions.push(sql`f.file_category in (${sql.join(filters.categories)})`)
  if (filters.sizeAbove !== undefined) conditions.push(sql`f.size > ${filters.sizeAbove}`)
  if (filters.sizeBelow !== undefined) conditions.push(sql`f.size < ${filters.sizeBelow}`)
  if (filters.modifiedAfterMs !== undefined) conditions.push(sql`f.modified_at > ${filters.modifiedAfterMs}`)
  if (filters.modifiedBeforeMs !== undefined) conditions.push(sql`f.modified_at < ${filters.modifiedBeforeMs}`)
  // Folded text holds only letters, digits and single spaces: no LIKE wildcard, no FTS5 syntax.
  const notStarting = sql`f.search_text not like ${`${starting}%`}`
  const notAtWord = sql`f.search_text not like ${`%${starting}%`}`
  const notAnywhere = sql`f.search_text not like ${`%${folded}%`}`

  const prefix: Tier = {
    async fetch(after, count) {
      const from = Array.isArray(after) ? sql`and (f.search_text, f.id) > (${after[0]}, ${after[1]})` : sql``
      const { rows } = await sql<FilesTable>`
        select f.* from drive_files f
        where ${sql.join(conditions, sql` and `)} and f.search_text >= ${starting} and f.search_text < ${starting + MAX_CHAR} ${from}
        order by f.search_text, f.id limit ${count}`.execute(db)
      return rows.map((row) => ({ row, tier: 0, key: [row.search_text, row.id] }))
    },
  }

  /** PostgreSQL: the rows `match` selects, in the order the index finds them, paged by count. */
  const pgTier = (match: RawBuilder<unknown>, exclude: RawBuilder<unknown>) => (tier: number): Tier => ({
    async fetch(after, count) {
      const skip = typeof after === 'number' ? after : 0
      const { rows } = await sql<FilesTable>`
        select f.* from drive_files f
        where ${sql.join(conditions, sql` and `)} and ${match} and ${exclude}
        offset ${skip} limit ${count}`.execute(db)
      return rows.map((row, i) => ({ row, tier, key: skip + i + 1 }))
    },
  })

  /** SQLite: the rows an FTS5 `table` matches for `query`, in document order, paged by document number. */
  const ftsTier = (table: string, query: string, exclude: RawBuilder<unknown>) => (tier: number): Tier => ({
    async fetch(after, count) {
      const from = typeof after === 'number' ? sql`and s.rowid > ${after}` : sql``
      const { rows } = await sql<FilesTable & { doc: number }>`
        select f.*, s.rowid as doc from ${sql.id(table)} s
        join drive_search_docs d on d.doc = s.rowid
        join drive_files f on f.id = d.file_id
        where ${sql.id(table)} match ${query} ${from} and ${sql.join(conditions, sql` and `)} and ${exclude}
        order by s.rowid limit ${count}`.execute(db)
      return rows.map(({ doc, ...row }) => ({ row, tier, key: doc }))
    },
  })

  /** Trigram containment of `pattern` (three characters or more) in `column`. */
  const trigram = (column: 'text' | 'extra', pattern: string, exclude: RawBuilder<unknown>) =>
    pg
      ? pgTier(sql`${sql.ref(column === 'text' ? 'f.search_text' : 'f.search_extra')} like ${`%${pattern}%`}`, exclude)
      : ftsTier(column === 'text' ? 'drive_search_text' : 'drive_search_pinyin', `"${pattern}"`, exclude)

  /** Words (or pinyin words) in a row, the last one as a prefix: the path of one- and two-character queries. */
  const words = (column: 'words' | 'extra', exclude: RawBuilder<unknown>) => {
    const tokens = wordsOf(folded).split(' ')
    if (!pg) return ftsTier(column === 'words' ? 'drive_search_words' : 'drive_search_pinyin_words', `"${tokens.join(' ')}" *`, exclude)
    // Two words (two CJK characters) must be adjacent. A tsquery phrase would make PostgreSQL
    // rebuild every candidate's tsvector to check positions; both words from the index and
    // adjacency by LIKE on the words column find the same rows at a fraction of the cost.
    const target = sql.ref(column === 'words' ? 'f.search_words' : 'f.search_extra')
    // A CJK character is a word of its own, so it is matched whole: a prefix match makes GIN
    // gather every entry that starts with it into a bitmap first (16 ms instead of 6 for 고서).
    const query = tokens.map((t, i) => `'${t.replace(/'/g, "''")}'${i === tokens.length - 1 && !hasCjk(t) ? ':*' : ''}`).join(' & ')
    const adjacent = tokens.length > 1 ? sql`and (' ' || ${target}) like ${`% ${tokens.join(' ')}%`}` : sql``
    return pgTier(sql`to_tsvector('simple', ${target}) @@ to_tsquery('simple', ${query}) ${adjacent}`, exclude)
  }

  const makers: ((tier: number) => Tier)[] = []
  if (length >= 3) {
    // Word starts (" q") and then substrings: trigrams.
    makers.push(trigram('text', starting, notStarting))
    makers.push(trigram('text', folded, notAtWord))
  } else {
    // One or two characters ask the words index, where a token prefix is a word start and each
    // CJK character is a word (so "中国" is two adjacent words, wherever it is in a name).
    // Trigrams would be a scan: pg_trgm finds no trigram in "%ab%" and only "  a", " ab" (every
    // word that starts with a) in "% ab%".
    makers.push(words('words', notStarting))
  }
  // Pinyin, for queries in Latin letters (and digits) only.
  if (/^[a-z0-9 ]+$/.test(folded) && /[a-z]/.test(folded)) makers.push(length >= 3 ? trigram('extra', folded, notAnywhere) : words('extra', notAtWord))
  return [prefix, ...makers.map((make, i) => make(i + 1))]
}

/** How a row matched, from its folded name: the label the client shows (and the tier it ranks in). */
function matchOf(row: FilesTable, folded: string): SearchMatch {
  const starting = ` ${folded}`
  if (row.search_text === starting) return 'exact'
  if (row.search_text.startsWith(starting)) return 'prefix'
  if (row.search_text.includes(starting)) return 'word'
  if (row.search_text.includes(folded)) return 'substring'
  return 'pinyin'
}

interface Cursor {
  /** Which query and filters the token belongs to (a hash: the token stays short). */
  h: string
  t: number
  k: TierKey
}

function queryHash(folded: string, filters: string | undefined): string {
  return createHash('sha256').update(`${folded}\u0000${filters ?? ''}`).digest('base64url').slice(0, 16)
}

function decodeCursor(token: string, hash: string, tiers: number): Cursor {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<Cursor>
    const k = value.k
    const keyOk = typeof k === 'number' ? Number.isSafeInteger(k) && k >= 0 : typeof k === 'string' ? k.length <= 128 : Array.isArray(k) && k.length === 2 && k.every((v) => typeof v === 'string' && v.length <= 1024)
    if (value.h === hash && typeof value.t === 'number' && Number.isInteger(value.t) && value.t >= 0 && value.t < tiers && keyOk) return value as Cursor
  } catch {
    // fall through: a token this server did not make
  }
  throw invalid('page_token is not valid for this search', 'page_token')
}

interface Page {
  rows: { row: FilesTable; match: SearchMatch }[]
  folded: string
  nextPageToken: string
}

/** One page of the caller's live items matching `q`, ranked; the core of both calls. */
async function searchPage(deps: DriveDeps, caller: Caller, query: SearchQuery, limit: number): Promise<Page> {
  const q = checkQuery(query.q)
  const filters = parseSearchFilters(query.filters)
  const folded = foldQuery(q)
  // Nothing searchable ("!!!"): no name folds to less than a letter or digit and still matches.
  if (folded === '') return { rows: [], folded, nextPageToken: '' }
  const tiers = tiersFor(deps, caller.userId, folded, filters)
  const hash = queryHash(folded, query.filters)
  const cursor = query.pageToken ? decodeCursor(query.pageToken, hash, tiers.length) : null
  const found: Found[] = []
  for (let t = cursor?.t ?? 0; t < tiers.length && found.length <= limit; t++) {
    const after = cursor && t === cursor.t ? cursor.k : null
    found.push(...(await tiers[t]!.fetch(after, limit + 1 - found.length)))
  }
  let nextPageToken = ''
  if (found.length > limit) {
    found.length = limit
    const last = found[found.length - 1]!
    nextPageToken = Buffer.from(JSON.stringify({ h: hash, t: last.tier, k: last.key } satisfies Cursor)).toString('base64url')
  }
  return { rows: found.map(({ row }) => ({ row, match: matchOf(row, folded) })), folded, nextPageToken }
}

/** `GET /drive/v1/search`: the caller's files and folders whose names match, best first, each with its folder's path. */
export async function searchFiles(deps: DriveDeps, caller: Caller, query: SearchQuery): Promise<DriveFileList> {
  const page = await searchPage(deps, caller, query, limitOf(query.limit, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX))
  const paths = await folderPaths(deps.db, caller.userId, page.rows.map(({ row }) => row.parent_id))
  const files = page.rows.map(({ row, match }) => {
    const file = fileView(deps, row)
    const folder = paths.get(row.parent_id) ?? { path: '/', name: '' }
    file.params = { ...file.params, path: folder.path, parent_name: folder.name, match }
    return file
  })
  return { kind: 'drive#fileList', files, next_page_token: page.nextPageToken, version: '' }
}

/** `GET /drive/v1/search/associate`: suggestions as the user types, with the ranges to highlight. */
export async function associate(deps: DriveDeps, caller: Caller, query: Pick<SearchQuery, 'q' | 'limit'>): Promise<DriveAssociateList> {
  const page = await searchPage(deps, caller, { q: query.q }, limitOf(query.limit, ASSOCIATE_LIMIT_DEFAULT, ASSOCIATE_LIMIT_MAX))
  const paths = await folderPaths(deps.db, caller.userId, page.rows.map(({ row }) => row.parent_id))
  return {
    associates: page.rows.map(({ row, match }) => ({
      text: row.name,
      highlight: highlightOf(row.name, page.folded),
      file_id: row.id,
      kind: row.kind,
      file_category: row.file_category as (typeof FILE_CATEGORIES)[number],
      path: paths.get(row.parent_id)?.path ?? '/',
      match,
    })),
  }
}
