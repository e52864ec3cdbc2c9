import { setTimeout as sleep } from 'node:timers/promises'
import { DriveErrors, GenericErrors } from '@cumulus/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeFolder, namesIn, storeFile, userIdOf } from './batch-fixtures.js'
import { type DriveTestApp, startDriveTestApp } from './drive-test-app.js'

// Batches whose subtrees outgrow one request run as jobs (issue 12). The threshold is lowered to
// 5 items so a small tree stands for a large one.
describe('batches too large for their request', () => {
  let t: DriveTestApp
  beforeAll(async () => {
    t = await startDriveTestApp({ BATCH_INLINE_MAX_ITEMS: '5', DRIVE_QUOTA_FREE: '200B' })
  })
  afterAll(() => t?.close())

  async function settled(token: string, id: string) {
    const deadline = Date.now() + 15_000
    for (;;) {
      const task = (await t.call('GET', `/drive/v1/tasks/${id}`, { token, query: {} })).body
      if (task.phase === 'PHASE_TYPE_COMPLETE' || task.phase === 'PHASE_TYPE_ERROR') return task
      if (Date.now() > deadline) throw new Error(`batch task ${id} still ${task.phase}`)
      await sleep(50)
    }
  }

  async function treeOf(token: string, files: number) {
    const userId = await userIdOf(t, token)
    const folder = await makeFolder(t, token, 'album')
    for (let i = 0; i < files; i++) await storeFile(t, userId, { name: `track${i}.txt`, parentId: folder.id, content: `track ${i}` })
    return folder
  }

  it('copies and deletes a large tree in the background, and a small one inside the request', async () => {
    const token = await t.signUp()
    const folder = await treeOf(token, 8)
    const target = await makeFolder(t, token, 'copies')
    const copy = await t.call('POST', '/drive/v1/files:batchCopy', { token, body: { ids: [folder.id], to: { parent_id: target.id } } })
    expect(copy.status).toBe(200)
    const done = await settled(token, copy.body.task_id)
    expect(done).toMatchObject({ type: 'batch', name: 'batchCopy', phase: 'PHASE_TYPE_COMPLETE', progress: 100 })
    const [copied] = (await t.call('GET', '/drive/v1/files', { token, query: { parent_id: target.id } })).body.files
    expect(await namesIn(t, token, copied.id)).toHaveLength(8)

    const deleted = await t.call('POST', '/drive/v1/files:batchDelete', { token, body: { ids: [folder.id] } })
    expect((await settled(token, deleted.body.task_id)).phase).toBe('PHASE_TYPE_COMPLETE')
    expect(await namesIn(t, token, '')).toEqual(['copies'])

    // Three files are under the threshold: done by the time the reply is sent.
    const small = await treeOf(token, 3)
    const inline = await t.call('POST', '/drive/v1/files:batchTrash', { token, body: { ids: [small.id] } })
    expect((await t.call('GET', `/drive/v1/tasks/${inline.body.task_id}`, { token })).body.phase).toBe('PHASE_TYPE_COMPLETE')
  })

  it('ends a background batch that no longer fits in ERROR with the catalogue reason, changing nothing', async () => {
    const token = await t.signUp()
    const folder = await treeOf(token, 8)
    // 8 files of 7–8 bytes, 60 bytes in all: a second copy passes the 200-byte quota on the third.
    const first = await t.call('POST', '/drive/v1/files:batchCopy', { token, body: { ids: [folder.id], to: { parent_id: '' } } })
    expect((await settled(token, first.body.task_id)).phase).toBe('PHASE_TYPE_COMPLETE')
    const second = await t.call('POST', '/drive/v1/files:batchCopy', { token, body: { ids: [folder.id], to: { parent_id: '' } } })
    expect((await settled(token, second.body.task_id)).phase).toBe('PHASE_TYPE_COMPLETE')
    const before = await namesIn(t, token, '')
    const third = await t.call('POST', '/drive/v1/files:batchCopy', { token, body: { ids: [folder.id], to: { parent_id: '' } } })
    expect(await settled(token, third.body.task_id)).toMatchObject({ phase: 'PHASE_TYPE_ERROR', message: DriveErrors.file_space_not_enough.reason })
    expect(await namesIn(t, token, '')).toEqual(before)
  })
})

// A copy holds its rows in memory, and folders and empty files cost no quota: COPY_MAX_ITEMS
// bounds one (lowered to 6 here), in the request and again in its job.
describe('copies past COPY_MAX_ITEMS', () => {
  let t: DriveTestApp
  beforeAll(async () => {
    t = await startDriveTestApp({ COPY_MAX_ITEMS: '6', BATCH_INLINE_MAX_ITEMS: '3' })
  })
  afterAll(() => t?.close())

  it('refuses a copy of more items (all levels) than the bound with invalid_argument, copying nothing; a copy within it goes through', async () => {
    const token = await t.signUp()
    const userId = await userIdOf(t, token)
    const folder = await makeFolder(t, token, 'album')
    // The folder and six empty files: seven items, none of which costs quota.
    for (let i = 0; i < 6; i++) await storeFile(t, userId, { name: `empty${i}.txt`, parentId: folder.id, content: '' })
    const refused = await t.call('POST', '/drive/v1/files:batchCopy', { token, body: { ids: [folder.id], to: { parent_id: '' } } })
    expect([refused.status, refused.body.error, refused.headers['retry-after']]).toEqual([GenericErrors.invalid_argument.status, GenericErrors.invalid_argument.reason, undefined])
    expect(await namesIn(t, token, '')).toEqual(['album'])

    const files = (await t.call('GET', '/drive/v1/files', { token, query: { parent_id: folder.id } })).body.files
    const chosen = files.slice(0, 5).map((f: { id: string }) => f.id)
    const copied = await t.call('POST', '/drive/v1/files:batchCopy', { token, body: { ids: chosen, to: { parent_id: '' } } })
    expect(copied.status).toBe(200)
    // Five items, past the inline bound of three: a job copies them.
    const deadline = Date.now() + 15_000
    while ((await t.call('GET', `/drive/v1/tasks/${copied.body.task_id}`, { token })).body.phase !== 'PHASE_TYPE_COMPLETE') {
      if (Date.now() > deadline) throw new Error('the copy did not complete')
      await sleep(50)
    }
    expect(await namesIn(t, token, '')).toHaveLength(6)
  })
})
