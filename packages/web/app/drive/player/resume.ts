/** A saved position this early is not worth resuming at: the viewer barely started. */
export const RESUME_MIN_SECONDS = 5
/** A saved position in the last 5% of the video, or its last 10 s, counts as finished. */
export const RESUME_END_FRACTION = 0.05
export const RESUME_END_SECONDS = 10

/**
 * Where to start a video the viewer watched before, or null to start at the beginning: only a
 * position past the first seconds and before the credits (the last 5% or 10 s, whichever is
 * longer). An unknown duration (0, NaN, Infinity: a live stream) never resumes.
 */
export function resumeAtSeconds(savedSeconds: number, durationSeconds: number): number | null {
  if (!Number.isFinite(savedSeconds) || !Number.isFinite(durationSeconds) || durationSeconds <= 0) return null
  if (savedSeconds <= RESUME_MIN_SECONDS) return null
  const tail = Math.max(durationSeconds * RESUME_END_FRACTION, RESUME_END_SECONDS)
  if (savedSeconds >= durationSeconds - tail) return null
  return savedSeconds
}

/** `75` -> `1:15`, `3754` -> `1:02:34`; whole seconds, rounded down. */
export function formatPlayerTime(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0
  const hours = Math.floor(total / 3600)
  const minutes = Math.floor((total % 3600) / 60)
  const rest = String(total % 60).padStart(2, '0')
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`
}

/** While playing, the position is saved this often. */
export const SAVE_INTERVAL_MS = 10_000
/** A position within this much of the last one saved is not sent again. */
const SAVE_MIN_CHANGE_SECONDS = 0.5

export interface PlaybackSaverDeps {
  save(positionSeconds: number, durationSeconds: number | undefined, options: { keepalive: boolean }): Promise<unknown>
  now(): number
  intervalMs?: number
}

/**
 * Decides when to save where the viewer is: at most every `SAVE_INTERVAL_MS` while playing
 * (`progress`), and at once on a pause, a finished seek or the player closing (`flush`). A
 * position already saved is not sent again. Saves go one after another, and one that a newer
 * position overtook while it waited is dropped, so an older position never lands after a newer
 * one; a keepalive save (the page is going away) goes at once. A failed save is forgotten: the
 * next one carries a newer position anyway.
 */
export class PlaybackSaver {
  readonly #deps: PlaybackSaverDeps
  readonly #intervalMs: number
  #lastSavedSeconds: number | null = null
  #lastSaveAtMs: number
  #queue: Promise<unknown> = Promise.resolve()
  /** Counts saves asked for; a queued save whose number is no longer the last is stale. */
  #generation = 0

  constructor(deps: PlaybackSaverDeps) {
    this.#deps = deps
    this.#intervalMs = deps.intervalMs ?? SAVE_INTERVAL_MS
    this.#lastSaveAtMs = deps.now()
  }

  /** The position while playing (each `timeupdate`); saves when the interval has passed. Returns whether it saved. */
  progress(positionSeconds: number, durationSeconds?: number): boolean {
    if (this.#deps.now() - this.#lastSaveAtMs < this.#intervalMs) return false
    return this.flush(positionSeconds, durationSeconds)
  }

  /** Saves now, unless this position is the one last saved. Returns whether it saved. */
  flush(positionSeconds: number, durationSeconds?: number, { keepalive = false }: { keepalive?: boolean } = {}): boolean {
    if (!Number.isFinite(positionSeconds) || positionSeconds < 0) return false
    const position = Math.round(positionSeconds * 1000) / 1000
    if (this.#lastSavedSeconds !== null && Math.abs(position - this.#lastSavedSeconds) < SAVE_MIN_CHANGE_SECONDS) return false
    const duration = durationSeconds !== undefined && Number.isFinite(durationSeconds) && durationSeconds > 0 ? durationSeconds : undefined
    this.#lastSavedSeconds = position
    this.#lastSaveAtMs = this.#deps.now()
    const generation = ++this.#generation
    const send = () =>
      this.#deps.save(position, duration, { keepalive }).catch(() => {
        if (this.#lastSavedSeconds === position) this.#lastSavedSeconds = null
      })
    if (keepalive) void send()
    else this.#queue = this.#queue.then(() => (generation === this.#generation ? send() : undefined))
    return true
  }

  /** The video played to its end: start over next time. */
  finished(durationSeconds?: number): boolean {
    return this.flush(0, durationSeconds)
  }

  /** Resolves when every queued save has settled (tests, and a clean close). */
  settled(): Promise<unknown> {
    return this.#queue
  }
}
