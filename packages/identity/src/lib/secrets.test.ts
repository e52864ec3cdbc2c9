import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hashSecret, randomId, randomSecret } from './secrets.js'

describe('secrets', () => {
  it('hands out every pooled random byte once: ids never repeat, across many pool refills', () => {
    const seen = new Set<string>()
    // 40,000 × 32 bytes is over 300 refills of the 4 KiB pool, with draws of odd sizes between.
    for (let i = 0; i < 40_000; i++) {
      const secret = randomSecret()
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
      seen.add(secret)
      seen.add(randomId(1 + (i % 17)))
    }
    // Short ids (1-2 bytes) may collide by chance; 32-byte secrets never do.
    const secrets = [...seen].filter((s) => s.length === 43)
    expect(secrets.length).toBe(40_000)
  })

  it('ids carry the bytes asked for, beyond the pool size too', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9000 }), (bytes) => {
        expect(Buffer.from(randomId(bytes), 'base64url').length).toBe(bytes)
      }),
      { numRuns: 200 },
    )
  })

  it('no draw is all zeros (a consumed region is wiped; a copy must be taken before that)', () => {
    for (let i = 0; i < 2_000; i++) expect(Buffer.from(randomId(16), 'base64url').equals(Buffer.alloc(16))).toBe(false)
  })

  it('hashSecret is SHA-256 in base64url, as tokens are stored', () => {
    fc.assert(fc.property(fc.string(), (s) => hashSecret(s) === createHash('sha256').update(s).digest('base64url')))
  })
})
