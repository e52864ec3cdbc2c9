import { describe, expect, it } from 'vitest'
import { ProgressMeter, RATE_WINDOW_MS, type UploadProgress } from './progress.js'

function meter(total: number) {
  let now = 1_000_000
  const reports: UploadProgress[] = []
  const m = new ProgressMeter(total, (p) => reports.push(p), () => now)
  return { m, reports, advance: (ms: number) => (now += ms) }
}

describe('ProgressMeter', () => {
  it('reports each new position once, never a lower one, clamped to the total', () => {
    const { m, reports } = meter(100)
    m.restart(0)
    m.report(40)
    m.report(40)
    m.report(30)
    m.report(150)
    expect(reports.map((r) => r.sentBytes)).toEqual([0, 40, 100])
    expect(reports.every((r) => r.totalBytes === 100)).toBe(true)
  })

  it('reports an empty file once, at 0 of 0', () => {
    const { m, reports } = meter(0)
    m.restart(0)
    m.report(0)
    expect(reports).toEqual([{ sentBytes: 0, totalBytes: 0, bytesPerSecond: 0 }])
  })

  it('measures throughput over the recent window only', () => {
    const { m, reports, advance } = meter(10_000_000)
    m.restart(0)
    advance(1000)
    m.report(1000)
    expect(reports.at(-1)?.bytesPerSecond).toBe(1000)
    // Ten seconds at 100 B/s: the fast first second has left the window.
    for (let i = 1; i <= 10; i += 1) {
      advance(1000)
      m.report(1000 + 100 * i)
    }
    expect(RATE_WINDOW_MS).toBe(5000)
    expect(reports.at(-1)?.bytesPerSecond).toBe(100)
  })

  it('restarts the window on resume, so time spent paused does not count', () => {
    const { m, reports, advance } = meter(10_000)
    m.restart(0)
    advance(1000)
    m.report(500)
    advance(60_000)
    m.restart(500)
    advance(1000)
    m.report(1000)
    expect(reports.at(-1)).toEqual({ sentBytes: 1000, totalBytes: 10_000, bytesPerSecond: 500 })
  })
})
