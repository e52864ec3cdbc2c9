import { describe, expect, it } from 'vitest'
import { MemoryStorage } from '../storage.js'
import { type StoredUpload, UPLOAD_INDEX_KEY, UPLOAD_KEY_PREFIX, UploadRecords, uploadFingerprint } from './upload-records.js'

const NOW = 2_000_000_000_000

function aRecord(overrides: Partial<StoredUpload> = {}): StoredUpload {
  return {
    fingerprint: 'fp1',
    endpoint: 'https://drive.test/drive/v1/uploads/u1',
    fileId: 'f1',
    name: 'a.bin',
    size: 10,
    lastModified: 1,
    parentId: '',
    userId: 'u1',
    createdAt: NOW - 1000,
    expiresAt: NOW + 1000,
    ...overrides,
  }
}

/** localStorage-like: its keys can be listed. */
class ListableStorage extends MemoryStorage {
  readonly keys: string[] = []
  override setItem(key: string, value: string): void {
    if (!this.keys.includes(key)) this.keys.push(key)
    super.setItem(key, value)
  }
  override removeItem(key: string): void {
    const at = this.keys.indexOf(key)
    if (at >= 0) this.keys.splice(at, 1)
    super.removeItem(key)
  }
  key(index: number): string | null {
    return this.keys[index] ?? null
  }
}

describe('UploadRecords', () => {
  it('saves under the prefixed fingerprint, lists oldest first, removes idempotently', () => {
    const storage = new MemoryStorage()
    const records = new UploadRecords(storage, () => NOW)
    records.save(aRecord({ fingerprint: 'b', createdAt: NOW - 10 }))
    records.save(aRecord({ fingerprint: 'a', createdAt: NOW - 20 }))
    expect(JSON.parse(storage.getItem(`${UPLOAD_KEY_PREFIX}a`) as string)).toMatchObject({ fingerprint: 'a' })
    expect(records.list().map((r) => r.fingerprint)).toEqual(['a', 'b'])
    records.remove('a')
    records.remove('a')
    expect(records.list().map((r) => r.fingerprint)).toEqual(['b'])
    records.remove('b')
    expect(storage.length).toBe(0)
  })

  it('drops expired and malformed records (expiry 1 ms ahead lives, at now is gone)', () => {
    const storage = new MemoryStorage()
    const records = new UploadRecords(storage, () => NOW)
    records.save(aRecord({ fingerprint: 'live', expiresAt: NOW + 1 }))
    records.save(aRecord({ fingerprint: 'dead', expiresAt: NOW }))
    records.save(aRecord({ fingerprint: 'forever', expiresAt: 0 }))
    storage.setItem(`${UPLOAD_KEY_PREFIX}junk`, '{not json')
    storage.setItem(UPLOAD_INDEX_KEY, JSON.stringify(['live', 'dead', 'forever', 'junk', 'missing']))
    expect(records.find('dead')).toBeNull()
    expect(records.list().map((r) => r.fingerprint)).toEqual(['live', 'forever'])
    expect(JSON.parse(storage.getItem(UPLOAD_INDEX_KEY) as string)).toEqual(['live', 'forever'])
    expect(storage.getItem(`${UPLOAD_KEY_PREFIX}dead`)).toBeNull()
  })

  it('finds records missing from the index when the storage can list its keys', () => {
    const storage = new ListableStorage()
    const records = new UploadRecords(storage, () => NOW)
    // Written by another tab whose index update was lost to a race.
    storage.setItem(`${UPLOAD_KEY_PREFIX}other`, JSON.stringify(aRecord({ fingerprint: 'other' })))
    expect(records.list().map((r) => r.fingerprint)).toEqual(['other'])
  })

  it('keeps working when the storage throws (quota, disabled)', () => {
    const storage = new MemoryStorage()
    storage.setItem = () => {
      throw new Error('QuotaExceededError')
    }
    const records = new UploadRecords(storage, () => NOW)
    expect(() => records.save(aRecord())).not.toThrow()
    expect(records.list()).toEqual([])
  })

  it('fingerprints differ by account, folder, size, time, hash and name, and survive odd characters', () => {
    const base = { userId: 'u1', parentId: 'p', name: 'a/b c.txt', size: 1, lastModified: 2, hash: 'H' }
    const variants = [base, { ...base, userId: 'u2' }, { ...base, parentId: 'q' }, { ...base, size: 3 }, { ...base, lastModified: 4 }, { ...base, hash: '' }, { ...base, name: 'x' }]
    expect(new Set(variants.map(uploadFingerprint)).size).toBe(variants.length)
    expect(uploadFingerprint(base)).toBe(uploadFingerprint({ ...base }))
  })
})
