import { randomBytes } from 'node:crypto'
import { ManualClock } from '@cumulus/identity'
import { DriveErrors, GenericErrors } from '@cumulus/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { purgeExpiredTrash } from '../src/features/batch/purge.js'
import { makeFolder, namesIn, refCount, storeFile, storePendingFile, usageOfToken, userIdOf } from './batch-fixtures.js'
import { type DriveTestApp, startDriveTestApp } from './drive-test-app.js'

let t: DriveTestApp
beforeAll(async () => {
  t = await startDriveTestApp()
})
afterAll(async () => {
  await t?.close()
})

async function batch(token: string, action: string, ids: string[], toParentId?: string) {
  return t.call('POST', `/drive/v1/files:${action}`, { token, body: { ids, ...(toParentId !== undefined ? { to: { parent_id: toParentId } } : {}) } })
}

async function ok(token: string, action: string, ids: string[], toParentId?: string): Promise<string> {
  const reply = await batch(token, action, ids, toParentId)
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  expect(reply.body.task_id).toEqual(expect.any(String))
  return reply.body.task_id
}

async function file(token: string, id: string) {
  const reply = await t.call('GET', `/drive/v1/files/${id}`, { token })
  return reply
}

const DEEP = 40
const TOP = 30
const TREE = DEEP + TOP

/** A user with: A/ { B/ { deep.txt (DEEP bytes) }, top.txt (TOP bytes) } */
async function aTree() {
  const token = await t.signUp()
  const userId = await userIdOf(t, token)
  const a = await makeFolder(t, token, 'A')
  const b = await makeFolder(t, token, 'B', a.id)
  // Contents unique to this user: blobs are shared between everyone who stores the same bytes.
  const deep = await storeFile(t, userId, { name: 'deep.txt', parentId: b.id, content: randomBytes(DEEP / 2).toString('hex') })
  const top = await storeFile(t, userId, { name: 'top.txt', parentId: a.id, content: randomBytes(TOP / 2).toString('hex') })
  return { token, userId, a, b, deep, top }
}

