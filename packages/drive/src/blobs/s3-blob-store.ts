import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3'
import { type BlobInfo, BlobNotFound, BlobRangeNotSatisfiable, BlobSizeMismatch, type BlobStore, isGcid, requireGcid } from './blob-store.js'
import type { S3StorageConfig } from './storage-url.js'
import { STREAM_BUFFER_BYTES, writeHashedFile } from './write-hashed-file.js'

export interface S3BlobStoreOptions extends Omit<S3StorageConfig, 'kind'> {
  /** A local folder for put's staging files (see put). Created when missing. */
  stagingDir: string
}

/** Parts uploaded at once by one put or adopt. */
const PARTS_AT_ONCE = 4
const MiB = 1024 * 1024
/** The smallest part sent (S3 wants 5 MiB at least, the last part excepted); a file up to it goes in one PutObject. */
const MIN_PART_BYTES = 8 * MiB
/** The most parts S3 takes in one upload: huge files get larger parts. */
const MAX_PARTS = 10_000
/** Tries per request whose body is a stream from the file: the SDK cannot rewind one to retry on its own. */
const ATTEMPTS = 3

/**
 * Blobs as objects `<prefix>/AB/CD/<GCID>` in an S3 bucket (AWS or an S3-compatible server).
 * S3 makes an object visible only once its upload (single or multipart) completes, so a blob
 * never appears partially written; what the store must arrange is knowing the key, the GCID,
 * before uploading (see put).
 */
export class S3BlobStore implements BlobStore {
  readonly #client: S3Client
  readonly #bucket: string
  readonly #prefix: string
  readonly #stagingDir: string

  constructor(options: S3BlobStoreOptions) {
    this.#bucket = options.bucket
    this.#prefix = options.prefix
    this.#stagingDir = options.stagingDir
    this.#client = new S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      ...(options.endpoint !== undefined && { endpoint: options.endpoint }),
      // Without explicit credentials the SDK's default chain (environment, shared files, roles) applies.
      // A copy: the SDK annotates the object it is given ($source), and the server's config is
      // frozen, so handing it the config's own object failed every request (TypeError).
      ...(options.credentials && { credentials: { ...options.credentials } }),
      // Since SDK 3.729 checksums are sent (as aws-chunked trailers) and checked on every request
      // that supports them; many S3-compatible servers reject or mangle those. Only where S3
      // requires a checksum: integrity here rests on the GCID the drive computed.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    })
  }

