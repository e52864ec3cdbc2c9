import { join } from 'node:path'
import type { BlobStore } from './blob-store.js'
import { LocalDiskBlobStore } from './local-disk-blob-store.js'
import { S3BlobStore } from './s3-blob-store.js'
import { parseStorageUrl } from './storage-url.js'

/**
 * The blob store a storage URL names (see parseStorageUrl), or, with none, the zero-config
 * default: LocalDiskBlobStore at `<dataDir>/blobs`. An S3 store stages put's content under
 * `<dataDir>/blobs/tmp`, where a local store would keep its own temporary files.
 * Throws parseStorageUrl's Error for a bad URL; connects to nothing until first used.
 */
export function openBlobStore(url: string | undefined, dataDir: string): BlobStore {
  const blobsDir = join(dataDir, 'blobs')
  if (url === undefined || url === '') return new LocalDiskBlobStore(blobsDir)
  const config = parseStorageUrl(url)
  if (config.kind === 'local') return new LocalDiskBlobStore(config.root)
  const { kind: _kind, ...s3 } = config
  return new S3BlobStore({ ...s3, stagingDir: join(blobsDir, 'tmp') })
}