describe('trash and restore', () => {
  it('trashes a folder with everything under it and counts its bytes in the trash', async () => {
    const { token, a, b, deep, top } = await aTree()
    expect(await usageOfToken(t, token)).toEqual({ usage: TREE, inTrash: 0 })
    const taskId = await ok(token, 'batchTrash', [a.id])

    expect(await namesIn(t, token, '')).toEqual([])
    // The trash lists what was trashed, not what lies under it.
    expect(await namesIn(t, token, '*', { trashed: { eq: true } })).toEqual(['A'])
    for (const id of [a.id, b.id, deep.id, top.id]) expect((await file(token, id)).body.trashed).toBe(true)
    expect((await file(token, a.id)).body.delete_time).not.toBe('')
    expect(await usageOfToken(t, token)).toEqual({ usage: TREE, inTrash: TREE })

    const task = await t.call('GET', `/drive/v1/tasks/${taskId}`, { token })
    expect(task.body).toMatchObject({ kind: 'drive#task', id: taskId, type: 'batch', phase: 'PHASE_TYPE_COMPLETE', progress: 100 })
  })

  it('restores a folder with what was trashed with it, but not what was trashed on its own before', async () => {
    const { token, a, b, deep, top } = await aTree()
    await ok(token, 'batchTrash', [top.id])
    await ok(token, 'batchTrash', [a.id])
    expect(await usageOfToken(t, token)).toEqual({ usage: TREE, inTrash: TREE })
    expect((await namesIn(t, token, '*', { trashed: { eq: true } })).sort()).toEqual(['A', 'top.txt'])

    await ok(token, 'batchUntrash', [a.id])
    expect(await namesIn(t, token, '')).toEqual(['A'])
    expect(await namesIn(t, token, a.id)).toEqual(['B'])
    expect(await namesIn(t, token, b.id)).toEqual(['deep.txt'])
    expect((await file(token, deep.id)).body).toMatchObject({ trashed: false, delete_time: '' })
    expect((await file(token, top.id)).body.trashed).toBe(true)
    expect(await usageOfToken(t, token)).toEqual({ usage: TREE, inTrash: TOP })

    await ok(token, 'batchUntrash', [top.id])
    expect(await namesIn(t, token, a.id)).toEqual(['B', 'top.txt'])
    expect(await usageOfToken(t, token)).toEqual({ usage: TREE, inTrash: 0 })
  })

  it('restores under a suffix when the name was taken meanwhile, and to the root when the folder is gone', async () => {
    const token = await t.signUp()
    const userId = await userIdOf(t, token)
    const folder = await makeFolder(t, token, 'P')
    const first = await storeFile(t, userId, { name: 'a.txt', parentId: folder.id, content: 'one' })
    await ok(token, 'batchTrash', [first.id])
    await storeFile(t, userId, { name: 'a.txt', parentId: folder.id, content: 'two' })
    await ok(token, 'batchUntrash', [first.id])
    // Natural order: "(" sorts before ".".
    expect(await namesIn(t, token, folder.id)).toEqual(['a(1).txt', 'a.txt'])
    expect((await file(token, first.id)).body).toMatchObject({ name: 'a(1).txt', parent_id: folder.id, trashed: false })

    // Its folder in the trash: the item comes back to the root folder.
    const child = await storeFile(t, userId, { name: 'c.txt', parentId: folder.id, content: 'c' })
    await ok(token, 'batchTrash', [child.id])
    await ok(token, 'batchTrash', [folder.id])
    await ok(token, 'batchUntrash', [child.id])
    expect((await file(token, child.id)).body).toMatchObject({ parent_id: '', trashed: false })
    expect(await namesIn(t, token, '')).toEqual(['c.txt'])
  })

  it('restores a folder and its separately trashed child together, the child back inside', async () => {
    const { token, a, top } = await aTree()
    await ok(token, 'batchTrash', [top.id])
    await ok(token, 'batchTrash', [a.id])
    // The child is named first; the folder still goes back before it.
    await ok(token, 'batchUntrash', [top.id, a.id])
    expect((await file(token, top.id)).body).toMatchObject({ parent_id: a.id, name: 'top.txt', trashed: false })
    expect(await usageOfToken(t, token)).toEqual({ usage: TREE, inTrash: 0 })
  })

  it('is all or nothing: one unknown id changes nothing', async () => {
    const { token, a } = await aTree()
    const other = await t.signUp()
    const theirs = await makeFolder(t, other, 'theirs')
    for (const ids of [[a.id, 'Vnope'], [a.id, theirs.id], [a.id, 'bad id/..']]) {
      const reply = await batch(token, 'batchTrash', ids)
      expect(reply.status).toBe(404)
      expect(reply.body).toMatchObject({ error: DriveErrors.file_not_found.reason, error_code: 5 })
    }
    expect(await namesIn(t, token, '')).toEqual(['A'])
    expect((await file(other, theirs.id)).body.trashed).toBe(false)
  })

  it('refuses a malformed request with invalid_argument', async () => {
    const token = await t.signUp()
    for (const body of [{}, { ids: [] }, { ids: [{}] }, { ids: ['x'], to: 'root' }, { ids: Array.from({ length: 1001 }, (_, i) => `V${i}`) }]) {
      const reply = await t.call('POST', '/drive/v1/files:batchTrash', { token, body })
      expect(reply.status, JSON.stringify(body).slice(0, 40)).toBe(400)
      expect(reply.body.error).toBe(GenericErrors.invalid_argument.reason)
    }
    expect((await t.call('POST', '/drive/v1/files:batchTrash', { body: { ids: ['x'] } })).status).toBe(401)
  })
})

