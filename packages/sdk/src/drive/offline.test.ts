import { DriveErrors, type DriveResource, type DriveTask, GenericErrors } from '@cumulus/protocol'
import { describe, expect, it } from 'vitest'
import { FakeDrive, aDriveFile, json, signedInIdentity, wire } from '../../test/fake-drive.js'
import { IdentityError } from '../errors.js'
import { DriveClient } from './drive-client.js'
import { offlineQuotasOf } from './offline-quotas.js'

function setup() {
  const drive = new FakeDrive()
  const client = new DriveClient({ identity: signedInIdentity(drive), xhr: false })
  const only = (key: string) => {
    const calls = drive.calls.filter((c) => `${c.method} ${c.path}` === key)
    expect(calls).toHaveLength(1)
    return calls[0]!
  }
  return { drive, client, only }
}

function anOfflineTask(overrides: Partial<DriveTask> = {}): DriveTask {
  return {
    kind: 'drive#task',
    id: 't1',
    name: 'ubuntu.iso',
    type: 'offline',
    user_id: 'u1',
    statuses: [],
    status_size: 0,
    params: { url: 'https://example.org/ubuntu.iso', age: '3', predict_speed: '1048576', predict_type: '1', parent_id: 'dl' },
    file_id: '',
    file_name: 'ubuntu.iso',
    file_size: '4096',
    message: 'Saving',
    created_time: '2030-01-01T00:00:00.000Z',
    updated_time: '2030-01-01T00:00:03.000Z',
    phase: 'PHASE_TYPE_RUNNING',
    progress: 40,
    icon_link: '',
    reference_resource: null,
    ...overrides,
  }
}

const leaf = (id: string, name: string, size: string): DriveResource => ({
  kind: 'drive#resource',
  id,
  name,
  file_size: size,
  file_count: 1,
  meta: { url: '', icon_link: '', status: 'OK' },
  is_dir: false,
  dir: null,
})

