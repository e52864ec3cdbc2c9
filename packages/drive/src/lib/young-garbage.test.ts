import { once } from 'node:events'
import { PerformanceObserver, constants } from 'node:perf_hooks'
import { runInNewContext } from 'node:vm'
import { Worker } from 'node:worker_threads'
import { setTimeout as sleep } from 'node:timers/promises'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createYoungGarbage, processYoungGarbage, v8MinorCollection } from './young-garbage.js'

describe('createYoungGarbage', () => {
  it('collects once each time the bytes added since the last collection reach the threshold', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3000 }), { maxLength: 200 }), fc.integer({ min: 1, max: 5000 }), (adds, everyBytes) => {
        let collections = 0
        const garbage = createYoungGarbage(() => collections++, everyBytes)
        let pending = 0
        let expected = 0
        for (const bytes of adds) {
          garbage.add(bytes)
          pending += bytes
          if (pending >= everyBytes) {
            expected++
            pending = 0
          }
          expect(collections).toBe(expected)
        }
      }),
    )
  })

  it('only counts when the runtime gave no collection', () => {
    expect(() => createYoungGarbage(null, 1).add(10)).not.toThrow()
  })
})

describe('v8MinorCollection', () => {
  it("runs a forced minor collection that frees dropped buffers, without giving the application's global scope a gc", async () => {
    const collect = v8MinorCollection()
    expect(collect).toBeTypeOf('function')
    expect('gc' in globalThis).toBe(false)
    // Nor does any context or thread made afterwards.
    expect(runInNewContext('typeof gc')).toBe('undefined')
    const worker = new Worker('require("node:worker_threads").parentPort.postMessage(typeof gc)', { eval: true })
    expect(await once(worker, 'message')).toEqual(['undefined'])
    await worker.terminate()
    const forcedMinor: number[] = []
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const { kind, flags } = (entry as PerformanceEntry & { detail: unknown }).detail as { kind: number; flags: number }
        if (kind === constants.NODE_PERFORMANCE_GC_MINOR && (flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0) forcedMinor.push(entry.startTime)
      }
    })
    observer.observe({ entryTypes: ['gc'] })
    try {
      // 16 MiB of 64 KiB buffers, as a download's chunks, dropped at once.
      const before = process.memoryUsage().arrayBuffers
      let chunks: Buffer[] | null = Array.from({ length: 256 }, () => Buffer.alloc(64 * 1024, 1))
      expect(process.memoryUsage().arrayBuffers - before).toBeGreaterThanOrEqual(16 * 1024 * 1024)
      expect(chunks.length).toBe(256)
      chunks = null
      collect?.()
      // V8's sweeper thread releases the buffers' memory just after the collection.
      const until = Date.now() + 2000
      while (Date.now() < until && (forcedMinor.length === 0 || process.memoryUsage().arrayBuffers - before > 8 * 1024 * 1024)) await sleep(5)
      // Only a gc() call is "forced": V8's own collections do not count here.
      expect(forcedMinor).toHaveLength(1)
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * 1024 * 1024)
    } finally {
      observer.disconnect()
    }
  })

  it('is one counter for the whole process', () => {
    expect(processYoungGarbage()).toBe(processYoungGarbage())
  })
})
