import type { Readable } from 'node:stream'

/**
 * Where file content lives. Blobs are content-addressed by their GCID (drive.md), so two files
 * with the same bytes share one blob; which files reference a blob is the database's business,
 * not the store's. Implementations: LocalDiskBlobStore (the default) and S3BlobStore, chosen by
 * openBlobStore(). Every implementation passes the conformance suite in test/blob-store-suite.ts.
 */
export interface BlobStore {
  /**
   * Stores `content`, which must be exactly `sizeBytes` long, under its GCID. Storing content
   * that is already stored is harmless and keeps one copy. Atomic: until it resolves nothing is
   * visible, and when it rejects nothing is left behind (BlobSizeMismatch for a wrong length).
   */
  put(content: Readable | AsyncIterable<Uint8Array>, sizeBytes: number): Promise<BlobInfo>
  /**
   * Stores the file at `path` as blob `gcid`: the way a finished upload's staging file (whose
   * GCID the caller computed while receiving it) becomes a blob without writing every byte a
   * second time. The caller vouches for the GCID; the store checks only the size.
   * On success the file is gone from `path`: moved into the store, or removed when the blob was
   * already stored. Atomic like put: the blob appears complete or not at all. On rejection the
   * file is left at `path` (BlobSizeMismatch when its size is not `sizeBytes`, a TypeError for a
   * malformed GCID, the file system's error when it cannot be read).
   */
  adopt(path: string, sizeBytes: number, gcid: string): Promise<BlobInfo>
  /**
   * Streams a blob, or the inclusive byte range `start`..`end` of it. Rejects BlobNotFound for
   * an unknown GCID and BlobRangeNotSatisfiable for a range that starts past the end.
   * A range ending past the end is cut at the end (as HTTP ranges are).
   */
  get(gcid: string, range?: { start: number; end: number }): Promise<Readable>
  /** The blob's size, or null when it is not stored. Reads nothing else. */
  stat(gcid: string): Promise<BlobInfo | null>
  /** Removes a blob. Rejects BlobNotFound when it is not stored. */
  delete(gcid: string): Promise<void>
  /**
   * Where a stored blob can be read on this machine, for tools that must seek in a file (ffmpeg
   * on an MP4 whose index is at its end), or null when it is not stored. Only stores that keep
   * blobs on a local file system have it; callers copy the content to a temp file otherwise.
   */
  localPath?(gcid: string): Promise<string | null>
}

export interface BlobInfo {
  gcid: string
  sizeBytes: number
}

export class BlobNotFound extends Error {
  constructor(readonly gcid: string) {
    super(`blob ${gcid} is not stored`)
    this.name = 'BlobNotFound'
  }
}

export class BlobSizeMismatch extends Error {
  constructor(
    readonly expectedBytes: number,
    readonly actualBytes: number,
  ) {
    super(`blob content is ${actualBytes} bytes, ${expectedBytes} were announced`)
    this.name = 'BlobSizeMismatch'
  }
}

export class BlobRangeNotSatisfiable extends Error {
  constructor(
    readonly gcid: string,
    readonly sizeBytes: number,
  ) {
    super(`range starts past the end of blob ${gcid} (${sizeBytes} bytes)`)
    this.name = 'BlobRangeNotSatisfiable'
  }
}

/** A GCID as stored: 40 upper-case hex digits. Anything else is never a stored blob. */
export function isGcid(value: string): boolean {
  return /^[0-9A-F]{40}$/.test(value)
}

/** For adopt, whose GCID becomes a file name or key: anything but a GCID is a caller's bug. */
export function requireGcid(value: string): string {
  if (!isGcid(value)) throw new TypeError(`not a GCID: ${JSON.stringify(value)}`)
  return value
}
