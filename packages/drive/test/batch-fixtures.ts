import { Readable } from 'node:stream'
import { expect } from 'vitest'
import { gcidOf } from '../src/blobs/gcid.js'
import type { FilesTable } from '../src/db/schema.js'
import { adjustUsage } from '../src/domain/usage.js'
import { insertItem } from '../src/domain/items.js'
import type { DriveTestApp } from './drive-test-app.js'

/*
 * Test data made straight through the database and the blob store, so the batch, task and event
 * tests do not depend on the upload feature: a file here is what a finished upload leaves behind
 * (a blob row with one more reference, the stored content, a complete file row, the usage).
 */

/** The account id behind a bearer token. */
export async function userIdOf(t: DriveTestApp, token: string): Promise<string> {
  const reply = await t.call('GET', '/drive/v1/privilege/vip', { token })
  expect(reply.status).toBe(200)
  return reply.body.data.user_id as string
}

export async function makeFolder(t: DriveTestApp, token: string, name: string, parentId = ''): Promise<{ id: string; name: string }> {
  const reply = await t.call('POST', '/drive/v1/files', { token, body: { kind: 'drive#folder', name, parent_id: parentId } })
  expect(reply.status).toBe(200)
  return reply.body.file
}

/** A complete file with `content`, as a finished upload would leave it. */
export async function storeFile(t: DriveTestApp, userId: string, input: { name: string; parentId?: string; content: string | Buffer }): Promise<FilesTable> {
  const deps = t.server.drive
  const bytes = Buffer.from(input.content)
  const gcid = gcidOf(bytes)
  const nowMs = deps.clock.nowMs()
  await deps.db.insertInto('drive_blobs').values({ gcid, size: bytes.length, ref_count: 0, updated_at: nowMs }).onConflict((oc) => oc.column('gcid').doNothing()).execute()
  await deps.blobs.put(Readable.from([bytes]), bytes.length)
  return deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('drive_blobs').set((eb) => ({ ref_count: eb('ref_count', '+', 1) })).where('gcid', '=', gcid).execute()
    await adjustUsage(trx, userId, { usage: bytes.length })
    return insertItem(trx, { userId, parentId: input.parentId ?? '', name: input.name, kind: 'drive#file', size: bytes.length, gcid, phase: 'PHASE_TYPE_COMPLETE', nowMs })
  })
}

/** An upload still in flight: a pending file row with its announced size reserved, and its upload row. */
export async function storePendingFile(t: DriveTestApp, userId: string, input: { name: string; parentId?: string; sizeBytes: number }): Promise<FilesTable> {
  const deps = t.server.drive
  const nowMs = deps.clock.nowMs()
  return deps.db.transaction().execute(async (trx) => {
    await adjustUsage(trx, userId, { usage: input.sizeBytes })
    const row = await insertItem(trx, { userId, parentId: input.parentId ?? '', name: input.name, kind: 'drive#file', size: input.sizeBytes, gcid: null, phase: 'PHASE_TYPE_PENDING', nowMs })
    await trx.insertInto('drive_uploads').values({ id: `U${row.id}`, file_id: row.id, user_id: userId, size: input.sizeBytes, created_at: nowMs, expires_at: nowMs + 3600_000 }).execute()
    return row
  })
}

export async function refCount(t: DriveTestApp, gcid: string): Promise<number | undefined> {
  const row = await t.server.drive.db.selectFrom('drive_blobs').select('ref_count').where('gcid', '=', gcid).executeTakeFirst()
  return row === undefined ? undefined : Number(row.ref_count)
}

export async function usageOfToken(t: DriveTestApp, token: string): Promise<{ usage: number; inTrash: number }> {
  const reply = await t.call('GET', '/drive/v1/about', { token })
  expect(reply.status).toBe(200)
  return { usage: Number(reply.body.quota.usage), inTrash: Number(reply.body.quota.usage_in_trash) }
}

/** Every item of a folder (live listing), names in listing order. */
export async function namesIn(t: DriveTestApp, token: string, parentId: string, filters?: object): Promise<string[]> {
  const reply = await t.call('GET', '/drive/v1/files', { token, query: { parent_id: parentId, limit: '500', ...(filters ? { filters: JSON.stringify(filters) } : {}) } })
  expect(reply.status).toBe(200)
  return reply.body.files.map((f: { name: string }) => f.name)
}
