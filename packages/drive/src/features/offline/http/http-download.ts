import { createReadStream } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import { pipeline } from 'node:stream/promises'
import type { Clock } from '@cumulus/identity'
import { GcidHasher } from '../../../blobs/gcid.js'
import { type YoungGarbage, processYoungGarbage } from '../../../lib/young-garbage.js'
import { STREAM_BUFFER_BYTES } from '../../../blobs/write-hashed-file.js'
import { OfflineDownloadFailed } from './errors.js'
import { downloadFileName } from './file-name.js'
import { mediaTypeOf } from './media-type.js'
import { describeNetworkError, openSafeResponse, type SafeRequestDeps, type SafeResponse } from './safe-request.js'

/** No byte of the body for this long ends the download (retryable: it resumes later). */
export const IDLE_TIMEOUT_MS = 60_000
/** onProgress is called at most this often. */
export const PROGRESS_INTERVAL_MS = 500

export interface HttpDownloadDeps extends SafeRequestDeps {
  clock: Clock
  /** IDLE_TIMEOUT_MS unless set. */
  idleTimeoutMs?: number
  /** PROGRESS_INTERVAL_MS unless set. */
  progressIntervalMs?: number
  /** Told of every body chunk, which is garbage once written; the process's counter unless set. */
  youngGarbage?: YoungGarbage
}

/**
 * What a later attempt needs to continue where this one stopped. Plain JSON: the caller keeps
 * it in the task's params and hands it back with the same staging file.
 */
export interface HttpResumeState {
  /** The URL that served the bytes, for the record: a resumption asks the task's URL again (a CDN's signed URL may have expired) and If-Range catches a change. */
  finalUrl: string
  /** The whole content's size. */
  totalBytes: number
  /** A strong ETag, sent back in If-Range; null when the server gave none. */
  etag: string | null
  /** Last-Modified, sent in If-Range when there is no strong ETag. */
  lastModified: string | null
}

export interface DownloadProgress {
  /** Bytes in the staging file, a resumed prefix included. */
  receivedBytes: number
  /** The whole size, or null while the server has not said (chunked). */
  totalBytes: number | null
  /** Network bytes per second since the previous report; on the final report, over the whole transfer. */
  bytesPerSecond: number
}

export interface HttpDownloadInput {
  /** The http(s) link (a thunder:// link unwrapped first). May carry user:pass@ for its own origin. */
  url: string
  /** Where the content is written. Created or overwritten; kept when this rejects (the caller deletes it on cancel, keeps it to resume). */
  stagingPath: string
  /**
   * The quota left for the whole content (a resumed prefix included): larger content is refused
   * (too_large) before a byte is stored when the server announces its size, and cut there otherwise.
   */
  expectedMaxBytes: number
  /** From a previous attempt's onResumeState, or null. Ignored when the staging file does not fit it. */
  resume: HttpResumeState | null
  /**
   * Called once the response is accepted and before a byte is written: the state to keep for
   * resuming, or null when this download cannot be resumed (no size, no validator, no ranges).
   * Awaited, so a state persisted here always matches the bytes that follow.
   */
  onResumeState?: (state: HttpResumeState | null) => void | Promise<void>
  /** At most every progressIntervalMs while bytes arrive, and once at the end. Must not throw. */
  onProgress?: (progress: DownloadProgress) => void
}

export interface HttpDownloadResult {
  /** The GCID of the staging file's content (drive.md), 40 upper-case hex digits. */
  gcid: string
  sizeBytes: number
  /** Sanitised: Content-Disposition's name, else the URL's, else the host's. */
  fileName: string
  /** The media type Content-Type names, or null when none or malformed (the caller guesses from the name). */
  mimeType: string | null
  /** The URL that answered, after redirects, without userinfo or fragment. */
  finalUrl: string
}

const HEADER_TOKEN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/
const STRONG_ETAG = /^"[\x21\x23-\x7e]*"$/
const MAX_VALIDATOR_LENGTH = 512

