import { join } from 'node:path'
import type { BlobStore } from './blob-store.js'
import { LocalDiskBlobStore } from './local-disk-blob-store.js'
import type { StorageConfig } from './storage-url.js'

/**
 * The blob store `storage` names (the operator's STORAGE_URL as parseStorageUrl parsed it, once,
 * at startup): LocalDiskBlobStore at its root, or S3BlobStore, which stages put's content under
 * `<dataDir>/blobs/tmp`. Connects to nothing until first used. The AWS SDK (about 26 MB of
 * memory) is loaded only for S3.
 */
export async function openBlobStore(storage: StorageConfig, dataDir: string): Promise<BlobStore> {
  if (storage.kind === 'local') return new LocalDiskBlobStore(storage.root)
  const { kind: _kind, ...s3 } = storage
  const { S3BlobStore } = await import('./s3-blob-store.js')
  return new S3BlobStore({ ...s3, stagingDir: join(dataDir, 'blobs', 'tmp') })
}
