import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { GCID_MAX_BLOCK_BYTES, GCID_MIN_BLOCK_BYTES, GcidHasher, gcidBlockSize, gcidOf } from './gcid.js'

/** The definition read literally: split into blocks, hash each, hash the digests. */
function referenceGcid(content: Buffer): string {
  const block = gcidBlockSize(content.byteLength)
  const outer = createHash('sha1')
  for (let at = 0; at < content.byteLength; at += block) outer.update(createHash('sha1').update(content.subarray(at, at + block)).digest())
  return outer.digest('hex').toUpperCase()
}

describe('gcidBlockSize', () => {
  it('starts at 256 KiB and doubles while there would be more than 512 blocks, up to 2 MiB', () => {
    expect(gcidBlockSize(0)).toBe(GCID_MIN_BLOCK_BYTES)
    expect(gcidBlockSize(512 * GCID_MIN_BLOCK_BYTES)).toBe(GCID_MIN_BLOCK_BYTES)
    expect(gcidBlockSize(512 * GCID_MIN_BLOCK_BYTES + 1)).toBe(2 * GCID_MIN_BLOCK_BYTES)
    expect(gcidBlockSize(50 * 1024 ** 3)).toBe(GCID_MAX_BLOCK_BYTES)
  })
})

describe('GCID', () => {
  it('of empty content is the SHA-1 of nothing', () => {
    expect(gcidOf(Buffer.alloc(0))).toBe('DA39A3EE5E6B4B0D3255BFEF95601890AFD80709')
  })

  it('spans several blocks like the definition says', () => {
    const content = Buffer.alloc(GCID_MIN_BLOCK_BYTES * 2 + 17, 7)
    expect(gcidOf(content)).toBe(referenceGcid(content))
    expect(gcidOf(content)).toMatch(/^[0-9A-F]{40}$/)
  })

  it('does not depend on how the content is chunked', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3 * 1024 }), fc.array(fc.nat({ max: 4096 }), { maxLength: 8 }), (bytes, cuts) => {
        const content = Buffer.from(bytes)
        const hasher = new GcidHasher(content.byteLength)
        let at = 0
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          const end = Math.min(cut, content.byteLength)
          if (end > at) hasher.update(content.subarray(at, end))
          at = Math.max(at, end)
        }
        hasher.update(content.subarray(at))
        expect(hasher.digest()).toBe(referenceGcid(content))
      }),
    )
  })

  it('refuses content shorter or longer than announced', () => {
    expect(() => new GcidHasher(3).update(Buffer.from('ab')).digest()).toThrow(/expected 3 bytes, got 2/)
  })
})
