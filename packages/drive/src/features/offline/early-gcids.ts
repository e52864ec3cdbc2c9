import { createHash } from 'node:crypto'
import { type FileHandle, open } from 'node:fs/promises'
import { GCID_MAX_BLOCK_BYTES, gcidBlockSize, gcidOfBlockDigests } from '../../blobs/gcid.js'
import type { DownloadedFile, FileProgress } from './torrent/index.js'

interface FileBlocks {
  localPath: string
  sizeBytes: number
  blockBytes: number
  /** Each block's SHA-1 once hashed. */
  digests: (Buffer | undefined)[]
  handle: FileHandle | null
}

/**
 * The GCIDs of a torrent's files, hashed block by block while the download runs, as the engine
 * reports bytes final on disk (`TorrentDownload.fileProgress`), so that little is left to hash
 * when it completes. A GCID is the SHA-1 of its blocks' SHA-1s in order (blobs/gcid.ts), and a
 * block's digest depends on its own bytes only, so blocks can be hashed in whatever order the
 * pieces arrive.
 *
 * Early hashing is an optimisation only: a block it could not read is hashed by `finish`, which
 * reads whatever is missing from the finished files and reports their errors.
 */
export class EarlyGcids {
  readonly #files = new Map<number, FileBlocks>()
  /** The newest progress not yet worked through. */
  #latest: FileProgress[] | null = null
  #pass: Promise<void> | null = null
  #closed = false
  /** Set by finish(): no new pass may share the read buffer with it. */
  #finishing = false
  #buffer: Buffer | null = null

  /** Hashes, in the background, the blocks `progress` shows finished that are not hashed yet. */
  offer(progress: FileProgress[]): void {
    if (this.#closed || this.#finishing) return
    this.#latest = progress
    // Started on the next microtask so that #pass is set before #work can end and clear it.
    this.#pass ??= Promise.resolve().then(() => this.#work())
  }

  /**
   * The GCID of each finished file, by index: waits for the pass in flight, then hashes the blocks
   * still missing. Rejects when a file cannot be read whole.
   */
  async finish(files: readonly DownloadedFile[]): Promise<Map<number, string>> {
    this.#finishing = true
    this.#latest = null
    await this.#pass
    const gcids = new Map<number, string>()
    try {
      for (const file of files) {
        const blocks = this.#blocksOf(file.index, file.localPath, file.sizeBytes)
        try {
          for (let block = 0; block < blocks.digests.length; block++) if (!blocks.digests[block]) await this.#hashBlock(blocks, block)
        } finally {
          await closeFile(blocks)
        }
        gcids.set(file.index, gcidOfBlockDigests(blocks.digests as Buffer[]))
      }
    } finally {
      await this.close()
    }
    return gcids
  }

  /** Stops hashing and closes the files. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true
    this.#latest = null
    await this.#pass
    for (const blocks of this.#files.values()) await closeFile(blocks)
    this.#buffer = null
  }

  async #work(): Promise<void> {
    try {
      while (this.#latest !== null && !this.#closed) {
        const progress = this.#latest
        this.#latest = null
        for (const file of progress) {
          if (this.#closed) break
          const blocks = this.#blocksOf(file.index, file.localPath, file.sizeBytes)
          try {
            // Blocks and ranges both ascend: one walk over the two, however many of each.
            let range = 0
            for (let block = 0; block < blocks.digests.length && !this.#closed; block++) {
              const start = block * blocks.blockBytes
              const end = blockEnd(blocks, block)
              while (range < file.finished.length && file.finished[range]![1] < end) range++
              const within = file.finished[range]
              if (blocks.digests[block] || within === undefined || within[0] > start) continue
              // A read that fails now (the file moved, the disk hiccuped) is left to finish().
              if (!(await this.#hashBlock(blocks, block).then(() => true, () => false))) break
            }
          } finally {
            // One file open at a time: a torrent of thousands of files holds no descriptor between passes.
            await closeFile(blocks)
          }
        }
      }
    } finally {
      // In the same synchronous step as the loop's last check: an offer after this starts a new pass.
      this.#pass = null
    }
  }

  #blocksOf(index: number, localPath: string, sizeBytes: number): FileBlocks {
    let blocks = this.#files.get(index)
    if (!blocks || blocks.localPath !== localPath || blocks.sizeBytes !== sizeBytes) {
      const blockBytes = gcidBlockSize(sizeBytes)
      if (blocks) void closeFile(blocks)
      blocks = { localPath, sizeBytes, blockBytes, digests: new Array<Buffer | undefined>(Math.ceil(sizeBytes / blockBytes)).fill(undefined), handle: null }
      this.#files.set(index, blocks)
    }
    return blocks
  }

  async #hashBlock(blocks: FileBlocks, block: number): Promise<void> {
    const start = block * blocks.blockBytes
    const length = blockEnd(blocks, block) - start
    blocks.handle ??= await open(blocks.localPath, 'r')
    this.#buffer ??= Buffer.allocUnsafe(GCID_MAX_BLOCK_BYTES)
    const buffer = this.#buffer
    for (let read = 0; read < length; ) {
      const { bytesRead } = await blocks.handle.read(buffer, read, length - read, start + read)
      if (bytesRead === 0) throw new Error(`${blocks.localPath} ends at ${start + read} bytes, ${blocks.sizeBytes} expected`)
      read += bytesRead
    }
    blocks.digests[block] = createHash('sha1').update(buffer.subarray(0, length)).digest()
  }
}

function blockEnd(blocks: FileBlocks, block: number): number {
  return Math.min((block + 1) * blocks.blockBytes, blocks.sizeBytes)
}

async function closeFile(blocks: FileBlocks): Promise<void> {
  const handle = blocks.handle
  blocks.handle = null
  await handle?.close().catch(() => undefined)
}
