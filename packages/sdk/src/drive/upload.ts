import { type CreateFileReply, type CreateUploadRequest, type DriveFile, DriveErrors, GenericErrors, LocalErrors } from '@cumulus/protocol'
import { IdentityError } from '../errors.js'
import { ProgressMeter, type UploadProgress } from './progress.js'
import { type TusClient, isRetryableTusError, isUploadGone } from './tus.js'
import type { StoredUpload, UploadRecords } from './upload-records.js'

export type UploadState = 'uploading' | 'paused' | 'done' | 'error' | 'cancelled'

export interface UploadInput {
  /** The content. A `File` also gives its `lastModified`. */
  file: Blob | Uint8Array
  name: string
  /** The folder; '' or absent for the root. */
  parentId?: string
  /**
   * Epoch milliseconds; part of the fingerprint that finds the upload again after a reload.
   * Defaults to the File's own. Without one (a plain Blob or bytes) and without `hash`, the
   * upload is not stored: two different contents of one name and size could not be told apart.
   */
  lastModified?: number
  /**
   * Aborting stops the upload the way closing the page would: the promise rejects `cancelled`
   * and the state becomes `cancelled`, but the server keeps what it received and a later
   * `upload()` of the same file continues it. `cancel()` discards it instead.
   */
  signal?: AbortSignal
  onProgress?: (progress: UploadProgress) => void
  onStateChange?: (state: UploadState) => void
  /** The content's GCID when already known: the server completes at once when it has that content (instant upload). */
  hash?: string
}

/** A running upload. */
export interface UploadHandle {
  /**
   * The uploaded file (phase COMPLETE). Rejects with an IdentityError: the server's error, or
   * `cancelled` (1) after `cancel()` or the signal. Marked handled, so an upload nobody awaits
   * does not report an unhandled rejection; watch `state` or `onStateChange` instead.
   */
  readonly promise: Promise<DriveFile>
  /** Stops sending (aborting the chunk in flight) until `resume()`. Only while uploading. */
  pause(): void
  /** Continues a paused upload from the offset the server reports. */
  resume(): void
  /**
   * Stops the upload and discards it on the server (tus DELETE) and in storage. Resolves once
   * discarded; rejects when the DELETE fails (the stored record is then kept, and calling
   * cancel() again retries). Never an unhandled rejection when not awaited. Does nothing once done.
   */
  cancel(): Promise<void>
  readonly state: UploadState
  /** The drive file's id, once the server has created it. */
  readonly fileId: string | undefined
  /** The storage fingerprint, or undefined when this upload is not stored. */
  readonly fingerprint: string | undefined
}

export interface UploadDeps {
  tus: TusClient
  /** POST /drive/v1/files. */
  create(body: CreateUploadRequest): Promise<CreateFileReply>
  /** GET /drive/v1/files/:id. */
  getFile(id: string): Promise<DriveFile>
  /** Where unfinished uploads are kept; null when this upload is not stored. */
  records: UploadRecords | null
  /** An absolute URL for the endpoint the server gave (it may be relative). */
  resolveUrl(endpoint: string): string
  chunkSizeBytes: number
  /** Back-off before each retry of a failed tus request; its length is the number of retries. */
  retryDelaysMs: readonly number[]
  sleep(ms: number): Promise<void>
  now(): number
  /** The signed-in account, for the stored record. */
  userId: string
  /** Called once the upload has stopped, whatever the outcome. */
  onSettled(): void
}

/** Times the file is read again after the last byte while the server still reports it unfinished. */
const FINISH_CHECKS = 3

const cancelled = () => IdentityError.of(GenericErrors.cancelled, 'upload cancelled', { status: 0 })
const noop = () => undefined

/**
 * One upload: create the drive file (or reuse a stored upload), then tus HEAD and PATCH chunk by
 * chunk; after a failed request, back off, ask the server for its offset and go on from there.
 */
export class ResumableUpload implements UploadHandle {
  readonly promise: Promise<DriveFile>
  readonly fingerprint: string | undefined
  readonly #deps: UploadDeps
  readonly #input: UploadInput
  readonly #size: number
  readonly #meter: ProgressMeter
  #state: UploadState = 'uploading'
  #fileId: string | undefined
  #endpoint: string | undefined
  /** Aborts the request or back-off in progress. */
  #step = new AbortController()
  #resumeGate: (() => void) | null = null
  /** Why the upload stopped for good, when it did by request. */
  #stop: 'cancel' | 'signal' | null = null
  #cancelling: Promise<void> | null = null