/** Reads a resume state back from storage; null for anything that is not one (an older shape, a hand edit). */
export function readResumeState(value: unknown): HttpResumeState | null {
  if (typeof value !== 'object' || value === null) return null
  const { finalUrl, totalBytes, etag, lastModified } = value as Record<string, unknown>
  const validator = (v: unknown) => v === null || (typeof v === 'string' && v.length <= MAX_VALIDATOR_LENGTH && HEADER_TOKEN.test(v))
  if (typeof finalUrl !== 'string' || typeof totalBytes !== 'number' || !Number.isSafeInteger(totalBytes) || totalBytes < 0) return null
  if (!validator(etag) || !validator(lastModified) || (etag === null && lastModified === null)) return null
  return { finalUrl, totalBytes, etag: etag as string | null, lastModified: lastModified as string | null }
}

/** The size Content-Length announces, or null (chunked, or a value that is not a plain number). */
function declaredLength(response: IncomingMessage): number | null {
  const header = response.headers['content-length']
  if (header === undefined || !/^\d{1,16}$/.test(header)) return null
  const length = Number(header)
  return Number.isSafeInteger(length) ? length : null
}

/** Whether a 206 carries exactly the rest of the content we have the start of. */
function continuesAt(response: IncomingMessage, offsetBytes: number, totalBytes: number): boolean {
  if (response.statusCode !== 206) return false
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers['content-range'] ?? '')
  return range !== null && Number(range[1]) === offsetBytes && Number(range[2]) === totalBytes - 1 && Number(range[3]) === totalBytes
}

function validatorHeader(value: string | undefined, pattern: RegExp): string | null {
  return value !== undefined && value.length <= MAX_VALIDATOR_LENGTH && pattern.test(value) ? value : null
}

/**
 * The state to resume this response later, or null. Resuming needs the size, byte ranges, and a
 * validator for If-Range: without one a changed file would be stitched onto the old bytes. A
 * weak ETag may not be used in If-Range (RFC 9110 13.1.5), so only Last-Modified is left then.
 */
function resumeStateOf(response: IncomingMessage, finalUrl: URL, totalBytes: number | null, continued: HttpResumeState | null): HttpResumeState | null {
  if (totalBytes === null) return null
  const acceptsRanges = continued !== null || /(?:^|,)\s*bytes\s*(?:,|$)/i.test(response.headers['accept-ranges'] ?? '')
  if (!acceptsRanges) return null
  const etag = validatorHeader(response.headers.etag, STRONG_ETAG) ?? continued?.etag ?? null
  const lastModifiedHeader = validatorHeader(response.headers['last-modified'], HEADER_TOKEN)
  const lastModified = lastModifiedHeader !== null && !Number.isNaN(Date.parse(lastModifiedHeader)) ? lastModifiedHeader : (continued?.lastModified ?? null)
  if (etag === null && lastModified === null) return null
  return { finalUrl: finalUrl.href, totalBytes, etag, lastModified }
}

async function fileSizeOrZero(path: string): Promise<number> {
  try {
    return (await stat(path)).size
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
    throw error
  }
}

/** Feeds the first `sizeBytes` of the file at `path` to `hasher`. */
async function hashFileStart(path: string, sizeBytes: number, hasher: GcidHasher, signal: AbortSignal): Promise<void> {
  if (sizeBytes === 0) return
  await pipeline(
    createReadStream(path, { start: 0, end: sizeBytes - 1, highWaterMark: STREAM_BUFFER_BYTES }),
    async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) hasher.update(chunk)
    },
    { signal },
  )
}

/**
 * Calls onProgress at most every intervalMs, with the rate over the bytes since the last call.
 * The final call carries the whole transfer's average instead: the last bytes may well have
 * been counted by an interval call already, and "finished at 0 B/s" says nothing useful.
 */
class ProgressMeter {
  #lastAtMs: number
  #lastBytes: number
  readonly #startAtMs: number
  readonly #startBytes: number

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly totalBytes: number | null,
    startBytes: number,
    private readonly onProgress: ((progress: DownloadProgress) => void) | undefined,
  ) {
    this.#lastAtMs = this.#startAtMs = clock.nowMs()
    this.#lastBytes = this.#startBytes = startBytes
  }

  update(receivedBytes: number, final = false): void {
    if (this.onProgress === undefined) return
    const nowMs = this.clock.nowMs()
    const elapsedMs = nowMs - this.#lastAtMs
    if (!final && elapsedMs < this.intervalMs) return
    const [sinceMs, sinceBytes] = final ? [this.#startAtMs, this.#startBytes] : [this.#lastAtMs, this.#lastBytes]
    const bytesPerSecond = nowMs > sinceMs ? Math.round(((receivedBytes - sinceBytes) * 1000) / (nowMs - sinceMs)) : 0
    this.#lastAtMs = nowMs
    this.#lastBytes = receivedBytes
    this.onProgress({ receivedBytes, totalBytes: this.totalBytes, bytesPerSecond })
  }
}

