import { AppError, DriveErrors } from '@cumulus/protocol'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkName } from './names.js'

const reasonOf = (raw: unknown): string | null => {
  try {
    checkName(raw)
    return null
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    return error.entry.reason
  }
}

const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069']

describe('checkName', () => {
  it('refuses bidirectional overrides and isolates, which disguise an extension (issue 11)', () => {
    for (const mark of BIDI) expect(reasonOf(`invoice${mark}fdp.exe`)).toBe(DriveErrors.file_name_invalid.reason)
  })

  it('refuses C0 and C1 control characters and DEL', () => {
    for (const code of [0x00, 0x09, 0x0a, 0x1f, 0x7f, 0x80, 0x85, 0x9f]) expect(reasonOf(`a${String.fromCharCode(code)}b`)).toBe(DriveErrors.file_name_invalid.reason)
  })

  it('keeps names that only look unusual: right-to-left text, emoji, joiners', () => {
    for (const name of ['שלום.txt', 'مرحبا', '👩‍👩‍👧 photos', 'a\u200db', 'Ⅻ.md']) expect(checkName(name)).toBe(name)
  })

  it('NFC-normalizes, so a decomposed and a composed name are the same name', () => {
    expect(checkName('cafe\u0301')).toBe('caf\u00e9')
  })

  it('either accepts a name as a clean NFC string or refuses it with a catalogue reason', () => {
    const reasons = new Set<string>([DriveErrors.file_name_empty.reason, DriveErrors.file_name_invalid.reason, DriveErrors.file_name_too_long.reason])
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.constantFrom(...BIDI).map((m) => `x${m}y`)), (raw) => {
        const reason = reasonOf(raw)
        if (reason !== null) return reasons.has(reason)
        const name = checkName(raw)
        return name === name.normalize('NFC') && !/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069/]/.test(name) && name.trim() === name
      }),
      { numRuns: 500 },
    )
  })
})
