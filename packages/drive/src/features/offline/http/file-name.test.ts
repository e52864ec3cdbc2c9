import { DRIVE_NAME_MAX_BYTES } from '@cumulus/protocol'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkName } from '../../../domain/index.js'
import { contentDispositionFileName, downloadFileName, FALLBACK_FILE_NAME, sanitizeFileName } from './file-name.js'
import { mediaTypeOf } from './media-type.js'

/** Header values as Node hands them over: one Latin-1 character per byte. */
const asHeader = (text: string) => Buffer.from(text, 'utf8').toString('latin1')

describe('contentDispositionFileName', () => {
  it('prefers filename* (RFC 8187), then filename, and keeps only the last path component', () => {
    const cases: [string | undefined, string | null][] = [
      [`attachment; filename="plain.txt"; filename*=UTF-8''%E2%82%AC%20rates.txt`, '€ rates.txt'],
      [`attachment; filename*=utf-8'en'%E4%B8%AD%E6%96%87.pdf`, '中文.pdf'],
      [`attachment; filename*=iso-8859-1''caf%E9.txt`, 'café.txt'],
      [`attachment; filename="a \\"quoted\\" name.zip"`, 'a "quoted" name.zip'],
      ['attachment; filename=token.bin', 'token.bin'],
      ['inline;filename = spaced.txt ', 'spaced.txt'],
      [asHeader('attachment; filename="résumé.pdf"'), 'résumé.pdf'],
      ['attachment; filename="C:\\Users\\x\\evil.exe"', 'evil.exe'],
      ['attachment; filename="../../etc/passwd"', 'passwd'],
      // A broken filename* falls back to filename; an unknown charset too.
      [`attachment; filename*=UTF-8''%ZZ; filename="fallback.txt"`, 'fallback.txt'],
      [`attachment; filename*=koi8-r''%C1; filename="fallback.txt"`, 'fallback.txt'],
      // The first of two names wins.
      ['attachment; filename="first.txt"; filename="second.txt"', 'first.txt'],
      ['attachment', null],
      ['attachment; filename=""', null],
      ['attachment; filename="dir/"', null],
      [undefined, null],
    ]
    for (const [header, name] of cases) expect(contentDispositionFileName(header), String(header)).toBe(name)
  })
})

describe('downloadFileName', () => {
  const url = (href: string) => new URL(href)

  it('takes the header, then the last path segment, then the host', () => {
    expect(downloadFileName({ contentDisposition: 'attachment; filename="report.pdf"', url: url('https://example.com/download?id=1') })).toBe('report.pdf')
    expect(downloadFileName({ contentDisposition: undefined, url: url('https://example.com/films/Big%20Buck%20Bunny.mp4?t=1') })).toBe('Big Buck Bunny.mp4')
    expect(downloadFileName({ contentDisposition: undefined, url: url('https://example.com/dir/') })).toBe('dir')
    expect(downloadFileName({ contentDisposition: 'attachment', url: url('https://example.com/') })).toBe('example.com')
    expect(downloadFileName({ contentDisposition: undefined, url: url('https://example.com./') })).toBe('example.com')
    expect(downloadFileName({ contentDisposition: undefined, url: url('http://[2001:db8::1]/') })).toBe('2001:db8::1')
    expect(downloadFileName({ contentDisposition: undefined, url: url('https://example.com/a%2Fb%00c') })).toBe('a_bc')
    // A segment that sanitises to nothing says less than the host.
    expect(downloadFileName({ contentDisposition: undefined, url: url('https://example.com/%E2%80%AE/') })).toBe('example.com')
    expect(downloadFileName({ contentDisposition: 'attachment; filename="\u202e"', url: url('https://example.com/x.bin') })).toBe('x.bin')
  })
})

describe('sanitizeFileName', () => {
  it('makes names the drive accepts without losing what is readable', () => {
    const cases: [string, string][] = [
      ['  report.pdf  ', 'report.pdf'],
      ['a/b\\c', 'a_b_c'],
      ['photo\u202egpj.exe', 'photogpj.exe'],
      ['\u2066x\u2069\u200e\u200f\u061c.txt', 'x.txt'],
      ['tab\there\n', 'tabhere'],
      ['e\u0301t\u00e9', '\u00e9t\u00e9'],
      ['', FALLBACK_FILE_NAME],
      ['.', FALLBACK_FILE_NAME],
      ['..', FALLBACK_FILE_NAME],
      ['\u0000\u202e ', FALLBACK_FILE_NAME],
      ['\ud800broken', '\ufffdbroken'],
    ]
    for (const [raw, name] of cases) expect(sanitizeFileName(raw), JSON.stringify(raw)).toBe(name)
  })

  it('cuts long names to 255 bytes on a character boundary, keeping a short extension', () => {
    const long = `${'長'.repeat(200)}.mp4`
    const name = sanitizeFileName(long)
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(DRIVE_NAME_MAX_BYTES)
    expect(name).toBe(`${'長'.repeat(83)}.mp4`)
    expect(sanitizeFileName('x'.repeat(300))).toBe('x'.repeat(255))
    expect(sanitizeFileName(`a.${'e'.repeat(300)}`)).toBe(`a.${'e'.repeat(253)}`)
  })

  it('always yields a name checkName accepts as it is, and is idempotent', () => {
    const anyText = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 400 }),
      fc.string({ unit: fc.constantFrom('/', '\\', '.', ' ', '\u202e', '\u0000', '\u0085', 'e', '\u0301', '長', '😀', '\ud800', '\udc00'), maxLength: 300 }),
    )
    fc.assert(
      fc.property(anyText, (raw) => {
        const name = sanitizeFileName(raw)
        expect(checkName(name)).toBe(name)
        expect(name).not.toMatch(/[/\\\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/)
        expect(name).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/)
        expect(sanitizeFileName(name)).toBe(name)
      }),
      { numRuns: 300 },
    )
  })
})

describe('mediaTypeOf', () => {
  it('keeps a well-formed type without parameters, lower-cased; nothing else', () => {
    const cases: [string | undefined, string | null][] = [
      ['text/plain; charset=utf-8', 'text/plain'],
      ['Application/Vnd.MS-Excel', 'application/vnd.ms-excel'],
      ['image/svg+xml', 'image/svg+xml'],
      ['text/html\r\nx: y', null],
      ['text', null],
      ['text/<script>', null],
      ['', null],
      [undefined, null],
    ]
    for (const [header, type] of cases) expect(mediaTypeOf(header), String(header)).toBe(type)
  })
})
