import { ManualClock } from '@cumulus/identity'
import { DRIVE_DEFAULTS, DriveErrors, GenericErrors } from '@cumulus/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { hostileAddressUrl } from '../../../test-support/hostile-addresses.js'
import { createOfflineTask } from '../src/features/offline/create-offline-task.js'
import { failTasksWithoutRuns } from '../src/features/tasks/tasks.js'
import { makeFolder, namesIn, storeFile, usageOfToken, userIdOf } from './batch-fixtures.js'
import { type DriveTestApp, startDriveTestApp } from './drive-test-app.js'

let t: DriveTestApp
beforeAll(async () => {
  t = await startDriveTestApp()
})
afterAll(async () => {
  await t?.close()
})

const FREE_PER_DAY = DRIVE_DEFAULTS.offlineTasksPerDayFree

async function offline(token: string, url: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return t.call('POST', '/drive/v1/files', { token, headers, body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url }, ...extra } })
}

async function offlineOk(token: string, url: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const reply = await offline(token, url, extra, headers)
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body.task as { id: string; name: string; params: Record<string, string> }
}

describe('offline downloads', () => {
  it('stores a pending task in the download folder, made on first use', async () => {
    const token = await t.signUp()
    const reply = await offline(token, 'https://example.com/films/Big%20Buck%20Bunny.mp4?x=1')
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ upload_type: 'UPLOAD_TYPE_URL', url: { kind: 'upload#url' }, file: null })
    const task = reply.body.task
    expect(task).toMatchObject({
      kind: 'drive#task', type: 'offline', name: 'Big Buck Bunny.mp4', phase: 'PHASE_TYPE_PENDING', progress: 0,
      file_id: '', file_name: 'Big Buck Bunny.mp4', file_size: '0', statuses: [], status_size: 0, message: '', icon_link: '',
      params: { url: 'https://example.com/films/Big%20Buck%20Bunny.mp4?x=1' },
    })
    expect(Date.parse(task.created_time)).not.toBeNaN()

    const root = await t.call('GET', '/drive/v1/files', { token })
    expect(root.body.files).toHaveLength(1)
    expect(root.body.files[0]).toMatchObject({ name: 'Downloads', kind: 'drive#folder', folder_type: 'DOWNLOAD' })
    expect(task.params.parent_id).toBe(root.body.files[0].id)

    // The folder is reused, and a given name and folder win.
    const second = await offlineOk(token, 'magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567&dn=ubuntu')
    expect(second).toMatchObject({ name: 'ubuntu', params: { parent_id: root.body.files[0].id } })
    const mine = await makeFolder(t, token, 'mine')
    const third = await offlineOk(token, 'https://example.org/a.iso', { name: 'renamed.iso', parent_id: mine.id })
    expect(third).toMatchObject({ name: 'renamed.iso', params: { parent_id: mine.id } })
    expect(await namesIn(t, token, '')).toEqual(['Downloads', 'mine'])
  })

  it('refuses links it cannot fetch, and private addresses in any spelling, with the catalogue errors', async () => {
    const token = await t.signUp()
    for (const url of ['ftp://example.org/a.iso', 'ed2k://|file|a.avi|1048576|0123456789ABCDEF0123456789ABCDEF|/', 'magnet:?dn=no-hash']) {
      const reply = await offline(token, url)
      expect(reply.status, url).toBe(400)
      expect(reply.body.error, url).toBe(DriveErrors.offline_source_unsupported.reason)
    }
    const thunderLoopback = `thunder://${Buffer.from('AAhttp://127.0.0.1/aZZ').toString('base64')}`
    for (const url of ['http://127.0.0.1/a', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/a', 'http://0x7f000001/a', 'http://2130706433/a', 'http://0177.0.0.1/a', 'http://127.1/a', 'http://[::ffff:127.0.0.1]/a', 'http://10.1.2.3/a', 'http://100.64.0.1/a', thunderLoopback]) {
      const reply = await offline(token, url)
      expect(reply.status, url).toBe(400)
      expect(reply.body.error, url).toBe(DriveErrors.offline_url_refused.reason)
    }
    // Nothing was added.
    expect((await t.call('GET', '/drive/v1/tasks', { token })).body.tasks).toEqual([])
  })

  it('refuses every spelling of a non-public address, bare or wrapped in a thunder link (property)', async () => {
    const token = await t.signUp()
    const thunder = (inner: string) => `thunder://${Buffer.from(`AA${inner}ZZ`).toString('base64')}`
    await fc.assert(
      fc.asyncProperty(hostileAddressUrl, fc.boolean(), async (url, wrap) => {
        const reply = await offline(token, wrap ? thunder(url) : url)
        expect(reply.status, url).toBe(400)
        expect([DriveErrors.offline_url_refused.reason, GenericErrors.invalid_argument.reason], url).toContain(reply.body.error)
      }),
      { numRuns: 150 },
    )
    expect((await t.call('GET', '/drive/v1/tasks', { token })).body.tasks).toEqual([])
  })

  it('names the download folder in the language of the request that creates it, and keeps using it by type', async () => {
    // Regression: the folder was named "Downloads" in every language.
    const token = await t.signUp()
    const first = await offlineOk(token, 'https://example.com/a.iso', {}, { 'accept-language': 'ko' })
    const root = async () => (await t.call('GET', '/drive/v1/files', { token })).body.files as { id: string; name: string; folder_type: string }[]
    const [folder] = await root()
    expect(folder).toMatchObject({ name: '다운로드', kind: 'drive#folder', folder_type: 'DOWNLOAD', id: first.params.parent_id })

    // Another language later: the same folder, not a second one.
    const second = await offlineOk(token, 'https://example.com/b.iso', {}, { 'accept-language': 'en-US,en;q=0.9' })
    expect(second.params.parent_id).toBe(folder?.id)

    // Renamed by the user: still the download folder.
    expect((await t.call('PATCH', `/drive/v1/files/${folder?.id}`, { token, body: { name: 'From the web' } })).status).toBe(200)
    const third = await offlineOk(token, 'https://example.com/c.iso', {}, { 'accept-language': 'zh-TW' })
    expect(third.params.parent_id).toBe(folder?.id)
    expect(await root()).toEqual([expect.objectContaining({ id: folder?.id, name: 'From the web', folder_type: 'DOWNLOAD' })])
  })

  it('names a new download folder after each of the six languages, and in English for any other', async () => {
    for (const [header, name] of [['id-ID', 'Unduhan'], ['ms', 'Muat Turun'], ['zh-CN', '下载'], ['zh-Hant-HK', '下載'], ['fr-FR', 'Downloads']] as const) {
      const token = await t.signUp()
      await offlineOk(token, 'https://example.com/a.iso', {}, { 'accept-language': header })
      expect(await namesIn(t, token, ''), header).toEqual([name])
    }
  })

  it('refuses links it cannot fetch, bad names and folders that are not there', async () => {
    const token = await t.signUp()
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', '', 'nope']) {
      const reply = await offline(token, url)
      expect(reply.status, url).toBe(400)
      expect(reply.body).toMatchObject({ error: GenericErrors.invalid_argument.reason, error_code: 3 })
    }
    expect((await t.call('POST', '/drive/v1/files', { token, body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: 'https://example.com/a' } })).status).toBe(400)
    expect((await offline(token, 'https://example.com/a', { name: 'a/b' })).body.error).toBe(DriveErrors.file_name_invalid.reason)
    expect((await offline(token, 'https://example.com/a', { parent_id: 'Vmissing' })).body.error).toBe(DriveErrors.file_not_found.reason)
    // Nothing was stored by the refused requests.
    expect((await t.call('GET', '/drive/v1/tasks', { token })).body.tasks).toEqual([])
  })

  it('allows the plan\'s offline downloads per day, even in a burst', async () => {
    const token = await t.signUp()
    const replies = await Promise.all(Array.from({ length: FREE_PER_DAY + 5 }, (_, i) => offline(token, `https://example.com/f${i}`)))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(FREE_PER_DAY)
    const refused = replies.filter((r) => r.status !== 200)
    expect(refused).toHaveLength(5)
    for (const r of refused) expect(r.body).toMatchObject({ error: DriveErrors.task_daily_create_limit_vip.reason, error_code: 11 })
    // Only one download folder for the whole burst.
    expect(await namesIn(t, token, '')).toEqual(['Downloads'])

    // A member gets the member's allowance.
    await t.makeVip(token)
    await offlineOk(token, 'https://example.com/member')
  })

  it('counts the day in UTC: the limit lifts at midnight', async () => {
    const token = await t.signUp()
    const userId = await userIdOf(t, token)
    const clock = new ManualClock(Date.UTC(2030, 4, 1, 12))
    const deps = { ...t.server.drive, clock }
    const caller = { userId, membership: null }
    const body = { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: 'https://example.com/x' } }
    for (let i = 0; i < FREE_PER_DAY; i++) await createOfflineTask(deps, caller, body, 'en-US')
    clock.set(Date.UTC(2030, 4, 1, 23, 59, 59, 999))
    await expect(createOfflineTask(deps, caller, body, 'en-US')).rejects.toMatchObject({ entry: DriveErrors.task_daily_create_limit_vip })
    clock.set(Date.UTC(2030, 4, 2))
    await expect(createOfflineTask(deps, caller, body, 'en-US')).resolves.toMatchObject({ task: { phase: 'PHASE_TYPE_PENDING' } })
  })
})

