import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * V8's full collection, taken as the drive's lib/young-garbage.ts takes the minor one (the flag
 * unset at once), run until the ArrayBuffers' total stops falling: one collection does not always
 * free every buffer before the count is read (under load, one read in two still counted buffers
 * that were garbage). For tests that check what stays referenced.
 */
export function fullCollection(): () => void {
  setFlagsFromString('--expose-gc')
  let gc: () => void
  try {
    gc = runInNewContext('gc') as () => void
  } finally {
    setFlagsFromString('--no-expose-gc')
  }
  return () => {
    let last = Number.POSITIVE_INFINITY
    for (let round = 0; round < 10; round++) {
      gc()
      const now = process.memoryUsage().arrayBuffers
      if (now >= last) return
      last = now
    }
  }
}