  /**
   * The key is the GCID, known only after the last byte, so the content is first written to a
   * local staging file while it is hashed, then adopted. The alternative, uploading to a
   * temporary key and copying it server-side, would upload content that is already stored
   * (here a HeadObject skips that), leave temporary objects behind after a crash, and hit
   * CopyObject's 5 GiB limit (S3-compatible servers often lack the multipart copy beyond it).
   * The cost is local disk for one blob per put in flight, which uploads need anyway.
   */
  async put(content: Readable | AsyncIterable<Uint8Array>, sizeBytes: number): Promise<BlobInfo> {
    await mkdir(this.#stagingDir, { recursive: true })
    const staging = join(this.#stagingDir, randomUUID())
    try {
      const gcid = await writeHashedFile(content, sizeBytes, staging)
      return await this.adopt(staging, sizeBytes, gcid)
    } finally {
      await rm(staging, { force: true })
    }
  }

  async adopt(path: string, sizeBytes: number, gcid: string): Promise<BlobInfo> {
    requireGcid(gcid)
    const found = await stat(path)
    if (found.size !== sizeBytes) throw new BlobSizeMismatch(sizeBytes, found.size)
    // Content already stored is not sent again. Two adopts of the same content racing here both
    // upload it; the later upload replaces the object with identical bytes.
    if (!(await this.stat(gcid))) await this.#upload(path, sizeBytes, this.#keyOf(gcid))
    await rm(path)
    return { gcid, sizeBytes }
  }

  /**
   * Sends the file at `path` to `key`: one PutObject up to MIN_PART_BYTES, else a multipart
   * upload of parts PARTS_AT_ONCE at a time. Every body is a stream of its range of the file,
   * never a buffer: lib-storage's Upload held up to five whole parts in memory, and its parts
   * grow with the file (size / 10,000), about 550 MB for a 1 TiB file. A failed multipart upload
   * is aborted, so its parts are not billed forever.
   */
  async #upload(path: string, sizeBytes: number, key: string): Promise<void> {
    const target = { Bucket: this.#bucket, Key: key }
    const partBytes = Math.max(MIN_PART_BYTES, Math.ceil(sizeBytes / MAX_PARTS / MiB) * MiB)
    if (sizeBytes <= partBytes) {
      await this.#sendRange(path, 0, sizeBytes, (Body) => new PutObjectCommand({ ...target, Body, ContentLength: sizeBytes, ContentType: 'application/octet-stream' }))
      return
    }
    const { UploadId } = await this.#client.send(new CreateMultipartUploadCommand({ ...target, ContentType: 'application/octet-stream' }))
    try {
      const count = Math.ceil(sizeBytes / partBytes)
      const parts: { ETag: string | undefined; PartNumber: number }[] = new Array(count)
      let next = 0
      // A part that failed stops the others from starting more; the upload is aborted only once
      // none is in flight (a part finishing after the abort could be left stored).
      let failed = false
      const sendParts = async () => {
        while (next < count && !failed) {
          const index = next++
          const start = index * partBytes
          const length = Math.min(partBytes, sizeBytes - start)
          try {
            const sent = await this.#sendRange(path, start, length, (Body) => new UploadPartCommand({ ...target, UploadId, PartNumber: index + 1, Body, ContentLength: length }))
            parts[index] = { ETag: sent.ETag, PartNumber: index + 1 }
          } catch (err) {
            failed = true
            throw err
          }
        }
      }
      const settled = await Promise.allSettled(Array.from({ length: Math.min(PARTS_AT_ONCE, count) }, sendParts))
      const failure = settled.find((outcome) => outcome.status === 'rejected')
      if (failure) throw failure.reason
      await this.#client.send(new CompleteMultipartUploadCommand({ ...target, UploadId, MultipartUpload: { Parts: parts } }))
    } catch (err) {
      await this.#client.send(new AbortMultipartUploadCommand({ ...target, UploadId })).catch(() => undefined)
      throw err
    }
  }

  /**
   * Sends `length` bytes of the file from `start` as the body of `command`, again (up to ATTEMPTS,
   * after a pause that grows, with jitter) on a network error, a 5xx or S3's RequestTimeout.
   */
  async #sendRange(path: string, start: number, length: number, command: (body: Readable | Uint8Array) => PutObjectCommand | UploadPartCommand): Promise<{ ETag?: string | undefined }> {
    for (let attempt = 1; ; attempt++) {
      // An empty file has no range to read.
      const body = length === 0 ? null : createReadStream(path, { start, end: start + length - 1, highWaterMark: STREAM_BUFFER_BYTES })
      try {
        return (await this.#client.send(command(body ?? new Uint8Array(0)) as never)) as { ETag?: string | undefined }
      } catch (err) {
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode
        const transient = status === undefined || status >= 500 || (err as { name?: string }).name === 'RequestTimeout'
        if (attempt >= ATTEMPTS || !transient) throw err
      } finally {
        // A request that failed stops reading midway; the file must not stay open.
        body?.destroy()
      }
      await sleep(250 * 2 ** attempt * (0.5 + Math.random()))
    }
  }

  async get(gcid: string, range?: { start: number; end: number }): Promise<Readable> {
    if (!isGcid(gcid)) throw new BlobNotFound(gcid)
    if (range && (range.start < 0 || range.end < range.start)) throw new BlobRangeNotSatisfiable(gcid, await this.#requireSize(gcid))
    try {
      const reply = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: this.#keyOf(gcid), ...(range && { Range: `bytes=${range.start}-${range.end}` }) }))
      // In Node the SDK's body is the HTTP response stream (an IncomingMessage), a Readable.
      return reply.Body as Readable
    } catch (err) {
      if (isS3Status(err, 404)) throw new BlobNotFound(gcid)
      if (isS3Status(err, 416)) throw new BlobRangeNotSatisfiable(gcid, await this.#requireSize(gcid))
      throw err
    }
  }

  async stat(gcid: string): Promise<BlobInfo | null> {
    if (!isGcid(gcid)) return null
    try {
      const head = await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: this.#keyOf(gcid) }))
      return { gcid, sizeBytes: head.ContentLength ?? 0 }
    } catch (err) {
      // S3 answers 403 rather than 404 for a missing key when the credentials may not list the
      // bucket; that is a configuration error and stays an error rather than passing for "missing".
      if (isS3Status(err, 404)) return null
      throw err
    }
  }

  /** DeleteObject succeeds for a missing key too, so the contract's BlobNotFound needs a HeadObject first. */
  async delete(gcid: string): Promise<void> {
    if (!(await this.stat(gcid))) throw new BlobNotFound(gcid)
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#keyOf(gcid) }))
  }

  /** Closes the client's pooled connections. The store is unusable afterwards. */
  destroy(): void {
    this.#client.destroy()
  }

  async #requireSize(gcid: string): Promise<number> {
    const info = await this.stat(gcid)
    if (!info) throw new BlobNotFound(gcid)
    return info.sizeBytes
  }

  #keyOf(gcid: string): string {
    const key = `${gcid.slice(0, 2)}/${gcid.slice(2, 4)}/${gcid}`
    return this.#prefix ? `${this.#prefix}/${key}` : key
  }
}

/** NoSuchKey, NotFound (HeadObject has no body to name the error) and InvalidRange, by HTTP status. */
function isS3Status(err: unknown, status: number): boolean {
  return (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode === status
}
