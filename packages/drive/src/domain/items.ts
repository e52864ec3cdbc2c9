import { AppError, DriveErrors, FOLDER_KIND } from '@cumulus/protocol'
import { type Kysely, PostgresAdapter, type Transaction, sql } from 'kysely'
import type { DriveDatabase, FilesTable } from '../db/schema.js'
import { isId, newId } from '../lib/ids.js'
import type { EventType } from './events.js'
import { categoryOf, mimeTypeOf } from './mime.js'
import { freeName, freeNames, nameKey, splitExtension } from './names.js'
import { searchColumns } from './search-text.js'

type Db = Kysely<DriveDatabase> | Transaction<DriveDatabase>

function notFound(id: string): AppError {
  return new AppError(DriveErrors.file_not_found, { description: `no file ${id}`, metadata: { id } })
}

/** PostgreSQL (row locks, arrays) rather than SQLite (one writer at a time, so no row locks). */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}

/**
 * The caller's item `id` (trashed or not), or file_not_found. Another user's item is "not found",
 * never "forbidden". `share` takes a shared row lock on PostgreSQL until the transaction ends.
 */
export async function findOwned(db: Db, userId: string, id: string, options: { share?: boolean } = {}): Promise<FilesTable> {
  if (!isId(id)) throw notFound(id)
  // By id alone, owner checked here: with `user_id = ?` in the query, PostgreSQL without fresh
  // statistics walks the user's whole (user_id, …) index instead of probing the primary key.
  let query = db.selectFrom('drive_files').selectAll().where('id', '=', id)
  if (options.share && isPostgres(db)) query = query.forShare()
  const row = await query.executeTakeFirst()
  if (!row || row.user_id !== userId) throw notFound(id)
  return row
}

/**
 * '' for the root, or a live folder of the caller's; file_not_found / file_parent_not_folder
 * otherwise. Pass `forInsert` when the transaction will put an item into it: the folder's row is
 * then share-locked (PostgreSQL), so a trash or delete of it waits for this transaction, or this
 * one sees the folder gone, and an item never lands live in a trashed folder. Inserts into one
 * folder share the lock and never wait for each other.
 */
export async function liveFolder(db: Db, userId: string, parentId: string | null | undefined, options: { forInsert?: boolean } = {}): Promise<string> {
  if (!parentId) return ''
  const row = await findOwned(db, userId, parentId, { share: options.forInsert === true })
  if (row.trashed === 1) throw notFound(parentId)
  if (row.kind !== FOLDER_KIND) throw new AppError(DriveErrors.file_parent_not_folder, { description: `${parentId} is not a folder`, metadata: { id: parentId } })
  return row.id
}

/**
 * Which of `candidates` live items of the folder already use, at a cost that does not depend on
 * the folder's size: one probe of the unique (user, folder, name) index per candidate.
 *
 * On PostgreSQL `name IN (…)` is not enough: while a folder grows faster than autovacuum
 * re-analyzes the table, the planner believes the folder nearly empty and scans all of it with
 * `name` as a filter (100,000 rows, 30 ms, per create, issue 18). A lateral probe per array
 * element has a full-key equality, which it always serves from the index. SQLite's planner
 * probes the index for each IN value by itself; lists are cut to its bound-parameter limit.
 */
export async function takenNames(db: Db, userId: string, parentId: string, candidates: readonly string[]): Promise<Set<string>> {
  const taken = new Set<string>()
  if (candidates.length === 0) return taken
  if (isPostgres(db)) {
    const { rows } = await sql<{ name: string }>`
      select f.name from unnest(${[...candidates]}::text[]) as c(name)
      cross join lateral (
        select name from drive_files
        where user_id = ${userId} and parent_id = ${parentId} and trashed = 0 and name = c.name
      ) f`.execute(db)
    for (const row of rows) taken.add(row.name)
    return taken
  }
  for (let i = 0; i < candidates.length; i += 500) {
    const chunk = candidates.slice(i, i + 500)
    const rows = await db.selectFrom('drive_files').select('name').where('user_id', '=', userId).where('parent_id', '=', parentId).where('trashed', '=', 0).where('name', 'in', chunk).execute()
    for (const row of rows) taken.add(row.name)
  }
  return taken
}

/** The attributes an item's name decides, its search columns among them (so the index follows every rename). */
export function nameColumns(name: string, isFolder: boolean) {
  const extension = isFolder ? '' : splitExtension(name).extension.toLowerCase()
  const mimeType = isFolder ? '' : mimeTypeOf(extension)
  return { name, name_key: nameKey(name), file_extension: extension, mime_type: mimeType, file_category: isFolder ? 'OTHER' : categoryOf(extension, mimeType), ...searchColumns(name) }
}

export interface NewItem {
  userId: string
  parentId: string
  name: string
  kind: FilesTable['kind']
  size: number
  gcid: string | null
  phase: string
  folderType?: string
  uploadId?: string | null
  nowMs: number
  /** Keep the timestamps of the item this one copies. */
  createdAt?: number
  modifiedAt?: number
  starred?: number
}

/**
 * Inserts a live item under a free name (a clash gets "(1)", "(2)"…), without any lock: the insert
 * itself claims the name (`ON CONFLICT … DO NOTHING` on the unique live-name index). Concurrent
 * inserts of different names never wait for each other; two of one name meet in the index (on
 * PostgreSQL the second waits for the first to commit), the loser looks for the free names and
 * claims one the same way (20 parallel creates of one name end as "a", "a(1)" … "a(19)"). Still
 * run it inside `retryOnNameRace`: a rename is an update, which the unique index may refuse.
 */
