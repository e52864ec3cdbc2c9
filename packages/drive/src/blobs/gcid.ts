import { createHash, type Hash } from 'node:crypto'
import { createReadStream } from 'node:fs'

/**
 * The GCID of drive.md: SHA-1 over the concatenation of the raw SHA-1 digests of fixed-size
 * blocks. The block size starts at 256 KiB and doubles while `size / block > 512`, up to 2 MiB,
 * so it depends on the total size, which must be known before hashing starts.
 */

export const GCID_MIN_BLOCK_BYTES = 256 * 1024
export const GCID_MAX_BLOCK_BYTES = 2 * 1024 * 1024
const GCID_MAX_BLOCKS = 512

export function gcidBlockSize(sizeBytes: number): number {
  let block = GCID_MIN_BLOCK_BYTES
  while (sizeBytes / block > GCID_MAX_BLOCKS && block < GCID_MAX_BLOCK_BYTES) block *= 2
  return block
}

/** Computes a GCID from chunks of any size, for content whose total size is known up front. */
export class GcidHasher {
  readonly #blockBytes: number
  readonly #outer: Hash = createHash('sha1')
  #block: Hash = createHash('sha1')
  #inBlock = 0
  #seen = 0

  constructor(readonly sizeBytes: number) {
    this.#blockBytes = gcidBlockSize(sizeBytes)
  }

  update(chunk: Uint8Array): this {
    let offset = 0
    while (offset < chunk.byteLength) {
      const take = Math.min(this.#blockBytes - this.#inBlock, chunk.byteLength - offset)
      this.#block.update(chunk.subarray(offset, offset + take))
      this.#inBlock += take
      offset += take
      if (this.#inBlock === this.#blockBytes) this.#finishBlock()
    }
    this.#seen += chunk.byteLength
    return this
  }

  /** The GCID as 40 upper-case hex digits. Throws when the bytes seen differ from the announced size. */
  digest(): string {
    if (this.#seen !== this.sizeBytes) throw new Error(`GCID: expected ${this.sizeBytes} bytes, got ${this.#seen}`)
    if (this.#inBlock > 0) this.#finishBlock()
    return this.#outer.digest('hex').toUpperCase()
  }

  #finishBlock(): void {
    this.#outer.update(this.#block.digest())
    this.#block = createHash('sha1')
    this.#inBlock = 0
  }
}

/** The GCID from its blocks' SHA-1 digests, in order: for blocks hashed apart (a torrent's, as pieces arrive). */
export function gcidOfBlockDigests(digests: Iterable<Uint8Array>): string {
  const outer = createHash('sha1')
  for (const digest of digests) outer.update(digest)
  return outer.digest('hex').toUpperCase()
}

export function gcidOf(content: Uint8Array): string {
  return new GcidHasher(content.byteLength).update(content).digest()
}

/** Large reads: hashing a multi-gigabyte file in 64 KiB steps costs far more system calls. */
const HASH_READ_BYTES = 4 * 1024 * 1024

/** The GCID of a file on disk that is `sizeBytes` long (a staging file, a torrent's file). */
export async function gcidOfFile(path: string, sizeBytes: number): Promise<string> {
  const hasher = new GcidHasher(sizeBytes)
  for await (const chunk of createReadStream(path, { highWaterMark: HASH_READ_BYTES })) hasher.update(chunk as Buffer)
  return hasher.digest()
}