  constructor(deps: UploadDeps, input: UploadInput, fingerprint: string | undefined) {
    this.#deps = deps
    this.#input = input
    this.fingerprint = fingerprint
    this.#size = byteLength(input.file)
    this.#meter = new ProgressMeter(this.#size, input.onProgress, deps.now)
    const signal = input.signal
    if (signal?.aborted) this.#halt('signal')
    else signal?.addEventListener('abort', () => this.#halt('signal'), { once: true })
    this.promise = this.#run()
    this.promise.catch(noop)
  }

  get state(): UploadState {
    return this.#state
  }

  get fileId(): string | undefined {
    return this.#fileId
  }

  pause(): void {
    if (this.#state !== 'uploading') return
    this.#setState('paused')
    this.#step.abort()
  }

  resume(): void {
    if (this.#state !== 'paused') return
    this.#setState('uploading')
    this.#resumeGate?.()
  }

  cancel(): Promise<void> {
    if (this.#state === 'done') return Promise.resolve()
    if (!this.#cancelling) {
      this.#cancelling = this.#cancel()
      // Marked handled: a caller that fires and forgets cancel() gets no unhandled rejection
      // when offline; one that awaits it still sees the failure.
      this.#cancelling.catch(noop)
    }
    return this.#cancelling
  }

  async #cancel(): Promise<void> {
    this.#halt('cancel')
    // The run stops at its next step; the creation request, if in flight, is let finish so
    // that the file it creates is known and can be discarded too.
    await this.promise.catch(noop)
    if (this.#state === 'done') return
    if (this.#endpoint !== undefined) {
      try {
        await this.#deps.tus.terminate(this.#endpoint)
      } catch (error) {
        this.#cancelling = null
        throw error
      }
    }
    this.#forget()
  }

  #halt(reason: 'cancel' | 'signal'): void {
    // The signal stops a running upload; a failed one has nothing left to stop.
    if (this.#state === 'done' || (reason === 'signal' && this.#state === 'error')) return
    this.#stop ??= reason
    this.#setState('cancelled')
    this.#step.abort()
    this.#resumeGate?.()
  }

  #setState(state: UploadState): void {
    if (this.#state === state) return
    this.#state = state
    this.#input.onStateChange?.(state)
  }

  async #run(): Promise<DriveFile> {
    try {
      const file = await this.#transfer()
      this.#forget()
      this.#setState('done')
      return file
    } catch (error) {
      if (this.#stop !== null) throw cancelled()
      const failure = toIdentityError(error)
      // Gone for good: nothing left to resume.
      if (isUploadGone(failure)) this.#forget()
      this.#setState('error')
      throw failure
    } finally {
      this.#deps.onSettled()
    }
  }

  async #transfer(): Promise<DriveFile> {
    this.#throwIfStopped()
    const stored = this.fingerprint === undefined ? null : this.#deps.records?.find(this.fingerprint)
    if (stored) {
      this.#endpoint = stored.endpoint
      this.#fileId = stored.fileId
      try {
        return await this.#sendBytes()
      } catch (error) {
        // Expired or cleaned up on the server since it was stored: start a new upload.
        if (this.#stop !== null || !(error instanceof IdentityError && isUploadGone(error))) throw error
        this.#forget()
        this.#endpoint = undefined
        this.#fileId = undefined
      }
    }
    const reply = await this.#deps.create({
      kind: 'drive#file',
      name: this.#input.name,
      parent_id: this.#input.parentId ?? '',
      size: String(this.#size),
      ...(this.#input.hash ? { hash: this.#input.hash } : {}),
      upload_type: 'UPLOAD_TYPE_RESUMABLE',
      resumable: { provider: 'PROVIDER_TUS' },
    })
    const file = reply.file
    if (!file) throw IdentityError.of(LocalErrors.local_invalid_response, 'upload reply without a file', { status: 200 })
    this.#fileId = file.id
    if (file.phase === 'PHASE_TYPE_COMPLETE') {
      // Instant upload: the server already had this content.
      this.#meter.report(this.#size)
      return file
    }
    const endpoint = reply.resumable?.params?.endpoint
    if (!endpoint) throw IdentityError.of(LocalErrors.local_invalid_response, 'upload reply without a tus endpoint', { status: 200 })
    this.#endpoint = this.#deps.resolveUrl(endpoint)
    this.#save(reply.resumable?.params?.expiration)
    return this.#sendBytes()
  }

  /** The HEAD/PATCH loop, then the finished file. */
  async #sendBytes(): Promise<DriveFile> {
    const url = this.#endpoint as string
    const size = this.#size
    const { chunkSizeBytes, retryDelaysMs } = this.#deps
    /** The server's offset; null when it must be asked (at the start and after any failure). */
    let offset: number | null = null
    let failures = 0
    let fresh = true
    for (;;) {
      this.#throwIfStopped()
      if (this.#state === 'paused') {
        await this.#resumed()
        offset = null
        fresh = true
        continue
      }
      this.#step = new AbortController()
      const signal = this.#step.signal
      try {
        if (offset === null) {
          const head = await this.#deps.tus.offset(url, signal)
          if (head.length !== null && head.length !== size) {
            // A stored upload of a different length: not this file's.
            throw IdentityError.of(GenericErrors.not_found, `the upload at ${url} is ${head.length} bytes, not ${size}`, { status: 410 })
          }
          offset = head.offset
          if (fresh) this.#meter.restart(offset)
          else this.#meter.report(offset)
          fresh = false
          continue
        }
        if (offset >= size) break
        const start = offset
        const end = Math.min(start + chunkSizeBytes, size)
        const next = await this.#deps.tus.patch(url, start, slice(this.#input.file, start, end), signal, (loaded) =>
          this.#meter.report(start + Math.min(loaded, end - start)),
        )
        if (next !== null && next > start) {
          offset = next
          failures = 0
          this.#meter.report(next)
          continue
        }
        // The server took nothing, or did not say how much: a failure like any other.
        throw IdentityError.of(GenericErrors.aborted, `tus PATCH at ${start} was not applied`, { status: 409 })
      } catch (error) {
        this.#throwIfStopped()
        if (signal.aborted) {
          // pause() aborted the request (resume() may have followed already): ask for the offset
          // again, after waiting for resume() at the loop's top if still paused.
          offset = null
          fresh = true
          continue
        }
        const failure = toIdentityError(error)
        if (!isRetryableTusError(failure) || failures >= retryDelaysMs.length) throw failure
        await this.#backOff(retryDelaysMs[failures] ?? 0)
        failures += 1
        offset = null
      }
    }
    return this.#finished()
  }

  /** The file after its last byte; the server completes it while answering that PATCH. */
  async #finished(): Promise<DriveFile> {
    this.#meter.report(this.#size)
    const id = this.#fileId as string
    for (let check = 1; ; check += 1) {
      const file = await this.#deps.getFile(id)
      if (file.phase === 'PHASE_TYPE_COMPLETE') return file
      if (check >= FINISH_CHECKS) {
        throw IdentityError.of(DriveErrors.file_upload_incomplete, `file ${id} is still ${file.phase} after its last byte`, { status: 0 })
      }
      this.#throwIfStopped()
      await this.#backOff(this.#deps.retryDelaysMs[check - 1] ?? 0)
      this.#throwIfStopped()
    }
  }

  /** Waits `ms`, or less when paused or stopped meanwhile. */
  async #backOff(ms: number): Promise<void> {
    const signal = this.#step.signal
    if (signal.aborted) return
    await new Promise<void>((resolve) => {
      signal.addEventListener('abort', () => resolve(), { once: true })
      this.#deps.sleep(ms).then(() => resolve(), () => resolve())
    })
  }

