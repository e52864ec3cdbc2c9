import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { signLink, verifyLink } from './signed-link.js'

const SECRET = 'a-test-secret-that-is-long-enough-123'
const FILE = { fileId: 'VN1a2b3c', gcid: 'DA39A3EE5E6B4B0D3255BFEF95601890AFD80709' }

describe('signed download links', () => {
  it('work up to and including their expiry second, not after', () => {
    const params = signLink(SECRET, { ...FILE, expiresAtSeconds: 1_000 })
    expect(verifyLink(SECRET, FILE, params, 1_000)).toEqual({ ok: true })
    expect(verifyLink(SECRET, FILE, params, 1_001)).toEqual({ ok: false, reason: 'expired' })
  })

  it('stop working when the file, its content, the expiry or the secret differ', () => {
    const params = signLink(SECRET, { ...FILE, expiresAtSeconds: 2_000 })
    expect(verifyLink(SECRET, { ...FILE, fileId: 'other' }, params, 0)).toEqual({ ok: false, reason: 'bad_signature' })
    expect(verifyLink(SECRET, { ...FILE, gcid: '0'.repeat(40) }, params, 0)).toEqual({ ok: false, reason: 'bad_signature' })
    expect(verifyLink(SECRET, FILE, { ...params, e: '9999999999' }, 0)).toEqual({ ok: false, reason: 'bad_signature' })
    expect(verifyLink(`${SECRET}x`, FILE, params, 0)).toEqual({ ok: false, reason: 'bad_signature' })
  })

  it('refuse anything malformed without throwing', () => {
    fc.assert(
      fc.property(fc.record({ e: fc.option(fc.string(), { nil: undefined }), s: fc.option(fc.string(), { nil: undefined }) }), (params) => {
        expect(verifyLink(SECRET, FILE, params, 0).ok).toBe(false)
      }),
    )
  })
})