interface BodyJob {
  response: IncomingMessage
  stagingPath: string
  /** Where in the file the body's first byte goes: 0, or the resumed prefix's size. */
  offsetBytes: number
  totalBytes: number | null
  maxBytes: number
  /** Null when the size is unknown: the GCID's block size depends on it. */
  hasher: GcidHasher | null
  onProgress: HttpDownloadInput['onProgress']
}

/** Streams the body into the staging file; returns the file's size. Leaves what it wrote when it rejects. */
async function writeBody(deps: HttpDownloadDeps, job: BodyJob, signal: AbortSignal): Promise<number> {
  const { response, hasher, maxBytes } = job
  const idleMs = deps.idleTimeoutMs ?? IDLE_TIMEOUT_MS
  const meter = new ProgressMeter(deps.clock, deps.progressIntervalMs ?? PROGRESS_INTERVAL_MS, job.totalBytes, job.offsetBytes, job.onProgress)
  const garbage = deps.youngGarbage ?? processYoungGarbage()
  let receivedBytes = job.offsetBytes
  // 'r+' keeps the resumed prefix; 'w' starts over. Opened up front, as in writeHashedFile, so a
  // failure cannot race a lazy open against the caller's cleanup.
  const file = await open(job.stagingPath, job.offsetBytes > 0 ? 'r+' : 'w')
  const out = file.createWriteStream({ start: job.offsetBytes, highWaterMark: STREAM_BUFFER_BYTES })
  let diskError: unknown = null
  out.once('error', (error) => (diskError = error))
  const idle = setTimeout(() => response.destroy(new OfflineDownloadFailed('idle_timeout', `no data for ${idleMs} ms`)), idleMs)
  try {
    await pipeline(
      response,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          idle.refresh()
          receivedBytes += chunk.byteLength
          // Only reachable when the size was not announced: Node's parser stops at Content-Length.
          if (receivedBytes > maxBytes) {
            throw new OfflineDownloadFailed('too_large', `the content is larger than the ${maxBytes} bytes left`, { sizeBytes: receivedBytes, limitBytes: maxBytes })
          }
          hasher?.update(chunk)
          garbage.add(chunk.byteLength)
          meter.update(receivedBytes)
          yield chunk
        }
      },
      out,
      { signal },
    )
  } catch (error) {
    // A full or failing disk is the caller's problem to report as it is, not a network failure.
    if (error === diskError && !signal.aborted) throw error
    throw describeNetworkError(error, signal)
  } finally {
    clearTimeout(idle)
    await file.close()
  }
  meter.update(receivedBytes, true)
  return receivedBytes
}

/**
 * Opens the response to write: resumes with `Range: bytes=N-` and If-Range when the staging file
 * holds a prefix that `resume` describes, else a plain GET. Returns the offset the body goes
 * to and, when resuming, the hasher already fed with the prefix.
 */
async function openBody(
  deps: HttpDownloadDeps,
  input: HttpDownloadInput,
  signal: AbortSignal,
): Promise<{ opened: SafeResponse; offsetBytes: number; hasher: GcidHasher | null; continued: HttpResumeState | null }> {
  const stagedBytes = await fileSizeOrZero(input.stagingPath)
  const resume = input.resume === null ? null : readResumeState(input.resume)
  // A staging file as long as the content (a crash right at the end) or longer than it is not
  // resumed: Range would ask for nothing, and starting over is the one safe answer.
  if (resume === null || stagedBytes === 0 || stagedBytes >= resume.totalBytes) {
    return { opened: await openSafeResponse(deps, { url: input.url }, signal), offsetBytes: 0, hasher: null, continued: null }
  }
  // SHA-1 state cannot be saved, so the prefix is hashed again from disk; before the request, so
  // the server does not wait on an idle connection while a large prefix is read.
  const prefixHasher = new GcidHasher(resume.totalBytes)
  await hashFileStart(input.stagingPath, stagedBytes, prefixHasher, signal)
  const ifRange = resume.etag ?? (resume.lastModified as string)
  const opened = await openSafeResponse(deps, { url: input.url, headers: { range: `bytes=${stagedBytes}-`, 'if-range': ifRange } }, signal)
  if (continuesAt(opened.response, stagedBytes, resume.totalBytes)) return { opened, offsetBytes: stagedBytes, hasher: prefixHasher, continued: resume }
  const status = opened.response.statusCode
  if (status === 416 || status === 206) {
    // 416: the content shrank or changed under the same URL; a 206 for another range: the server
    // is confused. Either way the prefix is worthless, so ask for the whole content.
    opened.response.destroy()
    return { opened: await openSafeResponse(deps, { url: input.url }, signal), offsetBytes: 0, hasher: null, continued: null }
  }
  // A 200 is the whole content (the validator no longer matches, or ranges are ignored): start
  // over with it. Any other status is judged as a fresh response.
  return { opened, offsetBytes: 0, hasher: null, continued: null }
}

