/** What `onProgress` receives. */
export interface UploadProgress {
  /** Bytes the server has (or, within a chunk sent by XMLHttpRequest, bytes sent so far). Never decreases. */
  sentBytes: number
  totalBytes: number
  /** Recent throughput, over the last few seconds of this session (0 until there are two samples). */
  bytesPerSecond: number
}

/** The throughput is measured over this window, so it follows changes in bandwidth within seconds. */
export const RATE_WINDOW_MS = 5000

/**
 * Turns raw positions into progress reports: monotonic (after a failed chunk the server may
 * hold fewer bytes than were reported; the report then waits until the upload gets past
 * them again), each value reported once, with a moving-window throughput.
 */
export class ProgressMeter {
  readonly #total: number
  readonly #onProgress: ((progress: UploadProgress) => void) | undefined
  readonly #now: () => number
  #reported = -1
  #samples: { at: number; bytes: number }[] = []

  constructor(totalBytes: number, onProgress: ((progress: UploadProgress) => void) | undefined, now: () => number = Date.now) {
    this.#total = totalBytes
    this.#onProgress = onProgress
    this.#now = now
  }

  /** Starts a new throughput window at `sentBytes` (after a resume, time paused is not transfer time). */
  restart(sentBytes: number): void {
    this.#samples = [{ at: this.#now(), bytes: sentBytes }]
    this.report(sentBytes)
  }

  /** Reports `sentBytes` (clamped to the total) when it is past the last report. */
  report(sentBytes: number): void {
    const bytes = Math.min(Math.max(0, sentBytes), this.#total)
    const at = this.#now()
    if (this.#samples.length === 0) this.#samples.push({ at, bytes })
    else if (bytes > (this.#samples.at(-1)?.bytes ?? 0)) {
      this.#samples.push({ at, bytes })
      // Keep one sample at or before the window's start, so the window spans it all.
      while (this.#samples.length > 2 && (this.#samples[1]?.at ?? at) <= at - RATE_WINDOW_MS) this.#samples.shift()
    }
    if (bytes <= this.#reported) return
    this.#reported = bytes
    this.#onProgress?.({ sentBytes: bytes, totalBytes: this.#total, bytesPerSecond: this.#rate(at) })
  }

  #rate(at: number): number {
    const first = this.#samples[0]
    const last = this.#samples.at(-1)
    if (!first || !last || last === first) return 0
    const elapsedMs = at - first.at
    return elapsedMs > 0 ? Math.round(((last.bytes - first.bytes) * 1000) / elapsedMs) : 0
  }
}
