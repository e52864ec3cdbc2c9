import { open } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { BlobSizeMismatch } from './blob-store.js'
import { GcidHasher } from './gcid.js'

/** Large buffers: fewer system calls when streaming multi-gigabyte files. */
export const STREAM_BUFFER_BYTES = 1024 * 1024

/**
 * Writes `content` to a new file at `path`, computing its GCID on the way, and returns the GCID.
 * Rejects BlobSizeMismatch as soon as the content outgrows `sizeBytes`, or at its end when it is
 * shorter. Leaves whatever it wrote at `path` when it rejects: the caller owns that file.
 */
export async function writeHashedFile(content: Readable | AsyncIterable<Uint8Array>, sizeBytes: number, path: string): Promise<string> {
  const hasher = new GcidHasher(sizeBytes)
  let seen = 0
  // Opened before streaming starts: a write stream opens its file lazily, and when the content
  // fails early that open could land after the caller has removed the file, leaving it behind.
  const file = await open(path, 'wx')
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
      file.createWriteStream({ highWaterMark: STREAM_BUFFER_BYTES }),
    )
  } finally {
    // The stream closes the handle itself; this waits for that (a closed handle closes at once),
    // so the caller's rename or removal meets a closed file, which Windows insists on.
    await file.close()
  }
  if (seen !== sizeBytes) throw new BlobSizeMismatch(sizeBytes, seen)
  return hasher.digest()
}

/** Flushes a file's content to the disk, so a rename that follows never publishes a hole after a crash. */
export async function syncFile(path: string): Promise<void> {
  // 'r+': Windows refuses to flush a handle opened read-only.
  const handle = await open(path, 'r+')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * Flushes a folder's entries, so a rename into it survives a crash: the database may record a
 * blob as stored as soon as put or adopt resolves. Windows cannot open a folder for flushing,
 * and NTFS journals renames itself.
 */
export async function syncDirectory(path: string): Promise<void> {
  if (process.platform === 'win32') return
  const handle = await open(path, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
