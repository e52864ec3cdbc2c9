import { AppError, GenericErrors } from '@cumulus/protocol'
import { describe, expect, it } from 'vitest'
import { parseOfflineUrl, sanitizeName } from './offline-url.js'

const thunder = (inner: string) => `thunder://${Buffer.from(`AA${inner}ZZ`).toString('base64')}`

describe('parseOfflineUrl', () => {
  it('names the download after what each kind of link carries', () => {
    const cases: [string, string][] = [
      ['https://example.com/films/Big%20Buck%20Bunny.mp4?token=1#t=3', 'Big Buck Bunny.mp4'],
      ['http://example.com/', 'example.com'],
      ['ftp://files.example.org/pub/a.iso', 'a.iso'],
      ['magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567&dn=Ubuntu+24.04&tr=udp%3A%2F%2Ft', 'Ubuntu 24.04'],
      ['magnet:?xt=urn:btih:0123456789ABCDEF0123456789ABCDEF01234567', '0123456789ABCDEF0123456789ABCDEF01234567'],
      ['ed2k://|file|My%20File.avi|1048576|0123456789ABCDEF0123456789ABCDEF|/', 'My File.avi'],
      [thunder('https://example.com/x/inner.zip'), 'inner.zip'],
      // A name that would be refused is made acceptable, not refused.
      ['https://example.com/a%2Fb%00c', 'a_b_c'],
      ['https://example.com/..', 'example.com'],
    ]
    for (const [url, name] of cases) expect(parseOfflineUrl(url), url).toEqual({ url, name })
  })

  it('refuses anything that is not a link it can fetch', () => {
    const bad: unknown[] = [undefined, 42, '', '   ', 'javascript:alert(1)', 'file:///etc/passwd', 'data:text/plain,hi', 'not a url', 'https://', 'ed2k://|server|1.2.3.4|4661|/',
      thunder(thunder('https://example.com/a')), 'thunder://bm90IHdyYXBwZWQ=', `https://example.com/${'a'.repeat(9000)}`, 'https://example.com/\u0000']
    for (const url of bad) {
      let error: unknown
      try {
        parseOfflineUrl(url)
      } catch (e) {
        error = e
      }
      expect(error, String(url).slice(0, 40)).toBeInstanceOf(AppError)
      expect((error as AppError).entry).toBe(GenericErrors.invalid_argument)
    }
  })
})

describe('sanitizeName', () => {
  it('keeps names within 255 bytes on a character boundary', () => {
    const name = sanitizeName('é'.repeat(200))
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255)
    expect(name).toBe('é'.repeat(127))
    expect(sanitizeName('  ')).toBe('download')
  })
})