describe('DriveClient offline downloads', () => {
  it('creates a task from a link with only the fields given', async () => {
    const { drive, client, only } = setup()
    const task = anOfflineTask({ phase: 'PHASE_TYPE_PENDING', progress: 0 })
    drive.routes['POST /drive/v1/files'] = () => json({ upload_type: 'UPLOAD_TYPE_URL', url: { kind: 'upload#url' }, file: null, task })

    const reply = await client.createOfflineTask({ url: 'https://example.org/ubuntu.iso' })

    expect(only('POST /drive/v1/files').json).toEqual({ kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: 'https://example.org/ubuntu.iso' } })
    expect(reply).toEqual({ upload_type: 'UPLOAD_TYPE_URL', url: { kind: 'upload#url' }, file: null, task })
  })

  it('creates a task from a torrent in the drive with the chosen file indexes, name and folder', async () => {
    const { drive, client, only } = setup()
    const file = aDriveFile({ kind: 'drive#folder', name: 'Debian' })
    // Instant completion: the content was known, the file exists at once, no task runs.
    drive.routes['POST /drive/v1/files'] = () => json({ upload_type: 'UPLOAD_TYPE_URL', url: { kind: 'upload#url' }, file, task: null })

    const reply = await client.createOfflineTask({ url: '', torrentFileId: 'tor1', fileIndexes: [0, '2'], name: 'Debian', parentId: 'p1' })

    expect(only('POST /drive/v1/files').json).toEqual({
      kind: 'drive#file',
      upload_type: 'UPLOAD_TYPE_URL',
      url: { url: '', files: ['0', '2'] },
      name: 'Debian',
      parent_id: 'p1',
      params: { torrent_file_id: 'tor1' },
    })
    expect(reply.file).toEqual(file)
    expect(reply.task).toBeNull()
  })

  it('surfaces the daily limit as the catalogue error', async () => {
    const { drive, client } = setup()
    drive.routes['POST /drive/v1/files'] = () => wire(DriveErrors.task_daily_create_limit_vip, '10 offline downloads a day on this plan')
    const error = await client.createOfflineTask({ url: 'magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IdentityError)
    expect((error as IdentityError).is(DriveErrors.task_daily_create_limit_vip)).toBe(true)
    expect((error as IdentityError).status).toBe(DriveErrors.task_daily_create_limit_vip.status)
  })

  it('previews links newline-joined and returns the resources with their torrent trees', async () => {
    const { drive, client, only } = setup()
    const torrent: DriveResource = {
      ...leaf('r1', 'Debian', '3072'),
      file_count: 2,
      is_dir: true,
      meta: { url: 'magnet:?xt=urn:btih:abc', icon_link: '', status: 'OK' },
      dir: { resources: [leaf('0', 'debian.iso', '2048'), leaf('1', 'README', '1024')] },
    }
    const refused = { ...leaf('r2', '10.0.0.1', '0'), meta: { url: 'http://10.0.0.1/x', icon_link: '', status: 'permission_denied' } }
    drive.routes['POST /drive/v1/resource/list'] = () => json({ list: { resources: [torrent, refused] } })

    const resources = await client.previewResources(['magnet:?xt=urn:btih:abc', 'http://10.0.0.1/x'], { pageSize: 50 })

    expect(only('POST /drive/v1/resource/list').json).toEqual({ urls: 'magnet:?xt=urn:btih:abc\nhttp://10.0.0.1/x', page_size: 50 })
    expect(resources).toEqual([torrent, refused])
  })

  it('previews a torrent file of the drive by its id', async () => {
    const { drive, client, only } = setup()
    drive.routes['POST /drive/v1/resource/list'] = () => json({ list: { resources: [leaf('r1', 'a.iso', '1')] } })
    expect(await client.previewResources({ torrentFileId: 'tor1' })).toHaveLength(1)
    expect(only('POST /drive/v1/resource/list').json).toEqual({ torrent_file_id: 'tor1' })
  })

  it('lists offline tasks of some phases as a phase filter', async () => {
    const { drive, client, only } = setup()
    const page = { tasks: [anOfflineTask()], next_page_token: 'n2', expires_in: 60 }
    drive.routes['GET /drive/v1/tasks'] = () => json(page)

    expect(await client.listTasks({ phases: ['PHASE_TYPE_RUNNING', 'PHASE_TYPE_PENDING'], limit: 20, pageToken: 'n1' })).toEqual(page)

    const params = Object.fromEntries(only('GET /drive/v1/tasks').url.searchParams)
    expect(params).toEqual({ type: 'offline', limit: '20', page_token: 'n1', filters: '{"phase":{"in":"PHASE_TYPE_RUNNING,PHASE_TYPE_PENDING"}}' })
  })

  it('lists every offline task without a filter', async () => {
    const { drive, client, only } = setup()
    drive.routes['GET /drive/v1/tasks'] = () => json({ tasks: [], next_page_token: '', expires_in: 60 })
    await client.listTasks({ phases: [] })
    expect(Object.fromEntries(only('GET /drive/v1/tasks').url.searchParams)).toEqual({ type: 'offline' })
  })

  it('retries a task with create_type RETRY and returns the task', async () => {
    const { drive, client, only } = setup()
    const task = anOfflineTask({ phase: 'PHASE_TYPE_PENDING', progress: 0, message: '' })
    drive.routes['POST /drive/v1/task'] = () => json({ task })
    expect(await client.retryTask('t1')).toEqual(task)
    expect(only('POST /drive/v1/task').json).toEqual({ type: 'offline', create_type: 'RETRY', id: 't1' })
  })

  it('retry of a missing task is task_not_found', async () => {
    const { drive, client } = setup()
    drive.routes['POST /drive/v1/task'] = () => wire(DriveErrors.task_not_found)
    const error = (await client.retryTask('gone').catch((e: unknown) => e)) as IdentityError
    expect(error.is(DriveErrors.task_not_found)).toBe(true)
    expect(error.status).toBe(404)
  })

  it('deletes tasks with or without their files', async () => {
    const { drive, client } = setup()
    drive.routes['DELETE /drive/v1/tasks'] = () => json({})
    await client.deleteTasks(['a', 'b'], { deleteFiles: true })
    await client.deleteTasks(['c'])
    const queries = drive.calls.map((c) => Object.fromEntries(c.url.searchParams))
    expect(queries).toEqual([{ task_ids: 'a,b', delete_files: 'true' }, { task_ids: 'c' }])
  })

  it('a refused preview is the catalogue error', async () => {
    const { drive, client } = setup()
    drive.routes['POST /drive/v1/resource/list'] = () => wire(GenericErrors.invalid_argument, 'urls is empty')
    const error = (await client.previewResources([]).catch((e: unknown) => e)) as IdentityError
    expect(error.is(GenericErrors.invalid_argument)).toBe(true)
  })
})

describe('offlineQuotasOf', () => {
  it('reads the daily and running counts as numbers', () => {
    const quotas = { offline_daily: { kind: 'drive#quota', limit: '10', usage: '3' }, offline_running: { kind: 'drive#quota', limit: '2', usage: '1' } } as const
    expect(offlineQuotasOf({ quotas })).toEqual({ daily: { limit: 10, usage: 3 }, running: { limit: 2, usage: 1 } })
  })

  it('says null for counts the server leaves out, and no limit for a negative one', () => {
    expect(offlineQuotasOf({ quotas: {} })).toEqual({ daily: null, running: null })
    expect(offlineQuotasOf({ quotas: { offline_daily: { kind: 'drive#quota', limit: '-1', usage: '4' } } })).toEqual({ daily: { limit: null, usage: 4 }, running: null })
  })
})
