import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nextPollMs } from './run-torrent.js'

describe('nextPollMs', () => {
  it('waits half a second, less only when the rest should arrive sooner, and never under 100 ms', () => {
    expect(nextPollMs({ downloadedBytes: 0, totalBytes: 100, bytesPerSecond: 0 })).toBe(500)
    expect(nextPollMs({ downloadedBytes: 0, totalBytes: 10_000, bytesPerSecond: 1_000 })).toBe(500)
    expect(nextPollMs({ downloadedBytes: 800, totalBytes: 1_000, bytesPerSecond: 1_000 })).toBe(200)
    expect(nextPollMs({ downloadedBytes: 999, totalBytes: 1_000, bytesPerSecond: 1_000 })).toBe(100)
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.double({ min: 0, max: 1e12, noNaN: true }), (downloadedBytes, totalBytes, bytesPerSecond) => {
        const ms = nextPollMs({ downloadedBytes, totalBytes, bytesPerSecond })
        expect(ms).toBeGreaterThanOrEqual(100)
        expect(ms).toBeLessThanOrEqual(500)
      }),
    )
  })
})
