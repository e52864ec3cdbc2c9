import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * Counts the bytes of buffers that became garbage while streaming, and has V8 collect its young
 * generation every `everyBytes` of them (decision 023).
 *
 * Why: a download reads its body in 64 KiB buffers, each garbage once written, and V8 frees a
 * buffer only when it collects the small object that holds it. Its own trigger counts JavaScript
 * allocation (little per chunk) and young buffers up to twice its default nursery (32 MB,
 * whatever `--max-semi-space-size` says), so 20-30 MB of dead buffers sat in memory at the peak
 * of a 1 GiB download. A minor collection of our 2 MB nursery takes well under a millisecond;
 * one per 8 MiB is about 30 per second at disk speed.
 */
export interface YoungGarbage {
  /** `bytes` more of buffers are garbage (or about to be): collects when the count reaches the threshold. */
  add(bytes: number): void
}

/** Bytes of garbage between two collections. */
export const YOUNG_GARBAGE_BYTES = 8 * 1024 * 1024

/** A counter over `collect`; with `collect` null it only counts (a runtime that refused to hand one out). */
export function createYoungGarbage(collect: (() => void) | null, everyBytes = YOUNG_GARBAGE_BYTES): YoungGarbage {
  let pending = 0
  return {
    add(bytes) {
      pending += bytes
      if (pending < everyBytes) return
      pending = 0
      collect?.()
    },
  }
}

/**
 * A function that runs one minor (young generation) collection, or null when the runtime will
 * not give one. V8 reads `--expose-gc` when it creates a context, so the flag is set for the one
 * fresh context that hands its `gc` over, and unset again at once: the application's global
 * scope, later `vm` contexts and worker threads never gain a `gc`. (Node starts V8 with
 * `--no-freeze-flags-after-init` so that `v8.setFlagsFromString` works after start-up.)
 */
export function v8MinorCollection(): (() => void) | null {
  try {
    setFlagsFromString('--expose-gc')
    let gc: unknown
    try {
      gc = runInNewContext('typeof gc === "function" ? gc : null')
    } finally {
      setFlagsFromString('--no-expose-gc')
    }
    if (typeof gc !== 'function') return null
    return () => gc({ type: 'minor' })
  } catch {
    return null
  }
}

let processWide: YoungGarbage | null = null

/**
 * The process's one counter, made on first use: the nursery is the process's, so every
 * download counts into the same total and two of them do not collect twice as often.
 */
export function processYoungGarbage(): YoungGarbage {
  processWide ??= createYoungGarbage(v8MinorCollection())
  return processWide
}
