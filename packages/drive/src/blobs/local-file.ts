import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { BlobStore } from './blob-store.js'

/**
 * Runs `work` with a path to the content that a tool can seek in (ffmpeg, 7zz): the blob store's
 * own file, or a temp copy for stores without local files (S3), removed afterwards.
 */
export async function withLocalFile<T>(blobs: BlobStore, gcid: string, signal: AbortSignal | undefined, work: (path: string) => Promise<T>): Promise<T> {
  const local = blobs.localPath ? await blobs.localPath(gcid) : null
  if (local) return work(local)
  const dir = await mkdtemp(join(tmpdir(), 'cumulus-blob-'))
  try {
    const path = join(dir, 'content')
    await pipeline(await blobs.get(gcid), createWriteStream(path), ...(signal ? [{ signal }] : []))
    return await work(path)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
