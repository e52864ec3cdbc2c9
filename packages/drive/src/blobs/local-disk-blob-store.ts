import { randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, open, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { type BlobInfo, BlobNotFound, BlobRangeNotSatisfiable, BlobSizeMismatch, type BlobStore, isGcid } from './blob-store.js'
import { GcidHasher } from './gcid.js'

/** Large buffers: fewer system calls when streaming multi-gigabyte files. */
const STREAM_BUFFER_BYTES = 1024 * 1024

/**
 * Blobs as files under `root`: `<root>/AB/CD/<GCID>`, two levels of fan-out so no folder holds
 * millions of entries. A blob is written to `<root>/tmp/` first, flushed to disk (fsync) and
 * then renamed into place, so a crash never leaves a partial blob under a GCID.
 */
export class LocalDiskBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  async put(content: Readable | AsyncIterable<Uint8Array>, sizeBytes: number): Promise<BlobInfo> {
    const tmpDir = join(this.root, 'tmp')
    await mkdir(tmpDir, { recursive: true })
    const tmp = join(tmpDir, randomUUID())
    const hasher = new GcidHasher(sizeBytes)
    let seen = 0
    try {
      await pipeline(
        content,
        async function* (source: AsyncIterable<Uint8Array>) {
          for await (const chunk of source) {
            seen += chunk.byteLength
            // Stop at the first byte too many rather than storing an oversized upload.
            if (seen > sizeBytes) throw new BlobSizeMismatch(sizeBytes, seen)
            hasher.update(chunk)
            yield chunk
          }
        },
        createWriteStream(tmp, { highWaterMark: STREAM_BUFFER_BYTES }),
      )
      if (seen !== sizeBytes) throw new BlobSizeMismatch(sizeBytes, seen)
      const gcid = hasher.digest()
      const handle = await open(tmp, 'r+')
      try {
        await handle.sync()
      } finally {
        await handle.close()
      }
      const target = this.#pathOf(gcid)
      await mkdir(join(target, '..'), { recursive: true })
      // The same content stored twice ends as one file: rename replaces it with identical bytes.
      await rename(tmp, target)
      return { gcid, sizeBytes }
    } catch (err) {
      await rm(tmp, { force: true })
      throw err
    }
  }

  async get(gcid: string, range?: { start: number; end: number }): Promise<Readable> {
    const info = await this.stat(gcid)
    if (!info) throw new BlobNotFound(gcid)
    if (!range) return createReadStream(this.#pathOf(gcid), { highWaterMark: STREAM_BUFFER_BYTES })
    if (range.start >= info.sizeBytes || range.start < 0 || range.end < range.start) throw new BlobRangeNotSatisfiable(gcid, info.sizeBytes)
    return createReadStream(this.#pathOf(gcid), { start: range.start, end: Math.min(range.end, info.sizeBytes - 1), highWaterMark: STREAM_BUFFER_BYTES })
  }

  async stat(gcid: string): Promise<BlobInfo | null> {
    if (!isGcid(gcid)) return null
    try {
      const found = await stat(this.#pathOf(gcid))
      return { gcid, sizeBytes: found.size }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
  }

  async delete(gcid: string): Promise<void> {
    if (!isGcid(gcid)) throw new BlobNotFound(gcid)
    try {
      await rm(this.#pathOf(gcid))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFound(gcid)
      throw err
    }
  }

  #pathOf(gcid: string): string {
    return join(this.root, gcid.slice(0, 2), gcid.slice(2, 4), gcid)
  }
}
