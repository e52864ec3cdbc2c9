import { type Kysely, PostgresAdapter, sql } from 'kysely'

// The search indexes over drive_files' search columns (decision 029), apart from the migration
// that first made them so a bulk load (the search benchmark, a restore) can drop them, load, and
// build them again in one pass, which is much faster than keeping them up to date row by row.

function isPostgresDb(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}

/** Builds the search indexes from the search columns of every item (and, on SQLite, the triggers that keep them). */
export async function createSearchIndexes(db: Kysely<any>): Promise<void> {
  // Exact and prefix matches: one range of the user's live names, in order.
  await sql`create index drive_files_search_prefix on drive_files (user_id, search_text, id) where trashed = 0`.execute(db)
  if (isPostgresDb(db)) {
    // pg_trgm is database-wide, its operator classes live in one schema: public when we make it
    // (a drive in a schema of its own must not take it down when that schema is dropped), or
    // wherever an operator installed it before. Queries use LIKE, which needs no search_path.
    await sql`create extension if not exists pg_trgm with schema public`.execute(db)
    const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)
    const trgm = sql`${sql.id(rows[0]?.schema ?? 'public')}.gin_trgm_ops`
    // Word starts, substrings and pinyin of three characters or more: trigrams.
    await sql`create index drive_files_search_trgm on drive_files using gin (search_text ${trgm})`.execute(db)
    await sql`create index drive_files_search_pinyin on drive_files using gin (search_extra ${trgm})`.execute(db)
    // One and two characters, which trigrams cannot serve: words (each CJK character one) and
    // pinyin words, with prefix queries. Expressions, not stored columns, so listings never carry
    // them; two indexes, not one with weights, which GIN cannot check without reading every row.
    await sql`create index drive_files_search_words on drive_files using gin (to_tsvector('simple', search_words))`.execute(db)
    await sql`create index drive_files_search_pinyin_words on drive_files using gin (to_tsvector('simple', search_extra))`.execute(db)
    return
  }
  // SQLite: FTS5 tables keyed by a document number of their own (drive_files has no INTEGER
  // PRIMARY KEY, and VACUUM may renumber its rowids), filled from the items, then kept by triggers
  // in the transaction of every change.
  await sql`create table drive_search_docs (doc integer primary key, file_id text not null unique)`.execute(db)
  // One table per column: a query on the names never walks the pinyin's postings ("ang" is in a
  // third of all pinyin), and the other way round.
  for (const [table, tokenize] of FTS_TABLES) {
    await sql`create virtual table ${sql.id(table)} using fts5(body, content='', contentless_delete=1, ${sql.raw(tokenize)})`.execute(db)
  }
  await sql`insert into drive_search_docs (file_id) select id from drive_files`.execute(db)
  for (const [table, , column] of FTS_TABLES) {
    await sql`insert into ${sql.id(table)} (rowid, body) select d.doc, f.${sql.id(column)} from drive_search_docs d join drive_files f on f.id = d.file_id`.execute(db)
  }
  const doc = (row: 'new' | 'old') => sql.raw(`(select doc from drive_search_docs where file_id = ${row}.id)`)
  const inserts = sql.join(FTS_TABLES.map(([table, , column]) => sql`insert into ${sql.id(table)} (rowid, body) values (${doc('new')}, new.${sql.id(column)});`), sql` `)
  const deletes = (row: 'new' | 'old') => sql.join(FTS_TABLES.map(([table]) => sql`delete from ${sql.id(table)} where rowid = ${doc(row)};`), sql` `)
  await sql`
    create trigger drive_files_search_insert after insert on drive_files begin
      insert into drive_search_docs (file_id) values (new.id);
      ${inserts}
    end`.execute(db)
  await sql`
    create trigger drive_files_search_update after update of search_text, search_extra, search_words on drive_files
    when old.search_text is not new.search_text or old.search_extra is not new.search_extra or old.search_words is not new.search_words begin
      ${deletes('new')}
      ${inserts}
    end`.execute(db)
  await sql`
    create trigger drive_files_search_delete after delete on drive_files begin
      ${deletes('old')}
      delete from drive_search_docs where file_id = old.id;
    end`.execute(db)
}

/** SQLite's FTS5 tables: name, tokenizer, the drive_files column it indexes. */
const FTS_TABLES = [
  ['drive_search_text', "tokenize='trigram'", 'search_text'],
  ['drive_search_pinyin', "tokenize='trigram'", 'search_extra'],
  ['drive_search_words', "prefix='1 2', tokenize='unicode61'", 'search_words'],
  ['drive_search_pinyin_words', "prefix='1 2', tokenize='unicode61'", 'search_extra'],
] as const

/**
 * Drops what createSearchIndexes made. Search answers nothing (SQLite) or slowly (PostgreSQL)
 * until it is built again: for bulk loads with the service stopped, never on a live drive.
 */
export async function dropSearchIndexes(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists drive_files_search_prefix`.execute(db)
  if (isPostgresDb(db)) {
    for (const name of ['drive_files_search_trgm', 'drive_files_search_pinyin', 'drive_files_search_words', 'drive_files_search_pinyin_words']) await sql`drop index if exists ${sql.id(name)}`.execute(db)
    return
  }
  for (const name of ['drive_files_search_insert', 'drive_files_search_update', 'drive_files_search_delete']) await sql`drop trigger if exists ${sql.id(name)}`.execute(db)
  for (const name of [...FTS_TABLES.map(([table]) => table), 'drive_search_docs']) await sql`drop table if exists ${sql.id(name)}`.execute(db)
}
