import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs'
import { open, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { bitfieldOf } from '../../../../../test-support/aria2-bitfield.js'
import { gcidOf } from '../../blobs/gcid.js'
import { EarlyGcids } from './early-gcids.js'
import { finishedRanges } from './torrent/aria2-torrent-engine.js'

const dir = mkdtempSync(join(tmpdir(), 'early-gcids-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0

describe('EarlyGcids', () => {
  it('gives the GCID of the whole file however its pieces arrived and were offered, a pass running or not', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Up to five GCID blocks (256 KiB each at these sizes), pieces smaller and larger than a block.
        fc.integer({ min: 0, max: 1_300_000 }),
        fc.integer({ min: 16 * 1024, max: 400 * 1024 }),
        fc.infiniteStream(fc.double({ min: 0, max: 1, noNaN: true })),
        fc.infiniteStream(fc.constantFrom('offer', 'offer and wait', 'skip')),
        async (sizeBytes, pieceBytes, order, steps) => {
          const content = randomBytes(sizeBytes)
          const localPath = join(dir, `file-${++files}`)
          const handle = await open(localPath, 'w')
          const pieces = Math.ceil(sizeBytes / pieceBytes)
          // The pieces in a random order, as a swarm delivers them; each written, then reported.
          const arrival = Array.from({ length: pieces }, (_, piece) => ({ piece, key: order.next().value as number })).sort((a, b) => a.key - b.key)
          const have = new Array<boolean>(pieces).fill(false)
          const early = new EarlyGcids()
          try {
            for (const { piece } of arrival) {
              const start = piece * pieceBytes
              await handle.write(content, start, Math.min(pieceBytes, sizeBytes - start), start)
              have[piece] = true
              const step = steps.next().value
              if (step === 'skip') continue
              early.offer([{ index: 1, sizeBytes, localPath, finished: finishedRanges(bitfieldOf(have), pieceBytes, 0, sizeBytes) }])
              if (step === 'offer and wait') await new Promise((resolve) => setTimeout(resolve, 1))
            }
          } finally {
            await handle.close()
          }
          const gcids = await early.finish([{ index: 1, path: ['f'], sizeBytes, localPath }])
          expect(gcids.get(1)).toBe(gcidOf(content))
        },
      ),
      { numRuns: 40 },
    )
  })

  it('hashes at the end what it could not read early, and fails when a file is short', async () => {
    const content = randomBytes(700_000)
    const localPath = join(dir, 'late')
    const early = new EarlyGcids()
    // Reported finished before the file exists: the early reads fail and are left to finish().
    early.offer([{ index: 7, sizeBytes: content.length, localPath, finished: [[0, content.length]] }])
    await new Promise((resolve) => setTimeout(resolve, 20))
    await writeFile(localPath, content)
    expect((await early.finish([{ index: 7, path: ['late'], sizeBytes: content.length, localPath }])).get(7)).toBe(gcidOf(content))

    const short = join(dir, 'short')
    await writeFile(short, content.subarray(0, 600_000))
    await expect(new EarlyGcids().finish([{ index: 1, path: ['short'], sizeBytes: content.length, localPath: short }])).rejects.toThrow(/ends at 600000 bytes/)
  })

  it('keeps no file open between passes, after close(), or after finish()', async () => {
    const opened = () => readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir)
      } catch {
        return false
      }
    }).length
    const many = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const content = randomBytes(300_000 + i)
        const localPath = join(dir, `many-${i}`)
        await writeFile(localPath, content)
        return { index: i + 1, path: [`many-${i}`], sizeBytes: content.length, localPath, content }
      }),
    )
    const early = new EarlyGcids()
    early.offer(many.map(({ index, sizeBytes, localPath }) => ({ index, sizeBytes, localPath, finished: [[0, sizeBytes]] as Array<[number, number]> })))
    // Half of each file offered again while the first pass may still run.
    early.offer(many.map(({ index, sizeBytes, localPath }) => ({ index, sizeBytes, localPath, finished: [[0, Math.floor(sizeBytes / 2)]] as Array<[number, number]> })))
    let most = 0
    for (let i = 0; i < 50; i++) {
      most = Math.max(most, opened())
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
    expect(most).toBeLessThanOrEqual(1)
    const gcids = await early.finish(many)
    for (const file of many) expect(gcids.get(file.index)).toBe(gcidOf(file.content))
    expect(opened()).toBe(0)

    const closing = new EarlyGcids()
    closing.offer(many.map(({ index, sizeBytes, localPath }) => ({ index, sizeBytes, localPath, finished: [[0, sizeBytes]] as Array<[number, number]> })))
    await closing.close()
    expect(opened()).toBe(0)
    // Offers after close() start nothing.
    closing.offer(many.map(({ index, sizeBytes, localPath }) => ({ index, sizeBytes, localPath, finished: [[0, sizeBytes]] as Array<[number, number]> })))
    expect(opened()).toBe(0)
  })

  it('gives the GCID of an empty file', async () => {
    const localPath = join(dir, 'empty')
    await writeFile(localPath, '')
    expect((await new EarlyGcids().finish([{ index: 2, path: ['empty'], sizeBytes: 0, localPath }])).get(2)).toBe(gcidOf(new Uint8Array(0)))
  })
})
