import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Readable } from 'node:stream'
import { type BlobInfo, BlobNotFound, BlobRangeNotSatisfiable, BlobSizeMismatch, type BlobStore, isGcid, requireGcid } from './blob-store.js'
import { STREAM_BUFFER_BYTES, syncDirectory, syncFile, writeHashedFile } from './write-hashed-file.js'

/**
 * Blobs as files under `root`: `<root>/AB/CD/<GCID>`, two levels of fan-out so no folder holds
 * millions of entries. A blob is written to `<root>/tmp/` first (or adopted from an upload's
 * staging file), flushed to disk (fsync) and then renamed into place, so a crash never leaves a
 * partial blob under a GCID.
 */
export class LocalDiskBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  async put(content: Readable | AsyncIterable<Uint8Array>, sizeBytes: number): Promise<BlobInfo> {
    const tmp = await this.#tmpPath()
    try {
      const gcid = await writeHashedFile(content, sizeBytes, tmp)
      if (await this.stat(gcid)) {
        await rm(tmp)
        return { gcid, sizeBytes }
      }
      await this.#install(tmp, gcid)
      return { gcid, sizeBytes }
    } catch (err) {
      await rm(tmp, { force: true })
      throw err
    }
  }

  async adopt(path: string, sizeBytes: number, gcid: string): Promise<BlobInfo> {
    requireGcid(gcid)
    const found = await stat(path)
    if (found.size !== sizeBytes) throw new BlobSizeMismatch(sizeBytes, found.size)
    if (await this.stat(gcid)) {
      await rm(path)
      return { gcid, sizeBytes }
    }
    try {
      await this.#install(path, gcid)
    } catch (err) {
      // Staging on another file system (a separate uploads volume): the bytes must be copied
      // once. The copy goes to our tmp folder first, so the blob still appears all at once.
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err
      const tmp = await this.#tmpPath()
      try {
        await copyFile(path, tmp)
        await this.#install(tmp, gcid)
      } catch (copyErr) {
        await rm(tmp, { force: true })
        throw copyErr
      }
      await rm(path)
    }
    return { gcid, sizeBytes }
  }

  async get(gcid: string, range?: { start: number; end: number }): Promise<Readable> {
    const info = await this.stat(gcid)
    if (!info) throw new BlobNotFound(gcid)
    if (!range) return createReadStream(this.#pathOf(gcid), { highWaterMark: STREAM_BUFFER_BYTES })
    if (range.start >= info.sizeBytes || range.start < 0 || range.end < range.start) throw new BlobRangeNotSatisfiable(gcid, info.sizeBytes)
    return createReadStream(this.#pathOf(gcid), { start: range.start, end: Math.min(range.end, info.sizeBytes - 1), highWaterMark: STREAM_BUFFER_BYTES })
  }

  async localPath(gcid: string): Promise<string | null> {
    return (await this.stat(gcid)) ? this.#pathOf(gcid) : null
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

  /**
   * Flushes `file` and renames it to the blob's path. Two writers of the same content racing
   * here both succeed: the second rename replaces the file with identical bytes.
   */
  async #install(file: string, gcid: string): Promise<void> {
    await syncFile(file)
    const target = this.#pathOf(gcid)
    await mkdir(dirname(target), { recursive: true })
    await rename(file, target)
    await syncDirectory(dirname(target))
  }

  async #tmpPath(): Promise<string> {
    const tmpDir = join(this.root, 'tmp')
    await mkdir(tmpDir, { recursive: true })
    return join(tmpDir, randomUUID())
  }

  #pathOf(gcid: string): string {
    return join(this.root, gcid.slice(0, 2), gcid.slice(2, 4), gcid)
  }
}
