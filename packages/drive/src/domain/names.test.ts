import { AppError, DriveErrors } from '@cumulus/protocol'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkName, freeName, freeNames } from './names.js'

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

describe('freeNames', () => {
  const lookups = (taken: Set<string>) => {
    const calls: string[][] = []
    return { calls, taken: async (candidates: string[]) => (calls.push(candidates), new Set(candidates.filter((c) => taken.has(c)))) }
  }

  it('names a whole batch with one lookup when nothing clashes', async () => {
    const l = lookups(new Set())
    expect(await freeNames(['a.txt', 'b', 'c.tar.gz'].map((name) => ({ name, isFolder: name === 'b' })), l.taken)).toEqual(['a.txt', 'b', 'c.tar.gz'])
    expect(l.calls).toHaveLength(1)
  })

  it('gives clashes suffixes, in order, counting the names given earlier in the batch', async () => {
    const l = lookups(new Set(['a.txt', 'a(1).txt', 'dir']))
    const names = await freeNames([{ name: 'a.txt', isFolder: false }, { name: 'a.txt', isFolder: false }, { name: 'dir', isFolder: true }, { name: 'new', isFolder: true }, { name: 'new', isFolder: true }], l.taken)
    expect(names).toEqual(['a(2).txt', 'a(3).txt', 'dir(1)', 'new', 'new(1)'])
    expect(l.calls).toHaveLength(2)
  })

  it('agrees with freeName for one item, and never gives a taken or repeated name (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('a', 'a.txt', 'b', 'a(1)', 'a(1).txt', 'x.y.z'), { maxLength: 30 }), fc.uniqueArray(fc.constantFrom('a', 'a.txt', 'a(1)', 'a(2)', 'a(1).txt', 'b', 'b(1)', 'x.y.z', 'x.y(1).z'), { maxLength: 9 }), async (wanted, existing) => {
        const taken = new Set<string>(existing)
        const names = await freeNames(wanted.map((name) => ({ name, isFolder: false })), lookups(taken).taken)
        expect(new Set(names).size).toBe(names.length)
        for (const name of names) expect(taken.has(name)).toBe(false)
        if (wanted.length === 1) expect(names[0]).toBe(await freeName(wanted[0]!, lookups(taken).taken, false))
      }),
    )
  })

  it('goes past the first 50 suffixes when a folder holds them all', async () => {
    const taken = new Set(['a', ...Array.from({ length: 60 }, (_, n) => `a(${n + 1})`)])
    expect(await freeNames([{ name: 'a', isFolder: true }], lookups(taken).taken)).toEqual(['a(61)'])
  })
})
