import { type Kysely, type Migration, type MigrationProvider, Migrator, PostgresAdapter, sql } from 'kysely'
import { searchColumns } from '../domain/search-text.js'
import { createSearchIndexes } from './search-index.js'

/** Text compared byte-wise on both databases (SQLite's default; PostgreSQL needs the C collation). */
function byteWiseText(isPostgres: boolean) {
  return isPostgres ? sql`text collate "C"` : sql`text`
}

// Migrations are code, not files, so they ship inside the build and run the same on SQLite and
// PostgreSQL. Never edit a released migration; add a new one.
function migrations(isPostgres: boolean): Record<string, Migration> {
  return {
    '0001_drive': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('drive_files')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('parent_id', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('name_key', byteWiseText(isPostgres), (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('kind_rank', 'integer', (c) => c.notNull())
          .addColumn('size', 'bigint', (c) => c.notNull())
          .addColumn('gcid', 'text')
          .addColumn('mime_type', 'text', (c) => c.notNull())
          .addColumn('file_extension', 'text', (c) => c.notNull())
          .addColumn('file_category', 'text', (c) => c.notNull())
          .addColumn('folder_type', 'text', (c) => c.notNull())
          .addColumn('phase', 'text', (c) => c.notNull())
          .addColumn('starred', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('trashed', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('trash_root', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('trashed_at', 'bigint')
          .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('upload_id', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('modified_at', 'bigint', (c) => c.notNull())
          .execute()
        // One index per order of a folder listing, each ending in id: a page is one index range
        // scan from the cursor, whatever the folder's size (never OFFSET).
        const listing = (name: string, column: string) =>
          db.schema.createIndex(name).on('drive_files').columns(['user_id', 'parent_id', 'trashed', 'kind_rank', column, 'id']).execute()
        await listing('drive_files_by_name', 'name_key')
        await listing('drive_files_by_modified', 'modified_at')
        await listing('drive_files_by_size', 'size')
        // Views over every folder (trash, starred, filters with parent_id "*").
        await db.schema.createIndex('drive_files_all_by_name').on('drive_files').columns(['user_id', 'trash_root', 'kind_rank', 'name_key', 'id']).execute()
        await db.schema.createIndex('drive_files_starred').on('drive_files').columns(['user_id', 'starred', 'kind_rank', 'name_key', 'id']).execute()
        await db.schema.createIndex('drive_files_trashed_at').on('drive_files').columns(['trash_root', 'trashed_at']).execute()
        await db.schema.createIndex('drive_files_gcid').on('drive_files').column('gcid').execute()
        // Names are unique among the live items of a folder; the trash may hold clashing names
        // (restoring one renames it with a suffix).
        await db.schema
          .createIndex('drive_files_live_name')
          .on('drive_files')
          .columns(['user_id', 'parent_id', 'name'])
          .unique()
          .where(sql.ref('trashed'), '=', 0)
          .execute()

        await db.schema
          .createTable('drive_blobs')
          .addColumn('gcid', 'text', (c) => c.primaryKey())
          .addColumn('size', 'bigint', (c) => c.notNull())
          .addColumn('ref_count', 'integer', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute()
        await db.schema.createIndex('drive_blobs_garbage').on('drive_blobs').columns(['ref_count', 'updated_at']).execute()

        await db.schema
          .createTable('drive_usage')
          .addColumn('user_id', 'text', (c) => c.primaryKey())
          .addColumn('usage', 'bigint', (c) => c.notNull())
          .addColumn('usage_in_trash', 'bigint', (c) => c.notNull())
          .execute()

        await db.schema
          .createTable('drive_uploads')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('file_id', 'text', (c) => c.notNull().unique())
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('size', 'bigint', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .execute()
        await db.schema.createIndex('drive_uploads_expires').on('drive_uploads').column('expires_at').execute()

        await db.schema
          .createTable('drive_tasks')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('phase', 'text', (c) => c.notNull())
          .addColumn('progress', 'integer', (c) => c.notNull())
          .addColumn('params', 'text', (c) => c.notNull())
          .addColumn('file_id', 'text', (c) => c.notNull())
          .addColumn('file_name', 'text', (c) => c.notNull())
          .addColumn('file_size', 'bigint', (c) => c.notNull())
          .addColumn('message', 'text', (c) => c.notNull())
          .addColumn('statuses', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute()
        await db.schema.createIndex('drive_tasks_by_user').on('drive_tasks').columns(['user_id', 'type', 'created_at', 'id']).execute()

        await db.schema
          .createTable('drive_events')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('file_id', 'text', (c) => c.notNull())
          .addColumn('file_name', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute()
        await db.schema.createIndex('drive_events_by_user').on('drive_events').columns(['user_id', 'created_at', 'id']).execute()
      },
    },
    // `GET /drive/v1/about` sums a user's unfinished uploads (usage_in_uploads); erasing an account finds them too.
    '0002_drive_uploads_by_user': {
      async up(db: Kysely<unknown>) {
        await db.schema.createIndex('drive_uploads_by_user').on('drive_uploads').column('user_id').execute()
      },
    },
    '0003_account_holds': {
      async up(db: Kysely<unknown>) {
        // Accounts in their cancellation review (identity's account.frozen): their links stop working.
        await db.schema
          .createTable('drive_account_holds')
          .addColumn('user_id', 'text', (c) => c.primaryKey())
          .addColumn('since', 'bigint', (c) => c.notNull())
          .execute()
      },
    },
    '0004_offline_downloads': {
      async up(db: Kysely<unknown>) {
        // What a task's job needs and the wire never shows: the plan, resume state, the job id.
        await db.schema.alterTable('drive_tasks').addColumn('work', 'text', (c) => c.notNull().defaultTo('{}')).execute()
        await db.schema.createIndex('drive_tasks_by_user_phase').on('drive_tasks').columns(['user_id', 'type', 'phase']).execute()
        // Sources fetched before (a public URL, a torrent's info hash) and the content they gave:
        // adding one again completes at once from the stored blobs (drive.md "instant completion").
        await db.schema
          .createTable('drive_offline_sources')
          .addColumn('source_key', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('files', 'text', (c) => c.notNull())
          .addColumn('completed_at', 'bigint', (c) => c.notNull())
          .execute()
      },
    },
    '0005_thumbnails': {
      async up(db: Kysely<unknown>) {
        // One thumbnail per content (GCID), small enough (a 320 px WebP, ~10-30 KB) to live in the
        // database beside the rest; a failed one is remembered so it is not tried again.
        await db.schema
          .createTable('drive_thumbnails')
          .addColumn('gcid', 'text', (c) => c.primaryKey())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('data', isPostgres ? 'bytea' : 'blob')
          .addColumn('width', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('height', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute()
      },
    },
    '0006_media': {
      async up(db: Kysely<unknown>) {
        // Per content: the probe and the transcode's state; renditions are blobs like any file's.
        await db.schema
          .createTable('drive_media')
          .addColumn('gcid', 'text', (c) => c.primaryKey())
          .addColumn('probe', 'text')
          .addColumn('transcode_state', 'text', (c) => c.notNull())
          .addColumn('transcode_progress', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute()
        await db.schema
          .createTable('drive_media_renditions')
          .addColumn('gcid', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('width', 'integer', (c) => c.notNull())
          .addColumn('height', 'integer', (c) => c.notNull())
          .addColumn('bandwidth', 'bigint', (c) => c.notNull())
          .addColumn('peak_bandwidth', 'bigint', (c) => c.notNull())
          .addColumn('blob_gcid', 'text', (c) => c.notNull())
          .addColumn('blob_size', 'bigint', (c) => c.notNull())
          .addColumn('playlist', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('drive_media_renditions_pk', ['gcid', 'name'])
          .execute()
        await db.schema
          .createTable('drive_media_subtitles')
          .addColumn('gcid', 'text', (c) => c.notNull())
          .addColumn('track', 'integer', (c) => c.notNull())
          .addColumn('language', 'text', (c) => c.notNull())
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('is_default', 'integer', (c) => c.notNull())
          .addColumn('vtt', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('drive_media_subtitles_pk', ['gcid', 'track'])
          .execute()
        await db.schema
          .createTable('drive_plays')
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('day', 'integer', (c) => c.notNull())
          .addColumn('file_id', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('drive_plays_pk', ['user_id', 'day', 'file_id'])
          .execute()
        await db.schema
          .createTable('drive_play_days')
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('day', 'integer', (c) => c.notNull())
          .addColumn('plays', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('drive_play_days_pk', ['user_id', 'day'])
          .execute()
        await db.schema
          .createTable('drive_playback')
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('file_id', 'text', (c) => c.notNull())
          .addColumn('position_ms', 'bigint', (c) => c.notNull())
          .addColumn('duration_ms', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('drive_playback_pk', ['user_id', 'file_id'])
          .execute()
        await db.schema.createIndex('drive_playback_file').on('drive_playback').column('file_id').execute()
        // A member's upload is transcoded as it completes: the request that created it knew the plan.
        await db.schema.alterTable('drive_uploads').addColumn('transcode', 'integer', (c) => c.notNull().defaultTo(0)).execute()
      },
    },
    '0007_traffic': {
      async up(db: Kysely<unknown>) {
        // Download traffic per account and UTC day, for the plans' daily limit.
        await db.schema
          .createTable('drive_traffic_days')
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('day', 'integer', (c) => c.notNull())
          .addColumn('bytes', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('drive_traffic_days_pk', ['user_id', 'day'])
          .execute()
      },
    },
    '0008_search': {
      async up(db: Kysely<unknown>) {
        // Decision 029. The folded name and its pinyin are columns of the item, written with the
        // name (items.ts nameColumns), so every create, rename, move, trash and delete keeps the
        // index right in the same transaction.
        await db.schema.alterTable('drive_files').addColumn('search_text', byteWiseText(isPostgres), (c) => c.notNull().defaultTo('')).execute()
        await db.schema.alterTable('drive_files').addColumn('search_extra', 'text', (c) => c.notNull().defaultTo('')).execute()
        await db.schema.alterTable('drive_files').addColumn('search_words', 'text', (c) => c.notNull().defaultTo('')).execute()
        await backfillSearchColumns(db, isPostgres)
        await createSearchIndexes(db)
      },
    },
    '0009_shares': {
      async up(db: Kysely<unknown>) {
        // Issue 17. A share is a row and the items it names; what they hold is read live from
        // drive_files, so a trashed, deleted or moved-away item leaves the share by itself.
        await db.schema
          .createTable('drive_shares')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('share_to', 'text', (c) => c.notNull())
          .addColumn('pass_code', 'text', (c) => c.notNull())
          .addColumn('expiration_days', 'integer', (c) => c.notNull())
          .addColumn('expires_at', 'bigint')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('deleted_at', 'bigint')
          .addColumn('view_count', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('restore_count', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('download_count', 'bigint', (c) => c.notNull().defaultTo(0))
          .execute()
        // The owner's list, newest first (one range scan per page).
        await db.schema.createIndex('drive_shares_by_user').on('drive_shares').columns(['user_id', 'created_at', 'id']).execute()
        await db.schema
          .createTable('drive_share_items')
          .addColumn('share_id', 'text', (c) => c.notNull())
          .addColumn('file_id', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('drive_share_items_pk', ['share_id', 'file_id'])
          .execute()
        // Trashing an item takes it out of every share that names it.
        await db.schema.createIndex('drive_share_items_by_file').on('drive_share_items').column('file_id').execute()
      },
    },
  }
}

/** Fills the search columns of the items that existed before search, a thousand at a time (migration 0008; exported for its test). */
export async function backfillSearchColumns(db: Kysely<unknown>, isPostgres: boolean): Promise<void> {
  let after = ''
  for (;;) {
    const { rows } = await sql<{ id: string; name: string }>`select id, name from drive_files where id > ${after} order by id limit 1000`.execute(db)
    if (rows.length === 0) return
    after = rows[rows.length - 1]!.id
    const columns = rows.map((row) => searchColumns(row.name))
    if (isPostgres) {
      await sql`
        update drive_files f set search_text = v.t, search_extra = v.e, search_words = v.w
        from unnest(${rows.map((r) => r.id)}::text[], ${columns.map((c) => c.search_text)}::text[], ${columns.map((c) => c.search_extra)}::text[], ${columns.map((c) => c.search_words)}::text[]) as v(id, t, e, w)
        where f.id = v.id`.execute(db)
    } else {
      for (const [i, row] of rows.entries()) {
        const c = columns[i]!
        await sql`update drive_files set search_text = ${c.search_text}, search_extra = ${c.search_extra}, search_words = ${c.search_words} where id = ${row.id}`.execute(db)
      }
    }
  }
}

/** Brings the drive tables up to date. Safe to run on every start and from several nodes. */
export async function migrateDrive(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter
  // Kysely looks for its migration tables in every schema unless told which one (see identity).
  const schema = isPostgres ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined
  const provider: MigrationProvider = { getMigrations: async () => migrations(isPostgres) }
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: 'drive_migrations',
    migrationLockTableName: 'drive_migrations_lock',
    ...(schema ? { migrationTableSchema: schema } : {}),
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName
    throw new Error(`drive migration ${failed ?? ''} failed: ${String((error as Error).message ?? error)}`, { cause: error })
  }
}