describe('delete for good', () => {
  it('deleting one of two copies keeps the blob; deleting the last leaves it to garbage collection', async () => {
    const token = await t.signUp()
    const userId = await userIdOf(t, token)
    const content = `shared content of ${userId}`
    const one = await storeFile(t, userId, { name: 'one.bin', content })
    const two = await storeFile(t, userId, { name: 'two.bin', content })
    const gcid = one.gcid as string
    expect(two.gcid).toBe(gcid)
    expect(await refCount(t, gcid)).toBe(2)

    await ok(token, 'batchDelete', [one.id])
    expect((await file(token, one.id)).status).toBe(404)
    expect(await refCount(t, gcid)).toBe(1)
    expect(await t.server.drive.blobs.stat(gcid)).toMatchObject({ sizeBytes: content.length })
    expect(await usageOfToken(t, token)).toEqual({ usage: content.length, inTrash: 0 })

    await ok(token, 'batchDelete', [two.id])
    expect(await refCount(t, gcid)).toBe(0)
    expect(await usageOfToken(t, token)).toEqual({ usage: 0, inTrash: 0 })
  })

  it('deletes trashed trees and unfinished uploads, giving back usage and trash usage', async () => {
    const { token, userId, a, b, deep, top } = await aTree()
    const pending = await storePendingFile(t, userId, { name: 'half.bin', parentId: b.id, sizeBytes: 100 })
    expect(await usageOfToken(t, token)).toEqual({ usage: TREE + 100, inTrash: 0 })
    await ok(token, 'batchTrash', [top.id])
    expect(await usageOfToken(t, token)).toEqual({ usage: TREE + 100, inTrash: TOP })

    await ok(token, 'batchDelete', [a.id])
    for (const id of [a.id, b.id, deep.id, top.id, pending.id]) expect((await file(token, id)).status).toBe(404)
    expect(await usageOfToken(t, token)).toEqual({ usage: 0, inTrash: 0 })
    expect(await t.server.drive.db.selectFrom('drive_uploads').select('id').where('file_id', '=', pending.id).execute()).toEqual([])
    expect(await refCount(t, deep.gcid as string)).toBe(0)
  })

  it('empties the trash', async () => {
    const { token, userId, a, deep } = await aTree()
    const keep = await storeFile(t, userId, { name: 'keep.txt', content: 'keep!' })
    const loose = await storeFile(t, userId, { name: 'loose.txt', content: 'xy' })
    await ok(token, 'batchTrash', [a.id, loose.id])
    expect(await usageOfToken(t, token)).toEqual({ usage: TREE + 7, inTrash: TREE + 2 })

    const reply = await t.call('PATCH', '/drive/v1/files/trash:empty', { token })
    expect(reply.status).toBe(200)
    const task = await t.call('GET', `/drive/v1/tasks/${reply.body.task_id}`, { token })
    expect(task.body).toMatchObject({ type: 'batch', phase: 'PHASE_TYPE_COMPLETE', progress: 100 })
    expect(await namesIn(t, token, '*', { trashed: { eq: true } })).toEqual([])
    expect((await file(token, deep.id)).status).toBe(404)
    expect((await file(token, keep.id)).body.trashed).toBe(false)
    expect(await usageOfToken(t, token)).toEqual({ usage: 5, inTrash: 0 })
  })

  it('purges what has lain in the trash longer than the retention', async () => {
    const { token, a, deep } = await aTree()
    const trashedAtMs = t.server.drive.clock.nowMs()
    await ok(token, 'batchTrash', [a.id])
    const retentionMs = t.server.drive.config.trashRetentionDays * 24 * 3600_000
    const clock = new ManualClock(trashedAtMs + retentionMs - 60_000)
    const drive = { ...t.server.drive, clock }

    await purgeExpiredTrash(drive)
    expect((await file(token, a.id)).body.trashed).toBe(true)

    clock.set(trashedAtMs + retentionMs + 60_000)
    expect(await purgeExpiredTrash(drive)).toBeGreaterThanOrEqual(1)
    expect((await file(token, a.id)).status).toBe(404)
    expect((await file(token, deep.id)).status).toBe(404)
    expect(await refCount(t, deep.gcid as string)).toBe(0)
    expect(await usageOfToken(t, token)).toEqual({ usage: 0, inTrash: 0 })
  })
})

describe('move', () => {
  it('moves into a folder with a suffix on a clash, keeping modified_time', async () => {
    const token = await t.signUp()
    const userId = await userIdOf(t, token)
    const target = await makeFolder(t, token, 'target')
    await storeFile(t, userId, { name: 'x.txt', parentId: target.id, content: 'there' })
    const x = await storeFile(t, userId, { name: 'x.txt', content: 'here' })
    const sub = await makeFolder(t, token, 'sub')
    const before = (await file(token, x.id)).body
    await ok(token, 'batchMove', [x.id, sub.id], target.id)
    expect(await namesIn(t, token, target.id)).toEqual(['sub', 'x(1).txt', 'x.txt'])
    const after = (await file(token, x.id)).body
    expect(after).toMatchObject({ name: 'x(1).txt', parent_id: target.id, modified_time: before.modified_time })
    // And back to the root when no target is given.
    await ok(token, 'batchMove', [sub.id])
    expect(await namesIn(t, token, '')).toEqual(['sub', 'target'])
  })

  it('refuses to move a folder into itself or a folder under it', async () => {
    const { token, a, b } = await aTree()
    const inner = await makeFolder(t, token, 'inner', b.id)
    for (const target of [a.id, b.id, inner.id]) {
      const reply = await batch(token, 'batchMove', [a.id], target)
      expect(reply.status).toBe(400)
      expect(reply.body).toMatchObject({ error: DriveErrors.file_move_or_copy_to_cur.reason, error_code: 9 })
    }
    expect((await file(token, a.id)).body.parent_id).toBe('')
    const notFolder = await batch(token, 'batchMove', [b.id], (await storeFile(t, await userIdOf(t, token), { name: 'f', content: 'f' })).id)
    expect(notFolder.body.error).toBe(DriveErrors.file_parent_not_folder.reason)
  })

  it('never lets two concurrent moves make a cycle', async () => {
    const token = await t.signUp()
    const x = await makeFolder(t, token, 'x')
    const y = await makeFolder(t, token, 'y')
    const [one, two] = await Promise.all([batch(token, 'batchMove', [x.id], y.id), batch(token, 'batchMove', [y.id], x.id)])
    expect([one.status, two.status].sort()).toEqual([200, 400])
    expect(await namesIn(t, token, '')).toHaveLength(1)
  })
})