export async function insertItem(db: Db, item: NewItem): Promise<FilesTable> {
  const isFolder = item.kind === FOLDER_KIND
  let name = item.name
  for (let attempt = 0; ; attempt++) {
    const row = itemRow(item, name, isFolder)
    const claimed = await db
      .insertInto('drive_files')
      .values(row)
      // The partial index's predicate, as a literal: PostgreSQL infers the arbiter index from it.
      .onConflict((oc) => oc.columns(['user_id', 'parent_id', 'name']).where(sql<boolean>`trashed = 0`).doNothing())
      .returning('id')
      .executeTakeFirst()
    if (claimed) return row
    if (attempt >= 100) throw new Error(`no free name for "${item.name}" after ${attempt} attempts`)
    name = await freeName(item.name, (c) => takenNames(db, item.userId, item.parentId, c), isFolder)
  }
}

/**
 * The bulk form of insertItem, for the features that land many items at once (unpacking, torrents,
 * share restores): names resolved per folder in one lookup (freeNames), multi-row inserts that
 * claim their names as insertItem does, and only the rows a concurrent writer beat to a name go
 * through insertItem one by one. Returns the rows in the order of `items`.
 */
export async function insertItems(db: Db, items: readonly NewItem[]): Promise<FilesTable[]> {
  const rows: FilesTable[] = new Array(items.length)
  const byFolder = new Map<string, number[]>()
  items.forEach((item, i) => {
    const key = `${item.userId}\u0000${item.parentId}`
    const group = byFolder.get(key)
    if (group) group.push(i)
    else byFolder.set(key, [i])
  })
  for (const indexes of byFolder.values()) {
    const { userId, parentId } = items[indexes[0]!]!
    const names = await freeNames(
      indexes.map((i) => ({ name: items[i]!.name, isFolder: items[i]!.kind === FOLDER_KIND })),
      (candidates) => takenNames(db, userId, parentId, candidates),
    )
    indexes.forEach((i, k) => (rows[i] = itemRow(items[i]!, names[k]!, items[i]!.kind === FOLDER_KIND)))
  }
  // 22 columns a row: 500 rows stay under SQLite's and PostgreSQL's bound-parameter limits.
  for (let start = 0; start < rows.length; start += 500) {
    const chunk = rows.slice(start, start + 500)
    const claimed = await db
      .insertInto('drive_files')
      .values(chunk)
      .onConflict((oc) => oc.columns(['user_id', 'parent_id', 'name']).where(sql<boolean>`trashed = 0`).doNothing())
      .returning('id')
      .execute()
    if (claimed.length === chunk.length) continue
    const landed = new Set(claimed.map((r) => r.id))
    for (let k = 0; k < chunk.length; k++) {
      if (landed.has(chunk[k]!.id)) continue
      rows[start + k] = await insertItem(db, items[start + k]!)
    }
  }
  return rows
}

/**
 * PostgreSQL's fast path for creating one item: the parent check (share-locked, as liveFolder
 * does), the insert that claims the name and its activity event, as ONE statement. A create in a
 * transaction costs five round trips (BEGIN, check, insert, event, COMMIT), during which the
 * connection is held; this costs one, and a statement is atomic on its own. Returns null when it
 * stored nothing: the parent is not a live folder of the user's, or the name is taken. The caller
 * then takes the transactional path, which says which, or picks a free name.
 */
export async function insertItemInOneStatement(db: Kysely<DriveDatabase>, item: NewItem, eventType: EventType): Promise<FilesTable | null> {
  const row = itemRow(item, item.name, item.kind === FOLDER_KIND)
  const columns = Object.keys(row) as (keyof FilesTable)[]
  // VALUES, not SELECT: its parameters take their types from the columns. A parent that is not
  // a live folder of the user's leaves parent_id null, which the NOT NULL constraint refuses.
  const values = columns.map((c) => (c === 'parent_id' && item.parentId !== '' ? sql`(select id from parent)` : sql`${row[c]}`))
  let rows: { id: string }[]
  try {
    ;({ rows } = await sql<{ id: string }>`
      with locked as materialized (
        -- By primary key alone (see findOwned); the owner and state are checked on the row.
        select id, user_id, trashed, kind from drive_files where id = ${item.parentId} for share
      ), parent as (
        select id from locked where user_id = ${item.userId} and trashed = 0 and kind = ${FOLDER_KIND}
      ), created as (
        insert into drive_files (${sql.join(columns.map((c) => sql.ref(c)))})
        values (${sql.join(values)})
        on conflict (user_id, parent_id, name) where trashed = 0 do nothing
        returning id, name
      ), event as (
        insert into drive_events (id, user_id, type, file_id, file_name, created_at)
        select ${newId('E')}, ${item.userId}, ${eventType}, id, name, ${item.nowMs} from created
      )
      select id from created`.execute(db))
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === '23502') return null
    throw error
  }
  return rows.length === 1 ? row : null
}

function itemRow(item: NewItem, name: string, isFolder: boolean): FilesTable {
  return {
    id: newId(),
    user_id: item.userId,
    parent_id: item.parentId,
    ...nameColumns(name, isFolder),
    kind: item.kind,
    kind_rank: isFolder ? 0 : 1,
    size: item.size,
    gcid: item.gcid,
    folder_type: item.folderType ?? 'NORMAL',
    phase: item.phase,
    starred: item.starred ?? 0,
    trashed: 0,
    trash_root: 0,
    trashed_at: null,
    revision: 1,
    upload_id: item.uploadId ?? null,
    created_at: item.createdAt ?? item.nowMs,
    modified_at: item.modifiedAt ?? item.nowMs,
  }
}