  #resumed(): Promise<void> {
    return new Promise((resolve) => {
      this.#resumeGate = () => {
        this.#resumeGate = null
        resolve()
      }
    })
  }

  #throwIfStopped(): void {
    if (this.#stop !== null) throw cancelled()
  }

  #save(expiration: string | undefined): void {
    const { records } = this.#deps
    if (!records || this.fingerprint === undefined || this.#endpoint === undefined || this.#fileId === undefined) return
    const expiresAt = expiration ? Date.parse(expiration) : Number.NaN
    const record: StoredUpload = {
      fingerprint: this.fingerprint,
      endpoint: this.#endpoint,
      fileId: this.#fileId,
      name: this.#input.name,
      size: this.#size,
      lastModified: lastModifiedOf(this.#input) ?? 0,
      parentId: this.#input.parentId ?? '',
      userId: this.#deps.userId,
      createdAt: this.#deps.now(),
      expiresAt: Number.isFinite(expiresAt) ? expiresAt : 0,
    }
    records.save(record)
  }

  #forget(): void {
    if (this.fingerprint !== undefined) this.#deps.records?.remove(this.fingerprint)
  }
}

export function byteLength(file: Blob | Uint8Array): number {
  return file instanceof Uint8Array ? file.byteLength : file.size
}

function slice(file: Blob | Uint8Array, start: number, end: number): Blob | Uint8Array {
  return file instanceof Uint8Array ? file.subarray(start, end) : file.slice(start, end)
}

/** The explicit `lastModified`, else the File's own, else undefined. */
export function lastModifiedOf(input: Pick<UploadInput, 'file' | 'lastModified'>): number | undefined {
  if (typeof input.lastModified === 'number' && Number.isFinite(input.lastModified)) return input.lastModified
  const fromFile = (input.file as { lastModified?: unknown }).lastModified
  return typeof fromFile === 'number' && Number.isFinite(fromFile) ? fromFile : undefined
}

function toIdentityError(error: unknown): IdentityError {
  if (error instanceof IdentityError) return error
  return IdentityError.of(LocalErrors.local, error instanceof Error ? error.message : String(error), { cause: error })
}
