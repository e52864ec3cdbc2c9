import { DriveErrors, LOCALIZED_MESSAGE_TYPE, LocalErrors } from '@cumulus/protocol'
import { describe, expect, it } from 'vitest'
import { FakeDrive, ORIGIN, aDriveFile, json, signedInIdentity } from '../../test/fake-drive.js'
import { IdentityError, errorMessage } from '../errors.js'
import { DriveClient } from './drive-client.js'

function setup() {
  const drive = new FakeDrive()
  const identity = signedInIdentity(drive)
  const client = new DriveClient({ identity, xhr: false })
  const only = (key: string) => {
    const calls = drive.calls.filter((c) => `${c.method} ${c.path}` === key)
    expect(calls).toHaveLength(1)
    return calls[0]!
  }
  return { drive, client, only }
}

const taskReply = () => json({ task_id: 't1' })
const aTask = (overrides: Record<string, unknown> = {}) => ({ kind: 'drive#task', id: 't1', name: '', type: 'batch', user_id: 'u1', statuses: [], status_size: 0, params: {}, file_id: '', file_name: '', file_size: '0', message: '', created_time: '', updated_time: '', phase: 'PHASE_TYPE_COMPLETE', progress: 100, icon_link: '', ...overrides })

describe('DriveClient JSON calls', () => {
  it('lists with every query parameter, the filters as JSON, and the bearer', async () => {
    const { drive, client, only } = setup()
    const page = { kind: 'drive#fileList', files: [aDriveFile()], next_page_token: 'next', version: '' }
    drive.routes['GET /drive/v1/files'] = () => json(page)
    const filters = { trashed: { eq: true }, mime_type: { prefix: 'video/' } }

    const reply = await client.list({ parentId: '*', limit: 50, pageToken: 'p2', filters, orderBy: 'modified_time', direction: 'desc' })

    expect(reply).toEqual(page)
    const call = only('GET /drive/v1/files')
    expect(Object.fromEntries(call.url.searchParams)).toEqual({
      parent_id: '*',
      limit: '50',
      page_token: 'p2',
      filters: JSON.stringify(filters),
      order_by: 'modified_time',
      direction: 'desc',
    })
    expect(JSON.parse(call.url.searchParams.get('filters') as string)).toEqual(filters)
    expect(call.headers['authorization']).toBe('Bearer at1')
  })

  it('leaves out every absent list parameter', async () => {
    const { drive, client, only } = setup()
    drive.routes['GET /drive/v1/files'] = () => json({ kind: 'drive#fileList', files: [], next_page_token: '', version: '' })
    await client.list()
    expect(only('GET /drive/v1/files').url.search).toBe('')
  })

  it('creates a folder with kind, name and parent and returns the file', async () => {
    const { client, only } = setup()
    const folder = await client.createFolder({ name: 'Photos', parentId: 'p1' })
    expect(only('POST /drive/v1/files').json).toEqual({ kind: 'drive#folder', name: 'Photos', parent_id: 'p1' })
    expect(folder).toMatchObject({ kind: 'drive#folder', name: 'Photos', parent_id: 'p1' })
  })

  it('creates a folder in the root with parent_id ""', async () => {
    const { client, only } = setup()
    await client.createFolder({ name: 'Top' })
    expect(only('POST /drive/v1/files').json).toEqual({ kind: 'drive#folder', name: 'Top', parent_id: '' })
  })

  it('gets, renames and stars through the file path, encoding the id', async () => {
    const { drive, client, only } = setup()
    const file = aDriveFile({ id: 'a/b' })
    drive.routes['GET /drive/v1/files/a%2Fb'] = () => json(file)
    drive.routes['PATCH /drive/v1/files/a%2Fb'] = (call) => json({ ...file, ...(call.json as object) })

    expect(await client.get('a/b')).toEqual(file)
    expect(await client.rename('a/b', 'new.txt')).toMatchObject({ name: 'new.txt' })
    expect(await client.setStarred('a/b', true)).toMatchObject({ starred: true })
    const patches = drive.calls.filter((c) => c.method === 'PATCH').map((c) => c.json)
    expect(patches).toEqual([{ name: 'new.txt' }, { starred: true }])
    expect(only('GET /drive/v1/files/a%2Fb').method).toBe('GET')
  })

  it('sends each batch operation to its path with ids and, for move and copy, the target folder', async () => {
    const { drive, client } = setup()
    for (const action of ['batchTrash', 'batchUntrash', 'batchDelete', 'batchMove', 'batchCopy', 'star', 'unstar']) {
      drive.routes[`POST /drive/v1/files:${action}`] = taskReply
    }
    drive.routes['GET /drive/v1/tasks/t1'] = () => json(aTask())
    const results = [
      await client.trash(['a']),
      await client.untrash(['a']),
      await client.delete(['a', 'b']),
      await client.move(['a'], 'dest'),
      await client.copy(['a'], ''),
      await client.star(['a']),
      await client.unstar(['a']),
    ]
    expect(results).toEqual(Array(7).fill({ taskId: 't1', task: aTask() }))
    expect(drive.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.json])).toEqual([
      ['/drive/v1/files:batchTrash', { ids: ['a'] }],
      ['/drive/v1/files:batchUntrash', { ids: ['a'] }],
      ['/drive/v1/files:batchDelete', { ids: ['a', 'b'] }],
      ['/drive/v1/files:batchMove', { ids: ['a'], to: { parent_id: 'dest' } }],
      ['/drive/v1/files:batchCopy', { ids: ['a'], to: { parent_id: '' } }],
      ['/drive/v1/files:star', { ids: ['a'] }],
      ['/drive/v1/files:unstar', { ids: ['a'] }],
    ])
    // Each operation read its task once: complete at the first read.
    expect(drive.calls.filter((c) => c.method === 'GET').map((c) => c.path)).toEqual(Array(7).fill('/drive/v1/tasks/t1'))
  })

  it('follows a batch that runs as a job until its task completes, telling its progress', async () => {
    const { drive, client } = setup()
    drive.routes['POST /drive/v1/files:batchDelete'] = taskReply
    const phases = [aTask({ phase: 'PHASE_TYPE_PENDING', progress: 0 }), aTask({ phase: 'PHASE_TYPE_RUNNING', progress: 40 }), aTask()]
    drive.routes['GET /drive/v1/tasks/t1'] = () => json(phases.shift())
    const seen: number[] = []
    const result = await client.delete(['big'], { onProgress: (task) => seen.push(task.progress) })
    expect(result).toEqual({ taskId: 't1', task: aTask() })
    expect(seen).toEqual([0, 40])
  })

  it('reads a task again after a lost read instead of failing an operation the server applied, and gives up after its deadline', async () => {
    const { drive, client } = setup()
    drive.routes['POST /drive/v1/files:batchMove'] = taskReply
    const replies = [json({ error: 'unavailable', error_code: 14 }, 503), json(aTask({ phase: 'PHASE_TYPE_RUNNING', progress: 10 })), json(aTask())]
    drive.routes['GET /drive/v1/tasks/t1'] = () => replies.shift()!
    expect(await client.move(['a'], 'dest')).toEqual({ taskId: 't1', task: aTask() })

    drive.routes['GET /drive/v1/tasks/t1'] = () => json(aTask({ phase: 'PHASE_TYPE_RUNNING', progress: 10 }))
    await expect(client.waitForTask('t1', { timeoutMs: 0 })).rejects.toMatchObject({ error: 'local_timeout' })
    // An answer is final: a task that is gone is not waited for.
    drive.routes['GET /drive/v1/tasks/t1'] = () => json({ error: 'task_not_found', error_code: 5 }, 404)
    await expect(client.waitForTask('t1')).rejects.toMatchObject({ error: 'task_not_found' })
  })

  it('rejects with the catalogue error a failed batch task ends with', async () => {
    const { drive, client } = setup()
    drive.routes['POST /drive/v1/files:batchCopy'] = taskReply
    drive.routes['GET /drive/v1/tasks/t1'] = () => json(aTask({ phase: 'PHASE_TYPE_ERROR', message: 'file_space_not_enough' }))
    const error = await client.copy(['big'], 'dest').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IdentityError)
    expect(error).toMatchObject({ error: 'file_space_not_enough', errorCode: 8 })
  })

  it('stops waiting, with cancelled, when the signal aborts; and does not wait for a reply that names no task', async () => {
    const { drive, client } = setup()
    drive.routes['POST /drive/v1/files:batchTrash'] = taskReply
    drive.routes['GET /drive/v1/tasks/t1'] = () => json(aTask({ phase: 'PHASE_TYPE_RUNNING', progress: 5 }))
    const abort = new AbortController()
    const error = await client.trash(['a'], { signal: abort.signal, onProgress: () => abort.abort() }).catch((e: unknown) => e)
    expect(error).toMatchObject({ error: 'cancelled' })
    drive.routes['POST /drive/v1/files:star'] = () => json({})
    expect(await client.star(['a'])).toEqual({ taskId: '', task: null })
  })

  it('empties the trash with a bodiless PATCH', async () => {
    const { drive, client, only } = setup()
    drive.routes['PATCH /drive/v1/files/trash:empty'] = taskReply
    drive.routes['GET /drive/v1/tasks/t1'] = () => json(aTask())
    expect(await client.emptyTrash()).toEqual({ taskId: 't1', task: aTask() })
    const call = only('PATCH /drive/v1/files/trash:empty')
    expect(call.json).toBeUndefined()
    expect(call.headers['content-type']).toBeUndefined()
  })

  it('reads about, events, tasks, one task and the membership; deletes tasks with comma-joined ids', async () => {
    const { drive, client, only } = setup()
    const about = { kind: 'drive#about', quota: { kind: 'drive#quota', limit: '10', usage: '1', usage_in_trash: '0', play_times_limit: '-1', play_times_usage: '0', is_unlimited: false }, expires_at: '', quotas: {} }
    const vip = { result: 'ACCEPTED', message: '', redirect_uri: '', data: { expire: '', status: 'invalid', type: 'novip', user_id: 'u1' } }
    drive.routes['GET /drive/v1/about'] = () => json(about)
    drive.routes['GET /drive/v1/events'] = () => json({ events: [], next_page_token: '' })
    drive.routes['GET /drive/v1/tasks'] = () => json({ tasks: [], next_page_token: '', expires_in: 60 })
    drive.routes['GET /drive/v1/tasks/t%201'] = () => json({ kind: 'drive#task', id: 't 1' })
    drive.routes['DELETE /drive/v1/tasks'] = () => json({})
    drive.routes['GET /drive/v1/privilege/vip'] = () => json(vip)

    expect(await client.about()).toEqual(about)
    expect(await client.events({ limit: 5, pageToken: 'e2' })).toEqual({ events: [], next_page_token: '' })
    expect(await client.tasks({ type: 'offline', limit: 10, filters: { phase: { in: 'PHASE_TYPE_RUNNING' } } })).toMatchObject({ expires_in: 60 })
    expect(await client.getTask('t 1')).toMatchObject({ id: 't 1' })
    await client.deleteTasks(['t1', 't2'], { deleteFiles: true })
    expect(await client.vip()).toEqual(vip.data)

    expect(Object.fromEntries(only('GET /drive/v1/events').url.searchParams)).toEqual({ limit: '5', page_token: 'e2' })
    expect(Object.fromEntries(only('GET /drive/v1/tasks').url.searchParams)).toEqual({
      type: 'offline',
      limit: '10',
      filters: '{"phase":{"in":"PHASE_TYPE_RUNNING"}}',
    })
    expect(Object.fromEntries(only('DELETE /drive/v1/tasks').url.searchParams)).toEqual({ task_ids: 't1,t2', delete_files: 'true' })
  })

  it('gives a fresh download URL, made absolute when the server sends a path', async () => {
    const { drive, client } = setup()
    let link = '/drive/v1/content/f1?e=1&s=abc'
    drive.routes['GET /drive/v1/files/f1'] = () => json(aDriveFile({ id: 'f1', web_content_link: link }))
    expect(await client.downloadUrl('f1')).toBe(`${ORIGIN}/drive/v1/content/f1?e=1&s=abc`)
    link = 'https://cdn.test/x?s=2'
    expect(await client.downloadUrl('f1')).toBe('https://cdn.test/x?s=2')
    expect(drive.trail).toEqual(['GET /drive/v1/files/f1', 'GET /drive/v1/files/f1'])
  })

  it('reads and saves a video\'s playback position through the file path, sending only the fields given', async () => {
    const { drive, client, only } = setup()
    const playback = { kind: 'drive#playback', file_id: 'v/1', position_seconds: 754.5, duration_seconds: 3600, updated_time: '2030-01-01T00:00:00.000Z' }
    drive.routes['GET /drive/v1/files/v%2F1/playback'] = () => json(playback)
    drive.routes['PUT /drive/v1/files/v%2F1/playback'] = (call) => json({ ...playback, ...(call.json as object) })

    expect(await client.playback('v/1')).toEqual(playback)
    expect(await client.savePlayback('v/1', { positionSeconds: 12.25, durationSeconds: 3600 })).toEqual({ ...playback, position_seconds: 12.25 })
    await client.savePlayback('v/1', { positionSeconds: 0 })

    const puts = drive.calls.filter((c) => c.method === 'PUT')
    expect(puts.map((c) => c.json)).toEqual([{ position_seconds: 12.25, duration_seconds: 3600 }, { position_seconds: 0 }])
    expect(puts.map((c) => [c.headers['authorization'], c.headers['content-type'], c.keepalive])).toEqual(Array(2).fill(['Bearer at1', 'application/json', false]))
    expect(only('GET /drive/v1/files/v%2F1/playback').headers['authorization']).toBe('Bearer at1')
  })

  it('saves with keepalive, for a page that is closing, and does not retry it', async () => {
    const { drive, client } = setup()
    let attempts = 0
    drive.routes['PUT /drive/v1/files/v1/playback'] = () => {
      attempts += 1
      return json({ error: 'unavailable', error_code: 14 }, 503)
    }
    const error = await client.savePlayback('v1', { positionSeconds: 30, durationSeconds: 60 }, { keepalive: true }).catch((e: unknown) => e)
    expect(error).toMatchObject({ error: 'unavailable' })
    expect(attempts).toBe(1)
    expect(drive.calls.map((c) => [c.method, c.keepalive])).toEqual([['PUT', true]])
  })

  it('lists subtitles with their signed URLs made absolute, and none when the reply has none', async () => {
    const { drive, client } = setup()
    const track = { id: 's1', label: 'English', language: 'en', source: 'file', url: '/drive/v1/subtitles/s1.vtt?e=1&s=sig', is_default: true }
    drive.routes['GET /drive/v1/files/v1/subtitles'] = () => json({ kind: 'drive#subtitleList', subtitles: [track, { ...track, id: 's2', url: 'https://cdn.test/s2.vtt' }] })
    expect(await client.subtitles('v1')).toEqual({
      kind: 'drive#subtitleList',
      subtitles: [
        { ...track, url: `${ORIGIN}/drive/v1/subtitles/s1.vtt?e=1&s=sig` },
        { ...track, id: 's2', url: 'https://cdn.test/s2.vtt' },
      ],
    })
    drive.routes['GET /drive/v1/files/v1/subtitles'] = () => json({ kind: 'drive#subtitleList' })
    expect(await client.subtitles('v1')).toEqual({ kind: 'drive#subtitleList', subtitles: [] })
  })

  it('surfaces drive errors as IdentityError whose message is the server-localized one', async () => {
    const { drive, client } = setup()
    const details = [
      { '@type': LOCALIZED_MESSAGE_TYPE, locale: 'en-US', message: 'A file with this name already exists' },
      { '@type': LOCALIZED_MESSAGE_TYPE, locale: 'ko', message: '같은 이름의 파일이 이미 있습니다' },
    ]
    const body = { error: 'file_duplicated_name', error_code: 6, error_description: 'taken', error_uri: '', details }
    drive.routes['PATCH /drive/v1/files/f1'] = () => json(body, 409)

    const error = await client.rename('f1', 'dup').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IdentityError)
    expect((error as IdentityError).toJSON()).toEqual(body)
    expect((error as IdentityError).is(DriveErrors.file_duplicated_name)).toBe(true)
    expect((error as IdentityError).status).toBe(409)
    expect(errorMessage(error, 'ko')).toBe('같은 이름의 파일이 이미 있습니다')
  })

  it('refuses a bad chunk size or retry schedule', () => {
    const identity = signedInIdentity(new FakeDrive())
    for (const chunkSize of [0, -1, 1.5, Number.NaN]) {
      expect(() => new DriveClient({ identity, chunkSize })).toThrow('wrong options param: chunkSize')
    }
    expect(() => new DriveClient({ identity, retryDelays: [1000, -1] })).toThrow('wrong options param: retryDelays')
    const error = (() => {
      try {
        new DriveClient({ identity, chunkSize: 0 })
      } catch (e) {
        return e
      }
    })()
    expect((error as IdentityError).is(LocalErrors.local)).toBe(true)
  })
})
