import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bitfieldOf } from '../../../../../../test-support/aria2-bitfield.js'
import { finishedRanges } from './aria2-torrent-engine.js'
import { everyByteFinished } from './torrent-engine.js'

describe('finishedRanges', () => {
  it('covers exactly the bytes of the file that lie in finished pieces, as sorted, merged ranges', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 0, max: 2000 }),
        (pieceBytes, have, offsetSeed, lengthSeed) => {
          const dataBytes = pieceBytes * have.length
          const offset = offsetSeed % dataBytes
          const length = lengthSeed % (dataBytes - offset + 1)
          const ranges = finishedRanges(bitfieldOf(have), pieceBytes, offset, length)
          // Byte by byte: in a range exactly when its piece is finished.
          const inRanges = (byte: number) => ranges.some(([start, end]) => start <= byte && byte < end)
          for (let byte = 0; byte < length; byte++) expect(inRanges(byte)).toBe(have[Math.floor((offset + byte) / pieceBytes)] === true)
          for (let i = 0; i < ranges.length; i++) {
            const [start, end] = ranges[i]!
            expect(start).toBeLessThan(end)
            // Merged: a gap between any two ranges.
            if (i > 0) expect(start).toBeGreaterThan(ranges[i - 1]![1])
          }
          // An empty file has no piece to show it there: never finished from the bitfield alone.
          expect(everyByteFinished([{ index: 1, sizeBytes: length, localPath: '/x', finished: ranges }])).toBe(length > 0 && have.slice(Math.floor(offset / pieceBytes), Math.floor((offset + length - 1) / pieceBytes) + 1).every(Boolean))
        },
      ),
    )
  })

  it('counts an empty file finished only once it is reported there', () => {
    expect(everyByteFinished([{ index: 1, sizeBytes: 0, localPath: '/x', finished: [] }])).toBe(false)
    expect(everyByteFinished([{ index: 1, sizeBytes: 0, localPath: '/x', finished: [[0, 0]] }])).toBe(true)
  })

  it('reads a missing or garbled bitfield as nothing finished', () => {
    expect(finishedRanges('', 16, 0, 100)).toEqual([])
    expect(finishedRanges('zz', 16, 0, 100)).toEqual([])
    expect(finishedRanges('f', 0, 0, 100)).toEqual([])
  })
})
