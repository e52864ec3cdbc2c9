// @vitest-environment node
import { DRIVE_DEFAULTS } from '@cumulus/protocol'
import { describe, expect, it } from 'vitest'
import { BatchRecords, MAX_REMEMBERED_FILES, type StoredBatch } from './upload-batches'

function memory() {
  const items = new Map<string, string>()
  return { items, getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k) }
}

const aBatch = (id: string, files = 3, createdAt = 1_000): StoredBatch => ({
  id,
  targetFolderId: 'home',
  createdAt,
  folders: { '': 'home' },
  files: Array.from({ length: files }, (_, i) => ({ path: `f${i}`, size: i + 1, lastModified: i })),
})

describe('BatchRecords', () => {
  it('keeps batches per account with their done flags, and forgets one when its last file is done', () => {
    const storage = memory()
    const records = new BatchRecords(storage, 'u1', () => 2_000)
    records.create(aBatch('b1'))
    records.setFolder(aBatch('b1'), 'trip', 'folder-9')
    records.markDone('b1', 1)
    expect(records.list()).toEqual([{ batch: { ...aBatch('b1'), folders: { '': 'home', trip: 'folder-9' } }, done: [false, true, false] }])
    expect(new BatchRecords(storage, 'u2', () => 2_000).list()).toEqual([])
    records.markDone('b1', 0)
    records.markDone('b1', 2)
    expect(records.list()).toEqual([])
    expect([...storage.items.keys()].filter((k) => k.includes('b1'))).toEqual([])
  })

  it('forgets batches older than the server keeps unfinished uploads', () => {
    const storage = memory()
    new BatchRecords(storage, 'u1').create(aBatch('old', 2, 0))
    const ttl = DRIVE_DEFAULTS.uploadExpirySeconds * 1000
    expect(new BatchRecords(storage, 'u1', () => ttl - 1).list()).toHaveLength(1)
    expect(new BatchRecords(storage, 'u1', () => ttl).list()).toEqual([])
  })

  it('does not keep a batch too large for the storage, and ignores a failing storage', () => {
    const records = new BatchRecords(memory(), 'u1')
    expect(records.create(aBatch('huge', MAX_REMEMBERED_FILES + 1))).toBe(false)
    expect(records.list()).toEqual([])
    const full = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError') }, removeItem: () => undefined }
    const failing = new BatchRecords(full, 'u1')
    expect(failing.create(aBatch('b'))).toBe(false)
    expect(() => failing.markDone('b', 0)).not.toThrow()
    expect(failing.list()).toEqual([])
  })
})
