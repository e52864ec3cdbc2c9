import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { forgetSentCode, keepSentCode, keptSentCode, parseKept } from './kept-code'

const NOW = Date.parse('2026-11-27T12:00:00Z')
const code = { address: 'ann@example.com', verificationId: 'v-1', expiresAtMs: NOW + 600_000, resendAtMs: NOW + 60_000 }

describe('kept sent codes', () => {
  it('keeps a code per use until it expires or is forgotten', () => {
    window.sessionStorage.clear()
    keepSentCode('REGISTER', 'email', code)
    expect(keptSentCode('REGISTER', NOW)).toEqual({ kind: 'email', code })
    expect(keptSentCode('SIGN_IN', NOW)).toBeNull()
    // Expired: not offered, and dropped.
    expect(keptSentCode('REGISTER', code.expiresAtMs)).toBeNull()
    expect(window.sessionStorage.length).toBe(0)
    keepSentCode('REGISTER', 'email', code)
    forgetSentCode('REGISTER')
    expect(keptSentCode('REGISTER', NOW)).toBeNull()
  })

  it('believes nothing stored that keepSentCode would not have written', () => {
    for (const raw of ['', 'null', '[]', '{"kind":"fax","code":{}}', JSON.stringify({ kind: 'email', code: { ...code, verificationId: '' } }), JSON.stringify({ kind: 'email', code: { ...code, expiresAtMs: NOW + 400 * 86_400_000 } }), JSON.stringify({ kind: 'phone', code: { ...code, resendAtMs: 'soon' } })]) {
      expect(parseKept(raw, NOW)).toBeNull()
    }
    // A resend time past the code's own end is cut to it.
    expect(parseKept(JSON.stringify({ kind: 'email', code: { ...code, resendAtMs: code.expiresAtMs + 1 } }), NOW)?.code.resendAtMs).toBe(code.expiresAtMs)
  })

  it('never throws, and returns a live code or null, whatever the storage holds', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.record({ kind: fc.constantFrom('email', 'phone', 'x'), code: fc.record({ address: fc.string(), verificationId: fc.string(), expiresAtMs: fc.double(), resendAtMs: fc.double() }) }).map((v) => JSON.stringify(v))), (raw) => {
        const kept = parseKept(raw, NOW)
        if (kept) {
          expect(kept.code.expiresAtMs).toBeGreaterThan(NOW)
          expect(kept.code.address).not.toBe('')
          expect(kept.code.resendAtMs).toBeLessThanOrEqual(kept.code.expiresAtMs)
        }
      }),
    )
  })
})
