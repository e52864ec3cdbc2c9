import { DRIVE_NAME_MAX_BYTES } from '@cumulus/protocol'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkName } from '../../domain/index.js'
import { entryPath, entrySegments } from './entry-path.js'

describe('entrySegments', () => {
  it.each([
    ['../evil.txt', ['evil.txt']],
    ['a/../../evil.txt', ['a', 'evil.txt']],
    ['/etc/passwd', ['etc', 'passwd']],
    ['C:\\Windows\\evil.txt', ['Windows', 'evil.txt']],
    ['dir\\sub\\file.txt', ['dir', 'sub', 'file.txt']],
    ['./a//b/./c', ['a', 'b', 'c']],
    ['nul\u0000ctl\u0001.txt', ['nulctl.txt']],
    ['exe\u202Etxt.exe', ['exetxt.exe']],
    ['cafe\u0301.txt', ['café.txt']],
    ['C:', null],
    ['../..', null],
    ['', null],
  ])('%j lands at %j', (raw, expected) => {
    expect(entrySegments(raw)).toEqual(expected)
  })

  it('keeps a drive letter that is not the first segment as an ordinary name', () => {
    expect(entryPath('a/C:/b')).toBe('a/C:/b')
  })

  it('cuts a long segment to the drive name limit without splitting a character', () => {
    const [segment] = entrySegments('中'.repeat(200))!
    expect(Buffer.byteLength(segment!, 'utf8')).toBeLessThanOrEqual(DRIVE_NAME_MAX_BYTES)
    expect(segment).toBe('中'.repeat(Math.floor(DRIVE_NAME_MAX_BYTES / 3)))
  })

  it('never yields a segment that climbs, is empty, or that the drive would refuse (property)', () => {
    const hostile = fc.constantFrom('..', '.', '', '/', '\\', 'C:', '\u0000', '\u202e', '\u2066', '\u0085', ' ', 'a', '中', 'é', 'e\u0301', '%2e%2e', '\uff0f')
    fc.assert(
      fc.property(fc.array(fc.oneof(hostile, fc.string({ unit: 'grapheme', maxLength: 8 })), { maxLength: 12 }), (parts) => {
        const segments = entrySegments(parts.join(''))
        if (segments === null) return
        for (const segment of segments) {
          expect(segment).not.toBe('..')
          expect(segment).not.toBe('.')
          expect(segment).not.toMatch(/[/\\]/)
          expect(checkName(segment)).toBe(segment)
        }
      }),
      { numRuns: 500 },
    )
  })
})
