import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { describe, expect, it } from 'vitest'
import { BlobNotFound, BlobRangeNotSatisfiable, BlobSizeMismatch, type BlobStore } from '../src/blobs/blob-store.js'
import { gcidOf } from '../src/blobs/gcid.js'

const from = (value: string) => Readable.from([Buffer.from(value)])

/** The BlobStore contract, for every implementation: `describeBlobStore('local disk', () => new LocalDiskBlobStore(dir))`. */
export function describeBlobStore(name: string, makeStore: () => Promise<BlobStore> | BlobStore): void {
  describe(`BlobStore: ${name}`, () => {
    it('stores content under its GCID and streams it back', async () => {
      const store = await makeStore()
      const info = await store.put(from('hello cumulus'), 13)
      expect(info).toEqual({ gcid: gcidOf(Buffer.from('hello cumulus')), sizeBytes: 13 })
      expect(await store.stat(info.gcid)).toEqual(info)
      expect(await text(await store.get(info.gcid))).toBe('hello cumulus')
    })

    it('keeps one blob for the same content stored twice, also at once', async () => {
      const store = await makeStore()
      const [a, b] = await Promise.all([store.put(from('same bytes'), 10), store.put(Readable.from([Buffer.from('same '), Buffer.from('bytes')]), 10)])
      expect(a).toEqual(b)
      await store.delete(a.gcid)
      expect(await store.stat(a.gcid)).toBeNull()
    })

    it('serves inclusive byte ranges, cutting a range that ends past the end', async () => {
      const store = await makeStore()
      const { gcid } = await store.put(from('0123456789'), 10)
      expect(await text(await store.get(gcid, { start: 2, end: 4 }))).toBe('234')
      expect(await text(await store.get(gcid, { start: 8, end: 100 }))).toBe('89')
      await expect(store.get(gcid, { start: 10, end: 12 })).rejects.toBeInstanceOf(BlobRangeNotSatisfiable)
    })

    it('stores nothing when the content is not the announced size', async () => {
      const store = await makeStore()
      await expect(store.put(from('short'), 6)).rejects.toBeInstanceOf(BlobSizeMismatch)
      await expect(store.put(from('too long'), 3)).rejects.toBeInstanceOf(BlobSizeMismatch)
      expect(await store.stat(gcidOf(Buffer.from('short')))).toBeNull()
    })

    it('answers BlobNotFound for unknown or malformed GCIDs, and null from stat', async () => {
      const store = await makeStore()
      const unknown = gcidOf(Buffer.from('never stored'))
      await expect(store.get(unknown)).rejects.toBeInstanceOf(BlobNotFound)
      await expect(store.delete(unknown)).rejects.toBeInstanceOf(BlobNotFound)
      await expect(store.get('../../etc/passwd')).rejects.toBeInstanceOf(BlobNotFound)
      expect(await store.stat('not-a-gcid')).toBeNull()
    })
  })
}
