import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { describeBlobStore } from '../../test/blob-store-suite.js'
import { BlobSizeMismatch } from './blob-store.js'
import { gcidOf } from './gcid.js'
import { LocalDiskBlobStore } from './local-disk-blob-store.js'

const tempDir = () => mkdtempSync(join(tmpdir(), 'cumulus-blobs-'))

describeBlobStore('local disk', () => new LocalDiskBlobStore(tempDir()))

describe('LocalDiskBlobStore on disk', () => {
  it('fans blobs out by GCID prefix and leaves no temp file behind, also after a failed put', async () => {
    const root = tempDir()
    const store = new LocalDiskBlobStore(root)
    const { gcid } = await store.put(Readable.from([Buffer.from('fan out')]), 7)
    expect(readdirSync(join(root, gcid.slice(0, 2), gcid.slice(2, 4)))).toEqual([gcid])
    await expect(store.put(Readable.from([Buffer.from('x')]), 2)).rejects.toBeInstanceOf(BlobSizeMismatch)
    expect(readdirSync(join(root, 'tmp'))).toEqual([])
  })
})

describe('LocalDiskBlobStore.adopt', () => {
  it('moves the staging file into place rather than writing its bytes again', async () => {
    const root = tempDir()
    // The staging folder sits on the store's file system, as `<dataDir>/uploads` does.
    const staging = join(tempDir(), 'upload')
    writeFileSync(staging, 'moved, not copied')
    const inode = statSync(staging).ino
    const gcid = gcidOf(Buffer.from('moved, not copied'))
    await new LocalDiskBlobStore(root).adopt(staging, 17, gcid)
    expect(statSync(join(root, gcid.slice(0, 2), gcid.slice(2, 4), gcid)).ino).toBe(inode)
  })
})