/**
 * Downloads an http(s) link into the staging file through the address policy (openSafeResponse)
 * and returns the content's GCID, size, name and media type.
 *
 * The GCID's block size depends on the total size (gcid.ts). When the server announces it
 * (Content-Length, or Content-Range on a resumption) the bytes are hashed as they are written;
 * when it does not (chunked) the file is hashed in a second pass once its size is known.
 *
 * Rejects with:
 * - OfflineUrlRefused (bad_url, bad_scheme, bad_port, private_address, too_many_redirects);
 * - OfflineDownloadFailed: http_status (non-2xx after redirects, `status`), too_large
 *   (`sizeBytes`, `limitBytes`), dns_failed, headers_timeout, idle_timeout, connection_lost,
 *   tls_failed, bad_response; `retryable` says whether resuming later can help;
 * - `signal.reason` when `signal` aborts, promptly, leaving the partial file;
 * - a file system error (ENOSPC, EACCES, …) from the staging file, as it is.
 */
export async function downloadHttp(deps: HttpDownloadDeps, input: HttpDownloadInput, signal: AbortSignal): Promise<HttpDownloadResult> {
  const { opened, offsetBytes, hasher: prefixHasher, continued } = await openBody(deps, input, signal).catch((error: unknown) => {
    throw signal.aborted ? signal.reason : error
  })
  const { response, finalUrl } = opened
  try {
    const status = response.statusCode ?? 0
    if (offsetBytes === 0 && status === 206) throw new OfflineDownloadFailed('bad_response', 'the server sent part of the content unasked', { status })
    if (status < 200 || status > 299) throw new OfflineDownloadFailed('http_status', `the server answered ${status}`, { status })
    const totalBytes = continued !== null ? continued.totalBytes : declaredLength(response)
    if (totalBytes !== null && totalBytes > input.expectedMaxBytes) {
      throw new OfflineDownloadFailed('too_large', `the content (${totalBytes} bytes) is larger than the ${input.expectedMaxBytes} bytes left`, {
        sizeBytes: totalBytes,
        limitBytes: input.expectedMaxBytes,
      })
    }
    await input.onResumeState?.(resumeStateOf(response, finalUrl, totalBytes, continued))
    const hasher = prefixHasher ?? (totalBytes === null ? null : new GcidHasher(totalBytes))
    const sizeBytes = await writeBody(deps, { response, stagingPath: input.stagingPath, offsetBytes, totalBytes, maxBytes: input.expectedMaxBytes, hasher, onProgress: input.onProgress }, signal)
    if (totalBytes !== null && sizeBytes !== totalBytes) {
      throw new OfflineDownloadFailed('connection_lost', `the body ended after ${sizeBytes} of ${totalBytes} bytes`, { sizeBytes })
    }
    let gcid: string
    if (hasher !== null) {
      gcid = hasher.digest()
    } else {
      const secondPass = new GcidHasher(sizeBytes)
      await hashFileStart(input.stagingPath, sizeBytes, secondPass, signal)
      gcid = secondPass.digest()
    }
    return {
      gcid,
      sizeBytes,
      fileName: downloadFileName({ contentDisposition: response.headers['content-disposition'], url: finalUrl }),
      mimeType: mediaTypeOf(response.headers['content-type']),
      finalUrl: finalUrl.href,
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason
    throw error
  } finally {
    // Frees the connection when the body was refused unread; a no-op after a full read.
    response.destroy()
  }
}