describe('copy', () => {
  it('copies a tree instantly, sharing blobs and counting the space', async () => {
    const { token, userId, a, deep, top } = await aTree()
    await storePendingFile(t, userId, { name: 'half.bin', parentId: a.id, sizeBytes: 50 })
    const dest = await makeFolder(t, token, 'dest')
    await ok(token, 'batchCopy', [a.id, top.id], dest.id)

    expect(await namesIn(t, token, dest.id)).toEqual(['A', 'top.txt'])
    const copyA = (await t.call('GET', '/drive/v1/files', { token, query: { parent_id: dest.id } })).body.files[0]
    expect(copyA.id).not.toBe(a.id)
    // The unfinished upload is not copied.
    expect(await namesIn(t, token, copyA.id)).toEqual(['B', 'top.txt'])
    const copyB = (await t.call('GET', '/drive/v1/files', { token, query: { parent_id: copyA.id } })).body.files[0]
    const copyDeep = (await t.call('GET', '/drive/v1/files', { token, query: { parent_id: copyB.id } })).body.files[0]
    expect(copyDeep).toMatchObject({ name: 'deep.txt', hash: deep.gcid, size: String(DEEP), phase: 'PHASE_TYPE_COMPLETE' })
    expect(copyDeep.id).not.toBe(deep.id)
    expect(await refCount(t, deep.gcid as string)).toBe(2)
    expect(await refCount(t, top.gcid as string)).toBe(3)
    expect(await usageOfToken(t, token)).toEqual({ usage: TREE + 50 + TREE + TOP, inTrash: 0 })

    // A copy in the same folder gets a suffix.
    await ok(token, 'batchCopy', [top.id], a.id)
    expect(await namesIn(t, token, a.id)).toEqual(['B', 'half.bin', 'top(1).txt', 'top.txt'])
  })

  it('refuses to copy a folder into itself', async () => {
    const { token, a, b } = await aTree()
    const reply = await batch(token, 'batchCopy', [a.id], b.id)
    expect(reply.body.error).toBe(DriveErrors.file_move_or_copy_to_cur.reason)
    expect(await namesIn(t, token, b.id)).toEqual(['deep.txt'])
  })

  it('refuses a copy over the quota and stores nothing', async () => {
    const { token, userId, a, deep } = await aTree()
    const limit = t.server.drive.config.plans.free.storageBytes
    // Fill the quota to 5 bytes short of the limit: the copy of the tree does not fit.
    await t.server.drive.db.updateTable('drive_usage').set({ usage: limit - 5 }).where('user_id', '=', userId).execute()
    const rowsBefore = await t.server.drive.db.selectFrom('drive_files').select('id').where('user_id', '=', userId).execute()
    const reply = await batch(token, 'batchCopy', [a.id])
    expect(reply.status).toBe(403)
    expect(reply.body).toMatchObject({ error: DriveErrors.file_space_not_enough.reason, error_code: 8 })
    const rowsAfter = await t.server.drive.db.selectFrom('drive_files').select('id').where('user_id', '=', userId).execute()
    expect(rowsAfter).toHaveLength(rowsBefore.length)
    expect(await refCount(t, deep.gcid as string)).toBe(1)
    expect((await usageOfToken(t, token)).usage).toBe(limit - 5)
  })
})

describe('star', () => {
  it('stars and unstars many items', async () => {
    const { token, a, top } = await aTree()
    await ok(token, 'star', [a.id, top.id])
    expect((await namesIn(t, token, '*', { starred: { eq: true } })).sort()).toEqual(['A', 'top.txt'])
    await ok(token, 'unstar', [top.id])
    expect(await namesIn(t, token, '*', { starred: { eq: true } })).toEqual(['A'])
    expect((await file(token, a.id)).body.starred).toBe(true)
  })
})
