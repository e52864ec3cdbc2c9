import type { Kysely } from 'kysely'
import type { DriveDatabase } from '../db/schema.js'
import { newId } from '../lib/ids.js'

/** What the activity feed records (drive.md "events"). `type_name` is the readable form. */
export const EVENT_TYPES = {
  TYPE_CREATE: 'Create',
  TYPE_UPLOAD: 'Upload',
  TYPE_RENAME: 'Rename',
  TYPE_MOVE: 'Move',
  TYPE_COPY: 'Copy',
  TYPE_TRASH: 'Trash',
  TYPE_RESTORE: 'Restore',
  TYPE_DELETE: 'Delete',
} as const
export type EventType = keyof typeof EVENT_TYPES

/** Records activity in the caller's transaction, so an event exists exactly when its change does. */
export async function recordEvents(db: Kysely<DriveDatabase>, nowMs: number, userId: string, type: EventType, files: readonly { id: string; name: string }[]): Promise<void> {
  if (files.length === 0) return
  // Chunked: SQLite allows a few thousand bound parameters per statement.
  for (let i = 0; i < files.length; i += 500) {
    await db
      .insertInto('drive_events')
      .values(files.slice(i, i + 500).map((f) => ({ id: newId('E'), user_id: userId, type, file_id: f.id, file_name: f.name, created_at: nowMs })))
      .execute()
  }
}
