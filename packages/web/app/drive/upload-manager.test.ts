import { DriveErrors } from '@cumulus/protocol'
import { describe, expect, it, vi } from 'vitest'
import { pickedFromInput } from './collect-files'
import { aFile, aFolder, driveError, FakeDriveApi } from './fake-drive-api'
import { UploadManager, uploadTotals } from './upload-manager'

function aLocalFile(name: string, size = 10, lastModified = 1_700_000_000_000, relativePath = ''): File {
  const file = new File([new Uint8Array(size)], name, { lastModified })
  if (relativePath) Object.defineProperty(file, 'webkitRelativePath', { value: relativePath })
  return file
}

const statuses = (manager: UploadManager) => manager.items().map((item) => `${item.path}:${item.status}`)

/** Lets the promise callbacks of finished or failed fake uploads run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('UploadManager', () => {
  it('uploads three at a time into the folder, in order, and starts the next as one finishes', async () => {
    const api = new FakeDriveApi()
    const uploaded = vi.fn()
    const manager = new UploadManager(api, { onUploaded: uploaded }, { concurrency: 3 })
    await manager.add(pickedFromInput(['a', 'b', 'c', 'd', 'e'].map((n) => aLocalFile(`${n}.txt`))), 'folder1')
    expect(statuses(manager)).toEqual(['a.txt:uploading', 'b.txt:uploading', 'c.txt:uploading', 'd.txt:waiting', 'e.txt:waiting'])
    expect(api.uploads.map((u) => [u.input.name, u.input.parentId])).toEqual([
      ['a.txt', 'folder1'],
      ['b.txt', 'folder1'],
      ['c.txt', 'folder1'],
    ])

    const file = api.uploads[1]!.finish()
    await settle()
    expect(uploaded).toHaveBeenCalledWith(file)
    expect(statuses(manager)).toEqual(['a.txt:uploading', 'b.txt:done', 'c.txt:uploading', 'd.txt:uploading', 'e.txt:waiting'])
  })

  it('shows the name the drive gave a file that met one of the same name', async () => {
    const api = new FakeDriveApi()
    const existing = aFile({ name: 'hello.txt', parent_id: 'docs' })
    api.files.set(existing.id, existing)
    const manager = new UploadManager(api)
    await manager.add(pickedFromInput([aLocalFile('hello.txt'), aLocalFile('other.txt')]), 'docs')
    for (const upload of api.uploads) upload.finish()
    await settle()
    expect(manager.items().map((item) => [item.name, item.path, item.status])).toEqual([
      ['hello(1).txt', 'hello(1).txt', 'done'],
      ['other.txt', 'other.txt', 'done'],
    ])
  })

  it('shows progress and speed per file and in the totals', async () => {
    const api = new FakeDriveApi()
    const manager = new UploadManager(api)
    await manager.add(pickedFromInput([aLocalFile('big.bin', 1000), aLocalFile('small.bin', 200)]), '')
    api.uploads[0]!.progress(400, 2048)
    api.uploads[1]!.progress(100, 1024)
    const [big] = manager.items()
    expect(big).toMatchObject({ sentBytes: 400, bytesPerSecond: 2048, status: 'uploading' })
    expect(uploadTotals(manager.items())).toMatchObject({ active: 2, totalBytes: 1200, sentBytes: 500, bytesPerSecond: 3072 })
  })

  it('pauses and resumes through the handle, letting a waiting upload use the freed slot', async () => {
    const api = new FakeDriveApi()
    const manager = new UploadManager(api, {}, { concurrency: 1 })
    await manager.add(pickedFromInput([aLocalFile('a.bin'), aLocalFile('b.bin')]), '')
    const key = manager.items()[0]!.key
    manager.pause(key)
    expect(api.uploads[0]!.state).toBe('paused')
    expect(statuses(manager)).toEqual(['a.bin:paused', 'b.bin:uploading'])
    manager.resume(key)
    expect(api.uploads[0]!.state).toBe('uploading')
    expect(statuses(manager)).toEqual(['a.bin:uploading', 'b.bin:uploading'])
  })

  it('a paused upload that had not started starts later, not at once', async () => {
    const api = new FakeDriveApi()
    const manager = new UploadManager(api, {}, { concurrency: 1 })
    await manager.add(pickedFromInput([aLocalFile('a.bin'), aLocalFile('b.bin')]), '')
    const second = manager.items()[1]!.key
    manager.pause(second)
    api.uploads[0]!.finish()
    await settle()
    expect(statuses(manager)).toEqual(['a.bin:done', 'b.bin:paused'])
    expect(api.uploads).toHaveLength(1)
    manager.resume(second)
    expect(statuses(manager)).toEqual(['a.bin:done', 'b.bin:uploading'])
  })

  it('cancel discards the running upload and never reports it as failed', async () => {
    const api = new FakeDriveApi()
    const manager = new UploadManager(api)
    await manager.add(pickedFromInput([aLocalFile('a.bin')]), '')
    manager.cancel(manager.items()[0]!.key)
    await settle()
    expect(api.uploads[0]!.state).toBe('cancelled')
    expect(statuses(manager)).toEqual(['a.bin:cancelled'])
  })

  it('a failure keeps the error for the panel; retry starts the upload again', async () => {
    const api = new FakeDriveApi()
    const manager = new UploadManager(api)
    await manager.add(pickedFromInput([aLocalFile('a.bin')]), '')
    const error = driveError(DriveErrors.file_space_not_enough)
    api.uploads[0]!.fail(error)
    await settle()
    expect(manager.items()[0]).toMatchObject({ status: 'failed', error })
    manager.retry(manager.items()[0]!.key)
    expect(api.uploads).toHaveLength(2)
    expect(statuses(manager)).toEqual(['a.bin:uploading'])
    api.uploads[1]!.finish()
    await settle()
    expect(statuses(manager)).toEqual(['a.bin:done'])
  })

  it('rebuilds a picked folder tree (parents first) and puts each file into its folder', async () => {
    const api = new FakeDriveApi()
    const created = vi.fn()
    const manager = new UploadManager(api, { onFolderCreated: created }, { concurrency: 10 })
    const picked = pickedFromInput([aLocalFile('1.jpg', 5, 1, 'photos/2024/1.jpg'), aLocalFile('notes.txt', 5, 1, 'photos/notes.txt'), aLocalFile('2.jpg', 5, 1, 'photos/2024/may/2.jpg')])
    await manager.add(picked, 'root-folder')

    const folders = api.callsOf('createFolder').map(([input]) => input as { name: string; parentId: string })
    expect(folders.map((f) => f.name)).toEqual(['photos', '2024', 'may'])
    const byName = new Map([...api.files.values()].map((f) => [f.name, f]))
    expect(folders[0]!.parentId).toBe('root-folder')
    expect(folders[1]!.parentId).toBe(byName.get('photos')!.id)
    expect(folders[2]!.parentId).toBe(byName.get('2024')!.id)
    expect(created).toHaveBeenCalledTimes(3)

    const targets = Object.fromEntries(api.uploads.map((u) => [u.input.name, u.input.parentId]))
    expect(targets).toEqual({ '1.jpg': byName.get('2024')!.id, 'notes.txt': byName.get('photos')!.id, '2.jpg': byName.get('may')!.id })
    expect(manager.items().map((item) => item.path)).toEqual(['photos/2024/1.jpg', 'photos/notes.txt', 'photos/2024/may/2.jpg'])
  })

  it('a folder that cannot be created fails the files inside it with that error', async () => {
    const api = new FakeDriveApi()
    const manager = new UploadManager(api)
    const error = driveError(DriveErrors.file_space_not_enough)
    api.failures.set('createFolder', error)
    await manager.add(pickedFromInput([aLocalFile('a.txt', 5, 1, 'docs/a.txt'), aLocalFile('loose.txt')]), '')
    expect(manager.items()[0]).toMatchObject({ path: 'docs/a.txt', status: 'failed', error })
    expect(manager.items()[1]).toMatchObject({ path: 'loose.txt', status: 'uploading' })
  })

  it('continues earlier uploads with the files picked again, matched by name, size and time, into their folder', async () => {
    const api = new FakeDriveApi([aFolder({ name: 'Docs', id: 'docs' })])
    api.pending = [
      { fingerprint: 'fp1', name: 'report.pdf', size: 300, lastModified: 111, parentId: 'docs' },
      { fingerprint: 'fp2', name: 'movie.mp4', size: 900, lastModified: 222, parentId: '' },
    ]
    const manager = new UploadManager(api)
    await manager.loadPendingFromEarlier()
    expect(manager.pendingFromEarlier().map((u) => u.name)).toEqual(['report.pdf', 'movie.mp4'])

    // Same name, other size: not the same file. Right name, size and time: continues.
    const matched = await manager.resumeEarlier([aLocalFile('movie.mp4', 901, 222), aLocalFile('report.pdf', 300, 111)])
    expect(matched).toBe(1)
    expect(api.uploads.map((u) => [u.input.name, u.input.parentId, u.input.file.size])).toEqual([['report.pdf', 'docs', 300]])
    expect(manager.pendingFromEarlier().map((u) => u.name)).toEqual(['movie.mp4'])
  })

  it('discarding earlier uploads asks the SDK to drop each of them', async () => {
    const api = new FakeDriveApi()
    api.pending = [{ fingerprint: 'fp1', name: 'a', size: 1, lastModified: 1, parentId: '' }]
    const manager = new UploadManager(api)
    await manager.loadPendingFromEarlier()
    await manager.discardPendingFromEarlier()
    expect(api.callsOf('discardUpload')).toEqual([['fp1']])
    expect(manager.pendingFromEarlier()).toEqual([])
  })

  it('clearFinished keeps only what is still going on', async () => {
    const api = new FakeDriveApi()
    const manager = new UploadManager(api)
    await manager.add(pickedFromInput([aLocalFile('a'), aLocalFile('b'), aLocalFile('c')]), '')
    api.uploads[0]!.finish()
    manager.cancel(manager.items()[1]!.key)
    await settle()
    manager.clearFinished()
    expect(statuses(manager)).toEqual(['c:uploading'])
  })

  it('keeps the same snapshot until something changes (for useSyncExternalStore)', async () => {
    const manager = new UploadManager(new FakeDriveApi())
    const first = manager.items()
    expect(manager.items()).toBe(first)
    await manager.add(pickedFromInput([aLocalFile('a')]), '')
    expect(manager.items()).not.toBe(first)
  })

  it('remembers a folder batch, so after a reload the files that had not started continue too, into the folders already made', async () => {
    const storage = new Map<string, string>()
    const kv = { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v), removeItem: (k: string) => void storage.delete(k) }
    const api = new FakeDriveApi()
    const before = new UploadManager(api, {}, { concurrency: 1, storage: kv })
    before.setAccount('u1')
    const tree = () => pickedFromInput([aLocalFile('1.jpg', 5, 1, 'trip/1.jpg'), aLocalFile('2.jpg', 6, 2, 'trip/day2/2.jpg'), aLocalFile('3.jpg', 7, 3, 'trip/day2/3.jpg')])
    await before.add(tree(), 'home')
    api.uploads[0]!.finish()
    await settle()
    expect(api.uploads.map((u) => u.input.name)).toEqual(['1.jpg', '2.jpg'])
    const foldersMade = api.callsOf('createFolder').length
    expect(foldersMade).toBe(2)

    // The page reloads: a new manager, the same storage. The SDK remembers only 2.jpg (started).
    api.pending = [{ fingerprint: 'fp2', name: '2.jpg', size: 6, lastModified: 2, parentId: api.uploads[1]!.input.parentId! }]
    const after = new UploadManager(api, {}, { storage: kv })
    after.setAccount('u1')
    await after.loadPendingFromEarlier()
    // One row for the batch (its started file included), with what is left of it.
    expect(after.pendingFromEarlier()).toEqual([{ kind: 'batch', id: expect.any(String), name: 'trip', filesLeft: 2, bytesLeft: 13 }])
    // Another account on this browser sees nothing of it.
    const other = new UploadManager(api, {}, { storage: kv })
    other.setAccount('u2')
    api.pending = []
    await other.loadPendingFromEarlier()
    expect(other.pendingFromEarlier()).toEqual([])

    expect(await after.resumeEarlier(tree())).toBe(2)
    const day2 = [...api.files.values()].find((f) => f.name === 'day2')!
    expect(api.uploads.slice(2).map((u) => [u.input.name, u.input.parentId])).toEqual([
      ['2.jpg', day2.id],
      ['3.jpg', day2.id],
    ])
    // No folder made twice, nothing left to offer.
    expect(api.callsOf('createFolder')).toHaveLength(foldersMade)
    expect(after.pendingFromEarlier()).toEqual([])
    api.uploads[2]!.finish()
    api.uploads[3]!.finish()
    await settle()
    // The batch is complete: forgotten.
    const again = new UploadManager(api, {}, { storage: kv })
    again.setAccount('u1')
    await again.loadPendingFromEarlier()
    expect(again.pendingFromEarlier()).toEqual([])
    expect([...storage.keys()].filter((k) => k.startsWith('cumulus-drive-batch:'))).toEqual([])
  })

  it('a cancelled file is not offered again after a reload', async () => {
    const storage = new Map<string, string>()
    const kv = { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v), removeItem: (k: string) => void storage.delete(k) }
    const api = new FakeDriveApi()
    const before = new UploadManager(api, {}, { concurrency: 1, storage: kv })
    before.setAccount('u1')
    await before.add(pickedFromInput([aLocalFile('a.bin', 5, 1), aLocalFile('b.bin', 6, 2)]), '')
    before.cancel(before.items()[1]!.key)
    const after = new UploadManager(api, {}, { storage: kv })
    after.setAccount('u1')
    await after.loadPendingFromEarlier()
    expect(after.pendingFromEarlier()).toEqual([{ kind: 'batch', id: expect.any(String), name: 'a.bin', filesLeft: 1, bytesLeft: 5 }])
  })
})
