// @vitest-environment node
import { describe, expect, it, vi } from 'vitest'
import { formatPlayerTime, PlaybackSaver, resumeAtSeconds, SAVE_INTERVAL_MS } from './resume'

describe('resumeAtSeconds', () => {
  it('resumes past the first 5 s and before the last 5% or 10 s, whichever is longer', () => {
    // An hour: the last 5% (180 s) is longer than 10 s.
    expect(resumeAtSeconds(754, 3600)).toBe(754)
    expect(resumeAtSeconds(5, 3600)).toBeNull()
    expect(resumeAtSeconds(5.5, 3600)).toBe(5.5)
    expect(resumeAtSeconds(3419, 3600)).toBe(3419)
    expect(resumeAtSeconds(3420, 3600)).toBeNull()
    // A minute: the last 10 s (longer than its 5%, 3 s) count as finished.
    expect(resumeAtSeconds(49, 60)).toBe(49)
    expect(resumeAtSeconds(50, 60)).toBeNull()
  })

  it('never resumes without a usable duration or position, or past the end', () => {
    for (const duration of [0, Number.NaN, Number.POSITIVE_INFINITY, -1]) expect(resumeAtSeconds(30, duration)).toBeNull()
    expect(resumeAtSeconds(Number.NaN, 600)).toBeNull()
    expect(resumeAtSeconds(0, 600)).toBeNull()
    expect(resumeAtSeconds(900, 600)).toBeNull()
  })
})

describe('formatPlayerTime', () => {
  it('shows minutes and seconds, and hours only when there are some', () => {
    expect([0, 9.9, 75, 754, 3599, 3754, 36_000].map(formatPlayerTime)).toEqual(['0:00', '0:09', '1:15', '12:34', '59:59', '1:02:34', '10:00:00'])
    expect(formatPlayerTime(Number.NaN)).toBe('0:00')
  })
})

function aSaver() {
  let now = 1_000_000
  const saves: [number, number | undefined, { keepalive: boolean }][] = []
  const save = vi.fn(async (position: number, duration: number | undefined, options: { keepalive: boolean }) => {
    saves.push([position, duration, options])
  })
  const saver = new PlaybackSaver({ save, now: () => now })
  return { saver, saves, save, advance: (ms: number) => (now += ms) }
}

describe('PlaybackSaver', () => {
  it('saves at most every 10 s while playing', async () => {
    const { saver, saves, advance } = aSaver()
    advance(SAVE_INTERVAL_MS - 1)
    expect(saver.progress(9.9, 600)).toBe(false)
    advance(1)
    expect(saver.progress(10, 600)).toBe(true)
    await saver.settled()
    advance(SAVE_INTERVAL_MS - 1)
    expect(saver.progress(19.9, 600)).toBe(false)
    advance(1)
    expect(saver.progress(20, 600)).toBe(true)
    await saver.settled()
    expect(saves).toEqual([
      [10, 600, { keepalive: false }],
      [20, 600, { keepalive: false }],
    ])
  })

  it('saves at once on a pause or seek, but not the same position twice', async () => {
    const { saver, saves, advance } = aSaver()
    expect(saver.flush(42.123456, 600)).toBe(true)
    await saver.settled()
    expect(saver.flush(42.3, 600)).toBe(false)
    // Paused: the 10 s tick has nothing new to say.
    advance(SAVE_INTERVAL_MS)
    expect(saver.progress(42.3, 600)).toBe(false)
    expect(saver.flush(100, 600)).toBe(true)
    await saver.settled()
    expect(saves.map(([position]) => position)).toEqual([42.123, 100])
  })

  it('a flush restarts the 10 s interval', () => {
    const { saver, advance } = aSaver()
    advance(SAVE_INTERVAL_MS - 1000)
    saver.flush(30, 600)
    advance(1000)
    expect(saver.progress(31, 600)).toBe(false)
    advance(SAVE_INTERVAL_MS)
    expect(saver.progress(41, 600)).toBe(true)
  })

  it('sends saves one after another, dropping one a newer position overtook while it waited', async () => {
    const sent: [number, boolean][] = []
    let release!: () => void
    const slow = new Promise<void>((resolve) => (release = resolve))
    const saver = new PlaybackSaver({
      now: () => 0,
      save: async (position, _duration, { keepalive }) => {
        sent.push([position, keepalive])
        if (position === 10) await slow
      },
    })
    saver.flush(10)
    await Promise.resolve()
    // 10 is on its way; 20 and then 30 wait behind it, and 30 makes 20 stale.
    saver.flush(20)
    saver.flush(30)
    await Promise.resolve()
    expect(sent).toEqual([[10, false]])
    release()
    await saver.settled()
    expect(sent).toEqual([
      [10, false],
      [30, false],
    ])
  })

  it('sends a keepalive save at once, and what waited behind a slow save is then stale', async () => {
    const sent: [number, boolean][] = []
    let release!: () => void
    const slow = new Promise<void>((resolve) => (release = resolve))
    const saver = new PlaybackSaver({
      now: () => 0,
      save: async (position, _duration, { keepalive }) => {
        sent.push([position, keepalive])
        if (!keepalive) await slow
      },
    })
    saver.flush(10)
    await Promise.resolve()
    saver.flush(20)
    saver.flush(25, 600, { keepalive: true })
    expect(sent).toEqual([
      [10, false],
      [25, true],
    ])
    release()
    await saver.settled()
    expect(sent).toHaveLength(2)
  })

  it('saves 0 when the video ends, and tries a position again after a failed save', async () => {
    const { saver, saves, save } = aSaver()
    save.mockRejectedValueOnce(new Error('offline'))
    saver.flush(300, 600)
    await saver.settled()
    expect(saver.flush(300, 600)).toBe(true)
    await saver.settled()
    expect(saver.finished(600)).toBe(true)
    await saver.settled()
    expect(saves.map(([position]) => position)).toEqual([300, 0])
    expect(save).toHaveBeenCalledTimes(3)
  })

  it('leaves out a duration it does not know, and ignores an impossible position', async () => {
    const { saver, saves } = aSaver()
    expect(saver.flush(Number.NaN)).toBe(false)
    expect(saver.flush(-1)).toBe(false)
    saver.flush(12, Number.POSITIVE_INFINITY)
    await saver.settled()
    expect(saves).toEqual([[12, undefined, { keepalive: false }]])
  })
})
