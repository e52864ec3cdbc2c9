import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FilesTable } from '../src/db/schema.js'
import { adjustUsage } from '../src/domain/usage.js'
import { nameColumns } from '../src/domain/items.js'
import { newId } from '../src/lib/ids.js'
import { makeFolder, refCount, usageOfToken, userIdOf } from './batch-fixtures.js'
import { type DriveTestApp, startDriveTestApp, testBackend } from './drive-test-app.js'

let t: DriveTestApp
beforeAll(async () => {
  t = await startDriveTestApp()
})
afterAll(async () => {
  await t?.close()
})

const ROWS_PER_INSERT = 500

/** A complete file row as a finished upload leaves it (content need not exist for listing). */
function fileRow(userId: string, parentId: string, name: string, sizeBytes: number, gcid: string | null, nowMs: number): FilesTable {
  return {
    id: newId(), user_id: userId, parent_id: parentId, ...nameColumns(name, false), kind: 'drive#file', kind_rank: 1, size: sizeBytes, gcid,
    folder_type: 'NORMAL', phase: 'PHASE_TYPE_COMPLETE', starred: 0, trashed: 0, trash_root: 0, trashed_at: null, revision: 1, upload_id: null,
    created_at: nowMs, modified_at: nowMs,
  }
}

async function insertRows(rows: FilesTable[]) {
  await t.server.drive.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) await trx.insertInto('drive_files').values(rows.slice(i, i + ROWS_PER_INSERT)).execute()
  })
}

/** n distinct fake GCIDs with blob rows holding one reference each (the copy test shares them). */
async function blobRows(n: number, seed: string): Promise<string[]> {
  const gcids = Array.from({ length: n }, (_, i) => createHash('sha1').update(`${seed}:${i}`).digest('hex').toUpperCase())
  for (let i = 0; i < n; i += ROWS_PER_INSERT) {
    await t.server.drive.db.insertInto('drive_blobs').values(gcids.slice(i, i + ROWS_PER_INSERT).map((gcid) => ({ gcid, size: 10, ref_count: 1, updated_at: 0 }))).execute()
  }
  return gcids
}

describe('a folder of 100,000 files', () => {
  const COUNT = 100_000
  let token: string
  let folderId: string
  let expected: string[]

  beforeAll(async () => {
    token = await t.signUp()
    const userId = await userIdOf(t, token)
    folderId = (await makeFolder(t, token, 'big')).id
    for (const name of ['sub b', 'sub a', 'sub 10', 'sub 9']) await makeFolder(t, token, name, folderId)
    const nowMs = t.server.drive.clock.nowMs()
    // Inserted in a scrambled order, so only the index can give the listing its order.
    const indexes = Array.from({ length: COUNT }, (_, i) => ((i * 7919) % COUNT) + 1)
    await insertRows(indexes.map((n) => fileRow(userId, folderId, `file${n}.txt`, n, null, nowMs)))
    await adjustUsage(t.server.drive.db, userId, { usage: (COUNT * (COUNT + 1)) / 2 })
    // Folders first, then natural order: file2 before file10.
    expected = ['sub 9', 'sub 10', 'sub a', 'sub b', ...Array.from({ length: COUNT }, (_, i) => `file${i + 1}.txt`)]
  }, 120_000)

  it('pages through in natural order, folders first, every page exactly the next slice', async () => {
    const first = await t.call('GET', '/drive/v1/files', { token, query: { parent_id: folderId } })
    expect(first.status).toBe(200)
    expect(first.body.files.map((f: { name: string }) => f.name)).toEqual(expected.slice(0, 100))
    expect(first.body.next_page_token).not.toBe('')

    let offset = 0
    let pageToken = ''
    let pages = 0
    do {
      const page = await t.call('GET', '/drive/v1/files', { token, query: { parent_id: folderId, limit: '500', page_token: pageToken } })
      expect(page.status).toBe(200)
      const names = page.body.files.map((f: { name: string }) => f.name)
      expect(names).toEqual(expected.slice(offset, offset + 500))
      offset += names.length
      pageToken = page.body.next_page_token
      pages++
    } while (pageToken)
    expect(offset).toBe(expected.length)
    expect(pages).toBe(Math.ceil(expected.length / 500))
  }, 120_000)

  it('answers a late page from the index: no scan of the folder, no sort (SQLite plan)', async ({ skip }) => {
    if (testBackend() !== 'sqlite') skip()
    const userId = await userIdOf(t, token)
    // The statement listFiles runs for a page of files after a cursor.
    const plan = await sql<{ detail: string }>`explain query plan
      select * from drive_files where user_id = ${userId} and parent_id = ${folderId} and trashed = 0 and kind_rank = 1
        and (name_key, id) > (${'file00000000000000090000.txt'}, ${'V'}) order by name_key asc, id asc limit 501`.execute(t.server.drive.db)
    const details = plan.rows.map((r) => r.detail).join('\n')
    expect(details).toMatch(/USING INDEX drive_files_by_name/)
    expect(details).not.toMatch(/TEMP B-TREE/)
  })
})

describe('a tree of 10,000 files', () => {
  it('is copied, trashed, restored and deleted in one request each', async () => {
    const COUNT = 10_000
    const token = await t.signUp()
    const userId = await userIdOf(t, token)
    const source = await makeFolder(t, token, 'source')
    const inner = await makeFolder(t, token, 'inner', source.id)
    const gcids = await blobRows(COUNT, userId)
    const nowMs = t.server.drive.clock.nowMs()
    await insertRows(gcids.map((gcid, i) => fileRow(userId, i % 2 === 0 ? source.id : inner.id, `f${i}.bin`, 10, gcid, nowMs)))
    await adjustUsage(t.server.drive.db, userId, { usage: COUNT * 10 })

    const reply = await t.call('POST', '/drive/v1/files:batchCopy', { token, body: { ids: [source.id], to: { parent_id: '' } } })
    expect(reply.status).toBe(200)
    const copies = await t.server.drive.db
      .selectFrom('drive_files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('kind', '=', 'drive#file')
      .executeTakeFirstOrThrow()
    expect(Number(copies.n)).toBe(2 * COUNT)
    for (const gcid of [gcids[0], gcids[4999], gcids[COUNT - 1]]) expect(await refCount(t, gcid as string)).toBe(2)
    expect(await usageOfToken(t, token)).toEqual({ usage: 2 * COUNT * 10, inTrash: 0 })

    const post = (action: string) => t.call('POST', `/drive/v1/files:${action}`, { token, body: { ids: [source.id] } })
    expect((await post('batchTrash')).status).toBe(200)
    expect(await usageOfToken(t, token)).toEqual({ usage: 2 * COUNT * 10, inTrash: COUNT * 10 })
    expect((await post('batchUntrash')).status).toBe(200)
    expect(await usageOfToken(t, token)).toEqual({ usage: 2 * COUNT * 10, inTrash: 0 })
    expect((await post('batchDelete')).status).toBe(200)
    expect(await usageOfToken(t, token)).toEqual({ usage: COUNT * 10, inTrash: 0 })
    for (const gcid of [gcids[0], gcids[COUNT - 1]]) expect(await refCount(t, gcid as string)).toBe(1)
    const left = await t.server.drive.db.selectFrom('drive_files').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('kind', '=', 'drive#file').executeTakeFirstOrThrow()
    expect(Number(left.n)).toBe(COUNT)
  }, 120_000)
})
