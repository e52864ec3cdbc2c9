import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { afterAll, describe, expect, it } from 'vitest'
import { BlobNotFound, BlobRangeNotSatisfiable, BlobSizeMismatch, type BlobStore } from '../src/blobs/blob-store.js'
import { gcidOf } from '../src/blobs/gcid.js'

const from = (value: string) => Readable.from([Buffer.from(value)])

const stagingDirs: string[] = []

/** A finished upload's staging file, outside the store, as adopt receives it. */
function stagingFile(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cumulus-staging-'))
  stagingDirs.push(dir)
  const path = join(dir, 'upload')
  writeFileSync(path, content)
  return path
}

/** The BlobStore contract, for every implementation: `describeBlobStore('local disk', () => new LocalDiskBlobStore(dir))`. */
export function describeBlobStore(name: string, makeStore: () => Promise<BlobStore> | BlobStore): void {
  describe(`BlobStore: ${name}`, () => {
    afterAll(() => {
      for (const dir of stagingDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
    })

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

    it('stores empty content', async () => {
      const store = await makeStore()
      const info = await store.put(from(''), 0)
      expect(info).toEqual({ gcid: gcidOf(Buffer.alloc(0)), sizeBytes: 0 })
      expect(await store.stat(info.gcid)).toEqual(info)
      expect(await text(await store.get(info.gcid))).toBe('')
    })

    it('adopts a staging file as a blob and takes it away', async () => {
      const store = await makeStore()
      const path = stagingFile('uploaded bytes')
      const gcid = gcidOf(Buffer.from('uploaded bytes'))
      expect(await store.adopt(path, 14, gcid)).toEqual({ gcid, sizeBytes: 14 })
      expect(existsSync(path)).toBe(false)
      expect(await store.stat(gcid)).toEqual({ gcid, sizeBytes: 14 })
      expect(await text(await store.get(gcid, { start: 9, end: 13 }))).toBe('bytes')
    })

    it('adopting content already stored keeps the blob and removes the staging file, also at once', async () => {
      const store = await makeStore()
      const gcid = (await store.put(from('twice'), 5)).gcid
      const paths = [stagingFile('twice'), stagingFile('twice'), stagingFile('twice')]
      const infos = await Promise.all(paths.map((path) => store.adopt(path, 5, gcid)))
      expect(infos).toEqual([0, 1, 2].map(() => ({ gcid, sizeBytes: 5 })))
      expect(paths.filter((path) => existsSync(path))).toEqual([])
      expect(await text(await store.get(gcid))).toBe('twice')
    })

    it('adopts the same new content from several uploads finishing at once as one blob', async () => {
      const store = await makeStore()
      const gcid = gcidOf(Buffer.from('raced'))
      const paths = [stagingFile('raced'), stagingFile('raced')]
      await Promise.all(paths.map((path) => store.adopt(path, 5, gcid)))
      expect(paths.filter((path) => existsSync(path))).toEqual([])
      expect(await text(await store.get(gcid))).toBe('raced')
    })

    it('refuses to adopt a file of another size and leaves it in place', async () => {
      const store = await makeStore()
      const path = stagingFile('partial')
      const gcid = gcidOf(Buffer.from('partial upload'))
      await expect(store.adopt(path, 14, gcid)).rejects.toEqual(new BlobSizeMismatch(14, 7))
      expect(existsSync(path)).toBe(true)
      expect(await store.stat(gcid)).toBeNull()
    })

    it('refuses to adopt under a malformed GCID', async () => {
      const store = await makeStore()
      const path = stagingFile('x')
      await expect(store.adopt(path, 1, '../../../etc/cron.d/x')).rejects.toBeInstanceOf(TypeError)
      expect(existsSync(path)).toBe(true)
    })

    it('answers BlobNotFound for unknown or malformed GCIDs, and null from stat', async () => {
      const store = await makeStore()
      const unknown = gcidOf(Buffer.from('never stored'))
      await expect(store.get(unknown)).rejects.toBeInstanceOf(BlobNotFound)
      await expect(store.delete(unknown)).rejects.toBeInstanceOf(BlobNotFound)
      await expect(store.get('../../etc/passwd')).rejects.toBeInstanceOf(BlobNotFound)
      expect(await store.stat('not-a-gcid')).toBeNull()
    })

    it('gives a local path that reads as the blob, when it has local paths at all; null for what it does not store', async () => {
      const store = await makeStore()
      if (!store.localPath) return
      const info = await store.put(from('read me from disk'), 17)
      const path = await store.localPath(info.gcid)
      expect(path).not.toBeNull()
      expect(readFileSync(path as string, 'utf8')).toBe('read me from disk')
      expect(await store.localPath(gcidOf(Buffer.from('never stored')))).toBeNull()
      expect(await store.localPath('../../etc/passwd')).toBeNull()
    })
  })
}
