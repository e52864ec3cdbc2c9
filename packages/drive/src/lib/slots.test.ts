import { setTimeout as sleep } from 'node:timers/promises'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Slots } from './slots.js'

describe('Slots', () => {
  it('never runs more than its size at once, runs every piece, and in the order they came', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 20 }), async (size, pauses) => {
        const slots = new Slots(size)
        let running = 0
        let most = 0
        const started: number[] = []
        const results = await Promise.all(
          pauses.map((pause, i) =>
            slots.run(async () => {
              started.push(i)
              running++
              most = Math.max(most, running)
              await sleep(pause)
              running--
              if (i % 5 === 4) throw new Error(`piece ${i}`)
              return i
            }).catch((err: Error) => err.message),
          ),
        )
        expect(most).toBeLessThanOrEqual(size)
        expect(started).toEqual(pauses.map((_, i) => i))
        expect(results).toEqual(pauses.map((_, i) => (i % 5 === 4 ? `piece ${i}` : i)))
      }),
      { numRuns: 50 },
    )
  })
})