describe('task list, get, retry and delete', () => {
  it('lists newest first with cursor paging and phase filters', async () => {
    const token = await t.signUp()
    const ids: string[] = []
    for (let i = 0; i < 7; i++) ids.push((await offlineOk(token, `https://example.com/p${i}`)).id)
    const seen: string[] = []
    let pageToken = ''
    let pages = 0
    do {
      const page = await t.call('GET', '/drive/v1/tasks', { token, query: { type: 'offline', limit: '3', page_token: pageToken } })
      expect(page.status).toBe(200)
      expect(page.body.expires_in).toBe(60)
      expect(page.body.tasks.length).toBeLessThanOrEqual(3)
      seen.push(...page.body.tasks.map((task: { id: string }) => task.id))
      pageToken = page.body.next_page_token
      pages++
    } while (pageToken)
    expect(pages).toBe(3)
    expect(new Set(seen).size).toBe(7)
    expect(seen.sort()).toEqual([...ids].sort())
    const all = (await t.call('GET', '/drive/v1/tasks', { token })).body.tasks as { id: string; created_time: string }[]
    const times = all.map((task) => Date.parse(task.created_time))
    expect(times).toEqual([...times].sort((a, b) => b - a))

    const pending = await t.call('GET', '/drive/v1/tasks', { token, query: { filters: JSON.stringify({ phase: { in: 'PHASE_TYPE_RUNNING,PHASE_TYPE_PENDING' } }) } })
    expect(pending.body.tasks).toHaveLength(7)
    const failed = await t.call('GET', '/drive/v1/tasks', { token, query: { filters: JSON.stringify({ phase: { eq: 'PHASE_TYPE_ERROR' } }) } })
    expect(failed.body).toEqual({ tasks: [], next_page_token: '', expires_in: 60 })

    // Batch tasks are their own type.
    const folder = await makeFolder(t, token, 'f')
    const batch = await t.call('POST', '/drive/v1/files:star', { token, body: { ids: [folder.id] } })
    const batches = await t.call('GET', '/drive/v1/tasks', { token, query: { type: 'batch' } })
    expect(batches.body.tasks.map((task: { id: string }) => task.id)).toEqual([batch.body.task_id])

    for (const query of <Record<string, string>[]>[{ type: 'bogus' }, { filters: '{not json' }, { filters: '[1]' }, { page_token: 'garbage' }, { limit: '0' }, { limit: 'x' }]) {
      const reply = await t.call('GET', '/drive/v1/tasks', { token, query })
      expect(reply.status, JSON.stringify(query)).toBe(400)
      expect(reply.body.error).toBe(GenericErrors.invalid_argument.reason)
    }
    // A token of the batch list is not one of the offline list.
    const batchToken = await t.call('GET', '/drive/v1/tasks', { token, query: { type: 'batch', limit: '1' } })
    expect(batchToken.body.next_page_token).toBe('')
    const offlineToken = (await t.call('GET', '/drive/v1/tasks', { token, query: { limit: '1' } })).body.next_page_token
    expect((await t.call('GET', '/drive/v1/tasks', { token, query: { type: 'batch', page_token: offlineToken } })).status).toBe(400)
  })

  it('gets only the caller\'s tasks', async () => {
    const alice = await t.signUp()
    const bob = await t.signUp()
    const task = await offlineOk(alice, 'https://example.com/a')
    expect((await t.call('GET', `/drive/v1/tasks/${task.id}`, { token: alice })).body).toMatchObject({ id: task.id, type: 'offline' })
    for (const [token, id] of [[bob, task.id], [alice, 'Tmissing'], [alice, 'bad:id']] as const) {
      const reply = await t.call('GET', `/drive/v1/tasks/${encodeURIComponent(id)}`, { token })
      expect(reply.status).toBe(404)
      expect(reply.body).toMatchObject({ error: DriveErrors.task_not_found.reason, error_code: 5 })
    }
  })

  it('retries a failed offline task', async () => {
    const token = await t.signUp()
    const task = await offlineOk(token, 'https://example.com/r')
    await t.server.drive.db.updateTable('drive_tasks').set({ phase: 'PHASE_TYPE_ERROR', message: 'connection refused', progress: 40 }).where('id', '=', task.id).execute()
    const reply = await t.call('POST', '/drive/v1/task', { token, body: { type: 'offline', create_type: 'RETRY', id: task.id } })
    expect(reply.status).toBe(200)
    expect(reply.body.task).toMatchObject({ id: task.id, phase: 'PHASE_TYPE_PENDING', progress: 0, message: '' })
    expect((await t.call('GET', `/drive/v1/tasks/${task.id}`, { token })).body.phase).toBe('PHASE_TYPE_PENDING')

    expect((await t.call('POST', '/drive/v1/task', { token, body: { type: 'offline', create_type: 'COPY', id: task.id } })).body.error).toBe(GenericErrors.invalid_argument.reason)
    expect((await t.call('POST', '/drive/v1/task', { token, body: { type: 'offline', create_type: 'RETRY', id: 'Tmissing' } })).body.error).toBe(DriveErrors.task_not_found.reason)
    expect((await t.call('POST', '/drive/v1/task', { token: await t.signUp(), body: { create_type: 'RETRY', id: task.id } })).body.error).toBe(DriveErrors.task_not_found.reason)
  })

  it('ends in ERROR a pending or running task whose job is gone, and leaves one waiting in the queue', async () => {
    const token = await t.signUp()
    const lost = await offlineOk(token, 'https://example.com/lost')
    const waiting = await offlineOk(token, 'https://example.com/waiting')
    const old = Date.now() - 3600_000
    // Queued job kept for `waiting`; `lost` points at a job that never was.
    await t.server.drive.db.updateTable('drive_tasks').set({ phase: 'PHASE_TYPE_RUNNING', updated_at: old, work: JSON.stringify({ jobId: 'J-never' }) }).where('id', '=', lost.id).execute()
    await t.server.drive.db.updateTable('drive_tasks').set({ updated_at: old }).where('id', '=', waiting.id).execute()
    expect(await failTasksWithoutRuns(t.server.drive)).toBeGreaterThanOrEqual(1)
    const after = await t.call('GET', `/drive/v1/tasks/${lost.id}`, { token })
    expect([after.body.phase, after.body.message, after.body.params.error_description]).toEqual(['PHASE_TYPE_ERROR', 'run_lost', 'the task stopped without finishing; retry it'])
    expect((await t.call('GET', `/drive/v1/tasks/${waiting.id}`, { token })).body.phase).toBe('PHASE_TYPE_PENDING')
  })

  it('deletes tasks by comma-joined or repeated ids, and moves their finished files to the trash when asked', async () => {
    const token = await t.signUp()
    const userId = await userIdOf(t, token)
    const [a, b, c, d] = [await offlineOk(token, 'https://e.com/a'), await offlineOk(token, 'https://e.com/b'), await offlineOk(token, 'https://e.com/c'), await offlineOk(token, 'https://e.com/d')]
    const kept = await storeFile(t, userId, { name: 'kept.bin', content: 'kept file' })
    const gone = await storeFile(t, userId, { name: 'gone.bin', content: 'gone' })
    // As a finished download would leave them.
    await t.server.drive.db.updateTable('drive_tasks').set({ file_id: kept.id, phase: 'PHASE_TYPE_COMPLETE' }).where('id', '=', c.id).execute()
    await t.server.drive.db.updateTable('drive_tasks').set({ file_id: gone.id, phase: 'PHASE_TYPE_COMPLETE' }).where('id', '=', d.id).execute()

    expect((await t.call('DELETE', `/drive/v1/tasks?task_ids=${a.id},${b.id}`, { token })).status).toBe(200)
    expect((await t.call('DELETE', `/drive/v1/tasks?task_ids=${c.id}&delete_files=false`, { token })).status).toBe(200)
    expect((await t.call('DELETE', `/drive/v1/tasks?task_ids=${d.id}&task_ids=Tmissing&delete_files=true`, { token })).status).toBe(200)
    expect((await t.call('GET', '/drive/v1/tasks', { token })).body.tasks).toEqual([])
    expect((await t.call('GET', `/drive/v1/files/${kept.id}`, { token })).status).toBe(200)
    // A finished download's file goes to the trash, where it can be restored, as any delete in the drive.
    const trashed = await t.call('GET', `/drive/v1/files/${gone.id}`, { token })
    expect([trashed.status, trashed.body.trashed]).toEqual([200, true])
    expect(await usageOfToken(t, token)).toEqual({ usage: 'kept file'.length + 'gone'.length, inTrash: 'gone'.length })
    // Idempotent, but it must name something.
    expect((await t.call('DELETE', `/drive/v1/tasks?task_ids=${a.id}`, { token })).status).toBe(200)
    expect((await t.call('DELETE', '/drive/v1/tasks', { token })).body.error).toBe(GenericErrors.invalid_argument.reason)
  })

  it('deletes the partial file of a download it had not finished for good', async () => {
    const token = await t.signUp()
    const userId = await userIdOf(t, token)
    const task = await offlineOk(token, 'https://e.com/partial')
    const partial = await storeFile(t, userId, { name: 'partial.bin', content: 'half' })
    await t.server.drive.db.updateTable('drive_files').set({ phase: 'PHASE_TYPE_RUNNING' }).where('id', '=', partial.id).execute()
    await t.server.drive.db.updateTable('drive_tasks').set({ file_id: partial.id, phase: 'PHASE_TYPE_RUNNING' }).where('id', '=', task.id).execute()
    expect((await t.call('DELETE', `/drive/v1/tasks?task_ids=${task.id}&delete_files=true`, { token })).status).toBe(200)
    expect((await t.call('GET', `/drive/v1/files/${partial.id}`, { token })).status).toBe(404)
    expect(await usageOfToken(t, token)).toEqual({ usage: 0, inTrash: 0 })
  })

  it('never deletes another user\'s tasks or files', async () => {
    const alice = await t.signUp()
    const bob = await t.signUp()
    const task = await offlineOk(alice, 'https://e.com/x')
    expect((await t.call('DELETE', `/drive/v1/tasks?task_ids=${task.id}&delete_files=true`, { token: bob })).status).toBe(200)
    expect((await t.call('GET', `/drive/v1/tasks/${task.id}`, { token: alice })).status).toBe(200)
  })
})
